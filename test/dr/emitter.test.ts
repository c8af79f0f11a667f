import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EntityStateRecord } from '../../src/pdu/wire/entity-state-record.js';
import { createTruthState } from '../../src/dr/owner/truth-state.js';
import { DeadReckoningModel, deadReckon } from '../../src/dr/models/model.js';
import {
  DeadReckoningEmitter,
  EMIT_CHANGE,
  EMIT_FIRST,
  EMIT_HEARTBEAT,
  EMIT_ORIENTATION,
  EMIT_POSITION,
  emitReasonNames,
  type EmitterOptions,
} from '../../src/dr/owner/emitter.js';
import {
  HEARTBEAT_IEEE_TABLE_25,
  HEARTBEAT_KDIS,
  HEARTBEAT_STATIONARY_SECONDS,
  heartbeatSecondsFor,
} from '../../src/dr/owner/heartbeat.js';
import { PoseRateEstimator } from '../../src/dr/owner/pose-rates.js';
import * as mat3 from '../../src/math/mat3.js';
import { eulerFromWorldToBody, worldToBodyFromEuler } from '../../src/math/euler.js';
import { drMatrix } from '../../src/dr/models/rotation.js';
import type { TruthState } from '../../src/dr/owner/truth-state.js';
import { ORIGIN, accelerating, turning } from './trajectories.js';
import { expectClose } from '../support/close.js';

/** What a receiver computes from the record: the JSON-form fields fed to the independent `deadReckon`. */
function receiverView(r: EntityStateRecord, dt: number) {
  return deadReckon(
    {
      location: r.location,
      linearVelocity: r.linearVelocity,
      orientation: r.orientation,
      appearance: r.appearance,
      deadReckoning: {
        algorithm: r.drAlgorithm,
        linearAcceleration: r.linearAcceleration,
        angularVelocity: r.angularVelocity,
      },
    },
    dt,
  );
}

/** Runs an emitter over a trajectory at `hz` and checks, at every step, what receivers would see. */
function run(options: EmitterOptions, truthAt: (out: TruthState, t: number) => TruthState, seconds: number, hz = 20) {
  const emitter = new DeadReckoningEmitter(options);
  const record = new EntityStateRecord();
  const truth = createTruthState();
  const sends: { t: number; reasons: number; algorithm: number }[] = [];
  let maxUnsentError = 0,
    maxUnsentAngle = 0,
    sentAt = 0;
  for (let i = 0; i <= seconds * hz; i++) {
    const t = i / hz;
    truthAt(truth, t);
    const reasons = emitter.update(truth, t, record);
    if (reasons !== 0) {
      sends.push({ t, reasons, algorithm: record.drAlgorithm });
      sentAt = t;
    } else {
      const seen = receiverView(record, t - sentAt);
      const p = truth.location;
      const error = Math.hypot(p[0]! - seen.location[0]!, p[1]! - seen.location[1]!, p[2]! - seen.location[2]!);
      maxUnsentError = Math.max(maxUnsentError, error);
      const rt = worldToBodyFromEuler(
        mat3.create(),
        truth.orientation[0]!,
        truth.orientation[1]!,
        truth.orientation[2]!,
      );
      const rs = worldToBodyFromEuler(mat3.create(), seen.orientation[0]!, seen.orientation[1]!, seen.orientation[2]!);
      const angle = mat3.rotationAngleBetween(rt, rs);
      maxUnsentAngle = Math.max(maxUnsentAngle, angle);
      // The emitter's own errors are what the independent receiver computes from the record.
      expect(Math.abs(emitter.positionErrorMeters - error)).toBeLessThan(1e-6);
      expect(Math.abs(emitter.orientationErrorRad - angle)).toBeLessThan(1e-6);
    }
    for (const v of [record.linearVelocity, record.linearAcceleration, record.orientation, record.angularVelocity]) {
      for (const c of v) expect(Math.fround(c)).toBe(c);
    }
  }
  return { sends, maxUnsentError, maxUnsentAngle, emitter, record };
}

describe('DeadReckoningEmitter', () => {
  it('sends only heartbeats for motion its model predicts exactly', () => {
    const r = run({ algorithm: 5 }, (o, t) => accelerating(o, t, [10, -5, 3], [0.5, 0.25, -0.5]), 21);
    expect(r.sends.map((s) => s.t)).toEqual([0, 5, 10, 15, 20]);
    expect(r.sends[0]!.reasons).toBe(EMIT_FIRST);
    expect(r.sends.slice(1).every((s) => s.reasons === EMIT_HEARTBEAT)).toBe(true);
    expect(r.maxUnsentError).toBeLessThan(0.01);
  });

  it('keeps what receivers see within the position threshold (Euclidean) and sends when it is crossed', () => {
    const r = run(
      { algorithm: 2, positionThresholdMeters: 1, heartbeatSeconds: 1e9 },
      (o, t) => accelerating(o, t, [10, 0, 0], [0, 2, 2]),
      20,
    );
    // ½·|a|·t² = 1 m after t = 0.84 s, so about one PDU per 0.84 s at 20 Hz sampling.
    expect(r.sends.length).toBeGreaterThan(15);
    expect(r.sends.slice(1).every((s) => s.reasons === EMIT_POSITION)).toBe(true);
    expect(r.maxUnsentError).toBeLessThanOrEqual(1);
    expect(r.maxUnsentError).toBeGreaterThan(0.8);
  });

  it('sends on the orientation threshold when a fixed model misses a turn', () => {
    const r = run(
      { algorithm: 2, positionThresholdMeters: 1e9, heartbeatSeconds: 1e9 },
      (o, t) => turning(o, t, 50, 0.2),
      10,
    );
    expect(r.sends.slice(1).every((s) => s.reasons === EMIT_ORIENTATION)).toBe(true);
    // 3° at 0.2 rad/s is 0.26 s: about 38 PDUs in 10 s.
    expect(r.sends.length).toBeGreaterThan(30);
    expect(r.maxUnsentAngle).toBeLessThanOrEqual((3 * Math.PI) / 180);
  });

  it.each([7, 8])('body algorithm %d follows a steady turn exactly (A_b = d/dt of body velocity = 0)', (algorithm) => {
    const r = run({ algorithm }, (o, t) => turning(o, t, 50, 0.2), 12);
    expect(r.sends.map((s) => s.reasons)).toEqual([EMIT_FIRST, EMIT_HEARTBEAT, EMIT_HEARTBEAT]);
    expectClose(r.record.linearAcceleration, [0, 0, 0], 1e-5, 'A_b');
    expectClose(r.record.linearVelocity, [50, 0, 0], 1e-5, 'V_b');
    expect(r.maxUnsentError).toBeLessThan(0.01);
  });

  it('sends at once when the appearance changes or an update is requested, and names its reasons', () => {
    const e = new DeadReckoningEmitter();
    const rec = new EntityStateRecord(0);
    const truth = accelerating(createTruthState(), 0, [1, 0, 0], [0, 0, 0]);
    expect(e.update(truth, 0, rec, 0)).toBe(EMIT_FIRST);
    expect(e.update(truth, 0.1, rec, 0)).toBe(0);
    expect(e.update(truth, 0.2, rec, 1 << 21)).toBe(EMIT_CHANGE);
    expect(rec.appearance).toBe(1 << 21);
    e.requestUpdate();
    expect(e.update(truth, 0.3, rec, 1 << 21)).toBe(EMIT_CHANGE);
    expect(emitReasonNames(EMIT_POSITION | EMIT_HEARTBEAT)).toEqual(['position', 'heartbeat']);
  });

  it('never sends faster than the rate cap', () => {
    const r = run(
      { algorithm: 2, minIntervalSeconds: 1, heartbeatSeconds: 1e9 },
      (o, t) => accelerating(o, t, [0, 0, 0], [0, 20, 0]),
      10,
    );
    const gaps = r.sends.slice(1).map((s, i) => s.t - r.sends[i]!.t);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(1 - 1e-9);
    expect(r.sends.length).toBe(11);
  });

  it('auto: static at rest, FPW cruising, FVW accelerating, RPW/RVW turning', () => {
    const pick = (truthAt: (o: TruthState, t: number) => TruthState) =>
      run({ algorithm: 'auto', heartbeatSeconds: 2 }, truthAt, 4).sends.at(-1)!.algorithm;
    expect(pick((o, t) => accelerating(o, t, [0, 0, 0], [0, 0, 0]))).toBe(1);
    expect(pick((o, t) => accelerating(o, t, [30, 0, 0], [0, 0, 0]))).toBe(2);
    expect(pick((o, t) => accelerating(o, t, [30, 0, 0], [3, 0, 0]))).toBe(5);
    expect(pick((o, t) => turning(o, t, 0, 0.2))).toBe(3);
    expect(pick((o, t) => turning(o, t, 50, 0.2))).toBe(4);
  });

  it('adaptive threshold: proportional to speed within its bounds', () => {
    const adaptiveThreshold = { secondsOfTravel: 0.1, minMeters: 0.5, maxMeters: 3 };
    const slow = run(
      { algorithm: 2, adaptiveThreshold, heartbeatSeconds: 1e9 },
      (o, t) => accelerating(o, t, [2, 0, 0], [0, 0.1, 0]),
      10,
    );
    const fast = run(
      { algorithm: 2, adaptiveThreshold, heartbeatSeconds: 1e9 },
      (o, t) => accelerating(o, t, [100, 0, 0], [0, 0.1, 0]),
      10,
    );
    expect(slow.emitter.thresholdMeters).toBe(0.5);
    expect(fast.emitter.thresholdMeters).toBe(3);
    expect(slow.maxUnsentError).toBeLessThanOrEqual(0.5);
    expect(fast.sends.length).toBeLessThan(slow.sends.length);
  });
});

/** Parked at ORIGIN until `go`, along x at `speed` m/s until `stop`, then parked again. */
function parkDriveParkAt(go: number, stop: number, speed = 2) {
  return (out: TruthState, t: number): TruthState => {
    const moving = t >= go && t < stop;
    accelerating(out, 0, [0, 0, 0], [0, 0, 0]);
    out.location[0] = ORIGIN[0]! + speed * Math.max(0, Math.min(t, stop) - go);
    out.linearVelocity[0] = moving ? speed : 0;
    return out;
  };
}

describe('DeadReckoningEmitter: stationary heartbeat (HBT_STATIONARY)', () => {
  const parked = parkDriveParkAt(Infinity, Infinity);

  it('a parked entity sends its first PDU, then one per 60 s; one per 5 s with the stationary heartbeat off', () => {
    const r = run({}, parked, 200);
    expect(r.sends.map((s) => [s.t, s.reasons])).toEqual([
      [0, EMIT_FIRST],
      [60, EMIT_HEARTBEAT],
      [120, EMIT_HEARTBEAT],
      [180, EMIT_HEARTBEAT],
    ]);
    expect(r.emitter.sentStationary).toBe(true);
    expect(r.emitter.currentHeartbeatSeconds).toBe(HEARTBEAT_STATIONARY_SECONDS);
    for (const off of [null, 0])
      expect(run({ stationaryHeartbeatSeconds: off }, parked, 20).sends.map((s) => s.t)).toEqual([0, 5, 10, 15, 20]);
  });

  it('sends when it drives off past the threshold, heartbeats every 5 s while moving, every 60 s once parked again', () => {
    // Parked 0–30 s; 2 m/s from 30 s (1 m after 0.5 s: sent at the first sample past it); parked at 52 s.
    // Sampled at 16 Hz, so that every time is exact in binary.
    const r = run({}, parkDriveParkAt(30, 52), 200, 16);
    expect(r.sends.map((s) => [s.t, s.reasons])).toEqual([
      [0, EMIT_FIRST],
      [30.5625, EMIT_POSITION],
      [35.5625, EMIT_HEARTBEAT],
      [40.5625, EMIT_HEARTBEAT],
      [45.5625, EMIT_HEARTBEAT],
      // Receivers keep moving it at 2 m/s after the stop: 1 m off after 0.5 s; that PDU carries zero velocity.
      [50.5625, EMIT_HEARTBEAT],
      [52.5625, EMIT_POSITION],
      [112.5625, EMIT_HEARTBEAT],
      [172.5625, EMIT_HEARTBEAT],
    ]);
    expect([...r.record.linearVelocity]).toEqual([0, 0, 0]);
    expect(r.maxUnsentError).toBeLessThanOrEqual(1);
  });

  it('a creep sent with its velocity is moving; under "auto" it rests as static and is sent past the threshold', () => {
    // 9 mm/s sent as it is (RVW): 5 s heartbeats. Under 'auto' it is below the rest speed: static, so stationary;
    // a 0.25 m threshold is crossed after 27.8 s, before the 60 s heartbeat.
    const creep = parkDriveParkAt(0, Infinity, 0.009);
    expect(run({}, creep, 20).sends.map((s) => s.t)).toEqual([0, 5, 10, 15, 20]);
    const auto = run({ algorithm: 'auto', positionThresholdMeters: 0.25 }, creep, 100, 16);
    expect(auto.sends.map((s) => [s.t, s.reasons, s.algorithm])).toEqual([
      [0, EMIT_FIRST, 1],
      [27.8125, EMIT_POSITION, 1],
      [55.625, EMIT_POSITION, 1],
      [83.4375, EMIT_POSITION, 1],
    ]);
    // Without the threshold in reach, the stationary heartbeat.
    expect(run({ algorithm: 'auto' }, creep, 130, 16).sends.map((s) => [s.t, s.reasons])).toEqual([
      [0, EMIT_FIRST],
      [60, EMIT_HEARTBEAT],
      [120, EMIT_HEARTBEAT],
    ]);
  });

  it('turning on the spot (rates only) is not stationary for rotating models, and a longer regular heartbeat wins', () => {
    const spin = (o: TruthState, t: number) => turning(o, t, 0, 0.2);
    expect(run({ algorithm: 4 }, spin, 10).sends.map((s) => [s.t, s.reasons])).toEqual([
      [0, EMIT_FIRST],
      [5, EMIT_HEARTBEAT],
      [10, EMIT_HEARTBEAT],
    ]);
    // A fixed-orientation model misses the turn: sent on the orientation threshold, each PDU still with ω.
    expect(run({ algorithm: 2 }, spin, 10).sends.length).toBeGreaterThan(30);
    expect(run({ heartbeatSeconds: 100 }, parked, 200).sends.map((s) => s.t)).toEqual([0, 100, 200]);
    expect(
      new DeadReckoningEmitter({ heartbeatSeconds: 100, stationaryHeartbeatSeconds: 60 }).stationaryHeartbeatSeconds,
    ).toBe(100);
  });
});

describe('pose-only mode', () => {
  it('estimates velocity and acceleration exactly for constant acceleration, body rates exactly for a steady turn', () => {
    const est = new PoseRateEstimator();
    const truth = createTruthState(),
      estimated = createTruthState();
    for (const t of [0, 0.1, 0.25, 0.3]) {
      accelerating(truth, t, [10, -5, 3], [0.5, 0.25, -0.5]);
      est.add(truth.location, truth.orientation, t, estimated);
    }
    expectClose(estimated.linearVelocity, truth.linearVelocity, 1e-6, 'velocity');
    expectClose(estimated.linearAcceleration, truth.linearAcceleration, 1e-4, 'acceleration');
    for (const t of [1, 1.1]) {
      turning(truth, t, 50, 0.2);
      est.add(truth.location, truth.orientation, t, estimated);
    }
    expectClose(estimated.angularVelocity, [0, 0, 0.2], 1e-9, 'ω');
  });

  it('an emitter fed poses of a steady turn sends little more than heartbeats', () => {
    // RVB: a steady turn has constant body velocity and rates, so only the estimates' errors can trigger.
    const e = new DeadReckoningEmitter({ algorithm: 8 });
    const rec = new EntityStateRecord(0),
      truth = createTruthState();
    let sends = 0;
    for (let i = 0; i <= 200; i++) {
      turning(truth, i / 20, 50, 0.2);
      if (e.updateFromPose(truth.location, truth.orientation, i / 20, rec)) sends++;
    }
    // The first PDU has no rates yet (one sample), the second corrects that; then only heartbeats.
    expect(sends).toBeLessThanOrEqual(5);
  });
});

describe('heartbeat tables', () => {
  it.each([
    [1, 1, 5, 55],
    [1, 2, 5, 5],
    [1, 4, 5, 55],
    [3, 0, 5, 60],
    [2, 0, 5, 5],
  ])('kind %d domain %d: IEEE %d s, KDIS %d s', (kind, domain, ieee, kdis) => {
    expect(heartbeatSecondsFor(HEARTBEAT_IEEE_TABLE_25, kind, domain)).toBe(ieee);
    expect(heartbeatSecondsFor(HEARTBEAT_KDIS, kind, domain)).toBe(kdis);
  });
});

/**
 * The decision as the plain formulas state it, from the public model: √|e|² > threshold and, with [2sin, 2cos] of
 * the error rotation from `rotationSinCos`, 2sin·cos θ − 2cos·sin θ > 0. The emitter skips square roots and, for
 * rotating models, most evaluations of the model's rotation; its decisions must be these to the bit.
 */
function referenceDecision(
  model: DeadReckoningModel,
  dt: number,
  location: ArrayLike<number>,
  trueR: Float64Array,
  positionM: number,
  angleRad: number,
) {
  const q = new Float64Array(3),
    r = new Float64Array(9);
  model.evaluate(dt, q, null, r);
  const ex = location[0]! - q[0]!,
    ey = location[1]! - q[1]!,
    ez = location[2]! - q[2]!;
  const error = Math.sqrt(ex * ex + ey * ey + ez * ez);
  const sinCos = mat3.rotationSinCos(new Float64Array(2), trueR, r);
  const theta = Math.min(Math.max(angleRad, 0), Math.PI);
  const reasons =
    (error > positionM ? EMIT_POSITION : 0) |
    (sinCos[0]! * Math.cos(theta) - sinCos[1]! * Math.sin(theta) > 0 ? EMIT_ORIENTATION : 0);
  return { reasons, error, angle: Math.atan2(sinCos[0]!, sinCos[1]!) };
}

describe('DeadReckoningEmitter: decisions to the bit', () => {
  const component = fc.double({ min: -1, max: 1, noNaN: true });
  const vec = (scale: number) => fc.tuple(component, component, component).map((v) => v.map((x) => x * scale));
  // Truth drifts steadily away from the first PDU's model, in position and in orientation, so that the last step
  // has the largest errors; the thresholds are set at, or within a few ulps of, those errors.
  const scenario = fc.record({
    algorithm: fc.integer({ min: 1, max: 9 }),
    velocity: vec(60),
    acceleration: vec(3),
    euler: vec(1.5),
    rates: vec(0.5),
    drift: vec(5),
    axis: vec(1),
    angle: fc.double({ min: 0, max: 0.3, noNaN: true }),
    steps: fc.integer({ min: 2, max: 90 }),
    positionUlps: fc.integer({ min: -3, max: 3 }),
    angleNudge: fc.constantFrom(-1e-15, -1e-17, 0, 1e-17, 1e-15, 1e-3, -1e-3),
    byAngles: fc.boolean(),
    // Or the truth holds a fixed orientation while a rotating model turns away from it.
    truthTurns: fc.boolean(),
  });

  it('equal the plain formulas at every step, at and around both thresholds; the readings too', () => {
    fc.assert(
      fc.property(scenario, (sc) => {
        const first = createTruthState();
        first.location.set(ORIGIN);
        first.linearVelocity.set(sc.velocity);
        first.linearAcceleration.set(sc.acceleration);
        first.orientation.set(sc.euler);
        first.angularVelocity.set(sc.rates);
        const options = { algorithm: sc.algorithm, heartbeatSeconds: 1e9, stationaryHeartbeatSeconds: null };
        const sent = new EntityStateRecord();
        new DeadReckoningEmitter(options).update(first, 0, sent);
        const firstModel = modelOf(sent);
        // The truth path: the first model plus a growing offset and error rotation.
        const truths = Array.from({ length: sc.steps }, (_, i) => {
          const t = (i + 1) / 60,
            f = (i + 1) / sc.steps;
          const truth = createTruthState(),
            r = new Float64Array(9);
          firstModel.evaluate(t, truth.location, null, r);
          if (!sc.truthTurns) firstModel.evaluate(0, new Float64Array(3), null, r);
          for (let k = 0; k < 3; k++) truth.location[k]! += sc.drift[k]! * f;
          const e = drMatrix(
            mat3.create(),
            sc.axis.map((x) => x * sc.angle * (sc.truthTurns ? f : 1)),
            1,
          );
          const trueR = mat3.multiply(mat3.create(), e, r);
          eulerFromWorldToBody(truth.orientation, trueR);
          truth.linearVelocity.set(sc.velocity);
          truth.angularVelocity.set(sc.rates);
          return {
            t,
            truth,
            trueR: sc.byAngles
              ? worldToBodyFromEuler(mat3.create(), truth.orientation[0]!, truth.orientation[1]!, truth.orientation[2]!)
              : trueR,
          };
        });
        const last = truths[truths.length - 1]!;
        const atEnd = referenceDecision(firstModel, last.t, last.truth.location, last.trueR, 0, 0);
        const positionM = atEnd.error * (1 + sc.positionUlps * Number.EPSILON);
        const angleRad = atEnd.angle + sc.angleNudge;
        const emitter = new DeadReckoningEmitter({
          ...options,
          positionThresholdMeters: positionM,
          orientationThresholdRad: angleRad,
        });
        const record = new EntityStateRecord();
        emitter.update(first, 0, record);
        let model = modelOf(record);
        for (const { t, truth, trueR } of truths) {
          const expected = referenceDecision(
            model,
            t - emitter.lastSentSeconds,
            truth.location,
            trueR,
            positionM,
            angleRad,
          );
          const reasons = emitter.update(truth, t, record, 0, sc.byAngles ? null : trueR);
          expect(reasons & (EMIT_POSITION | EMIT_ORIENTATION)).toBe(expected.reasons);
          if (reasons === 0) {
            expect(emitter.positionErrorMeters).toBe(expected.error);
            expect(emitter.orientationErrorRad).toBe(expected.angle);
          } else model = modelOf(record);
        }
      }),
      { numRuns: 300 },
    );
  });
});

function modelOf(r: EntityStateRecord): DeadReckoningModel {
  return new DeadReckoningModel().reset(
    r.location,
    r.linearVelocity,
    r.orientation,
    r.linearAcceleration,
    r.angularVelocity,
    r.drAlgorithm,
    r.appearance,
  );
}
