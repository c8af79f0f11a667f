// Displayed orientation error of a dead-reckoned entity against its truth, frame by frame. FVW holds the
// orientation between PDUs and the owner sends when its error passes the threshold Θ, so what a receiver shows
// may be off by more than Θ only by what the truth turns while a PDU travels (latency L, one sample step) and
// while the receiver blends onto a new PDU (smoothing time T): at most Θ + ω·(L + T + 1/rate), ω the largest
// angular rate of the truth over the last few blends. Recorded tracks are held to the same bound: their attitude
// is derived from the fixes (heading from course, pitch from climb, roll from turn rate).
import { describe, expect, it } from 'vitest';
import { DeadReckoningEmitter } from '../../src/dr/owner/emitter.js';
import { RemoteEntityTable } from '../../src/dr/receiver/remote-entity-table.js';
import { rotationAngleBetween } from '../../src/math/mat3.js';
import { EntityStateRecord } from '../../src/pdu/wire/entity-state-record.js';
import { stampRecord } from '../../src/experiment/receiver.js';
import { Transmission } from '../../src/experiment/transmission.js';
import { loadTrack, zeroGParabolas, type Trajectory } from '../../src/truth/index.js';
import { createTruthWithAttitude } from '../../src/truth/trajectory.js';

const HELICOPTER = new URL('../fixtures/tracks/helicopter_traffic_rega_zh.json.gz', import.meta.url).pathname;
const DEG = Math.PI / 180;

interface Condition {
  readonly latencySeconds: number;
  readonly smoothingSeconds: number;
  readonly thresholdRad: number;
  readonly rateHz: number;
}

/** Per frame: displayed orientation error and the truth's angular rate (rad, rad/s), and the PDU count. */
function run(trajectory: Trajectory, c: Condition): { errors: Float64Array; rates: Float64Array; pdus: number } {
  const emitter = new DeadReckoningEmitter({
    algorithm: 5,
    positionThresholdMeters: 1,
    orientationThresholdRad: c.thresholdRad,
    heartbeatSeconds: 5,
  });
  const table = new RemoteEntityTable({
    capacity: 1,
    smoothing: {
      method: c.smoothingSeconds > 0 ? 'linear' : 'snap',
      durationSeconds: c.smoothingSeconds,
      teleportMeters: 100,
    },
  });
  const steps = Math.floor(trajectory.durationSeconds * c.rateHz);
  const errors = new Float64Array(steps),
    rates = new Float64Array(steps);
  const truth = createTruthWithAttitude();
  const sent = new Transmission();
  const out = new EntityStateRecord(0);
  const location = new Float64Array(3),
    shown = new Float64Array(9);
  let delivered = 0;
  for (let i = 0; i < steps; i++) {
    const t = i / c.rateHz;
    trajectory.sample(t, truth);
    const reasons = emitter.update(truth, t, out, 0, truth.worldToBody);
    if (reasons !== 0) sent.add(i, reasons, out);
    // Deliver what has arrived: sent at step k, here at k/rate + L.
    for (; delivered < sent.count && sent.steps[delivered]! / c.rateHz + c.latencySeconds <= t + 1e-9; delivered++) {
      const record = sent.read(delivered, new EntityStateRecord(0));
      stampRecord(record, sent.steps[delivered]! / c.rateHz);
      table.apply(record, t);
    }
    rates[i] = Math.hypot(...truth.angularVelocity);
    if (table.size === 0) continue;
    table.renderSlot(0, t, location, shown);
    errors[i] = rotationAngleBetween(truth.worldToBody, shown);
  }
  return { errors, rates, pdus: sent.count };
}

/** Frames whose error exceeds Θ + ω̄·(L + T + 1/rate), ω̄ the largest rate over the last 2·(L + T) + 1 s. */
function framesOverBound(trajectory: Trajectory, c: Condition): string[] {
  const { errors, rates } = run(trajectory, c);
  const explained = c.latencySeconds + c.smoothingSeconds + 1 / c.rateHz;
  const window = Math.ceil((2 * (c.latencySeconds + c.smoothingSeconds) + 1) * c.rateHz);
  const over: string[] = [];
  for (let i = 0; i < errors.length; i++) {
    let rate = 0;
    for (let j = Math.max(0, i - window); j <= i; j++) rate = Math.max(rate, rates[j]!);
    const bound = c.thresholdRad + rate * explained + 1e-6;
    if (errors[i]! > bound)
      over.push(`t ${(i / c.rateHz).toFixed(2)} s: ${(errors[i]! / DEG).toFixed(2)}° > ${(bound / DEG).toFixed(2)}°`);
  }
  return over;
}

const CONDITIONS: Condition[] = [
  { latencySeconds: 0, smoothingSeconds: 0, thresholdRad: 3 * DEG, rateHz: 60 },
  { latencySeconds: 0, smoothingSeconds: 0.5, thresholdRad: 3 * DEG, rateHz: 60 },
  { latencySeconds: 0.1, smoothingSeconds: 0.5, thresholdRad: 3 * DEG, rateHz: 30 },
  { latencySeconds: 0.25, smoothingSeconds: 1, thresholdRad: 1 * DEG, rateHz: 60 },
];

describe('displayed orientation error with FVW', () => {
  it.each(CONDITIONS)('stays within the threshold plus latency and smoothing on zero-g parabolas (%j)', (c) => {
    expect(framesOverBound(zeroGParabolas({ parabolas: 2 }), c)).toEqual([]);
  });

  it.each(CONDITIONS)(
    'stays within the threshold plus latency and smoothing on the REGA helicopter (%j)',
    async (c) => {
      expect(framesOverBound(await loadTrack(HELICOPTER), c)).toEqual([]);
    },
  );

  it('without latency or smoothing never exceeds the threshold by more than one sample step of turn', () => {
    const c = CONDITIONS[0]!;
    const { errors, rates } = run(zeroGParabolas({ parabolas: 1 }), c);
    const maxRate = Math.max(...rates);
    expect(Math.max(...errors)).toBeLessThanOrEqual(c.thresholdRad + maxRate / c.rateHz);
    // And the threshold is used: errors come close to it.
    expect(Math.max(...errors)).toBeGreaterThan(0.9 * c.thresholdRad);
  });
});
