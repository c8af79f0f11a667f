/**
 * The track estimator end to end: a recording's fixes → measurements (`track-measurements.ts`) → the smoother
 * (`smoother.ts`) → a trajectory with its attitude (`smoothed-trajectory.ts`), and what was done with each fix.
 */
import type { RecordedAttitude } from './attitude.js';
import type { SourceNoise } from './measurement-noise.js';
import { findJumps } from './jumps.js';
import { MOTION_MODELS } from './motion-model.js';
import { markOvershoots } from './overshoot.js';
import { repairsOf, type TrackRepair } from './repairs.js';
import type { TrackPoint } from './track-point.js';
import { positionKnots, smoothFixes, type SmoothedTrack } from './smoother.js';
import { smoothedTrajectory } from './smoothed-trajectory.js';
import type { TrackKind } from './track-checks.js';
import { prepareFixes, type NoiseFound } from './track-measurements.js';
import type { Trajectory } from './trajectory.js';

/** Most times a track is smoothed again after dropping velocities its positions disagree with. */
const MAX_OVERSHOOT_ROUNDS = 8;
/**
 * A chord may be CEILING_FACTOR × the recording's fastest reported speed + CEILING_SLACK_MPS: sparse fixes do not
 * catch the fastest moment, and speeds are quantised to a knot.
 */
const CEILING_FACTOR = 1;
const CEILING_SLACK_MPS = 1;

/** Options of `estimateTrack`. */
export interface EstimateOptions {
  readonly kind: TrackKind;
  readonly noise: SourceNoise;
  /** Roll into turns. Defaults to the kind's model (aircraft bank). */
  readonly banked?: boolean;
  /** What the trajectory should say in reports. */
  readonly notes?: readonly string[];
}

/** A recording estimated: its trajectory and what the estimator did with each fix. */
export interface TrackEstimateResult {
  readonly trajectory: Trajectory;
  readonly smoothed: SmoothedTrack;
  /** `FixStatus` bits per fix of the input. */
  readonly status: Uint16Array;
  /** The fixes dropped and repaired, in the input's order. */
  readonly repairs: readonly TrackRepair[];
  readonly found: NoiseFound;
}

/**
 * Estimates the motion of one recording (fixes in time order, at least one with a position).
 * @param name - the trajectory's name.
 */
export function estimateTrack(
  name: string,
  points: readonly TrackPoint[],
  options: EstimateOptions,
): TrackEstimateResult {
  const model = MOTION_MODELS[options.kind];
  const { prepared, found, heightsOutOfRange } = prepareFixes(points, options.noise, model.heightRangeM);
  const jumps = findJumps(prepared, options.kind, model, options.noise.timingSigmaSeconds);
  const dropped = jumps.dropped;
  const smootherOptions = { kind: options.kind, model, noise: options.noise, dropped };
  let smoothed = smoothFixes(prepared, smootherOptions);
  // Velocities the positions disagree with (a loop flown between sparse fixes): dropped, and smoothed again.
  // The recording's fastest reported speed bounds every chord (with the noise and the timing of its fixes).
  let fastest = -1;
  for (const speed of prepared.reportedSpeed) if (speed > fastest) fastest = speed;
  const ceiling = fastest >= 0 ? CEILING_FACTOR * fastest + CEILING_SLACK_MPS : Number.POSITIVE_INFINITY;
  const slackM =
    3 * Math.sqrt(2 * prepared.variance[0]!) +
    (fastest >= 0 ? fastest : 0) * 3 * Math.SQRT2 * options.noise.timingSigmaSeconds;
  const overshoots = (): number => {
    return markOvershoots(positionKnots(smoothed), model, jumps, prepared.reportedSpeed, ceiling, slackM);
  };
  for (let round = 0; round < MAX_OVERSHOOT_ROUNDS && overshoots() > 0; round++) {
    smoothed = smoothFixes(prepared, smootherOptions);
  }
  const start = smoothed.times[0] ?? 0;
  const recorded = recordedAttitude(points, smoothed, start);
  const drawn = positionKnots(smoothed);
  const trajectory = smoothedTrajectory(name, drawn, {
    model,
    ...(fastest >= 0 ? { fastestMps: fastest } : {}),
    ...(options.banked === undefined ? {} : { banked: options.banked }),
    ...(recorded ? { recorded } : {}),
    ...(options.notes ? { notes: options.notes } : {}),
  });
  return {
    trajectory,
    smoothed,
    status: smoothed.status,
    repairs: repairsOf(points, smoothed.status, jumps, heightsOutOfRange),
    found,
  };
}

/** The heading, pitch and roll columns of the fixes the track kept, when any fix has them. */
function recordedAttitude(
  points: readonly TrackPoint[],
  smoothed: SmoothedTrack,
  startSeconds: number,
): RecordedAttitude | undefined {
  const has = (key: 'headingDeg' | 'pitchDeg' | 'rollDeg') => points.some((p) => Number.isFinite(p[key]));
  const keys = (['headingDeg', 'pitchDeg', 'rollDeg'] as const).filter(has);
  if (keys.length === 0) return undefined;
  const first = smoothed.knotFix[0] ?? 0;
  const kept = points.slice(first);
  const times = Float64Array.from(kept, (p) => p.timeSeconds - startSeconds);
  const column = (key: 'headingDeg' | 'pitchDeg' | 'rollDeg') =>
    keys.includes(key) ? Float64Array.from(kept, (p) => p[key] ?? Number.NaN) : undefined;
  const heading = column('headingDeg'),
    pitch = column('pitchDeg'),
    roll = column('rollDeg');
  return {
    times,
    ...(heading ? { headingDeg: heading } : {}),
    ...(pitch ? { pitchDeg: pitch } : {}),
    ...(roll ? { rollDeg: roll } : {}),
  };
}
