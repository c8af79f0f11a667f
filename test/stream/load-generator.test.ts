// The load generator of `reckon publish --entities`: identities, the kind mix, PDUs that decode, the truth's
// rigid motion (checked against finite differences), emitter-driven rates, the PDU budget and the leave notices.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/config/schema.js';
import { isDeactivated } from '../../src/dr/models/algorithm.js';
import { DeadReckoningModel } from '../../src/dr/models/model.js';
import { decodeEntityStateInto } from '../../src/pdu/wire/entity-state-decoder.js';
import { EntityStateRecord, markingText } from '../../src/pdu/wire/entity-state-record.js';
import { forEachPdu } from '../../src/pdu/wire/header.js';
import { CodecStatus } from '../../src/pdu/wire/status.js';
import {
  ENTITIES_PER_APPLICATION,
  LOAD_KINDS,
  LoadGenerator,
  MAX_LOAD_ENTITIES,
  type PduSink,
} from '../../src/stream/load-generator.js';

/** A sink that keeps every PDU written, decoded. */
function capture(): PduSink & { pdus: EntityStateRecord[] } {
  const buffer = new Uint8Array(1 << 22);
  let used = 0;
  const pdus: EntityStateRecord[] = [];
  return {
    buffer,
    pdus,
    claim(length) {
      const at = used;
      used += length;
      // Decode what the previous claim received, now that it is written.
      queueDecode(at, length);
      return at;
    },
  };
  function queueDecode(at: number, length: number): void {
    queueMicrotask(() => {
      const record = new EntityStateRecord();
      const status = forEachPdu(
        buffer,
        (bytes, offset, n) => {
          expect(decodeEntityStateInto(record, bytes, offset, offset + n)).toBe(CodecStatus.OK);
        },
        at,
        at + length,
      );
      expect(status).toBe(CodecStatus.OK);
      pdus.push(record);
    });
  }
}

const flush = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));
const key = (r: EntityStateRecord): string => `${r.site}:${r.application}:${r.entity}`;

describe('LoadGenerator', () => {
  it('gives every entity a unique id, its kind and a marking, and its PDUs decode', async () => {
    const config = defaultConfig();
    config.dis.application = 7;
    const generator = new LoadGenerator(config, { entities: 100, rampSeconds: 0 });
    const sink = capture();
    generator.tick(0, sink);
    await flush();
    expect(sink.pdus).toHaveLength(100);
    expect(new Set(sink.pdus.map(key)).size).toBe(100);
    const byKind = new Map<number, string[]>();
    for (const pdu of sink.pdus) {
      const domain = pdu.entityType[1]!;
      byKind.set(domain, [...(byKind.get(domain) ?? []), markingText(pdu)]);
      expect(pdu.application).toBe(7);
      expect(pdu.exerciseId).toBe(1);
    }
    // 50 % tanks (land), 20 % ships (surface), 30 % aircraft (air), each numbered from 1.
    expect(byKind.get(1)!.sort()).toEqual(Array.from({ length: 50 }, (_, i) => `TANK ${i + 1}`).sort());
    expect(byKind.get(3)!.sort()).toEqual(Array.from({ length: 20 }, (_, i) => `SHIP ${i + 1}`).sort());
    expect(byKind.get(2)!.sort()).toEqual(Array.from({ length: 30 }, (_, i) => `AIR ${i + 1}`).sort());
    expect(sink.pdus.find((p) => markingText(p) === 'TANK 1')!.entityType).toEqual(
      Uint16Array.from(LOAD_KINDS[0].entityType),
    );
  });

  it('numbers entities past 65534 under the next application id', () => {
    const config = defaultConfig();
    config.dis.application = 3001;
    const generator = new LoadGenerator(config, { entities: 1 });
    expect(generator.entityId(0)).toEqual({ site: 1, application: 3001, entity: 1 });
    expect(generator.entityId(ENTITIES_PER_APPLICATION - 1)).toEqual({ site: 1, application: 3001, entity: 65534 });
    expect(generator.entityId(ENTITIES_PER_APPLICATION)).toEqual({ site: 1, application: 3002, entity: 1 });
    // The millionth: 15 full applications of 65 534 before it.
    expect(MAX_LOAD_ENTITIES).toBe(1_000_000);
    expect(generator.entityId(MAX_LOAD_ENTITIES - 1)).toEqual({
      site: 1,
      application: 3016,
      entity: MAX_LOAD_ENTITIES - 15 * ENTITIES_PER_APPLICATION,
    });
  });

  it.each([0, -1, 1.5, MAX_LOAD_ENTITIES + 1, Number.NaN])('refuses %s entities', (n) => {
    expect(() => new LoadGenerator(defaultConfig(), { entities: n })).toThrow(RangeError);
  });

  it('refuses an application id that leaves no room for the entities', () => {
    const config = defaultConfig();
    config.dis.application = 0xfffe;
    expect(() => new LoadGenerator(config, { entities: ENTITIES_PER_APPLICATION + 1 })).toThrow(/application ids/);
  });

  it('moves each course rigidly: velocity and acceleration are the derivatives of the location, the nose along the track', () => {
    const generator = new LoadGenerator(defaultConfig(), { entities: 30, seed: 7 });
    const h = 1e-3;
    for (let i = 0; i < 30; i++) {
      const t = 20 + i;
      const at = (dt: number): Float64Array => Float64Array.from(generator.truthAt(i, t + dt).location);
      const before = at(-h),
        after = at(h);
      const truth = generator.truthAt(i, t);
      const v = Float64Array.from(truth.linearVelocity);
      const speed = Math.hypot(...v);
      for (let k = 0; k < 3; k++)
        expect(Math.abs((after[k]! - before[k]!) / (2 * h) - v[k]!)).toBeLessThan(1e-3 * Math.max(1, speed));
      // R_wb is a rotation, and its first row (the body x axis, the nose) points along the velocity.
      const r = truth.worldToBody;
      for (let a = 0; a < 3; a++) {
        for (let b = 0; b < 3; b++) {
          const dot = r[3 * a]! * r[3 * b]! + r[3 * a + 1]! * r[3 * b + 1]! + r[3 * a + 2]! * r[3 * b + 2]!;
          expect(Math.abs(dot - (a === b ? 1 : 0))).toBeLessThan(1e-12);
        }
      }
      if (speed > 1) {
        const along = (r[0]! * v[0]! + r[1]! * v[1]! + r[2]! * v[2]!) / speed;
        expect(along).toBeGreaterThan(1 - 1e-9);
      }
    }
  });

  it('sends far less often than it decides, and receivers dead-reckon within the threshold between PDUs', async () => {
    const config = defaultConfig();
    const n = 40,
      rateHz = 10,
      seconds = 60;
    const generator = new LoadGenerator(config, { entities: n, rampSeconds: 1 });
    const sink = capture();
    // Each entity's last PDU, as a receiver's model; checked against the truth at every tick.
    const models = new Map<string, { model: DeadReckoningModel; t: number }>();
    const location = new Float64Array(3);
    let worst = 0;
    for (let step = 0; step <= seconds * rateHz; step++) {
      const t = step / rateHz;
      generator.tick(t, sink);
      await flush();
      for (const pdu of sink.pdus.splice(0)) {
        const model = models.get(key(pdu))?.model ?? new DeadReckoningModel();
        model.reset(
          pdu.location,
          pdu.linearVelocity,
          pdu.orientation,
          pdu.linearAcceleration,
          pdu.angularVelocity,
          pdu.drAlgorithm,
        );
        models.set(key(pdu), { model, t });
      }
      for (let i = 0; i < n; i++) {
        const sent = models.get(key({ site: 1, application: 1, entity: i + 1 } as EntityStateRecord));
        if (!sent) continue;
        sent.model.evaluate(t - sent.t, location);
        const p = generator.truthAt(i, t).location;
        worst = Math.max(worst, Math.hypot(location[0]! - p[0]!, location[1]! - p[1]!, location[2]! - p[2]!));
      }
    }
    expect(generator.stats.joined).toBe(n);
    expect(generator.stats.decisions).toBeGreaterThan(n * rateHz * (seconds - 1));
    const pdusPerEntitySecond = generator.stats.pdus / n / seconds;
    // DR-driven: well under one PDU per entity per second against 10 decisions; the heartbeat (5 s) sets a floor.
    expect(pdusPerEntitySecond).toBeLessThan(1);
    expect(pdusPerEntitySecond).toBeGreaterThanOrEqual(1 / 5 - 0.02);
    expect(generator.stats.reasons[3]).toBeGreaterThan(0); // heartbeats
    expect(generator.stats.reasons[1]).toBeGreaterThan(0); // position threshold
    // At every tick the emitter has just decided: the receivers' picture is within the 1 m threshold of the truth.
    expect(worst).toBeLessThanOrEqual(1 + 1e-9);
    expect(worst).toBeGreaterThan(0.5);
  }, 60_000);

  it('measures the longest time an entity waited between two evaluations', () => {
    const generator = new LoadGenerator(defaultConfig(), { entities: 50, rampSeconds: 0 });
    const sink = capture();
    for (let t = 0; t < 2; t += 0.1) generator.tick(t, sink);
    expect(generator.stats.maxEvaluationGapSeconds).toBeCloseTo(0.1, 9);
    // Half of the entities at 3 s, the rest at 3.5 s: the second half waited 1.6 s.
    generator.tick(3, sink, 25);
    expect(generator.stats.maxEvaluationGapSeconds).toBeCloseTo(1.1, 9);
    generator.tick(3.5, sink, 25);
    expect(generator.stats.maxEvaluationGapSeconds).toBeCloseTo(1.6, 9);
    // The recent longest wait starts again from 0 when the caller clears it; the whole run's stays.
    generator.stats.recentMaxEvaluationGapSeconds = 0;
    generator.tick(3.6, sink);
    expect(generator.stats.recentMaxEvaluationGapSeconds).toBeCloseTo(0.6, 9);
    expect(generator.stats.maxEvaluationGapSeconds).toBeCloseTo(1.6, 9);
  });

  it('counts the seconds entities were joined, as a sum over them does', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 500 }),
        fc.double({ min: 0, max: 20, noNaN: true }),
        fc.double({ min: -5, max: 30, noNaN: true }),
        fc.double({ min: 0, max: 30, noNaN: true }),
        (n, rampSeconds, from, span) => {
          const generator = new LoadGenerator(defaultConfig(), { entities: n, rampSeconds });
          const to = from + span;
          let expected = 0;
          for (let i = 0; i < n; i++) {
            const join = rampSeconds > 0 ? (i / n) * rampSeconds : 0;
            expected += Math.max(0, to - Math.max(from, join));
          }
          expect(generator.joinedEntitySeconds(from, to)).toBeCloseTo(expected, 6);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('stops at the PDU budget and resumes where it stopped', async () => {
    const generator = new LoadGenerator(defaultConfig(), { entities: 25, rampSeconds: 0 });
    const sink = capture();
    expect(generator.tick(0, sink, 25, 10)).toBe(10);
    expect(generator.stats.pdus).toBe(10);
    expect(generator.stats.deferred).toBe(15);
    generator.tick(0.1, sink, 25, 10);
    generator.tick(0.2, sink, 25, 10);
    await flush();
    expect(generator.stats.joined).toBe(25);
    expect(new Set(sink.pdus.map(key)).size).toBe(25);
  });

  it('sends one leave notice per entity that has sent, paced by the budget', async () => {
    const generator = new LoadGenerator(defaultConfig(), { entities: 20, rampSeconds: 10 });
    const sink = capture();
    generator.tick(5, sink); // entities 0–10 have joined
    await flush();
    const joined = sink.pdus.splice(0).map(key);
    expect(generator.leave(6, sink, 4)).toBe(false);
    while (!generator.leave(6, sink, 4));
    await flush();
    expect(sink.pdus.map(key).sort()).toEqual(joined.sort());
    expect(sink.pdus.every((p) => isDeactivated(p.appearance))).toBe(true);
    expect(generator.stats.leaveNotices).toBe(joined.length);
  });
});
