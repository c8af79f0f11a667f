import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { EntityStateRecord, entityKey } from '../../src/pdu/wire/entity-state-record.js';
import { RemoteEntityTable } from '../../src/dr/receiver/remote-entity-table.js';
import { ApplyResult, TableEvent } from '../../src/dr/receiver/table-results.js';
import { EntitySlots } from '../../src/dr/receiver/entity-slots.js';
import { DeadReckoningModel } from '../../src/dr/models/model.js';
import { HEARTBEAT_KDIS, isStationaryState } from '../../src/dr/owner/heartbeat.js';
import { DeadReckoningEmitter } from '../../src/dr/owner/emitter.js';
import { createTruthState } from '../../src/dr/owner/truth-state.js';
import { APPEARANCE_DEACTIVATED } from '../../src/dr/models/algorithm.js';
import { expectClose } from '../support/close.js';
import * as mat3 from '../../src/math/mat3.js';
import { worldToBodyFromEuler } from '../../src/math/euler.js';

const HOUR_UNITS = 2 ** 31;
/** Raw timestamp for seconds past the hour (absolute flag set). */
const stamp = (seconds: number, absolute = true) =>
  ((Math.floor((seconds * HOUR_UNITS) / 3600) % HOUR_UNITS) * 2 + (absolute ? 1 : 0)) >>> 0;

interface Pdu {
  entity?: number;
  type?: number;
  algorithm?: number;
  location?: number[];
  velocity?: number[];
  acceleration?: number[];
  rates?: number[];
  orientation?: number[];
  appearance?: number;
  timestamp?: number;
  kind?: number;
  domain?: number;
}

/** The 32-bit float fields of a PDU as decoded from the wire: rounded to float32. */
const f32 = (v: readonly number[]): number[] => v.map(Math.fround);

function record(p: Pdu, r = new EntityStateRecord(0)): EntityStateRecord {
  r.pduType = p.type ?? 1;
  r.site = 1;
  r.application = 2;
  r.entity = p.entity ?? 3;
  r.drAlgorithm = p.algorithm ?? 2;
  r.location.set(p.location ?? [6378137, 0, 0]);
  r.linearVelocity.set(f32(p.velocity ?? [0, 10, 0]));
  r.linearAcceleration.set(f32(p.acceleration ?? [0, 0, 0]));
  r.angularVelocity.set(f32(p.rates ?? [0, 0, 0]));
  r.orientation.set(f32(p.orientation ?? [0, 0, 0]));
  r.appearance = p.appearance ?? 0;
  r.timestampRaw = p.timestamp ?? stamp(0);
  r.entityType[0] = p.kind ?? 1;
  r.entityType[1] = p.domain ?? 2;
  r.markingBytes.set([72, 73]);
  return r;
}

function recordingTable(options: ConstructorParameters<typeof RemoteEntityTable>[0] = {}) {
  const events: [number, number, number][] = [];
  const table = new RemoteEntityTable({ ...options, onEvent: (kind, slot, key) => events.push([kind, slot, key]) });
  return { table, events };
}

describe('RemoteEntityTable: applying PDUs', () => {
  it('adds, updates and keeps per-slot metadata readable', () => {
    const { table, events } = recordingTable();
    expect(table.apply(record({ timestamp: stamp(1) }), 100)).toBe(ApplyResult.APPEARED);
    expect(table.apply(record({ timestamp: stamp(2), velocity: [1, 2, 3] }), 101)).toBe(ApplyResult.UPDATED);
    const key = entityKey(1, 2, 3),
      slot = table.slotOf(key);
    expect(events).toEqual([
      [TableEvent.APPEARED, slot, key],
      [TableEvent.UPDATED, slot, key],
    ]);
    expect([...table.entityId.subarray(3 * slot, 3 * slot + 3)]).toEqual([1, 2, 3]);
    expect(table.entityType[7 * slot + 1]).toBe(2);
    expect(table.marking[11 * slot]).toBe(72);
    expectClose(table.store.velocity.subarray(3 * slot, 3 * slot + 3), [1, 2, 3], 0, 'velocity');
    expect(table.stats.appeared + table.stats.updated).toBe(2);
  });

  it('drops duplicates and out-of-order PDUs by timestamp, across the hourly wrap', () => {
    const { table } = recordingTable();
    table.apply(record({ timestamp: stamp(3599.9) }), 0);
    expect(table.apply(record({ timestamp: stamp(3599.9) }), 0.1)).toBe(ApplyResult.DUPLICATE);
    expect(table.apply(record({ timestamp: stamp(3599.5) }), 0.1)).toBe(ApplyResult.OUT_OF_ORDER);
    // 0.2 s after the top of the hour is newer than 3599.9 s.
    expect(table.apply(record({ timestamp: stamp(0.2) }), 0.3)).toBe(ApplyResult.UPDATED);
    expect(table.apply(record({ timestamp: stamp(3599.95) }), 0.3)).toBe(ApplyResult.OUT_OF_ORDER);
    expect(table.stats).toMatchObject({ duplicates: 1, outOfOrder: 2 });
  });

  it('accepts an Entity State Update only for known entities and keeps their DR parameters', () => {
    const { table } = recordingTable();
    expect(table.apply(record({ type: 67 }), 0)).toBe(ApplyResult.UNKNOWN_UPDATE);
    table.apply(record({ algorithm: 4, acceleration: [1, 0, 0], rates: [0, 0, 0.1], timestamp: stamp(1) }), 0);
    const esu = record({
      type: 67,
      algorithm: 0,
      acceleration: [9, 9, 9],
      location: [6378137, 50, 0],
      timestamp: stamp(2),
    });
    expect(table.apply(esu, 1)).toBe(ApplyResult.UPDATED);
    const slot = table.slotOf(entityKey(1, 2, 3));
    expect(table.store.algorithm[slot]).toBe(4);
    expectClose(table.store.acceleration.subarray(3 * slot, 3 * slot + 3), [1, 0, 0], 0, 'acceleration');
    expectClose(table.store.location0.subarray(3 * slot, 3 * slot + 3), [6378137, 50, 0], 0, 'location');
  });

  it('removes deactivated entities, reuses their slot, and is bounded', () => {
    const { table, events } = recordingTable({ capacity: 2 });
    table.apply(record({ entity: 1 }), 0);
    table.apply(record({ entity: 2 }), 0);
    expect(table.apply(record({ entity: 3 }), 0)).toBe(ApplyResult.TABLE_FULL);
    expect(table.stats.full).toBe(1);
    expect(table.apply(record({ entity: 1, appearance: APPEARANCE_DEACTIVATED, timestamp: stamp(1) }), 1)).toBe(
      ApplyResult.REMOVED,
    );
    expect(events.at(-1)).toEqual([TableEvent.REMOVED, 0, entityKey(1, 2, 1)]);
    expect(table.apply(record({ entity: 3 }), 1)).toBe(ApplyResult.APPEARED);
    expect(table.slotOf(entityKey(1, 2, 3))).toBe(0);
    expect(table.size).toBe(2);
  });

  it('times entities out after heartbeat × 2.4 per kind and domain, with the slot readable in the event', () => {
    const seen: string[] = [];
    const table = new RemoteEntityTable({
      heartbeatTable: HEARTBEAT_KDIS,
      onEvent: (kind, slot) =>
        kind === TableEvent.TIMED_OUT && seen.push(`${table.entityId[3 * slot + 2]}@${table.entityType[7 * slot + 1]}`),
    });
    table.apply(record({ entity: 1, kind: 1, domain: 2 }), 0); // air: 5 s → 12 s
    table.apply(record({ entity: 2, kind: 1, domain: 1 }), 0); // land (KDIS): 55 s → 132 s
    expect(table.expire(11.9)).toBe(0);
    expect(table.expire(12.1)).toBe(1);
    expect(table.expire(131)).toBe(0);
    expect(table.expire(133)).toBe(1);
    expect(seen).toEqual(['1@2', '2@1']);
    expect(table.size).toBe(0);
  });
});

describe('RemoteEntityTable: expiry', () => {
  it('times out an entity whose deadline comes before those of the last scan: a new one, a resumed one', () => {
    const { table } = recordingTable();
    table.apply(record({ entity: 1, velocity: [0, 0, 0] }), 0); // stationary: 144 s
    expect(table.expire(1)).toBe(0);
    table.apply(record({ entity: 2 }), 2); // moving: 12 s
    expect(table.expire(14)).toBe(0);
    expect(table.expire(14.01)).toBe(1);
    // Held while the table found nothing else due, resumed: its 12 s run on from where they stopped.
    table.apply(record({ entity: 3 }), 20);
    table.freeze(table.slotOf(entityKey(1, 2, 3)), 21);
    expect(table.expire(35)).toBe(0);
    table.resume(table.slotOf(entityKey(1, 2, 3)), 40);
    expect(table.expire(50.99)).toBe(0);
    expect(table.expire(51.01)).toBe(1);
    expect(table.size).toBe(1);
  });

  it('keeps the deadline of an entity a listener adds while entities time out', () => {
    let timedOut = 0;
    const table: RemoteEntityTable = new RemoteEntityTable({
      // At the second timeout, a new entity (moving: 12 s) takes the first one's slot, behind the scan.
      onEvent: (kind) => {
        if (kind === TableEvent.TIMED_OUT && ++timedOut === 2) table.apply(record({ entity: 9 }), 100);
      },
    });
    table.apply(record({ entity: 1 }), 0);
    table.apply(record({ entity: 3 }), 0);
    table.apply(record({ entity: 2, velocity: [0, 0, 0] }), 0); // stationary: 144 s
    expect(table.expire(100)).toBe(2);
    expect(table.slotOf(entityKey(1, 2, 9))).toBe(0);
    expect(table.expire(112.1)).toBe(1);
    expect(table.slotOf(entityKey(1, 2, 9))).toBe(-1);
  });

  it('times out exactly the entities a scan of every slot finds due, though it scans only when one may be', () => {
    const op = fc.oneof(
      fc.record({ op: fc.constant('apply'), entity: fc.nat(7), still: fc.boolean(), domain: fc.constantFrom(1, 2, 3) }),
      fc.record({ op: fc.constantFrom('freeze', 'resume'), entity: fc.nat(7) }),
      fc.record({ op: fc.constant('expire') }),
    );
    // Mostly short steps, now and then past a timeout (12 s to 144 s), and back (a clock that jumped).
    const dt = fc.oneof(
      { weight: 6, arbitrary: fc.integer({ min: 0, max: 4000 }).map((ms) => ms / 1000) },
      { weight: 2, arbitrary: fc.integer({ min: 0, max: 150_000 }).map((ms) => ms / 1000) },
      { weight: 1, arbitrary: fc.integer({ min: -5000, max: 0 }).map((ms) => ms / 1000) },
    );
    const step = fc.tuple(op, dt);
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 60 }), (steps) => {
        const { table, events } = recordingTable({ heartbeatTable: HEARTBEAT_KDIS });
        let now = 1000;
        for (const [o, dt] of steps) {
          now += dt;
          const slot = 'entity' in o ? table.slotOf(entityKey(1, 2, o.entity)) : -1;
          if (o.op === 'apply') {
            const still = o.still ? { velocity: [0, 0, 0] } : {};
            table.apply(record({ entity: o.entity, domain: o.domain, timestamp: stamp(now % 3600), ...still }), now);
          } else if (o.op === 'freeze' && slot >= 0) table.freeze(slot, now);
          else if (o.op === 'resume' && slot >= 0) table.resume(slot, now);
          else if (o.op === 'expire') {
            const due: number[] = [];
            for (let s = 0; s < table.highWater; s++)
              if (
                table.active[s] === 1 &&
                table.frozen[s] === 0 &&
                now - table.arrivalSeconds[s]! > table.timeoutSeconds[s]!
              )
                due.push(table.key[s]!);
            events.length = 0;
            expect(table.expire(now)).toBe(due.length);
            expect(
              events
                .filter(([kind]) => kind === TableEvent.TIMED_OUT)
                .map(([, , key]) => key)
                .sort(),
            ).toEqual(due.sort());
          }
        }
      }),
      { numRuns: 100 },
    );
  });
});

describe('RemoteEntityTable: stationary entities (HBT_STATIONARY)', () => {
  const still = { velocity: [0, 0, 0] };
  /** The second at which an entity whose last PDU arrived at 0 is timed out, to 0.1 s. */
  function timedOutAt(table: RemoteEntityTable): number {
    for (let t = 0.1; t < 1000; t = Math.round(t * 10 + 1) / 10) if (table.expire(t) > 0) return t;
    return Infinity;
  }

  it('keeps an entity whose PDU is stationary for 60 s × 2.4 and times it out after; a moving one after 12 s', () => {
    const table = new RemoteEntityTable();
    table.apply(record({ entity: 1, ...still }), 0);
    table.apply(record({ entity: 2 }), 0);
    expect(table.expire(12.1)).toBe(1);
    expect(table.slotOf(entityKey(1, 2, 1))).toBe(0);
    expect(table.expire(143.9)).toBe(0);
    expect(table.expire(144.1)).toBe(1);
    expect(table.size).toBe(0);
  });

  it.each<[string, Pdu, number]>([
    ['zero velocity, FPW', still, 144],
    ['moving, FPW', {}, 12],
    ['static algorithm, any velocity', { algorithm: 1 }, 144],
    ['FPW ignores acceleration', { ...still, acceleration: [1, 0, 0] }, 144],
    ['FVW uses it', { ...still, algorithm: 5, acceleration: [1, 0, 0] }, 12],
    ['FPW ignores rates', { ...still, rates: [0, 0, 0.1] }, 144],
    ['RPW turns on the spot', { ...still, algorithm: 3, rates: [0, 0, 0.1] }, 12],
    ['RVB at rest', { ...still, algorithm: 8 }, 144],
    ['unknown algorithm 0 at rest', { ...still, algorithm: 0 }, 144],
  ])('%s: times out at %d s', (_name, pdu, seconds) => {
    const table = new RemoteEntityTable();
    table.apply(record(pdu), 0);
    expect(timedOutAt(table)).toBeCloseTo(seconds + 0.1, 9);
  });

  it("follows the last PDU: parked, moving, parked again; an update PDU judged with its full PDU's model", () => {
    const table = new RemoteEntityTable();
    table.apply(record({ ...still, timestamp: stamp(0) }), 0);
    table.apply(record({ timestamp: stamp(100) }), 100);
    expect(table.expire(112.1)).toBe(1);
    table.apply(record({ ...still, timestamp: stamp(200) }), 200);
    table.apply(record({ type: 67, timestamp: stamp(300) }), 300); // moving
    table.apply(record({ type: 67, ...still, timestamp: stamp(301) }), 301);
    expect(table.expire(301 + 143.9)).toBe(0);
    expect(table.expire(301 + 144.1)).toBe(1);
  });

  it("never shortens a longer kind timeout; off (null or 0) uses the kind's heartbeat", () => {
    const land = { ...still, kind: 1, domain: 1 };
    const kdis = new RemoteEntityTable({ heartbeatTable: HEARTBEAT_KDIS, stationaryHeartbeatSeconds: 10 });
    kdis.apply(record(land), 0);
    expect(timedOutAt(kdis)).toBeCloseTo(132.1, 9);
    for (const off of [null, 0]) {
      const table = new RemoteEntityTable({ stationaryHeartbeatSeconds: off });
      table.apply(record(still), 0);
      expect(timedOutAt(table)).toBeCloseTo(12.1, 9);
    }
    const custom = new RemoteEntityTable({ stationaryHeartbeatSeconds: 30, timeoutMultiplier: 3 });
    custom.apply(record(still), 0);
    expect(timedOutAt(custom)).toBeCloseTo(90.1, 9);
  });

  it('holds a parked entity fed by an emitter for 10 minutes, then times it out 144 s after its last PDU', () => {
    const emitter = new DeadReckoningEmitter();
    const table = new RemoteEntityTable();
    const truth = createTruthState(),
      pdu = record({});
    truth.location.set([6378137, 0, 0]);
    let sent = 0,
      last = 0;
    for (let i = 0; i <= 600 * 4; i++) {
      const t = i / 4;
      if (emitter.update(truth, t, pdu) !== 0) {
        pdu.timestampRaw = stamp(t);
        expect(table.apply(pdu, t)).toBeLessThanOrEqual(ApplyResult.UPDATED);
        sent++;
        last = t;
      }
      expect(table.expire(t)).toBe(0);
    }
    expect(sent).toBe(11);
    expect(
      isStationaryState(pdu.drAlgorithm, pdu.linearVelocity, 0, pdu.linearAcceleration, 0, pdu.angularVelocity, 0),
    ).toBe(true);
    expect(table.expire(last + 143.9)).toBe(0);
    expect(table.expire(last + 144.1)).toBe(1);
  });
});

describe('RemoteEntityTable: extrapolation', () => {
  const vec = fc.tuple(
    fc.double({ min: -100, max: 100, noNaN: true }),
    fc.double({ min: -100, max: 100, noNaN: true }),
    fc.double({ min: -100, max: 100, noNaN: true }),
  );
  const rates = fc.tuple(
    fc.double({ min: -1, max: 1, noNaN: true }),
    fc.double({ min: -1, max: 1, noNaN: true }),
    fc.double({ min: -1, max: 1, noNaN: true }),
  );
  const entity = fc.record({
    algorithm: fc.integer({ min: 0, max: 12 }),
    velocity: vec,
    acceleration: vec,
    rates,
    orientation: rates,
    arrival: fc.double({ min: 0, max: 5, noNaN: true }),
  });

  it('every slot equals the single-entity model, whatever mix of algorithms', () => {
    fc.assert(
      fc.property(
        fc.array(entity, { minLength: 1, maxLength: 30 }),
        fc.double({ min: 5, max: 20, noNaN: true }),
        (entities, t) => {
          const table = new RemoteEntityTable({ capacity: 64 });
          entities.forEach((e, i) =>
            table.apply(record({ entity: i + 1, location: [6378137, i * 10, 0], ...e }), e.arrival),
          );
          table.extrapolate(t);
          const outL = new Float64Array(3 * 64),
            outO = new Float64Array(3 * 64);
          table.extrapolate(t, outL, outO);
          entities.forEach((e, i) => {
            const slot = table.slotOf(entityKey(1, 2, i + 1));
            const p = new Float64Array(3),
              o = new Float64Array(3);
            // The PDU as the table holds it: its 32-bit fields in float32, as decoded.
            new DeadReckoningModel()
              .reset(
                [6378137, i * 10, 0],
                f32(e.velocity),
                f32(e.orientation),
                f32(e.acceleration),
                f32(e.rates),
                e.algorithm,
              )
              .evaluate(t - e.arrival, p, o);
            expectClose(table.location.subarray(3 * slot, 3 * slot + 3), p, 1e-7, `slot ${slot} location`);
            expectClose(table.orientation.subarray(3 * slot, 3 * slot + 3), o, 1e-12, `slot ${slot} orientation`);
            expectClose(outL.subarray(3 * slot, 3 * slot + 3), p, 1e-7, `caller array ${slot} location`);
            expectClose(outO.subarray(3 * slot, 3 * slot + 3), o, 1e-12, `caller array ${slot} orientation`);
          });
          expect(table.stats.unknownAlgorithm).toBe(
            entities.filter((e) => e.algorithm === 0 || e.algorithm > 9).length,
          );
        },
      ),
      { numRuns: 50 },
    );
  });

  it('keeps R_wb per slot, converting to angles only when read, and a PDU applied in between wins', () => {
    const table = new RemoteEntityTable({ capacity: 64, smoothing: { method: 'snap' } });
    const rotating = { algorithm: 4, rates: [0.3, -0.2, 0.5], orientation: [0.4, 0.2, -0.1], acceleration: [0, 1, 0] };
    for (let e = 1; e <= 20; e++)
      table.apply(record({ entity: e, location: [6378137, e, 0], ...(e % 2 ? rotating : {}) }), 0);
    table.extrapolate(2);
    const model = new DeadReckoningModel().reset(
      [6378137, 1, 0],
      [0, 10, 0],
      f32(rotating.orientation),
      rotating.acceleration,
      f32(rotating.rates),
      4,
    );
    const p = new Float64Array(3),
      o = new Float64Array(3),
      m = new Float64Array(9);
    model.evaluate(2, p, o, m);
    const slot = table.slotOf(entityKey(1, 2, 1));
    expectClose(table.worldToBody.subarray(9 * slot, 9 * slot + 9), m, 0, 'R_wb');
    expectClose(table.location.subarray(3 * slot, 3 * slot + 3), p, 0, 'location');
    // A new PDU for one slot after the extrapolation: its angles are the PDU's, not converted from the old matrix.
    table.apply(
      record({ entity: 1, location: [6378137, 1, 0], ...rotating, orientation: [1, 0.5, 0.25], timestamp: stamp(1) }),
      2,
    );
    expectClose(table.orientation.subarray(3 * slot, 3 * slot + 3), [1, 0.5, 0.25], 0, 'angles of the new PDU');
    const other = table.slotOf(entityKey(1, 2, 3));
    model
      .reset([6378137, 3, 0], [0, 10, 0], f32(rotating.orientation), rotating.acceleration, f32(rotating.rates), 4)
      .evaluate(2, p, o);
    expectClose(table.orientation.subarray(3 * other, 3 * other + 3), o, 0, 'converted angles');
    const fixed = table.slotOf(entityKey(1, 2, 2));
    expectClose(
      table.worldToBody.subarray(9 * fixed, 9 * fixed + 9),
      worldToBodyFromEuler(mat3.create(), 0, 0, 0),
      0,
      'fixed R_wb',
    );
  });

  it('a slot that changes between fixed and rotating algorithms turns from its newest PDU, or not at all when ω = 0', () => {
    const table = new RemoteEntityTable({ smoothing: { method: 'snap' } });
    const model = new DeadReckoningModel();
    const p = new Float64Array(3),
      o = new Float64Array(3),
      m = new Float64Array(9);
    const history = [
      { algorithm: 3, orientation: [0.3, -0.2, 0.1], rates: [0.2, 0.1, -0.3] },
      { algorithm: 2, orientation: [1.2, 0.4, -0.5], rates: [0, 0, 0] },
      { algorithm: 4, orientation: [-2.5, 0.1, 0.7], rates: [-0.1, 0.4, 0.2] },
      { algorithm: 5, orientation: [0.6, 0.2, 0.3], rates: [0.5, 0, 0] },
      { algorithm: 3, orientation: [2.8, -1.1, 2.9], rates: [0, 0, 0] },
    ];
    history.forEach((pdu, i) => {
      table.apply(record({ ...pdu, timestamp: stamp(i) }), i);
      model.reset([6378137, 0, 0], [0, 10, 0], f32(pdu.orientation), [0, 0, 0], f32(pdu.rates), pdu.algorithm);
      for (const dt of [0, 0.5]) {
        table.extrapolate(i + dt);
        model.evaluate(dt, p, o, m);
        expectClose(table.worldToBody.subarray(0, 9), m, 0, `PDU ${i} at +${dt} s: as the model`);
        const turned = pdu.rates.some((w) => w !== 0) && dt > 0 && pdu.algorithm !== 2 && pdu.algorithm !== 5;
        const [psi, theta, phi] = f32(pdu.orientation);
        const r0 = worldToBodyFromEuler(mat3.create(), psi!, theta!, phi!);
        expect(mat3.rotationAngleBetween(table.worldToBody.subarray(0, 9), r0)).toBeCloseTo(
          turned ? 0.5 * Math.hypot(...f32(pdu.rates)) : 0,
          7,
        );
      }
    });
  });

  it("'timestamp' mode extrapolates from the PDU's absolute timestamp, else from arrival", () => {
    const table = new RemoteEntityTable({ timeReference: 'timestamp', smoothing: { method: 'snap' } });
    const now = 1_700_000_000 + 0.5; // epoch seconds; 1_700_000_000 mod 3600 = 800
    table.apply(record({ entity: 1, velocity: [0, 10, 0], timestamp: stamp(800.3) }), now);
    table.apply(record({ entity: 2, velocity: [0, 10, 0], timestamp: stamp(800.3, false) }), now);
    table.apply(record({ entity: 3, velocity: [0, 10, 0], timestamp: stamp(900) }), now);
    table.extrapolate(now);
    const y = (e: number) => table.location[3 * table.slotOf(entityKey(1, 2, e)) + 1];
    expect(y(1)).toBeCloseTo(2, 4); // 0.2 s old at 10 m/s (epoch seconds carry ~0.2 µs)
    expect(y(2)).toBe(0);
    expect(y(3)).toBe(0);
    expect(table.stats.untrustedTimestamps).toBe(2);
  });
});

describe('RemoteEntityTable: smoothing', () => {
  const T = 0.5;
  /** Old path along +y at 10 m/s; at t = 1 a PDU says the entity is 3 m further east and moving 12 m/s. */
  function corrected(method: 'linear' | 'projective' | 'convergence' | 'snap', jumpEast = 3) {
    const table = new RemoteEntityTable({ smoothing: { method, durationSeconds: T, teleportMeters: 50 } });
    table.apply(record({ timestamp: stamp(0), orientation: [0, 0, 0] }), 0);
    table.render(1);
    const before = table.displayLocation.slice(0, 3),
      beforeO = table.displayOrientation.slice(0, 3);
    table.apply(
      record({
        timestamp: stamp(1),
        location: [6378137, 10, jumpEast],
        velocity: [0, 12, 0],
        orientation: [0.2, 0, 0],
      }),
      1,
    );
    return { table, before, beforeO };
  }

  it.each(['linear', 'projective', 'convergence'] as const)(
    '%s: starts at the old display, is continuous, ends on the new path',
    (method) => {
      const { table, before, beforeO } = corrected(method);
      table.render(1);
      // The correction is held in float32: a micrometre and a microradian.
      expectClose(table.displayLocation.subarray(0, 3), before, 1e-6, 'start position');
      expectClose(table.displayOrientation.subarray(0, 3), beforeO, 1e-6, 'start orientation');
      let previous = table.displayLocation.slice(0, 3),
        maxStep = 0;
      for (let t = 1.001; t <= 1 + T + 0.0005; t += 0.001) {
        table.render(t);
        maxStep = Math.max(
          maxStep,
          Math.hypot(...table.displayLocation.subarray(0, 3).map((c, k) => c - previous[k]!)),
        );
        previous = table.displayLocation.slice(0, 3);
      }
      // 12 m/s × 1 ms = 12 mm of travel plus a share of the 3 m correction per step: no jump.
      expect(maxStep).toBeLessThan(0.04);
      table.render(1 + T + 0.01);
      table.extrapolate(1 + T + 0.01);
      expectClose(table.displayLocation.subarray(0, 3), table.location.subarray(0, 3), 0, 'end position');
      expectClose(table.displayOrientation.subarray(0, 3), f32([0.2, 0, 0]), 0, 'end orientation');
      expect(table.isConverging(0)).toBe(false);
    },
  );

  it.each([4, 8])(
    'rotating algorithm %d: orientation and position start at the old display and end on the new path',
    (algorithm) => {
      const table = new RemoteEntityTable({ smoothing: { method: 'projective', durationSeconds: T } });
      table.apply(record({ algorithm, rates: [0.1, 0, 0.3], timestamp: stamp(0) }), 0);
      table.render(1);
      const before = table.displayLocation.slice(0, 3),
        beforeO = table.displayOrientation.slice(0, 3);
      table.apply(
        record({
          algorithm,
          rates: [0, 0.2, -0.1],
          location: [6378137, 12, 1],
          orientation: [0.5, 0.1, 0],
          timestamp: stamp(1),
        }),
        1,
      );
      table.render(1);
      expectClose(table.displayLocation.subarray(0, 3), before, 1e-6, 'start position');
      const r = (o: ArrayLike<number>) => worldToBodyFromEuler(mat3.create(), o[0]!, o[1]!, o[2]!);
      expect(mat3.rotationAngleBetween(r(table.displayOrientation), r(beforeO))).toBeLessThan(1e-6);
      table.render(1.25);
      table.extrapolate(1.25);
      expect(mat3.rotationAngleBetween(r(table.displayOrientation), r(table.orientation))).toBeGreaterThan(1e-3);
      table.render(1 + T);
      table.extrapolate(1 + T);
      expectClose(table.displayLocation.subarray(0, 3), table.location.subarray(0, 3), 0, 'end position');
      expectClose(table.displayOrientation.subarray(0, 3), table.orientation.subarray(0, 3), 0, 'end orientation');
    },
  );

  it('never smooths a frozen entity', () => {
    const table = new RemoteEntityTable({ smoothing: { method: 'linear', durationSeconds: T } });
    table.apply(record({ timestamp: stamp(0) }), 0);
    table.apply(record({ location: [6378137, 5, 1], appearance: 1 << 21, timestamp: stamp(1) }), 1);
    table.render(1.1);
    expectClose(table.displayLocation.subarray(0, 3), [6378137, 5, 1], 0, 'frozen');
  });

  it('snaps onto the first PDU after a frozen one', () => {
    const table = new RemoteEntityTable({ smoothing: { method: 'linear', durationSeconds: T } });
    table.apply(record({ timestamp: stamp(0) }), 0);
    table.apply(record({ location: [6378137, 5, 1], appearance: 1 << 21, timestamp: stamp(1) }), 1);
    table.render(1.5);
    table.apply(record({ location: [6378137, 20, 3], velocity: [0, 10, 0], timestamp: stamp(2) }), 2);
    table.render(2.1);
    expectClose(table.displayLocation.subarray(0, 3), [6378137, 21, 3], 1e-9, 'unfrozen');
    expect(table.isConverging(0)).toBe(false);
  });

  it('snaps for the snap method, for a teleport, and for new entities', () => {
    for (const [method, jump] of [
      ['snap', 3],
      ['linear', 80],
    ] as const) {
      const { table } = corrected(method, jump);
      table.render(1);
      expectClose(table.displayLocation.subarray(0, 3), [6378137, 10, jump], 1e-9, `${method} ${jump} m`);
    }
  });
});

describe('RemoteEntityTable: renderSlot', () => {
  const small = fc.double({ min: -20, max: 20, noNaN: true });
  const vec = fc.tuple(small, small, small);
  const angles = fc.tuple(
    fc.double({ min: -3, max: 3, noNaN: true }),
    fc.double({ min: -1.5, max: 1.5, noNaN: true }),
    fc.double({ min: -3, max: 3, noNaN: true }),
  );
  const rates = fc.tuple(
    fc.double({ min: -1, max: 1, noNaN: true }),
    fc.double({ min: -1, max: 1, noNaN: true }),
    fc.double({ min: -1, max: 1, noNaN: true }),
  );
  const pdu = fc.record({
    entity: fc.integer({ min: 1, max: 3 }),
    algorithm: fc.integer({ min: 0, max: 12 }),
    location: vec,
    velocity: vec,
    acceleration: vec,
    rates,
    orientation: angles,
    frozen: fc.boolean(),
    gapSeconds: fc.double({ min: 0, max: 0.4, noNaN: true }),
    frames: fc.integer({ min: 0, max: 3 }),
  });
  const method = fc.constantFrom('snap', 'linear', 'projective', 'convergence' as const);
  /** The doubles' bit patterns: equal means identical, −0 and NaN included. */
  const bits = (x: Float64Array) => Array.from(new Uint32Array(Float64Array.from(x).buffer));

  it('writes bit for bit what render writes at the slot, whatever the history, and leaves the display arrays alone', () => {
    fc.assert(
      fc.property(method, fc.array(pdu, { minLength: 1, maxLength: 25 }), (smoothingMethod, pdus) => {
        const options = {
          capacity: 3,
          smoothing: { method: smoothingMethod, durationSeconds: 0.3, teleportMeters: 30 },
        };
        const rendered = new RemoteEntityTable(options),
          single = new RemoteEntityTable(options);
        const location = new Float64Array(3),
          worldToBody = new Float64Array(9);
        let t = 0;
        const r = new EntityStateRecord(0);
        for (const p of pdus) {
          t += p.gapSeconds;
          record(
            {
              ...p,
              location: [6378137 + p.location[0], p.location[1], p.location[2]],
              appearance: p.frozen ? 1 << 21 : 0,
              timestamp: stamp(t),
            },
            r,
          );
          rendered.apply(r, t);
          single.apply(r, t);
          for (let f = 0; f < p.frames; f++) {
            const frame = t + (f * p.gapSeconds) / p.frames;
            rendered.render(frame);
            const untouched = single.displayLocation.slice();
            for (let slot = 0; slot < rendered.highWater; slot++) {
              if (rendered.active[slot] !== 1) continue;
              single.renderSlot(slot, frame, location, worldToBody);
              expect(bits(location)).toEqual(bits(rendered.displayLocation.subarray(3 * slot, 3 * slot + 3)));
              expect(bits(worldToBody)).toEqual(bits(rendered.displayWorldToBody.subarray(9 * slot, 9 * slot + 9)));
              expect(single.isConverging(slot)).toBe(rendered.isConverging(slot));
            }
            expect(bits(single.displayLocation)).toEqual(bits(untouched));
          }
        }
      }),
      { numRuns: 200 },
    );
  });
});

describe('RemoteEntityTable: lazy model resets', () => {
  const T = 0.5;
  const smoothing = { method: 'projective', durationSeconds: T } as const;
  const p1 = { algorithm: 4, rates: [0.1, 0, 0.3], timestamp: stamp(0) };
  const p2 = { algorithm: 4, rates: [0, 0.2, 0], location: [6378137, 9, 1], timestamp: stamp(1) };
  const p3 = {
    algorithm: 4,
    rates: [0, 0.2, -0.1],
    location: [6378137, 12, 2],
    orientation: [0.5, 0.1, 0],
    velocity: [0, 11, 0],
    timestamp: stamp(1.2),
  };

  it('a burst of PDUs between frames is displayed as its last PDU alone, smoothed from the display before the burst', () => {
    const burst = new RemoteEntityTable({ smoothing }),
      last = new RemoteEntityTable({ smoothing });
    for (const table of [burst, last]) {
      table.apply(record(p1), 0);
      table.render(0.5);
    }
    burst.apply(record(p2), 1);
    burst.apply(record(p3), 1.2);
    last.apply(record(p3), 1.2);
    // When the last PDU arrives nothing but the first PDU's model has been displayed: the correction starts there.
    const first = new DeadReckoningModel().reset([6378137, 0, 0], [0, 10, 0], [0, 0, 0], [0, 0, 0], f32(p1.rates), 4);
    const p = new Float64Array(3),
      m = new Float64Array(9);
    first.evaluate(1.2, p, null, m);
    burst.render(1.2);
    // The correction is held in float32: a micrometre and a microradian.
    expectClose(burst.displayLocation.subarray(0, 3), p, 1e-6, 'start position');
    expectClose(burst.displayWorldToBody.subarray(0, 9), m, 1e-6, 'start R_wb');
    for (const t of [1.2, 1.3, 1.45, 1.7, 2]) {
      burst.render(t);
      last.render(t);
      expectClose(burst.displayLocation.subarray(0, 3), last.displayLocation.subarray(0, 3), 0, `position at ${t}`);
      expectClose(burst.displayWorldToBody.subarray(0, 9), last.displayWorldToBody.subarray(0, 9), 0, `R_wb at ${t}`);
    }
    const newest = new DeadReckoningModel().reset(
      p3.location,
      p3.velocity,
      f32(p3.orientation),
      [0, 0, 0],
      f32(p3.rates),
      4,
    );
    newest.evaluate(2 - 1.2, p, null, m);
    expectClose(burst.displayLocation.subarray(0, 3), p, 1e-9, 'end position on the last PDU');
    expect(burst.stats.updated).toBe(2);
  });

  it('every reader sees the newest PDU before any frame, in the event of the PDU and in a removal event', () => {
    const seen: number[] = [];
    const table: RemoteEntityTable = new RemoteEntityTable({
      smoothing,
      onEvent: (kind, slot) => seen.push(kind, table.store.location0[3 * slot + 1]!, table.referenceSeconds[slot]!),
    });
    table.apply(record({ ...p1, orientation: [0.3, 0, 0], algorithm: 2 }), 0);
    table.render(0.5);
    table.apply(record({ ...p2, orientation: [0.4, 0.1, 0], algorithm: 2 }), 1);
    expect(seen).toEqual([TableEvent.APPEARED, 0, 0, TableEvent.UPDATED, 9, 1]);
    expectClose(table.store.location0.subarray(0, 3), [6378137, 9, 1], 0, 'models');
    expectClose(table.orientation.subarray(0, 3), f32([0.4, 0.1, 0]), 0, 'angles');
    expectClose(
      table.worldToBody.subarray(0, 9),
      worldToBodyFromEuler(mat3.create(), Math.fround(0.4), Math.fround(0.1), 0),
      1e-15,
      'fixed R_wb',
    );
    expect(table.isConverging(0)).toBe(true);
    table.apply(record({ ...p3, algorithm: 2, location: [6378137, 13, 0] }), 1.2);
    table.apply(record({ appearance: APPEARANCE_DEACTIVATED, timestamp: stamp(1.3) }), 1.3);
    expect(seen.slice(-6)).toEqual([TableEvent.UPDATED, 13, 1.2, TableEvent.REMOVED, 13, 1.2]);
  });

  it('every getter of model state loads the pending PDUs before it returns', () => {
    const descriptors = Object.getOwnPropertyDescriptors(RemoteEntityTable.prototype);
    // Which slots are in use is known when a PDU is applied: nothing to load for those.
    const getters = Object.entries(descriptors).filter(([name, d]) => d.get && name !== 'highWater' && name !== 'size');
    const names = getters.map(([name]) => name);
    expect(names).toEqual(expect.arrayContaining(['store', 'referenceSeconds', 'orientation']));
    for (const [name, descriptor] of getters) {
      const table = new RemoteEntityTable();
      table.apply(record(p1), 0);
      const resolve = vi.spyOn(table, 'resolve');
      descriptor.get!.call(table);
      expect(resolve, name).toHaveBeenCalledTimes(1);
      descriptor.get!.call(table);
      expect(resolve, `${name}, nothing pending`).toHaveBeenCalledTimes(1);
    }
  });

  it('receivedStateInto reads the last PDU without loading it: what the models hold once loaded', () => {
    const out = new Float64Array(8);
    const inEvents: number[] = [];
    const table: RemoteEntityTable = new RemoteEntityTable({
      smoothing,
      timeReference: 'timestamp',
      onEvent: (kind, slot) => {
        table.receivedStateInto(slot, out, 1);
        inEvents.push(kind, ...out.subarray(1, 8));
      },
    });
    const resolve = vi.spyOn(table, 'resolve');
    // Arrival 3600 s + 1.1 s: the timestamp (1 s past the hour) is trusted and is the time the model is valid at.
    table.apply(record({ ...p2, orientation: [0.4, 0.1, -0.2] }), 3601.1);
    table.receivedStateInto(0, out);
    expect(resolve).not.toHaveBeenCalled();
    const pending = [...out.subarray(0, 7)];
    expect(pending.slice(0, 6)).toEqual([6378137, 9, 1, ...f32([0.4, 0.1, -0.2])]);
    expect(pending[6]).toBeCloseTo(3601, 6);
    expect(inEvents).toEqual([TableEvent.APPEARED, ...pending]);
    table.render(3601.2);
    table.receivedStateInto(0, out);
    const s = table.store;
    const loaded = [...s.location0.subarray(0, 3), ...s.orientation0.subarray(0, 3), table.referenceSeconds[0]];
    expect([...out.subarray(0, 7)]).toEqual(loaded);
    expect([...out.subarray(0, 7)]).toEqual(pending);
    // A removal event still reads the entity's last PDU.
    table.apply(record({ ...p3, algorithm: 2 }), 3601.3);
    table.apply(record({ appearance: APPEARANCE_DEACTIVATED, timestamp: stamp(1.3) }), 3601.3);
    expect(inEvents.slice(-8, -6)).toEqual([TableEvent.REMOVED, 6378137]);
    expect(inEvents.slice(-6, -1)).toEqual([12, 2, ...f32([0.5, 0.1, 0])]);
  });

  it('a slot released with a PDU pending and taken by another entity snaps to that entity', () => {
    const table = new RemoteEntityTable({ capacity: 1, smoothing });
    table.apply(record({ entity: 1, ...p1 }), 0);
    table.render(0.5);
    table.apply(record({ entity: 1, ...p2 }), 1);
    table.apply(record({ entity: 1, appearance: APPEARANCE_DEACTIVATED, timestamp: stamp(1.1) }), 1.1);
    expect(table.apply(record({ entity: 2, location: [6378137, 500, 0], timestamp: stamp(1.1) }), 1.1)).toBe(
      ApplyResult.APPEARED,
    );
    table.render(1.2);
    expect(table.isConverging(0)).toBe(false);
    expectClose(table.displayLocation.subarray(0, 3), [6378137, 501, 0], 1e-9, 'the new entity alone');
    table.apply(record({ entity: 2, location: [6378137, 503, 0], timestamp: stamp(1.3) }), 1.3);
    table.render(1.3);
    expect(table.isConverging(0)).toBe(true);
  });

  it('an Entity State Update keeps the DR parameters of a full PDU still pending', () => {
    const table = new RemoteEntityTable();
    table.apply(record({ algorithm: 2, timestamp: stamp(0) }), 0);
    table.render(0.5);
    table.apply(record({ algorithm: 4, acceleration: [1, 0, 0], rates: [0, 0, 0.1], timestamp: stamp(1) }), 1);
    table.apply(
      record({
        type: 67,
        algorithm: 0,
        acceleration: [9, 9, 9],
        rates: [9, 9, 9],
        location: [6378137, 30, 0],
        timestamp: stamp(1.1),
      }),
      1.1,
    );
    expect(table.store.algorithm[0]).toBe(4);
    expectClose(table.store.acceleration.subarray(0, 3), [1, 0, 0], 0, 'acceleration');
    expectClose(table.store.angularVelocity.subarray(0, 3), f32([0, 0, 0.1]), 0, 'rates');
    expectClose(table.store.location0.subarray(0, 3), [6378137, 30, 0], 0, 'location');
  });
});

describe('EntitySlots and its EntityIndex', () => {
  it('behave like a Map under random takes and releases, slots reused, bounded', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.boolean(), fc.integer({ min: 0, max: 40 })), { maxLength: 300 }), (ops) => {
        const slots = new EntitySlots(24),
          map = new Map<number, number>();
        for (const [take, k] of ops) {
          const key = entityKey(k % 3, 7, k);
          if (take && !map.has(key)) {
            const slot = slots.take(key);
            if (map.size === 24) expect(slot).toBe(-1);
            else {
              expect(slot).toBeGreaterThanOrEqual(0);
              expect([...map.values()]).not.toContain(slot);
              map.set(key, slot);
            }
          } else if (!take && map.has(key)) {
            slots.release(map.get(key)!);
            map.delete(key);
          }
          for (let j = 0; j <= 40; j++)
            expect(slots.slotOf(entityKey(j % 3, 7, j))).toBe(map.get(entityKey(j % 3, 7, j)) ?? -1);
          expect(slots.size).toBe(map.size);
          for (const [held, slot] of map) {
            expect(slots.key[slot]).toBe(held);
            expect(slots.active[slot]).toBe(1);
            expect(slot).toBeLessThan(slots.highWater);
          }
        }
      }),
      { numRuns: 60 },
    );
  });
});
