/**
 * Attitude from the smoothed motion of a recorded track: heading along the smoothed velocity, pitch along the
 * flight path (or the road's grade), roll of a coordinated turn for aircraft, each held where the motion cannot
 * tell it (slower than the velocity's own uncertainty allows) and turned no faster than the kind turns. A heading,
 * pitch or roll the source recorded replaces the derived one, checked against the motion. The angles are kept on a
 * regular grid and joined linearly, so the rate of each is the slope of its segment and never exceeds the bound.
 */
import { STANDARD_GRAVITY } from './trajectory.js';
import type { MotionModel } from './motion-model.js';

/** The smoothed motion, in the local east-north-up at the position, for the attitude. */
export interface LocalMotionSource {
  /**
   * Writes [vEast, vNorth, vUp, aEast, aNorth, aUp, σ of the horizontal velocity (per axis), σ of the vertical
   * velocity] at t (seconds from the track's start) into out.
   */
  localMotion(t: number, out: Float64Array): void;
}

/** A recorded attitude, per fix (degrees; NaN where the fix has none). */
export interface RecordedAttitude {
  /** Seconds from the track's start. */
  readonly times: Float64Array;
  readonly headingDeg?: Float64Array;
  readonly pitchDeg?: Float64Array;
  readonly rollDeg?: Float64Array;
}

/** Heading, pitch and roll on a regular grid, radians (heading continuous, without 2π jumps). */
export interface AttitudeTrack {
  readonly stepSeconds: number;
  readonly heading: Float64Array;
  readonly pitch: Float64Array;
  readonly roll: Float64Array;
}

/**
 * How many standard deviations of the smoothed horizontal velocity the speed must exceed for its direction to be
 * the heading: at 3 σ the direction is within ±19° at worst and a few degrees at twice that speed; slower it is
 * noise (a parked car's GPS wanders in every direction) and the heading is held.
 */
export const HEADING_SIGMAS = 3;
/** Largest uncertainty of a derived pitch, radians (1°): σ(vertical velocity) / horizontal speed above it, held. */
export const PITCH_SIGMA_RAD = Math.PI / 180;
/** Slowest speed a heading is ever derived from, m/s. */
const MIN_MOVING_MPS = 0.05;
/** Most grid points of an attitude track (a 10-day track at 0.2 s). */
const MAX_GRID = 4_000_000;

const DEG = Math.PI / 180;

/** The grid step of a track of `durationSeconds` whose knots are `medianSpacing` apart: fine enough for its turns. */
export function attitudeStep(durationSeconds: number, medianSpacingSeconds: number): number {
  const step = Math.min(0.5, Math.max(0.02, medianSpacingSeconds / 2));
  return Math.max(step, durationSeconds / (MAX_GRID - 1));
}

/**
 * The attitude of the motion over [0, durationSeconds] on a grid of `stepSeconds`.
 * @param notes - receives what the check of a recorded attitude found.
 */
export function attitudeTrack(
  motion: LocalMotionSource,
  durationSeconds: number,
  stepSeconds: number,
  model: MotionModel,
  banked: boolean,
  recorded: RecordedAttitude | undefined,
  notes: string[],
): AttitudeTrack {
  const count = Math.max(2, Math.ceil(durationSeconds / stepSeconds) + 1);
  const heading = new Float64Array(count).fill(Number.NaN);
  const pitch = new Float64Array(count).fill(Number.NaN);
  const roll = new Float64Array(count).fill(Number.NaN);
  const course = new Float64Array(count).fill(Number.NaN);
  const horizontalSpeed = new Float64Array(count),
    climb = new Float64Array(count);
  const grade = model.gradeWindowM > 0;
  const m = new Float64Array(8);
  for (let i = 0; i < count; i++) {
    motion.localMotion(Math.min(i * stepSeconds, durationSeconds), m);
    const ve = m[0]!,
      vn = m[1]!,
      vu = m[2]!;
    const speed = Math.sqrt(ve * ve + vn * vn);
    climb[i] = vu;
    if (!(speed > HEADING_SIGMAS * m[6]! && speed > MIN_MOVING_MPS)) continue;
    horizontalSpeed[i] = speed; // standing (its GPS wandering), no distance is driven
    course[i] = Math.atan2(ve, vn);
    heading[i] = course[i]!;
    if (!grade && m[7]! < PITCH_SIGMA_RAD * speed) pitch[i] = Math.atan2(vu, speed);
    // Coordinated turn: tan(roll) = lateral acceleration / g, positive turning right (clockwise seen from above).
    roll[i] = banked ? Math.atan(((vn * m[3]! - ve * m[4]!) / speed) * (1 / STANDARD_GRAVITY)) : 0;
  }
  if (grade) gradePitch(horizontalSpeed, climb, stepSeconds, model.gradeWindowM, pitch);
  if (recorded) useRecorded(recorded, stepSeconds, course, heading, pitch, roll, notes);
  holdUnknown(heading, true);
  holdUnknown(pitch, false);
  holdUnknown(roll, false);
  limitRate(heading, model.maxHeadingRateRadPerS * stepSeconds);
  limitRate(pitch, model.maxPitchRateRadPerS * stepSeconds);
  limitRate(roll, model.maxRollRateRadPerS * stepSeconds);
  return { stepSeconds, heading, pitch, roll };
}

/** Shortest distance driven that a grade is taken over, m: less, and the height's noise is the grade. */
const MIN_GRADE_DISTANCE_M = 20;

/**
 * The pitch of a ground vehicle on the grid: the grade of its road, height gained over distance driven across
 * `windowM` of the road centred where it is (one-sided near the ends), the distance and height integrated from the
 * smoothed speeds (0 where the vehicle stands: its heading held). Standing, it keeps the grade of the road it stands
 * on; a track that never drives MIN_GRADE_DISTANCE_M leaves it unknown (NaN).
 */
function gradePitch(
  horizontalSpeed: Float64Array,
  climb: Float64Array,
  step: number,
  windowM: number,
  pitch: Float64Array,
): void {
  const n = horizontalSpeed.length;
  const distance = new Float64Array(n),
    height = new Float64Array(n);
  for (let i = 1; i < n; i++) {
    distance[i] = distance[i - 1]! + 0.5 * step * (horizontalSpeed[i - 1]! + horizontalSpeed[i]!);
    height[i] = height[i - 1]! + 0.5 * step * (climb[i - 1]! + climb[i]!);
  }
  const total = distance[n - 1]!;
  if (!(total >= MIN_GRADE_DISTANCE_M)) return;
  const heightAt = (x: number): number => {
    let lo = 0,
      hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (distance[mid]! < x) lo = mid + 1;
      else hi = mid;
    }
    if (lo === 0) return height[0]!;
    const d0 = distance[lo - 1]!,
      d1 = distance[lo]!;
    return d1 > d0 ? height[lo - 1]! + ((x - d0) / (d1 - d0)) * (height[lo]! - height[lo - 1]!) : height[lo]!;
  };
  const width = Math.min(windowM, total);
  for (let i = 0; i < n; i++) {
    const from = Math.min(Math.max(distance[i]! - 0.5 * width, 0), total - width);
    pitch[i] = Math.atan((heightAt(from + width) - heightAt(from)) / width);
  }
}

/**
 * Replaces the derived angles by the recorded ones (interpolated onto the grid; a gap keeps the derived angle) and
 * notes a recorded heading that disagrees with the course while moving (a magnetic or reversed heading column).
 */
function useRecorded(
  recorded: RecordedAttitude,
  step: number,
  course: Float64Array,
  heading: Float64Array,
  pitch: Float64Array,
  roll: Float64Array,
  notes: string[],
): void {
  const columns: Array<[Float64Array | undefined, Float64Array]> = [
    [recorded.headingDeg, heading],
    [recorded.pitchDeg, pitch],
    [recorded.rollDeg, roll],
  ];
  const differences: number[] = [];
  for (const [values, angles] of columns) {
    if (values === undefined) continue;
    const grid = onGrid(recorded.times, values, step, angles.length, angles === heading);
    for (let i = 0; i < angles.length; i++) {
      if (!Number.isFinite(grid[i]!)) continue;
      if (angles === heading && Number.isFinite(course[i]!)) {
        differences.push(Math.abs(Math.atan2(Math.sin(grid[i]! - course[i]!), Math.cos(grid[i]! - course[i]!))));
      }
      angles[i] = grid[i]!;
    }
  }
  if (differences.length >= 10) {
    const sorted = Float64Array.from(differences).sort();
    const median = sorted[sorted.length >> 1]! / DEG;
    if (median > 45) {
      notes.push(
        `the recorded heading differs from the course over ground by a median ${median.toFixed(0)}° while moving: ` +
          'check that its column holds the true heading (not magnetic, not reversed)',
      );
    }
  }
}

/** Recorded degrees (NaN gaps) interpolated linearly onto the grid, radians; headings unwrapped first. */
function onGrid(times: Float64Array, degrees: Float64Array, step: number, count: number, wrap: boolean): Float64Array {
  const radians = new Float64Array(degrees.length);
  let offset = 0,
    previous = Number.NaN;
  for (let i = 0; i < degrees.length; i++) {
    const d = degrees[i]!;
    if (!Number.isFinite(d)) {
      radians[i] = Number.NaN;
      continue;
    }
    if (wrap && Number.isFinite(previous)) {
      const jump = d + offset - previous;
      if (jump > 180) offset -= 360 * Math.round(jump / 360);
      else if (jump < -180) offset += 360 * Math.round(-jump / 360);
    }
    radians[i] = (d + offset) * DEG;
    previous = d + offset;
  }
  const out = new Float64Array(count).fill(Number.NaN);
  let j = 0;
  for (let i = 0; i < count; i++) {
    const t = i * step;
    while (j + 1 < times.length && times[j + 1]! <= t) j++;
    const a = radians[j]!,
      b = j + 1 < times.length ? radians[j + 1]! : Number.NaN;
    const span = j + 1 < times.length ? times[j + 1]! - times[j]! : 0;
    if (span > 0 && Number.isFinite(a) && Number.isFinite(b)) out[i] = a + ((t - times[j]!) / span) * (b - a);
    else if (Number.isFinite(a) && (t - times[j]! <= step || span === 0)) out[i] = a;
  }
  return out;
}

/**
 * Fills the unknown (NaN) angles: each holds the last known one, those before the first the first; none known is
 * 0. A heading is also made continuous (no 2π jumps), so that it turns through north smoothly.
 */
function holdUnknown(angles: Float64Array, wrap: boolean): void {
  let first = -1;
  for (let i = 0; i < angles.length; i++) {
    if (!Number.isFinite(angles[i]!)) continue;
    if (first < 0) first = i;
    else if (wrap) {
      let previous = i - 1;
      while (!Number.isFinite(angles[previous]!)) previous--;
      const p = angles[previous]!;
      angles[i] = p + Math.atan2(Math.sin(angles[i]! - p), Math.cos(angles[i]! - p));
    }
  }
  const start = first < 0 ? 0 : angles[first]!;
  let last = start;
  for (let i = 0; i < angles.length; i++) {
    if (Number.isFinite(angles[i]!)) last = angles[i]!;
    else angles[i] = i < first || first < 0 ? start : last;
  }
}

/**
 * Bounds the change between grid points to `maxStep`: the limit applied forwards and backwards, averaged, so a
 * step in the angles becomes a ramp centred on it (no lag), and the average of two bounded slopes is bounded.
 */
function limitRate(angles: Float64Array, maxStep: number): void {
  const n = angles.length;
  const backward = new Float64Array(n);
  backward[n - 1] = angles[n - 1]!;
  for (let i = n - 2; i >= 0; i--) {
    const d = angles[i]! - backward[i + 1]!;
    backward[i] = backward[i + 1]! + Math.max(-maxStep, Math.min(maxStep, d));
  }
  let forward = angles[0]!;
  angles[0] = 0.5 * (forward + backward[0]!);
  for (let i = 1; i < n; i++) {
    const d = angles[i]! - forward;
    forward += Math.max(-maxStep, Math.min(maxStep, d));
    angles[i] = 0.5 * (forward + backward[i]!);
  }
}

/**
 * Writes [heading, pitch, roll] (radians) and their rates (rad/s) at t into the two arrays: linear between grid
 * points, the rate the segment's slope.
 */
export function sampleAttitude(track: AttitudeTrack, t: number, angles: Float64Array, rates: Float64Array): void {
  const step = track.stepSeconds;
  const last = track.heading.length - 1;
  const x = Math.min(Math.max(t / step, 0), last);
  const i = Math.min(Math.floor(x), last - 1);
  const u = x - i;
  const h = track.heading,
    p = track.pitch,
    r = track.roll;
  const inverse = 1 / step;
  const dh = h[i + 1]! - h[i]!,
    dp = p[i + 1]! - p[i]!,
    dr = r[i + 1]! - r[i]!;
  angles[0] = h[i]! + u * dh;
  angles[1] = p[i]! + u * dp;
  angles[2] = r[i]! + u * dr;
  rates[0] = dh * inverse;
  rates[1] = dp * inverse;
  rates[2] = dr * inverse;
}
