// The emitter bank against one DeadReckoningEmitter per entity, fed the same truth: the same reasons at every
// decision and the same PDU (to the bit) at every send, for every algorithm including 'auto', fixed and adaptive
// thresholds, both heartbeats, the rate cap, appearance changes and requested updates, the truth's attitude as
// angles or as matrices, passes over the whole bank or parts of it, and banks large enough for the SIMD kernel.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EmitterBank } from '../../src/dr/owner/emitter-bank.js';
import {
  DeadReckoningEmitter,
  EMIT_CHANGE,
  EMIT_FIRST,
  EMIT_HEARTBEAT,
  EMIT_ORIENTATION,
  EMIT_POSITION,
  type EmitterOptions,
} from '../../src/dr/owner/emitter.js';
import { createTruthState, type TruthState } from '../../src/dr/owner/truth-state.js';
import { worldToBodyFromEuler } from '../../src/math/euler.js';
import { ENTITY_STATE_BYTES } from '../../src/pdu/wire/constants.js';
import { encodeEntityStateInto } from '../../src/pdu/wire/entity-state-encoder.js';
import { EntityStateRecord } from '../../src/pdu/wire/entity-state-record.js';
import { accelerating, turning } from './trajectories.js';

/** How an entity moves: the analytic trajectories of the emitter tests, a weaving, rolling one, and stops. */
const MOTIONS = ['parked', 'cruise', 'accelerate', 'turn', 'weave', 'parkThenDrive', 'turnThenHold'] as const;
type Motion = (typeof MOTIONS)[number];

interface EntitySpec {
  readonly motion: Motion;
  readonly speed: number;
  readonly rate: number;
  readonly amplitude: number;
  readonly euler: number[];
  readonly options: EmitterOptions;
}

function truthAt(out: TruthState, spec: EntitySpec, t: number): TruthState {
  const { speed, rate, amplitude, euler } = spec;
  switch (spec.motion) {
    case 'parked':
      return accelerating(out, 0, [0, 0, 0], [0, 0, 0], euler);
    case 'cruise':
      return accelerating(out, t, [speed, -0.5 * speed, 0.1], [0, 0, 0], euler);
    case 'accelerate':
      return accelerating(out, t, [speed, 0, 0], [0.3 * amplitude, amplitude, -0.2], euler);
    case 'turn':
      return turning(out, t, speed, rate, euler);
    case 'parkThenDrive':
      return t < 3 ? accelerating(out, 0, [0, 0, 0], [0, 0, 0], euler) : turning(out, t - 3, speed, rate, euler);
    case 'turnThenHold':
      // Spins in place and stops at 2 s, while its last PDU (a rotating model) goes on turning.
      turning(out, Math.min(t, 2), 0, rate, euler);
      if (t >= 2) out.angularVelocity.fill(0);
      return out;
    case 'weave': {
      // Along x with a sinusoidal weave in y, and a heading and roll that swing with it.
      accelerating(out, t, [speed, 0, 0], [0, 0, 0], euler);
      const w = 0.5 + rate;
      out.location[1]! += amplitude * Math.sin(w * t);
      out.linearVelocity[1] = amplitude * w * Math.cos(w * t);
      out.linearAcceleration[1] = -amplitude * w * w * Math.sin(w * t);
      out.orientation[0] = euler[0]! + 0.2 * Math.sin(w * t);
      out.orientation[2] = euler[2]! + 0.3 * Math.cos(w * t);
      out.angularVelocity.set([-0.3 * w * Math.sin(w * t), 0, 0.2 * w * Math.cos(w * t)]);
      return out;
    }
  }
}

const optionsArbitrary: fc.Arbitrary<EmitterOptions> = fc.record(
  {
    algorithm: fc.constantFrom<number | 'auto'>(1, 2, 3, 4, 5, 6, 7, 8, 9, 'auto', 'auto'),
    positionThresholdMeters: fc.constantFrom(0.05, 0.5, 1, 3, 20),
    orientationThresholdRad: fc.constantFrom(0, 0.01, 3 * (Math.PI / 180), 0.3, 2, 4),
    heartbeatSeconds: fc.constantFrom(0.7, 2, 5),
    stationaryHeartbeatSeconds: fc.constantFrom<number | null | undefined>(undefined, null, 0, 4, 60),
    minIntervalSeconds: fc.constantFrom(0, 0, 0.25),
    adaptiveThreshold: fc.constantFrom(null, { secondsOfTravel: 0.1, minMeters: 0.3, maxMeters: 2 }),
  },
  { requiredKeys: ['algorithm'] },
);

const entityArbitrary: fc.Arbitrary<EntitySpec> = fc.record({
  motion: fc.constantFrom(...MOTIONS),
  speed: fc.double({ min: 0, max: 80, noNaN: true }),
  rate: fc.double({ min: 0.01, max: 0.6, noNaN: true }),
  amplitude: fc.double({ min: 0, max: 6, noNaN: true }),
  euler: fc.tuple(
    fc.double({ min: -Math.PI, max: Math.PI, noNaN: true }),
    fc.double({ min: -1.5, max: 1.5, noNaN: true }),
    fc.double({ min: -Math.PI, max: Math.PI, noNaN: true }),
  ),
  options: optionsArbitrary,
});

const runArbitrary: fc.Arbitrary<Run> = fc.record({
  entities: fc.array(entityArbitrary, { minLength: 1, maxLength: 80 }),
  attitude: fc.constantFrom<'angles' | 'matrix'>('angles', 'matrix'),
  // Time steps: repeated instants, 10 Hz ticks, and gaps past the heartbeats.
  steps: fc.array(fc.constantFrom(0, 0.02, 0.1, 0.1, 0.1, 0.3, 1.1, 2.5), { minLength: 5, maxLength: 60 }),
  // Where passes are split (a fraction of the bank), and which entities change appearance or ask for an update.
  split: fc.double({ min: 0, max: 1, noNaN: true }),
  events: fc.array(fc.tuple(fc.nat(), fc.nat(), fc.constantFrom('appearance', 'request', 'deactivate')), {
    maxLength: 20,
  }),
});

const reasonsSeen = new Set<number>();
const algorithmsSeen = new Set<number>();
let adaptiveSends = 0,
  autoSends = 0,
  stationarySends = 0;

interface Run {
  readonly entities: readonly EntitySpec[];
  readonly attitude: 'angles' | 'matrix';
  readonly steps: readonly number[];
  readonly split: number;
  readonly events: ReadonlyArray<readonly [number, number, 'appearance' | 'request' | 'deactivate']>;
}

function compare(run: Run): void {
  const n = run.entities.length;
  const bank = new EmitterBank({ capacity: n, attitude: run.attitude });
  const emitters = run.entities.map((e) => new DeadReckoningEmitter(e.options));
  for (let i = 0; i < n; i++) bank.reset(i, bank.addProfile(run.entities[i]!.options));
  const truth = createTruthState();
  const matrix = new Float64Array(9);
  const expected = new EntityStateRecord(0),
    actual = new EntityStateRecord(0);
  const bytesExpected = new Uint8Array(ENTITY_STATE_BYTES),
    bytesActual = new Uint8Array(ENTITY_STATE_BYTES);
  const appearance = new Uint32Array(n);
  const requested = new Uint8Array(n);
  let t = 0;
  run.steps.forEach((step, s) => {
    t += step;
    for (const [stepAt, entity, kind] of run.events) {
      if (stepAt % run.steps.length !== s) continue;
      const i = entity % n;
      if (kind === 'appearance') appearance[i] = (appearance[i]! ^ (1 << (entity % 31))) >>> 0;
      else if (kind === 'deactivate') appearance[i] = (appearance[i]! | (1 << 23)) >>> 0;
      else requested[i] = 1;
    }
    for (let i = 0; i < n; i++) {
      truthAt(truth, run.entities[i]!, t);
      worldToBodyFromEuler(matrix, truth.orientation[0]!, truth.orientation[1]!, truth.orientation[2]!);
      bank.setTruth(i, truth, appearance[i], matrix);
      if (requested[i]) {
        bank.requestUpdate(i);
        emitters[i]!.requestUpdate();
        requested[i] = 0;
      }
    }
    // Two passes, split where the run says; each decided, then committed.
    const split = Math.floor(run.split * n);
    for (const [from, to] of [
      [0, split],
      [split, n],
    ] as const) {
      bank.decide(t, from, to);
      bank.commit(t);
    }
    for (let i = 0; i < n; i++) {
      truthAt(truth, run.entities[i]!, t);
      worldToBodyFromEuler(matrix, truth.orientation[0]!, truth.orientation[1]!, truth.orientation[2]!);
      const reasons = emitters[i]!.update(truth, t, expected, appearance[i], run.attitude === 'matrix' ? matrix : null);
      expect(bank.reasons[i], `entity ${i} at ${t} s`).toBe(reasons);
      if (reasons === 0) continue;
      bank.writeSentInto(i, actual);
      encodeEntityStateInto(bytesExpected, expected, 0);
      encodeEntityStateInto(bytesActual, actual, 0);
      expect(bytesActual, `PDU of entity ${i} at ${t} s`).toEqual(bytesExpected);
      for (const field of [
        'location',
        'linearVelocity',
        'orientation',
        'linearAcceleration',
        'angularVelocity',
      ] as const)
        for (let k = 0; k < 3; k++) expect(Object.is(actual[field][k], expected[field][k]), field).toBe(true);
      expect(bank.isStationary(i)).toBe(emitters[i]!.sentStationary);
      reasonsSeen.add(reasons);
      algorithmsSeen.add(expected.drAlgorithm);
      if (run.entities[i]!.options.adaptiveThreshold) adaptiveSends++;
      if (run.entities[i]!.options.algorithm === 'auto') autoSends++;
      if (emitters[i]!.sentStationary) stationarySends++;
    }
    for (let i = 0; i < n; i++) expect(bank.sentCount[i]).toBe(emitters[i]!.sentCount);
  });
}

describe('EmitterBank', () => {
  it('decides and sends exactly as one DeadReckoningEmitter per entity', () => {
    fc.assert(
      fc.property(runArbitrary, (run) => compare(run)),
      { numRuns: 120, seed: 24 },
    );
    // The runs reached every reason, every algorithm, 'auto', the adaptive threshold and the stationary heartbeat.
    const bits = [...reasonsSeen].reduce((a, b) => a | b, 0);
    expect(bits).toBe(EMIT_FIRST | EMIT_POSITION | EMIT_ORIENTATION | EMIT_HEARTBEAT | EMIT_CHANGE);
    expect([...algorithmsSeen].sort()).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(autoSends).toBeGreaterThan(100);
    expect(adaptiveSends).toBeGreaterThan(100);
    expect(stationarySends).toBeGreaterThan(10);
  }, 60_000);

  it('sends when a model turns past the truth in small steps, where the orientation bound decides most ticks', () => {
    // Spinning in place, then stopped: each rotating model goes on turning, 0.1 s at a time, until it is 3° off.
    const entities: EntitySpec[] = [];
    for (const algorithm of [3, 4, 7, 8, 'auto'] as const)
      for (const rate of [0.05, 0.3, 0.6])
        entities.push({
          motion: 'turnThenHold',
          speed: 0,
          rate,
          amplitude: 0,
          euler: [0.1, 0.2, 0.3],
          options: { algorithm },
        });
    compare({ entities, attitude: 'angles', steps: Array(60).fill(0.1), split: 0.5, events: [] });
    compare({ entities, attitude: 'matrix', steps: Array(60).fill(0.1), split: 0, events: [] });
  });

  it('keeps every entity when it grows, and goes on deciding as before', () => {
    const spec: EntitySpec = {
      motion: 'turn',
      speed: 20,
      rate: 0.2,
      amplitude: 0,
      euler: [0.1, 0.2, 0.3],
      options: { algorithm: 'auto' },
    };
    const bank = new EmitterBank({ capacity: 2 });
    const emitter = new DeadReckoningEmitter({ algorithm: 'auto' });
    bank.reset(1, bank.addProfile({ algorithm: 'auto' }));
    const truth = createTruthState(),
      record = new EntityStateRecord(0),
      sent = new EntityStateRecord(0);
    for (let step = 0; step < 100; step++) {
      const t = step / 10;
      if (step === 50) bank.grow(300);
      truthAt(truth, spec, t);
      bank.setTruth(1, truth);
      bank.decide(t, 1, 2);
      bank.commit(t);
      expect(bank.reasons[1]).toBe(emitter.update(truth, t, record));
      if (bank.reasons[1] !== 0) {
        bank.writeSentInto(1, sent);
        expect(sent.location).toEqual(record.location);
      }
    }
    expect(bank.capacity).toBe(300);
    expect(bank.sentCount[1]).toBe(emitter.sentCount);
  });

  it('shares one profile between entities with the same settings', () => {
    const bank = new EmitterBank({ capacity: 1 });
    expect(bank.addProfile({ algorithm: 'auto' })).toBe(bank.addProfile({ algorithm: 'auto' }));
    expect(bank.addProfile({ algorithm: 2 })).not.toBe(bank.addProfile({ algorithm: 'auto' }));
    expect(() => bank.reset(0, 7)).toThrow(RangeError);
    expect(() => bank.decide(0, 0, 2)).toThrow(RangeError);
  });
});
