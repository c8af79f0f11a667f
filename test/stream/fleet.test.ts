// The publisher's owner side on the emitter bank: a fleet published from typed arrays sends the PDUs one emitter
// per entity would (for the truth given as angles, as matrices or one record at a time), bundled; `update` goes
// through the same bank; `close` sends one leave notice per entity however it was published.
import { describe, expect, it } from 'vitest';
import { isDeactivated } from '../../src/dr/models/algorithm.js';
import { DeadReckoningEmitter } from '../../src/dr/owner/emitter.js';
import { createTruthState, type TruthState } from '../../src/dr/owner/truth-state.js';
import { worldToBodyFromEuler } from '../../src/math/euler.js';
import { decodeEntityStateInto } from '../../src/pdu/wire/entity-state-decoder.js';
import { EntityStateRecord, markingText } from '../../src/pdu/wire/entity-state-record.js';
import { forEachPdu } from '../../src/pdu/wire/header.js';
import { CodecStatus } from '../../src/pdu/wire/status.js';
import { timestampFromSeconds } from '../../src/pdu/wire/timestamp.js';
import { createPublisher } from '../../src/stream/publisher.js';
import { aircraftOrbit, shipTurningCircles, tankRoadCourse } from '../../src/truth/index.js';
import { FakeTransport } from '../support/fake-transport.js';

/** Every PDU the transport was given, decoded, with the datagram it came in. */
function sentPdus(transport: FakeTransport): Array<EntityStateRecord & { datagram: number }> {
  const out: Array<EntityStateRecord & { datagram: number }> = [];
  transport.sent.forEach((datagram, d) => {
    const status = forEachPdu(datagram, (bytes, offset, length) => {
      const r = Object.assign(new EntityStateRecord(), { datagram: d });
      expect(decodeEntityStateInto(r, bytes, offset, offset + length)).toBe(CodecStatus.OK);
      out.push(r);
    });
    expect(status).toBe(CodecStatus.OK);
  });
  return out;
}

const courses = [tankRoadCourse(), shipTurningCircles(), aircraftOrbit()];
const ships = Array.from({ length: 30 }, (_, k) => ({
  entity: 100 + k,
  marking: `SHIP ${k + 1}`,
  entityType: { kind: 1, domain: 3, country: 225 },
  algorithm: k % 3 === 0 ? ('auto' as const) : 4,
}));
/** Entity k's truth at t: one of three courses at its own offset in time. */
function truthOf(out: TruthState, k: number, t: number): TruthState {
  const course = courses[k % 3]!;
  return course.sample((t + 7 * k) % course.durationSeconds, out);
}

describe('Publisher.fleet', () => {
  it.each(['angles', 'matrix', 'records'] as const)(
    'sends, tick by tick, the PDUs one emitter per entity decides (truth as %s), bundled per tick',
    async (form) => {
      const transport = new FakeTransport();
      const publisher = await createPublisher({ dis: { exercise: 4, site: 9, application: 8 } }, { transport });
      const fleet = publisher.fleet(ships, { attitude: form === 'matrix' ? 'matrix' : 'angles' });
      const emitters = ships.map((s) => new DeadReckoningEmitter({ algorithm: s.algorithm }));
      const truth = createTruthState(),
        matrix = new Float64Array(9),
        record = new EntityStateRecord(0);
      const expected: Array<[number, number, number]> = []; // entity, time, algorithm
      let datagrams = 0;
      for (let step = 0; step < 200; step++) {
        const t = step / 10;
        for (let k = 0; k < ships.length; k++) {
          truthOf(truth, k, t);
          worldToBodyFromEuler(matrix, truth.orientation[0]!, truth.orientation[1]!, truth.orientation[2]!);
          if (form === 'records') fleet.set(k, truth);
          else {
            const f = fleet.truth;
            f.location.set(truth.location, 3 * k);
            f.linearVelocity.set(truth.linearVelocity, 3 * k);
            f.linearAcceleration.set(truth.linearAcceleration, 3 * k);
            f.angularVelocity.set(truth.angularVelocity, 3 * k);
            if (form === 'matrix') f.worldToBody.set(matrix, 9 * k);
            else f.orientation.set(truth.orientation, 3 * k);
          }
          const reasons = emitters[k]!.update(truth, t, record, 0, form === 'matrix' ? matrix : null);
          if (reasons !== 0) expected.push([ships[k]!.entity, t, record.drAlgorithm]);
        }
        const sent = fleet.publish(t);
        datagrams += Math.ceil(sent / 10); // 10 PDUs of 144 bytes to a 1472-byte datagram
        expect([...fleet.reasons].filter((r) => r !== 0)).toHaveLength(sent);
        publisher.flush();
      }
      await publisher.close({ deactivate: false });
      const pdus = sentPdus(transport);
      expect(pdus.map((p) => [p.entity, p.timestampRaw, p.drAlgorithm])).toEqual(
        expected.map(([entity, t, algorithm]) => [entity, timestampFromSeconds(t, false), algorithm]),
      );
      expect(publisher.sent.pdus).toBe(pdus.length);
      expect(transport.sent.length).toBe(datagrams); // bundled: a tick's PDUs share datagrams
      expect(pdus[0]).toMatchObject({ site: 9, application: 8, exerciseId: 4, forceId: 1 });
      expect(markingText(pdus[0]!)).toBe('SHIP 1');
      expect(new Set(pdus.map((p) => p.drAlgorithm)).size).toBeGreaterThan(1);
    },
  );

  it('refuses entity numbers out of range or repeated, before anything is sent', async () => {
    const publisher = await createPublisher({}, { transport: new FakeTransport() });
    expect(() => publisher.fleet([{ entity: 0 }])).toThrow(/1 to 65534/);
    expect(() => publisher.fleet([{ entity: 5 }, { entity: 5 }])).toThrow(/entity number 5 is in the fleet twice/);
    await publisher.close();
  });

  it('closes with one leave notice per entity, whether from a fleet, update or send', async () => {
    const transport = new FakeTransport();
    const publisher = await createPublisher({}, { transport });
    const fleet = publisher.fleet([{ entity: 1 }, { entity: 2 }, { entity: 3 }]);
    const truth = tankRoadCourse().sample(0, createTruthState());
    for (let k = 0; k < 3; k++) fleet.set(k, truth);
    fleet.publish(10);
    publisher.update(7, truth, 10);
    publisher.update({ entity: 8, marking: 'GONE' }, truth, 10);
    publisher.update(8, truth, 10.5, 1 << 23); // its own leave notice: none more at close
    const own = new EntityStateRecord(0);
    own.entity = 9;
    own.length = 144;
    publisher.send(own);
    await publisher.close({ timeSeconds: 12 });
    const pdus = sentPdus(transport);
    const notices = pdus.filter((p) => isDeactivated(p.appearance));
    expect(notices.map((p) => p.entity).sort()).toEqual([1, 2, 3, 7, 8, 9]);
    const atClose = notices.filter((p) => p.entity !== 8 && p.entity !== 9);
    expect(atClose.every((p) => p.timestampRaw === timestampFromSeconds(12, false))).toBe(true);
    expect(publisher.sent.pdus).toBe(pdus.length);
    expect(fleet.publish(13)).toBe(0); // closed
  });
});
