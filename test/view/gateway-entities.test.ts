// The gateway's store of each entity's newest PDUs (src/view/gateway-entities.ts) against a Map of copies: full PDUs
// and updates of every length (past their 144- and 72-byte places too), updates dropped by a newer full PDU, the
// newest location, and slots taken again only after the tick that gave them up.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GatewayEntities, type StoredPdu } from '../../src/view/gateway-entities.js';

interface Held {
  slot: number;
  full: Uint8Array;
  fullTimeMs: number;
  update: Uint8Array | null;
  updateTimeMs: number;
}

/** A PDU of `length` bytes whose every byte tells entity, time and place apart; location doubles at `at`. */
function pdu(length: number, seed: number, locationAt: number, location: readonly number[]): Uint8Array {
  const bytes = new Uint8Array(length);
  for (let i = 0; i < length; i++) bytes[i] = (seed * 31 + i * 7) & 0xff;
  const view = new DataView(bytes.buffer);
  location.forEach((x, k) => view.setFloat64(locationAt + 8 * k, x, false));
  return bytes;
}

const stored = (p: StoredPdu): number[] => [...p.bytes.subarray(p.offset, p.offset + p.length)];

describe('GatewayEntities', () => {
  it('keeps what a Map of copies keeps, whatever the lengths and the order of adds, updates and drops', () => {
    const op = fc.record({
      kind: fc.constantFrom('full', 'full', 'update', 'drop', 'tick'),
      entity: fc.integer({ min: 0, max: 11 }),
      // Without variable parameters, or with up to 6 of them (16 bytes each): past the 144 / 72-byte places.
      parameters: fc.constantFrom(0, 0, 0, 1, 6),
      x: fc.double({ min: -7e6, max: 7e6, noNaN: true }),
    });
    fc.assert(
      fc.property(fc.array(op, { maxLength: 120 }), (ops) => {
        const capacity = 8;
        const store = new GatewayEntities(capacity);
        const held = new Map<number, Held>();
        let retired: number[] = [];
        const out: StoredPdu = { bytes: Buffer.alloc(0), offset: 0, length: 0, timeMs: 0 };
        ops.forEach((o, step) => {
          const key = 1000 + o.entity;
          const entry = held.get(key);
          if (o.kind === 'full') {
            let slot = entry?.slot ?? store.slotOf(key);
            if (slot < 0) {
              slot = store.add(key);
              if (held.size + retired.length >= capacity) return expect(slot).toBe(-1);
              expect(slot).toBeGreaterThanOrEqual(0);
              expect(retired).not.toContain(slot);
              expect([...held.values()].map((h) => h.slot)).not.toContain(slot);
            }
            const bytes = pdu(144 + 16 * o.parameters, step, 48, [o.x, 2, 3]);
            store.storeFull(slot, bytes, 0, bytes.length, step);
            held.set(key, { slot, full: bytes, fullTimeMs: step, update: null, updateTimeMs: 0 });
          } else if (o.kind === 'update' && entry !== undefined) {
            // Between other bytes, as in a datagram.
            const bytes = pdu(72 + 16 * o.parameters, step, 32, [o.x, 5, 6]);
            const datagram = new Uint8Array(bytes.length + 20);
            datagram.set(bytes, 20);
            store.storeUpdate(entry.slot, datagram, 20, bytes.length, step);
            entry.update = bytes;
            entry.updateTimeMs = step;
          } else if (o.kind === 'drop' && entry !== undefined) {
            store.delete(entry.slot);
            retired.push(entry.slot);
            held.delete(key);
          } else if (o.kind === 'tick') {
            store.endTick();
            retired = [];
          }
          expect(store.size).toBe(held.size);
          for (const [k, h] of held) {
            expect(store.slotOf(k)).toBe(h.slot);
            expect(store.hasFull(h.slot)).toBe(true);
            store.fullPdu(h.slot, out);
            expect(stored(out)).toEqual([...h.full]);
            expect(out.timeMs).toBe(h.fullTimeMs);
            expect(store.updatePdu(h.slot, out)).toBe(h.update !== null);
            if (h.update !== null) {
              expect(stored(out)).toEqual([...h.update]);
              expect(out.timeMs).toBe(h.updateTimeMs);
            }
            // The newest location: the update's, else the full PDU's.
            const location = store.locationInto(h.slot, new Float64Array(3), out);
            const newest = new DataView((h.update ?? h.full).buffer).getFloat64(h.update ? 32 : 48, false);
            expect(location[0]).toBe(newest);
          }
          for (const slot of retired) expect(store.hasFull(slot)).toBe(false);
        });
      }),
      { numRuns: 150 },
    );
  });
});
