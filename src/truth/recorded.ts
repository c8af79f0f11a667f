/**
 * Recorded tracks as trajectories: the fixes of a recording (GNSS, ADS-B, NMEA) and the trajectory the track
 * estimator makes of them (`track-estimator.ts`): smoothed motion, attitude from it, what was dropped said in notes.
 */
import { SOURCE_NOISE, type TrackSource } from './measurement-noise.js';
import { describeRepairs, repairCounts } from './repairs.js';
import { estimateTrack } from './track-estimator.js';
import type { TrackKind } from './track-kinds.js';
import type { Trajectory } from './trajectory.js';

import type { TrackPoint } from './track-point.js';

export type { TrackPoint };

/** Options of `recordedTrajectory`. */
export interface RecordedTrackOptions {
  /** What the track records: its motion model and plausible speeds. Defaults to ground. */
  readonly kind?: TrackKind;
  /** Where the fixes come from, for their noise (`SOURCE_NOISE`). Defaults to gnss. */
  readonly source?: TrackSource;
  /** Roll as a coordinated turn. Defaults to the kind's (aircraft bank). */
  readonly banked?: boolean;
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
 * A trajectory through recorded fixes (in time order, at least two): the track estimator's (`estimateTrack`)
 * smoothed motion with its attitude. Fixes it drops or repairs are said in the trajectory's notes.
 * @param name - shown in reports.
 * @throws RangeError when fewer than two fixes have distinct times.
 */
export function recordedTrajectory(
  name: string,
  points: readonly TrackPoint[],
  options: RecordedTrackOptions = {},
): Trajectory {
  const distinct = points.filter((p, i) => i === 0 || p.timeSeconds > points[i - 1]!.timeSeconds).length;
  if (distinct < 2)
    throw new RangeError(`track "${name}" needs at least two fixes with increasing times, got ${distinct}`);
  const kind = options.kind ?? 'ground';
  const result = estimateTrack(name, points, {
    kind,
    noise: SOURCE_NOISE[options.source ?? 'gnss'],
    ...(options.banked === undefined ? {} : { banked: options.banked }),
  });
  const notes = describeRepairs(result.repairs, kind);
  const trajectory = result.trajectory;
  return {
    ...trajectory,
    sample: trajectory.sample,
    ...(notes.length > 0 ? { notes: [...notes, ...(trajectory.notes ?? [])] } : {}),
    recording: { kind, ...repairCounts(result.repairs) },
  };
}
