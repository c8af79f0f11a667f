// Entity State PDUs whose values no entity can have (NaN or absurd coordinates, reserved ids, an unknown DR
// algorithm, non-finite rates), made from a real recorded PDU (test/fixtures/dis): a subscriber counts each under its
// own code and keeps it out of the table, events and frames; `reckon decode` reports the same codes for the same
// datagrams, and shows what the PDU held.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { disCapturePdus, emptyTotals } from '../../src/pcap/dis-capture.js';
import { udpFromFrame } from '../../src/pcap/packet.js';
import { readCapture } from '../../src/pcap/reader.js';
import { pcapFileHeader, pcapUdpRecord } from '../../src/pcap/writer.js';
import { EntityStateOffset as ES } from '../../src/pdu/wire/constants.js';
import { CodecStatus, codecStatusMessage, type CodecStatusName } from '../../src/pdu/wire/status.js';
import type { EntityEvent } from '../../src/stream/entity-events.js';
import { createSubscriber, type Diagnostic } from '../../src/stream/subscriber.js';
import { ROOT } from '../support/binary.js';
import { FakeTransport } from '../support/fake-transport.js';

const CAPTURE = join(ROOT, 'test/fixtures/dis/dis7_vrforces_gaz69_90deg_turn.pcap');

/** The Entity State PDUs of the recorded v7 exercise (each opens its datagram there), in capture order. */
function recordedEntityStates(): Uint8Array[] {
  const capture = readCapture(readFileSync(CAPTURE));
  const out: Uint8Array[] = [];
  for (const frame of capture.frames) {
    const udp = udpFromFrame(frame.linkType, frame.data);
    if (udp.kind === 'udp' && udp.payload.length >= 144 && udp.payload[2] === 1) {
      out.push(new Uint8Array(udp.payload.subarray(0, (udp.payload[8]! << 8) | udp.payload[9]!))); // a copy, not a Buffer view
    }
  }
  return out;
}

const recorded = recordedEntityStates();
/** The GAZ-69 (1:3001:54, DR algorithm 4) PDUs. */
const gaz = recorded.filter((p) => p[17] === 54);

type Edit = (v: DataView) => void;
const CASES: ReadonlyArray<[CodecStatusName, Edit]> = [
  ['ENTITY_ID_NONE', (v) => v.setUint16(ES.ENTITY_ID + 4, 0)],
  ['ENTITY_ID_ALL', (v) => v.setUint16(ES.ENTITY_ID, 0xffff)],
  ['LOCATION_NOT_FINITE', (v) => v.setFloat64(ES.LOCATION, NaN)],
  ['LOCATION_OUT_OF_RANGE', (v) => v.setFloat64(ES.LOCATION + 16, 5e9)],
  ['VELOCITY_NOT_FINITE', (v) => v.setFloat32(ES.LINEAR_VELOCITY + 4, Infinity)],
  ['VELOCITY_OUT_OF_RANGE', (v) => v.setFloat32(ES.LINEAR_VELOCITY, -2e5)],
  ['ORIENTATION_NOT_FINITE', (v) => v.setFloat32(ES.ORIENTATION + 4, NaN)],
  ['DR_ALGORITHM_INVALID', (v) => v.setUint8(ES.DR_ALGORITHM, 12)],
  ['ACCELERATION_NOT_FINITE', (v) => v.setFloat32(ES.DR_LINEAR_ACCELERATION, -Infinity)],
  ['ANGULAR_VELOCITY_NOT_FINITE', (v) => v.setFloat32(ES.DR_ANGULAR_VELOCITY + 8, NaN)],
];

/** `pdu` with `edit` applied and its timestamp moved on by `step` units (so the table's order check passes). */
function edited(pdu: Uint8Array, edit: Edit, step: number): Uint8Array {
  const copy = pdu.slice();
  const v = new DataView(copy.buffer);
  edit(v);
  v.setUint32(4, (v.getUint32(4) + 2 * step) >>> 0);
  return copy;
}

describe('values no entity can have', () => {
  it('a subscriber counts each under its own code; the known entity keeps its last valid state, nothing else appears', () => {
    const transport = new FakeTransport();
    const subscriber = createSubscriber(
      { dis: { exercise: recorded[0]![1] } },
      { transport, expireIntervalSeconds: 3600 },
    );
    const events: EntityEvent[] = [];
    const diagnostics: Diagnostic[] = [];
    const subscriptions = [
      subscriber.entityEvents$.subscribe((e) => events.push(e)),
      subscriber.diagnostics$.subscribe((d) => diagnostics.push(d)),
    ];
    try {
      transport.deliver(gaz[0]!);
      expect(events.map((e) => e.type)).toEqual(['appeared']);
      const table = subscriber.table!;
      const slot = table.slotOf(0x1_0000_0000 + 3001 * 0x1_0000 + 54);
      const before = Array.from(table.location.subarray(3 * slot, 3 * slot + 3));
      CASES.forEach(([, edit], i) => transport.deliver(edited(gaz[0]!, edit, i + 1)));
      expect(events.map((e) => e.type)).toEqual(['appeared']);
      expect(table.size).toBe(1);
      expect(Array.from(table.location.subarray(3 * slot, 3 * slot + 3))).toEqual(before);
      for (const [code] of CASES) expect(subscriber.stats.decodeErrors[code], code).toBe(1);
      expect(diagnostics.map((d) => d.message)).toEqual(CASES.map(([code]) => codecStatusMessage(CodecStatus[code])));
      expect(diagnostics.every((d) => d.reason === 'decode')).toBe(true);
      // And a valid PDU after all of them still updates the entity.
      transport.deliver(gaz[1]!);
      expect(events.map((e) => e.type)).toEqual(['appeared', 'updated']);
      expect(events.every((e) => e.state.location.every(Number.isFinite))).toBe(true);
    } finally {
      for (const s of subscriptions) s.unsubscribe();
    }
  });

  describe('reckon decode on a capture of them', () => {
    const dir = mkdtempSync(join(tmpdir(), 'reckon-validate-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));
    const datagrams = [gaz[0]!, ...CASES.map(([, edit], i) => edited(gaz[0]!, edit, i + 1)), gaz[1]!];
    const file = join(dir, 'invalid.pcap');
    writeFileSync(
      file,
      Buffer.concat([pcapFileHeader(), ...datagrams.map((d, i) => pcapUdpRecord(d, 1_700_000_000 + i))]),
    );

    it('gives the codes a subscriber gives, PDU for PDU', () => {
      const totals = emptyTotals();
      const statuses = [...disCapturePdus(readCapture(readFileSync(file)), totals)].map((e) => e.status);
      const transport = new FakeTransport();
      const subscriber = createSubscriber(
        { dis: { exercise: recorded[0]![1] } },
        { transport, expireIntervalSeconds: 3600 },
      );
      const subscription = subscriber.entityEvents$.subscribe();
      for (const d of datagrams) transport.deliver(d);
      subscription.unsubscribe();
      const live = Object.fromEntries(Object.entries(subscriber.stats.decodeErrors).filter(([, n]) => n > 0));
      expect(totals.rejected).toEqual(live);
      expect(statuses).toEqual([CodecStatus.OK, ...CASES.map(([code]) => CodecStatus[code]), CodecStatus.OK]);
    });

    it('--json: each rejected PDU as an error with its code and the PDU as on the wire; the summary counts them', () => {
      const run = (...args: string[]) =>
        spawnSync(process.execPath, ['dist/cli/main.js', 'decode', file, ...args], {
          cwd: ROOT,
          encoding: 'utf8',
          timeout: 30_000,
        });
      const json = run('--json');
      expect(json.status).toBe(0);
      type Line = { error?: { code: string }; pdu?: { location: unknown[]; entityId: unknown } };
      const lines = json.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Line);
      expect(lines).toHaveLength(datagrams.length);
      expect(lines.map((l) => l.error?.code ?? 'OK')).toEqual(['OK', ...CASES.map(([code]) => code), 'OK']);
      expect(lines[3]!.pdu!.location[0]).toBe('NaN'); // LOCATION_NOT_FINITE: named, not null
      expect(lines[1]!.pdu!.entityId).toEqual({ site: 1, application: 3001, entity: 0 });
      const summary = run();
      expect(summary.status).toBe(0);
      expect(summary.stdout).toMatch(/Rejected: 10\n/);
      for (const [code] of CASES)
        expect(summary.stdout).toContain(`1  ${code}: ${codecStatusMessage(CodecStatus[code])}`);
    });
  });
});
