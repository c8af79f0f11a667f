/**
 * Recorded tracks as trajectories. Positions (1 Hz GPS or ADS-B, say) are joined by natural cubic splines in
 * the local NED frame of the first point, so sample(t) at any rate is exact for the spline and velocity,
 * acceleration and jerk are its derivatives (C² continuous: no steps in acceleration at the fixes). Heading
 * follows the velocity unless the source has one; pitch follows the flight path; aircraft may bank.
 */
import type { TruthState } from '../dr/truth-state.js';
import { ecefToLocal, geodeticDegreesToEcef } from '../math/geodesy.js';
import { holdAtRest, restMask, restSpeedMps } from './attitude-at-rest.js';
import { LocalFrame, alignAttitudeWithVelocity, createLocalMotion, type Trajectory } from './trajectory.js';

/** One fix of a recorded track. */
export interface TrackPoint {
  /** Seconds, any epoch (the track starts at its first point). */
  readonly timeSeconds: number;
  readonly latitudeDeg: number;
  readonly longitudeDeg: number;
  /** Metres above the ellipsoid (or mean sea level: only changes matter). Defaults to 0. */
  readonly heightM?: number;
  /** True heading, degrees clockwise from north, when the source records one (a ship's gyro compass). */
  readonly headingDeg?: number;
  /** Where the fix came from in its file (a CSV line, a capture's frame), for messages. */
  readonly row?: number;
  /** The recording the fix belongs to, from an id column (`drive`, `segment`, `track`, …). */
  readonly group?: string;
  /** What the source calls the vehicle at this fix: an ADS-B callsign, a CSV callsign or name column. */
  readonly callsign?: string;
}

/** Options of `recordedTrajectory`. */
export interface RecordedTrackOptions {
  /** Roll as a coordinated turn (for aircraft). Defaults to false. */
  readonly banked?: boolean;
  /**
   * Moving-average window (odd count of fixes) applied before fitting, to calm receiver noise and quantised
   * altitudes that a spline would turn into large accelerations. When above 1, the fixes are first resampled
   * linearly onto a uniform grid at their median spacing. Defaults to 1 (the spline goes through every fix).
   */
  readonly smoothingWindow?: number;
  /**
   * Seconds over which the attitude derived from the track is averaged (a centred moving average, so without
   * lag). Heading from the course, pitch from the climb and above all roll from the turn rate are first, second
   * and third derivatives of the fixes: receiver noise, which a position spline passes through, becomes attitude
   * wobble of several degrees a second that the vehicle never flew (see docs/recorded-tracks.md). With it, angles
   * are taken on a grid at half the fixes' median spacing, averaged, and joined by cubic splines whose derivatives
   * are the rates. Defaults to 0 (attitude follows the position spline exactly).
   */
  readonly attitudeSmoothingSeconds?: number;
  /**
   * Hold the attitude while the vehicle moves slower than its fixes' noise could make it seem to (see
   * `restSpeedMps`), so that a parked car does not turn with its GPS noise. Defaults to true.
   */
  readonly holdAttitudeAtRest?: boolean;
}

/** A natural cubic spline y(t) through (t_i, y_i), evaluated with its first three derivatives. */
export class CubicSpline {
  private readonly second: Float64Array;

  constructor(
    private readonly times: Float64Array,
    private readonly values: Float64Array,
  ) {
    const n = times.length;
    this.second = new Float64Array(n);
    if (n < 3) return;
    // Tridiagonal system for the second derivatives M_i with M_0 = M_{n−1} = 0 (Thomas algorithm).
    const c = new Float64Array(n);
    const d = new Float64Array(n);
    for (let i = 1; i < n - 1; i++) {
      const h0 = times[i]! - times[i - 1]!,
        h1 = times[i + 1]! - times[i]!;
      const rhs = 6 * ((values[i + 1]! - values[i]!) / h1 - (values[i]! - values[i - 1]!) / h0);
      const diag = 2 * (h0 + h1) - h0 * c[i - 1]!;
      c[i] = h1 / diag;
      d[i] = (rhs - h0 * d[i - 1]!) / diag;
    }
    for (let i = n - 2; i >= 1; i--) this.second[i] = d[i]! - c[i]! * this.second[i + 1]!;
  }

  /** Writes [y, y′, y″, y‴] at t (clamped to the knots' span) into out, starting at `at`. */
  evaluate(out: Float64Array, at: number, t: number): void {
    const times = this.times,
      y = this.values,
      m = this.second;
    const n = times.length;
    if (n === 1) {
      out[at] = y[0]!;
      out[at + 1] = out[at + 2] = out[at + 3] = 0;
      return;
    }
    let lo = 0,
      hi = n - 2;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (times[mid]! <= t) lo = mid;
      else hi = mid - 1;
    }
    const h = times[lo + 1]! - times[lo]!;
    const u = Math.min(Math.max(t - times[lo]!, 0), h);
    const m0 = m[lo]!,
      m1 = m[lo + 1]!;
    const slope = (y[lo + 1]! - y[lo]!) / h - (h * (2 * m0 + m1)) / 6;
    const third = (m1 - m0) / h;
    out[at] = y[lo]! + slope * u + (m0 / 2) * u * u + (third / 6) * u * u * u;
    out[at + 1] = slope + m0 * u + (third / 2) * u * u;
    out[at + 2] = m0 + third * u;
    out[at + 3] = third;
  }
}

/**
 * A trajectory through recorded fixes (at least two, in time order; repeated times are dropped).
 * @param name - shown in reports.
 */
export function recordedTrajectory(
  name: string,
  points: readonly TrackPoint[],
  options: RecordedTrackOptions = {},
): Trajectory {
  const fixes = points.filter((p, i) => i === 0 || p.timeSeconds > points[i - 1]!.timeSeconds);
  if (fixes.length < 2)
    throw new RangeError(`track "${name}" needs at least two fixes with increasing times, got ${fixes.length}`);
  const first = fixes[0]!;
  const frame = new LocalFrame({
    latitudeDeg: first.latitudeDeg,
    longitudeDeg: first.longitudeDeg,
    heightM: first.heightM ?? 0,
  });
  const n = fixes.length;
  let times: Float64Array = Float64Array.from(fixes, (p) => p.timeSeconds - first.timeSeconds);
  let axes: Float64Array[] = [new Float64Array(n), new Float64Array(n), new Float64Array(n)];
  const ecef = new Float64Array(3),
    local = new Float64Array(3);
  for (let i = 0; i < n; i++) {
    const p = fixes[i]!;
    geodeticDegreesToEcef(ecef, p.latitudeDeg, p.longitudeDeg, p.heightM ?? 0);
    ecefToLocal(local, frame.ecefToNed, frame.originEcef, ecef);
    for (let k = 0; k < 3; k++) axes[k]![i] = local[k]!;
  }
  let headingValues: Float64Array | undefined = fixes.every(
    (p) => p.headingDeg !== undefined && Number.isFinite(p.headingDeg),
  )
    ? unwrapDegreesToRadians(fixes.map((p) => p.headingDeg!))
    : undefined;
  const window = options.smoothingWindow ?? 1;
  if (window > 1) {
    const grid = uniformGrid(times);
    axes = axes.map((values) => movingAverage(resample(times, values, grid), window));
    headingValues = headingValues && movingAverage(resample(times, headingValues, grid), window);
    times = grid;
  }
  const splines = axes.map((values) => new CubicSpline(times, values));
  const headings = headingValues && new CubicSpline(times, headingValues);

  const motion = createLocalMotion();
  const scratch = new Float64Array(12); // [y, y′, y″, y‴] per axis
  const jerk = new Float64Array(3);
  const banked = options.banked ?? false;
  const attitudeSeconds = options.attitudeSmoothingSeconds ?? 0;
  const restSpeed = options.holdAttitudeAtRest === false ? 0 : restSpeedMps(times, axes[0]!, axes[1]!);
  const grid = attitudeGrid(times, attitudeSeconds);
  const rest = restMask(splines, grid, restSpeed);
  const attitude =
    attitudeSeconds > 0 || rest.includes(1)
      ? smoothedAttitude(splines, grid, banked, attitudeSeconds, rest, headings)
      : undefined;
  return {
    name,
    durationSeconds: times[times.length - 1]!,
    sample(timeSeconds: number, out: TruthState): TruthState {
      for (let k = 0; k < 3; k++) {
        splines[k]!.evaluate(scratch, 4 * k, timeSeconds);
        motion.position[k] = scratch[4 * k]!;
        motion.velocity[k] = scratch[4 * k + 1]!;
        motion.acceleration[k] = scratch[4 * k + 2]!;
        jerk[k] = scratch[4 * k + 3]!;
      }
      if (attitude) {
        for (let k = 0; k < 3; k++) {
          attitude[k]!.evaluate(scratch, 0, timeSeconds);
          motion.attitude[k] = scratch[0]!;
          motion.attitudeRates[k] = scratch[1]!;
        }
        motion.attitudeCosSinValid = false;
      } else {
        alignAttitudeWithVelocity(motion, jerk, banked);
      }
      if (headings && !attitude) {
        headings.evaluate(scratch, 0, timeSeconds);
        motion.attitude[0] = scratch[0]!;
        motion.attitudeRates[0] = scratch[1]!;
        motion.attitudeCosSin[0] = Math.cos(scratch[0]!);
        motion.attitudeCosSin[1] = Math.sin(scratch[0]!);
      }
      return frame.toTruth(out, motion);
    },
  };
}

/** Times from 0 to the track's end for the attitude: half the fix spacing, no finer than a fiftieth of `seconds`. */
function attitudeGrid(times: Float64Array, seconds: number): Float64Array {
  const fixes = uniformGrid(times);
  const step = Math.max(fixes.length > 1 ? fixes[1]! / 2 : 1, seconds / 50);
  const end = times[times.length - 1]!;
  const count = Math.max(2, Math.round(end / step) + 1);
  return Float64Array.from({ length: count }, (_, i) => (i * end) / (count - 1));
}

/**
 * Heading, pitch and roll splines of the velocity-aligned attitude of `splines` (NED position) on `grid`, or of
 * the recorded `headings`, held where `rest` says the vehicle stands still, averaged over `seconds`, and joined by
 * natural cubic splines.
 */
function smoothedAttitude(
  splines: readonly CubicSpline[],
  grid: Float64Array,
  banked: boolean,
  seconds: number,
  rest: Uint8Array,
  headings: CubicSpline | undefined,
): CubicSpline[] {
  const count = grid.length;
  const angles = [new Float64Array(count), new Float64Array(count), new Float64Array(count)];
  const motion = createLocalMotion();
  const scratch = new Float64Array(4);
  const jerk = new Float64Array(3);
  for (let i = 0; i < count; i++) {
    for (let k = 0; k < 3; k++) {
      splines[k]!.evaluate(scratch, 0, grid[i]!);
      motion.position[k] = scratch[0]!;
      motion.velocity[k] = scratch[1]!;
      motion.acceleration[k] = scratch[2]!;
      jerk[k] = scratch[3]!;
    }
    // At rest the heading is the previous one, not north.
    alignAttitudeWithVelocity(motion, jerk, banked, i > 0 ? angles[0]![i - 1] : 0);
    const cs = motion.attitudeCosSin;
    for (let k = 0; k < 3; k++) {
      angles[k]![i] = motion.attitudeCosSinValid ? Math.atan2(cs[2 * k + 1]!, cs[2 * k]!) : motion.attitude[k]!;
    }
    if (headings) {
      headings.evaluate(scratch, 0, grid[i]!);
      angles[0]![i] = scratch[0]!;
    } else if (i > 0) {
      // Heading without 2π jumps, so that it averages and turns through north smoothly.
      const previous = angles[0]![i - 1]!;
      angles[0]![i] = previous + Math.atan2(Math.sin(angles[0]![i]! - previous), Math.cos(angles[0]![i]! - previous));
    }
  }
  holdAtRest(angles, rest);
  const step = count > 1 ? grid[1]! : 1;
  const window = 2 * Math.round(seconds / (2 * step)) + 1;
  return angles.map((values) => new CubicSpline(grid, movingAverage(values, window)));
}

/** Times from 0 to the last one at the median spacing of `times` (the last one included). */
function uniformGrid(times: Float64Array): Float64Array {
  const steps = Array.from(times.subarray(1), (t, i) => t - times[i]!).sort((a, b) => a - b);
  const step = steps[steps.length >> 1]!;
  const end = times[times.length - 1]!;
  const count = Math.max(2, Math.round(end / step) + 1);
  return Float64Array.from({ length: count }, (_, i) => (i * end) / (count - 1));
}

/** Linear interpolation of (times, values) at `grid`. */
function resample(times: Float64Array, values: Float64Array, grid: Float64Array): Float64Array {
  const out = new Float64Array(grid.length);
  let j = 0;
  for (let i = 0; i < grid.length; i++) {
    const t = grid[i]!;
    while (j < times.length - 2 && times[j + 1]! < t) j++;
    const f = Math.min(1, Math.max(0, (t - times[j]!) / (times[j + 1]! - times[j]!)));
    out[i] = values[j]! + f * (values[j + 1]! - values[j]!);
  }
  return out;
}

function movingAverage(values: Float64Array, window: number): Float64Array {
  const half = Math.floor(Math.max(1, window) / 2);
  if (half === 0) return values;
  const out = new Float64Array(values.length);
  for (let i = 0; i < values.length; i++) {
    // Shrink the window at the ends so the first and last fixes stay put.
    const w = Math.min(half, i, values.length - 1 - i);
    let sum = 0;
    for (let j = i - w; j <= i + w; j++) sum += values[j]!;
    out[i] = sum / (2 * w + 1);
  }
  return out;
}

/** Degrees to radians without the 360° jumps, so the spline turns through north smoothly. */
function unwrapDegreesToRadians(degrees: readonly number[]): Float64Array {
  const out = new Float64Array(degrees.length);
  let offset = 0;
  for (let i = 0; i < degrees.length; i++) {
    if (i > 0) {
      const step = degrees[i]! - degrees[i - 1]!;
      if (step > 180) offset -= 360;
      else if (step < -180) offset += 360;
    }
    out[i] = ((degrees[i]! + offset) * Math.PI) / 180;
  }
  return out;
}
