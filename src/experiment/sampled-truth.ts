/**
 * Truth for a run, step by step, sampled into Float64Arrays. The runs of a sweep cross thresholds, algorithms,
 * networks and seeds over a handful of trajectories, so a `RunTruth` is sampled once and read by every run that
 * shares its trajectory and rates. A table holds at most
 * `maxSteps` steps: a longer run reads it as a window that moves forward, so memory stays bounded.
 */
import { worldToBodyFromEuler } from '../math/euler.js';
import { rotationAngleBetween } from '../math/mat3.js';
import type { RunSpec } from './spec.js';
import {
  createTruthWithAttitude,
  type RecordingSummary,
  type StepSampler,
  type Trajectory,
  type TruthWithAttitude,
} from '../truth/trajectory.js';

/** Doubles per step in `pose`: location (3), then R_wb (9, row-major). */
const POSE = 12;
/** Where R_wb starts in a step's pose. */
export const TRUTH_WORLD_TO_BODY = 3;
/** Doubles per step in `motion`: velocity, acceleration, body rates (3 each). */
const MOTION = 9;
/** Steps a table holds by default: 2¹⁸ (73 min at 60 Hz, 44 MB). */
export const DEFAULT_MAX_TABLE_STEPS = 1 << 18;

/**
 * The true states at steps 0 … steps − 1 of a sampler. Poses (what the receiver is measured against) and motion
 * (what only the emitter reads) are kept apart, so that a run that replays its PDUs streams 96 bytes a step
 * through the cache instead of 168.
 */
export class SampledTruth {
  /** The held steps' locations and R_wb: read at `offset(step)` and `offset(step) + TRUTH_WORLD_TO_BODY`. */
  readonly pose: Float64Array;
  private readonly motion: Float64Array;
  /** The first step held, and how many are held from it. */
  private first = 0;
  private held = 0;
  private readonly scratch: TruthWithAttitude;
  /** Steps measured so far (0 … measured − 1), in order, and the figures: the truth's speed, acceleration, turn. */
  private measured = 0;
  private maxSpeed = 0;
  private maxAcceleration = 0;
  private maxTurnRate = 0;
  private readonly previousVelocity = new Float64Array(3);
  private readonly previousRotation = new Float64Array(9);

  /**
   * @param sampler - the state at a step (called in increasing step order while filling).
   * @param steps - steps in the run.
   * @param maxSteps - most steps held at once. Defaults to DEFAULT_MAX_TABLE_STEPS.
   */
  constructor(
    private readonly sampler: StepSampler,
    readonly steps: number,
    private readonly maxSteps = DEFAULT_MAX_TABLE_STEPS,
    /** Seconds between steps, for the measured rates. Defaults to 1. */
    private readonly stepSeconds = 1,
  ) {
    const held = Math.max(1, Math.min(steps, maxSteps));
    this.pose = new Float64Array(POSE * held);
    this.motion = new Float64Array(MOTION * held);
    this.scratch = createTruthWithAttitude(true);
  }

  /** Bytes held. */
  get byteLength(): number {
    return this.pose.byteLength + this.motion.byteLength;
  }

  /** Where the pose at `step` (0 ≤ step < steps) starts in `pose`, sampling the step first if it is not held. */
  offset(step: number): number {
    if (step < this.first || step >= this.first + this.held) this.fill(step);
    return POSE * (step - this.first);
  }

  /** Writes the state at `step` (0 ≤ step < steps) into out (location, velocity, acceleration, body rates, R_wb). */
  read(step: number, out: TruthWithAttitude): TruthWithAttitude {
    const b = this.offset(step),
      pose = this.pose;
    const m = this.motion,
      c = MOTION * (step - this.first);
    const p = out.location,
      v = out.linearVelocity,
      a = out.linearAcceleration,
      w = out.angularVelocity,
      r = out.worldToBody;
    p[0] = pose[b]!;
    p[1] = pose[b + 1]!;
    p[2] = pose[b + 2]!;
    for (let k = 0; k < 9; k++) r[k] = pose[b + 3 + k]!;
    v[0] = m[c]!;
    v[1] = m[c + 1]!;
    v[2] = m[c + 2]!;
    a[0] = m[c + 3]!;
    a[1] = m[c + 4]!;
    a[2] = m[c + 5]!;
    w[0] = m[c + 6]!;
    w[1] = m[c + 7]!;
    w[2] = m[c + 8]!;
    return out;
  }

  /**
   * The truth's largest speed, acceleration and turn rate over every step (sampling the steps no run has read yet),
   * as `TruthQuality` figures.
   */
  quality(): { maxSpeedMps: number; maxAccelerationMps2: number; maxTurnRateDegPerS: number } {
    while (this.measured < this.steps) this.fill(this.measured);
    return {
      maxSpeedMps: this.maxSpeed,
      maxAccelerationMps2: this.maxAcceleration,
      maxTurnRateDegPerS: (this.maxTurnRate * 180) / Math.PI,
    };
  }

  /** Measures the state in `scratch`, the step after the last one measured. */
  private measure(s: TruthWithAttitude): void {
    const v = s.linearVelocity,
      r = s.worldToBody;
    const speed = Math.sqrt(v[0]! * v[0]! + v[1]! * v[1]! + v[2]! * v[2]!);
    if (speed > this.maxSpeed) this.maxSpeed = speed;
    if (this.measured > 0) {
      const p = this.previousVelocity;
      const dv = Math.sqrt((v[0]! - p[0]!) ** 2 + (v[1]! - p[1]!) ** 2 + (v[2]! - p[2]!) ** 2);
      const acceleration = dv / this.stepSeconds;
      if (acceleration > this.maxAcceleration) this.maxAcceleration = acceleration;
      const turn = rotationAngleBetween(r, this.previousRotation) / this.stepSeconds;
      if (turn > this.maxTurnRate) this.maxTurnRate = turn;
    }
    this.previousVelocity.set(v);
    this.previousRotation.set(r);
    this.measured++;
  }

  /** Samples the window that starts at `step`. */
  private fill(step: number): void {
    const s = this.scratch;
    this.first = step;
    this.held = Math.min(this.steps - step, this.maxSteps);
    for (let i = 0; i < this.held; i++) {
      this.sampler(step + i, s);
      if (step + i === this.measured) this.measure(s);
      this.pose.set(s.location, POSE * i);
      this.pose.set(s.worldToBody, POSE * i + 3);
      this.motion.set(s.linearVelocity, MOTION * i);
      this.motion.set(s.linearAcceleration, MOTION * i + 3);
      this.motion.set(s.angularVelocity, MOTION * i + 6);
    }
  }
}

/** A trajectory sampled for runs at one sample rate and render rate. */
export interface RunTruth {
  readonly trajectoryName: string;
  readonly durationSeconds: number;
  /** What the results should say about this truth (`runDuration`), shared by every run that flies it. */
  readonly notes: readonly string[];
  /** A recorded track's kind and what its estimator dropped and repaired. */
  readonly recording?: RecordingSummary;
  /** At the sample instants i / sampleRateHz. */
  readonly samples: SampledTruth;
  /** At the render instants f / renderRateHz; null when they are the sample instants. */
  readonly frames: SampledTruth | null;
  readonly byteLength: number;
}

/**
 * Tables of a trajectory for a run.
 * @param durationSeconds - simulated time. Defaults to the trajectory's.
 * @param renderRateHz - frames per second. Defaults to the sample rate.
 */
export function sampleRunTruth(
  trajectory: Trajectory,
  sampleRateHz: number,
  durationSeconds = trajectory.durationSeconds,
  renderRateHz = sampleRateHz,
  maxSteps = DEFAULT_MAX_TABLE_STEPS,
): RunTruth {
  const stepsAt = (rate: number) => Math.floor(durationSeconds * rate + 1e-9) + 1;
  const samples = new SampledTruth(
    stepSampler(trajectory, sampleRateHz),
    stepsAt(sampleRateHz),
    maxSteps,
    1 / sampleRateHz,
  );
  const frames =
    renderRateHz === sampleRateHz
      ? null
      : new SampledTruth(
          (f, out) => sampleWithAttitude(trajectory, f / renderRateHz, out as TruthWithAttitude),
          stepsAt(renderRateHz),
          maxSteps,
        );
  return {
    trajectoryName: trajectory.name,
    durationSeconds,
    notes: [],
    samples,
    frames,
    byteLength: samples.byteLength + (frames?.byteLength ?? 0),
  };
}

/** The settings a run's truth tables depend on, as a string. */
export function truthKey(spec: RunSpec): string {
  return JSON.stringify([
    spec.trajectory,
    spec.durationSeconds ?? null,
    spec.sampleRateHz,
    spec.renderRateHz ?? spec.sampleRateHz,
  ]);
}

/** The state at step / rateHz: by the trajectory's recurrences where it has them (the same instants). */
function stepSampler(trajectory: Trajectory, rateHz: number): StepSampler {
  return (
    trajectory.stepSampler?.(rateHz) ??
    ((step, out) => sampleWithAttitude(trajectory, step / rateHz, out as TruthWithAttitude))
  );
}

/** Samples truth with its R_wb (computed here when the trajectory did not fill it). */
function sampleWithAttitude(trajectory: Trajectory, t: number, out: TruthWithAttitude): TruthWithAttitude {
  out.worldToBody[0] = Number.NaN;
  trajectory.sample(t, out);
  if (Number.isNaN(out.worldToBody[0])) {
    const o = out.orientation;
    worldToBodyFromEuler(out.worldToBody, o[0]!, o[1]!, o[2]!);
  }
  return out;
}
