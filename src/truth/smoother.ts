/**
 * The fixed-interval smoother of a recording: the forward filter of `track-filter.ts`, a Rauch–Tung–Striebel
 * backward pass (Rauch, Tung & Striebel 1965; `smoothAxis`), and before them a robust decision of which
 * measurements to use. A forward filter alone judges a fix only by the fixes before it: it takes a glitch at the
 * start as the track, and after a real manoeuvre it may reject good fixes. So each fix is judged by the fixes on
 * both sides: a forward pass (gated) records its prediction at every fix, a backward pass (the same filter on the
 * time-reversed fixes) predicts each fix from the ones after it, and a part of a fix is used when it agrees with
 * the two predictions combined (what the track says without that fix). A last forward pass with those decisions and
 * the backward RTS pass give the smoothed states. Four passes over typed arrays; nothing is allocated per fix.
 */
import type { EnuFrame } from './enu-frame.js';
import { GATE_HORIZONTAL, GATE_SCALAR, manoeuvreMarginM } from './gating.js';
import type { SourceNoise } from './measurement-noise.js';
import { AXIS_COVARIANCE, AXIS_STATE, smoothAxis, type MotionModel } from './motion-model.js';
import { TrackFilter } from './track-filter.js';
import { FixStatus, USED_BITS, createLocalFix, type LocalFix } from './track-fix.js';
import type { TrackKind } from './track-checks.js';

/** Fixes in the frame of the track, as arrays (one entry per fix, in time order; NaN where not measured). */
export interface PreparedFixes {
  /** The frames the fixes are in: a new one every ANCHOR_DISTANCE_M along the track. */
  readonly frames: readonly EnuFrame[];
  /** The frame of each fix. */
  readonly frameIndex: Uint32Array;
  readonly count: number;
  /** Seconds, not decreasing. */
  readonly times: Float64Array;
  /** East, north, up per fix, m. */
  readonly position: Float64Array;
  /** East, north, up velocity per fix, m/s. */
  readonly velocity: Float64Array;
  /** Variances per fix: horizontal position (per axis), height, horizontal velocity (per axis), vertical rate. */
  readonly variance: Float64Array;
  /**
   * Per fix: bit 0 the position repeats the previous position bit for bit, bit 1 the height does, bit 2 ground speed,
   * track and vertical rate do.
   */
  readonly repeats: Uint8Array;
  /** Ground speed the source reports, m/s (NaN: none). */
  readonly reportedSpeed: Float64Array;
  /** Height the source reports, m (NaN: none). */
  readonly heights: Float64Array;
}

/** Doubles per fix of `PreparedFixes.variance`. */
export const VARIANCES = 4;
export const REPEATS_POSITION = 1;
export const REPEATS_HEIGHT = 2;
export const REPEATS_VELOCITY = 4;
/** Bits of `SmootherOptions.dropped`. */
export const DROP_POSITION = 1;
export const DROP_VELOCITY = 2;
export const DROP_HEIGHT = 4;

/** The smoothed track: one knot per fix that had a used measurement, from the first used position on. */
export interface SmoothedTrack {
  readonly frames: readonly EnuFrame[];
  /** The frame each knot's state is in. */
  readonly knotFrame: Uint32Array;
  /** Knot times, seconds, not decreasing. */
  readonly times: Float64Array;
  /** [p, v, a] of east, north, up per knot (9 doubles). */
  readonly state: Float64Array;
  /** The six covariances of east, north, up per knot (18 doubles). */
  readonly covariance: Float64Array;
  /** What was done with each input fix (`FixStatus` bits; 0: before the track started, nothing to use). */
  readonly status: Uint16Array;
  /** Input fix of each knot. */
  readonly knotFix: Int32Array;
}

/** Options of `smoothFixes`. */
export interface SmootherOptions {
  readonly kind: TrackKind;
  readonly model: MotionModel;
  readonly noise: SourceNoise;
  /**
   * Parts of fixes not to use, counted rejected: DROP_POSITION (a jump, `findJumps`), DROP_VELOCITY (ground speed and
   * track that the positions around disagree with).
   */
  readonly dropped?: Uint8Array;
}

const KNOT_STATE = 3 * AXIS_STATE;
const KNOT_COVARIANCE = 3 * AXIS_COVARIANCE;
/** Per fix of the forward predictions: mean and variance of position and velocity of each axis. */
const PREDICTION = 12;
const HELD_PARTS = FixStatus.POSITION_HELD | FixStatus.HEIGHT_HELD | FixStatus.VELOCITY_HELD;

/**
 * Fills `fix` from fix i of `prepared`; `reversed` negates the velocities (for the time-reversed pass), a position
 * or velocity in `dropped` is left out.
 */
function loadFix(
  fix: LocalFix,
  prepared: PreparedFixes,
  i: number,
  reversed: boolean,
  dropped: Uint8Array | undefined,
): void {
  const p = prepared.position,
    v = prepared.velocity,
    r = prepared.variance;
  const sign = reversed ? -1 : 1;
  const bits = dropped === undefined ? 0 : dropped[i]!;
  const position = (bits & DROP_POSITION) === 0,
    velocity = (bits & DROP_VELOCITY) === 0;
  fix.east = position ? p[3 * i]! : Number.NaN;
  fix.north = position ? p[3 * i + 1]! : Number.NaN;
  fix.up = bits & DROP_HEIGHT ? Number.NaN : p[3 * i + 2]!;
  fix.velocityEast = velocity ? sign * v[3 * i]! : Number.NaN;
  fix.velocityNorth = velocity ? sign * v[3 * i + 1]! : Number.NaN;
  fix.velocityUp = sign * v[3 * i + 2]!;
  fix.horizontalVariance = r[VARIANCES * i]!;
  fix.verticalVariance = r[VARIANCES * i + 1]!;
  fix.speedVariance = r[VARIANCES * i + 2]!;
  fix.verticalRateVariance = r[VARIANCES * i + 3]!;
  const repeats = prepared.repeats[i]!;
  fix.repeatsPosition = (repeats & REPEATS_POSITION) !== 0;
  fix.repeatsHeight = (repeats & REPEATS_HEIGHT) !== 0;
  fix.repeatsVelocity = (repeats & REPEATS_VELOCITY) !== 0;
  fix.reportedSpeedMps = prepared.reportedSpeed[i]!;
}

/** Writes the filter's predicted position and velocity marginals (mean, variance; velocity sign `sign`). */
function recordPrediction(out: Float64Array, at: number, filter: TrackFilter, sign: number): void {
  const x = filter.state,
    p = filter.covariance;
  for (let axis = 0; axis < 3; axis++) {
    const o = at + 4 * axis;
    if (!filter.started) {
      out[o] = 0;
      out[o + 1] = Number.POSITIVE_INFINITY;
      out[o + 2] = 0;
      out[o + 3] = Number.POSITIVE_INFINITY;
      continue;
    }
    out[o] = x[AXIS_STATE * axis]!;
    out[o + 1] = p[AXIS_COVARIANCE * axis]!;
    out[o + 2] = sign * x[AXIS_STATE * axis + 1]!;
    out[o + 3] = p[AXIS_COVARIANCE * axis + 3]!;
  }
}

/**
 * z's normalised squared distance from the combination of two independent predictions (mean m, variance v each;
 * an infinite variance is no prediction), with `extra` variance added. NaN when neither predicts.
 */
function combinedDistance2(z: number, m1: number, v1: number, m2: number, v2: number, extra: number): number {
  let mean: number, variance: number;
  if (!(v1 < Number.POSITIVE_INFINITY)) {
    if (!(v2 < Number.POSITIVE_INFINITY)) return Number.NaN;
    mean = m2;
    variance = v2;
  } else if (!(v2 < Number.POSITIVE_INFINITY)) {
    mean = m1;
    variance = v1;
  } else {
    variance = 1 / (1 / v1 + 1 / v2);
    mean = variance * (m1 / v1 + m2 / v2);
  }
  const d = z - mean;
  return (d * d) / (variance + extra);
}

/**
 * The distance of one measured component from the forward prediction at `f + o` and the backward one at `o` (mean,
 * variance pairs), as `combinedDistance2`.
 */
function partDistance2(
  forward: Float64Array,
  f: number,
  backward: Float64Array,
  o: number,
  value: number,
  extra: number,
): number {
  return combinedDistance2(value, forward[f + o]!, forward[f + o + 1]!, backward[o]!, backward[o + 1]!, extra);
}

/**
 * Smooths prepared fixes: which parts of each fix to use (`decideParts`), then the forward filter and the RTS
 * backward pass with them (`filterAndSmooth`).
 */
export function smoothFixes(prepared: PreparedFixes, options: SmootherOptions): SmoothedTrack {
  const status = decideParts(prepared, options, options.dropped);
  return filterAndSmooth(prepared, options, options.dropped, status);
}

/**
 * Which parts of each fix to use: a forward pass (gated) records its prediction at every fix and decides what is
 * held; a backward pass (the same filter on reversed time, velocities negated) tests each part against both
 * predictions combined. Returns `FixStatus` bits per fix.
 */
function decideParts(prepared: PreparedFixes, options: SmootherOptions, dropped: Uint8Array | undefined): Uint16Array {
  const n = prepared.count;
  const times = prepared.times;
  const fix = createLocalFix();
  const status = new Uint16Array(n);
  const filterOptions = { kind: options.kind, model: options.model, noise: options.noise };
  const jumped = (i: number): number => {
    const bits = dropped === undefined ? 0 : dropped[i]!;
    return (
      (bits & DROP_POSITION ? FixStatus.POSITION_REJECTED : 0) |
      (bits & DROP_VELOCITY ? FixStatus.VELOCITY_REJECTED : 0) |
      (bits & DROP_HEIGHT && Number.isFinite(prepared.position[3 * i + 2]!) ? FixStatus.HEIGHT_REJECTED : 0)
    );
  };

  // Forward, gated: its own decisions (held parts are final) and its prediction at each fix.
  const predictions = new Float64Array(PREDICTION * n);
  const forward = new TrackFilter(filterOptions);
  const frames = prepared.frames,
    frameIndex = prepared.frameIndex;
  for (let i = 0; i < n; i++) {
    loadFix(fix, prepared, i, false, dropped);
    forward.moveToFrame(frames[frameIndex[i]!]!);
    forward.predict(times[i]!);
    recordPrediction(predictions, PREDICTION * i, forward, 1);
    status[i] = forward.updateLocal(times[i]!, fix) | jumped(i);
  }

  // Backward: each part of a fix against both predictions.
  const backward = new TrackFilter(filterOptions);
  const before = new Float64Array(PREDICTION);
  const maxAcceleration = options.model.maxAccelerationMps2,
    maxClimbAcceleration = options.model.maxVerticalAccelerationMps2;
  const turnAcceleration = options.model.turnAccelerationMps2;
  for (let i = n - 1; i >= 0; i--) {
    const t = -times[i]!;
    loadFix(fix, prepared, i, true, dropped);
    backward.moveToFrame(frames[frameIndex[i]!]!);
    backward.predict(t);
    recordPrediction(before, 0, backward, -1);
    const gap = Math.min(
      i > 0 ? times[i]! - times[i - 1]! : Infinity,
      i + 1 < n ? times[i + 1]! - times[i]! : Infinity,
    );
    const dt = Number.isFinite(gap) ? gap : 0;
    const positionExtra = manoeuvreMarginM(dt, maxAcceleration) ** 2;
    const heightExtra = manoeuvreMarginM(dt, maxClimbAcceleration) ** 2;
    const velocityExtra = (turnAcceleration * dt) ** 2;
    const climbExtra = (maxClimbAcceleration * dt) ** 2;
    const f = PREDICTION * i;
    let decided = (status[i]! & HELD_PARTS) | jumped(i);
    if (Number.isFinite(fix.east) && !(decided & FixStatus.POSITION_HELD)) {
      const extra = fix.horizontalVariance + positionExtra;
      const d2 =
        partDistance2(predictions, f, before, 0, fix.east, extra) +
        partDistance2(predictions, f, before, 4, fix.north, extra);
      decided |= !(d2 > GATE_HORIZONTAL) ? FixStatus.POSITION_USED : FixStatus.POSITION_REJECTED;
    }
    if (Number.isFinite(fix.up) && !(decided & FixStatus.HEIGHT_HELD)) {
      const d2 = partDistance2(predictions, f, before, 8, fix.up, fix.verticalVariance + heightExtra);
      decided |= !(d2 > GATE_SCALAR) ? FixStatus.HEIGHT_USED : FixStatus.HEIGHT_REJECTED;
    }
    if (Number.isFinite(fix.velocityEast) && !(decided & FixStatus.VELOCITY_HELD)) {
      const extra = fix.speedVariance + velocityExtra;
      const d2 =
        partDistance2(predictions, f, before, 2, -fix.velocityEast, extra) +
        partDistance2(predictions, f, before, 6, -fix.velocityNorth, extra);
      decided |= !(d2 > GATE_HORIZONTAL) ? FixStatus.VELOCITY_USED : FixStatus.VELOCITY_REJECTED;
    }
    if (Number.isFinite(fix.velocityUp) && !(decided & FixStatus.VELOCITY_HELD)) {
      const d2 = partDistance2(predictions, f, before, 10, -fix.velocityUp, fix.verticalRateVariance + climbExtra);
      decided |= !(d2 > GATE_SCALAR) ? FixStatus.VERTICAL_RATE_USED : FixStatus.VERTICAL_RATE_REJECTED;
    }
    backward.updateLocal(t, fix, decided & USED_BITS);
    status[i] = decided;
  }
  return status;
}

/**
 * The forward filter with the parts `status` marks used, keeping the filtered state of every fix that used
 * something, then the RTS backward pass over those knots. `status` is updated: a fix before the first used position
 * has nothing to place it by (0).
 */
function filterAndSmooth(
  prepared: PreparedFixes,
  options: SmootherOptions,
  dropped: Uint8Array | undefined,
  status: Uint16Array,
): SmoothedTrack {
  const n = prepared.count;
  const times = prepared.times;
  const frames = prepared.frames,
    frameIndex = prepared.frameIndex;
  const fix = createLocalFix();
  const forward = new TrackFilter({ kind: options.kind, model: options.model, noise: options.noise });
  const knotFix = new Int32Array(n);
  const knotFrame = new Uint32Array(n);
  const state = new Float64Array(KNOT_STATE * n);
  const covariance = new Float64Array(KNOT_COVARIANCE * n);
  const knotTimes = new Float64Array(n);
  let knots = 0;
  for (let i = 0; i < n; i++) {
    const used = status[i]! & USED_BITS;
    if (used === 0) continue;
    loadFix(fix, prepared, i, false, dropped);
    forward.moveToFrame(frames[frameIndex[i]!]!);
    const done = forward.updateLocal(times[i]!, fix, used);
    if (!forward.started) {
      status[i] = 0; // before the first used position: nothing to place it by
      continue;
    }
    status[i] = (status[i]! & ~USED_BITS) | (done & USED_BITS);
    knotTimes[knots] = times[i]!;
    knotFix[knots] = i;
    knotFrame[knots] = frameIndex[i]!;
    state.set(forward.state, KNOT_STATE * knots);
    covariance.set(forward.covariance, KNOT_COVARIANCE * knots);
    knots++;
  }

  // Rauch–Tung–Striebel, backwards over the knots, in place (a knot in the next frame is brought into this one).
  const scratch = new Float64Array(15);
  const next = new Float64Array(KNOT_STATE);
  const model = options.model;
  for (let k = knots - 2; k >= 0; k--) {
    const dt = knotTimes[k + 1]! - knotTimes[k]!;
    let nextState = state,
      nextAt = KNOT_STATE * (k + 1);
    if (knotFrame[k + 1] !== knotFrame[k]) {
      next.set(state.subarray(nextAt, nextAt + KNOT_STATE));
      frames[knotFrame[k + 1]!]!.stateInto(frames[knotFrame[k]!]!, next, 0);
      nextState = next;
      nextAt = 0;
    }
    for (let axis = 0; axis < 3; axis++) {
      const q = axis < 2 ? model.horizontalJerkDensity : model.verticalJerkDensity;
      const s = KNOT_STATE * k + AXIS_STATE * axis,
        c = KNOT_COVARIANCE * k + AXIS_COVARIANCE * axis;
      const ns = nextAt + AXIS_STATE * axis;
      smoothAxis(state, s, covariance, c, nextState, ns, covariance, c + KNOT_COVARIANCE, dt, q, scratch);
    }
  }
  return {
    frames,
    knotFrame: knotFrame.subarray(0, knots),
    times: knotTimes.subarray(0, knots),
    state: state.subarray(0, KNOT_STATE * knots),
    covariance: covariance.subarray(0, KNOT_COVARIANCE * knots),
    status,
    knotFix: knotFix.subarray(0, knots),
  };
}

/**
 * The knots of a smoothed track at fixes whose position was used: the ones to draw the track through. A knot of a
 * height or a velocity alone has its horizontal position from the model's interpolation, not from a fix, and where
 * fixes are sparse that is a loop, not a path.
 */
export function positionKnots(track: SmoothedTrack): SmoothedTrack {
  const n = track.times.length;
  const keep: number[] = [];
  for (let k = 0; k < n; k++) if (track.status[track.knotFix[k]!]! & FixStatus.POSITION_USED) keep.push(k);
  if (keep.length === n || keep.length < 2) return track;
  const times = new Float64Array(keep.length),
    state = new Float64Array(KNOT_STATE * keep.length),
    covariance = new Float64Array(KNOT_COVARIANCE * keep.length),
    knotFix = new Int32Array(keep.length),
    knotFrame = new Uint32Array(keep.length);
  keep.forEach((k, i) => {
    times[i] = track.times[k]!;
    state.set(track.state.subarray(KNOT_STATE * k, KNOT_STATE * (k + 1)), KNOT_STATE * i);
    covariance.set(track.covariance.subarray(KNOT_COVARIANCE * k, KNOT_COVARIANCE * (k + 1)), KNOT_COVARIANCE * i);
    knotFix[i] = track.knotFix[k]!;
    knotFrame[i] = track.knotFrame[k]!;
  });
  return { frames: track.frames, knotFrame, times, state, covariance, status: track.status, knotFix };
}
