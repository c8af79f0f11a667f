// The parts a remote-entity table holds per slot, checked apart and through the table: the list of rotating slots,
// the bounded pool of pending PDUs, the pool of corrections under way, and the outputs made at their first read.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RemoteEntityTable } from '../../src/dr/receiver/remote-entity-table.js';
import { SlotList } from '../../src/dr/receiver/slot-list.js';
import { EntityStateRecord } from '../../src/pdu/wire/entity-state-record.js';

/** Raw timestamp for seconds past the hour (absolute flag set). */
const stamp = (seconds: number) => ((Math.floor((seconds * 2 ** 31) / 3600) % 2 ** 31) * 2 + 1) >>> 0;

/** An Entity State PDU as decoded: entity `entity` (site 1, application 1 + entity ÷ 60 000). */
function pdu(
  r: EntityStateRecord,
  entity: number,
  seconds: number,
  algorithm: number,
  offsetMeters: number,
  heading: number,
): EntityStateRecord {
  r.pduType = 1;
  r.site = 1;
  r.application = 1 + Math.floor(entity / 60_000);
  r.entity = 1 + (entity % 60_000);
  r.timestampRaw = stamp(seconds);
  r.drAlgorithm = algorithm;
  r.entityType[0] = 1;
  r.entityType[1] = 1;
  r.location.set([6378137 + offsetMeters, entity * 50, offsetMeters]);
  r.linearVelocity.set([0, Math.fround(10 + (entity % 7)), 0]);
  r.linearAcceleration.set([0, Math.fround(0.5), 0]);
  r.orientation.set([Math.fround(heading), Math.fround(0.1), 0]);
  r.angularVelocity.set([0, 0, Math.fround(algorithm === 4 || algorithm === 3 ? 0.2 : 0)]);
  return r;
}

/** The doubles' bit patterns: equal means identical, −0 and NaN included. */
const bits = (x: ArrayLike<number>) => Array.from(new Uint32Array(Float64Array.from(x).buffer));

describe('SlotList', () => {
  it('holds the members of a set, in the order they came, after any adds and deletes', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom('add', 'delete', 'compact'), fc.integer({ min: 0, max: 15 })), {
          maxLength: 200,
        }),
        (ops) => {
          const list = new SlotList(16),
            order: number[] = [];
          for (const [op, slot] of ops) {
            if (op === 'add') {
              list.add(slot);
              if (!order.includes(slot)) order.push(slot);
            } else if (op === 'delete') {
              list.delete(slot);
              order.splice(order.indexOf(slot) >>> 0, order.includes(slot) ? 1 : 0);
            } else {
              const count = list.compact();
              // A slot that left and came back keeps its first place: compare as sets, and order among the rest.
              expect(new Set(list.slots.subarray(0, count))).toEqual(new Set(order));
              expect(count).toBe(order.length);
            }
            for (let s = 0; s < 16; s++) expect(list.has(s)).toBe(order.includes(s));
          }
        },
      ),
    );
  });
});

describe('RemoteEntityTable parts', () => {
  it('loads the waiting PDUs when its pool of 16 384 is full: every entity as if loaded one by one', () => {
    const n = 20_000;
    const bulk = new RemoteEntityTable({ capacity: n }),
      single = new RemoteEntityTable({ capacity: n });
    const r = new EntityStateRecord(0);
    for (let e = 0; e < n; e++) {
      const algorithm = [2, 4, 5][e % 3]!;
      bulk.apply(pdu(r, e, 1, algorithm, e % 13, e / 1000), 1);
      single.apply(r, 1);
      single.resolve();
    }
    expect(bulk.size).toBe(n);
    bulk.render(3);
    single.render(3);
    expect(bits(bulk.displayLocation.subarray(0, 3 * n))).toEqual(bits(single.displayLocation.subarray(0, 3 * n)));
    expect(bits(bulk.displayWorldToBody.subarray(0, 9 * n))).toEqual(
      bits(single.displayWorldToBody.subarray(0, 9 * n)),
    );
  });

  it('smooths many corrections at once: render and renderSlot agree bit for bit as entries come and go', () => {
    const n = 300;
    // Corrections of 0.15 s, each entity corrected every 0.3 s: they end between its PDUs, others under way.
    const options = { capacity: n, smoothing: { method: 'projective' as const, durationSeconds: 0.15 } };
    const rendered = new RemoteEntityTable(options),
      single = new RemoteEntityTable(options);
    const r = new EntityStateRecord(0);
    const location = new Float64Array(3),
      worldToBody = new Float64Array(9);
    let converging = 0;
    for (let step = 0; step < 40; step++) {
      const t = 0.1 * step;
      // A third of the entities at a time, so that corrections start and end at different frames.
      for (let e = step % 3; e < n; e += 3) {
        const algorithm = e % 2 === 0 ? 4 : 2;
        for (const table of [rendered, single])
          table.apply(pdu(r, e, t, algorithm, (step * e) % 7, 0.3 + 0.01 * step), t);
      }
      for (const frame of [t + 0.02, t + 0.07, t + 0.09]) {
        rendered.render(frame);
        for (let slot = 0; slot < rendered.highWater; slot++) {
          single.renderSlot(slot, frame, location, worldToBody);
          expect(bits(location)).toEqual(bits(rendered.displayLocation.subarray(3 * slot, 3 * slot + 3)));
          expect(bits(worldToBody)).toEqual(bits(rendered.displayWorldToBody.subarray(9 * slot, 9 * slot + 9)));
          expect(single.isConverging(slot)).toBe(rendered.isConverging(slot));
          if (rendered.isConverging(slot)) converging++;
        }
      }
    }
    // The pool grew well past its first 16 entries.
    expect(converging).toBeGreaterThan(40 * 3 * 30);
  });

  it('makes angles and matrices at their first read as they would be, read all along', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            entity: fc.integer({ min: 0, max: 5 }),
            algorithm: fc.constantFrom(1, 2, 3, 4, 5, 7, 8),
            offset: fc.integer({ min: 0, max: 30 }),
            heading: fc.double({ min: -3, max: 3, noNaN: true }),
            frame: fc.constantFrom('render', 'extrapolate', 'both', 'none'),
          }),
          { minLength: 1, maxLength: 30 },
        ),
        fc.integer({ min: 0, max: 29 }),
        (steps, readFrom) => {
          const always = new RemoteEntityTable({ capacity: 8 }),
            late = new RemoteEntityTable({ capacity: 8 });
          const r = new EntityStateRecord(0);
          const read = (table: RemoteEntityTable) => [
            ...table.orientation.subarray(0, 24),
            ...table.displayOrientation.subarray(0, 24),
            ...table.worldToBody.subarray(0, 72),
          ];
          steps.forEach((step, i) => {
            const t = 0.25 * (i + 1);
            for (const table of [always, late]) {
              table.apply(pdu(r, step.entity, t, step.algorithm, step.offset, step.heading), t);
              if (step.frame === 'render' || step.frame === 'both') table.render(t + 0.1);
              if (step.frame === 'extrapolate' || step.frame === 'both') table.extrapolate(t + 0.1);
            }
            const seen = read(always);
            // A read loads the pending PDUs (a new entity read before its next PDU no longer snaps to it): the
            // same loads for both, only the outputs left unread.
            late.resolve();
            if (i >= readFrom) expect(bits(read(late))).toEqual(bits(seen));
          });
        },
      ),
      { numRuns: 150 },
    );
  });
});
