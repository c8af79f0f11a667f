/**
 * Ground and sea trajectories: a horizontal path of straight lines and circular arcs, driven along by a
 * piecewise-linear speed schedule. Both are closed-form (distance along the schedule is piecewise quadratic in
 * time), so sample(t) is exact: v = ṡ·T, a = s̈·T + ṡ²·κ·N, heading rate = ṡ·κ. Vehicles stay level.
 */
import type { TruthState } from '../dr/owner/truth-state.js';
import { sinCos } from '../math/trig.js';
import { LocalFrame, createLocalMotion, type LocalMotion, type Origin, type Trajectory } from './trajectory.js';

/** One piece of a path: a straight line, or an arc turning right (positive angle) or left (negative). */
export type PathSegment =
  | { readonly line: number }
  | { readonly arc: { readonly radius: number; readonly angleRad: number } };

/** A speed knot: from one knot to the next the speed changes linearly (constant acceleration). */
export interface SpeedKnot {
  readonly timeSeconds: number;
  /** m/s. */
  readonly speed: number;
}

/** Distance, speed and acceleration along a piecewise-linear speed schedule, allocation-free. */
export class SpeedSchedule {
  private readonly times: Float64Array;
  private readonly speeds: Float64Array;
  private readonly distances: Float64Array;
  /** The knot to start from for a time: the last knot at or before each bucket's start (`lastAtOrBefore`). */
  private readonly knotLookup: SortedLookup;

  /** @param knots - in increasing time; the first sets the speed at and before its time, the last after. */
  constructor(knots: readonly SpeedKnot[]) {
    if (knots.length === 0) throw new RangeError('a speed schedule needs at least one knot');
    this.times = Float64Array.from(knots, (k) => k.timeSeconds);
    this.speeds = Float64Array.from(knots, (k) => k.speed);
    this.distances = new Float64Array(knots.length);
    for (let i = 1; i < knots.length; i++) {
      const dt = this.times[i]! - this.times[i - 1]!;
      if (!(dt >= 0)) throw new RangeError(`speed knots must be in time order (knot ${i})`);
      this.distances[i] = this.distances[i - 1]! + 0.5 * (this.speeds[i]! + this.speeds[i - 1]!) * dt;
    }
    this.knotLookup = new SortedLookup(this.times);
  }

  get endSeconds(): number {
    return this.times[this.times.length - 1]!;
  }

  /** Writes [distance m, speed m/s, acceleration m/s²] at `timeSeconds` into out. */
  evaluate(out: Float64Array, timeSeconds: number): Float64Array {
    const times = this.times;
    // Last knot at or before t (−1 before the first knot).
    const lo = this.knotLookup.lastAtOrBefore(timeSeconds);
    if (lo < 0 || lo === times.length - 1) {
      const i = lo < 0 ? 0 : lo;
      out[1] = this.speeds[i]!;
      out[0] = this.distances[i]! + out[1]! * (timeSeconds - times[i]!);
      out[2] = 0;
      return out;
    }
    const dt = times[lo + 1]! - times[lo]!;
    const accel = dt > 0 ? (this.speeds[lo + 1]! - this.speeds[lo]!) / dt : 0;
    const tau = timeSeconds - times[lo]!;
    out[0] = this.distances[lo]! + this.speeds[lo]! * tau + 0.5 * accel * tau * tau;
    out[1] = this.speeds[lo]! + accel * tau;
    out[2] = accel;
    return out;
  }
}

/**
 * The last index of a sorted array at or before a value, in constant time for any order of queries: a table of
 * equal buckets over the array's span gives the last index at or before each bucket's start, and a short walk
 * forward ends there. No state is kept between queries, so one trajectory sampled at many different times (as
 * the load generator samples a shape for each of its entities) costs the same as a sweep.
 */
export class SortedLookup {
  private readonly first: number;
  private readonly bucketsPerUnit: number;
  private readonly start: Int32Array;

  /** @param values - in increasing order (equal neighbours allowed), read but not copied. */
  constructor(private readonly values: Float64Array) {
    const n = values.length;
    this.first = n > 0 ? values[0]! : 0;
    const span = n > 1 ? values[n - 1]! - this.first : 0;
    const buckets = 4 * n;
    this.bucketsPerUnit = span > 0 ? buckets / span : 0;
    this.start = new Int32Array(buckets + 1);
    let i = -1;
    for (let b = 0; b <= buckets; b++) {
      const at = this.bucketsPerUnit > 0 ? this.first + b / this.bucketsPerUnit : this.first;
      while (i + 1 < n && values[i + 1]! <= at) i++;
      this.start[b] = i;
    }
  }

  /** The last index i with values[i] ≤ x, or −1 when x is below them all (NaN: −1). */
  lastAtOrBefore(x: number): number {
    const values = this.values,
      n = values.length;
    if (!(x >= this.first)) return -1;
    const bucket = Math.floor((x - this.first) * this.bucketsPerUnit);
    // Bucket starts are rounded: step back while the start overshoots, then forward.
    let i = this.start[bucket < this.start.length ? bucket : this.start.length - 1]!;
    while (i >= 0 && values[i]! > x) i--;
    while (i + 1 < n && values[i + 1]! <= x) i++;
    return i;
  }
}

/**
 * Knots that start at rest, drive at `speed` and stop at each of `stopDistances` (and at the end) for
 * `dwellSeconds`, accelerating and braking at constant rates: trapezoids, or triangles on short stretches.
 */
export function stopAndGoKnots(
  totalLength: number,
  stopDistances: readonly number[],
  speed: number,
  accelerationMps2: number,
  decelerationMps2: number,
  dwellSeconds: number,
): SpeedKnot[] {
  const knots: SpeedKnot[] = [{ timeSeconds: 0, speed: 0 }];
  let t = 0;
  let from = 0;
  for (const to of [...stopDistances.filter((d) => d > 0 && d < totalLength).sort((a, b) => a - b), totalLength]) {
    const length = to - from;
    from = to;
    // Peak speed of a stretch too short to reach cruise: L = v²/2a + v²/2d.
    const peak = Math.min(speed, Math.sqrt((2 * length) / (1 / accelerationMps2 + 1 / decelerationMps2)));
    const cruise = (length - (peak * peak) / (2 * accelerationMps2) - (peak * peak) / (2 * decelerationMps2)) / peak;
    t += peak / accelerationMps2;
    knots.push({ timeSeconds: t, speed: peak });
    t += Math.max(0, cruise);
    if (cruise > 0) knots.push({ timeSeconds: t, speed: peak });
    t += peak / decelerationMps2;
    knots.push({ timeSeconds: t, speed: 0 });
    t += dwellSeconds;
    knots.push({ timeSeconds: t, speed: 0 });
  }
  return knots;
}

/** Options of `pathTrajectory` and the vehicle courses. */
export interface PathOptions {
  /** Start of the path. Defaults to `DEFAULT_ORIGIN`. */
  readonly origin?: Origin;
  /** Initial heading, radians clockwise from north. Defaults to 0. */
  readonly headingRad?: number;
  /** Height above the origin, m. Defaults to 0. */
  readonly altitudeM?: number;
}

/**
 * A trajectory along `segments` at the speeds of `knots`. Past the end of the path the entity carries on
 * straight ahead; the duration defaults to the end of the schedule.
 */
export function pathTrajectory(
  name: string,
  segments: readonly PathSegment[],
  knots: readonly SpeedKnot[],
  options: PathOptions & { readonly durationSeconds?: number } = {},
): Trajectory {
  const schedule = new SpeedSchedule(knots);
  const n = segments.length;
  const { starts, north, east, headings, curvatures } = pathGeometry(segments, options.headingRad ?? 0);
  // Each segment's start heading is fixed: its cosine and sine once, not per sample.
  const cosH0 = headings.map(Math.cos),
    sinH0 = headings.map(Math.sin);
  const frame = new LocalFrame(options.origin);
  const motion = createLocalMotion();
  const along = new Float64Array(3);
  const scratch = new Float64Array(2);
  const altitude = options.altitudeM ?? 0;
  const segmentAt = new SortedLookup(starts);

  const local = (timeSeconds: number): LocalMotion => {
    schedule.evaluate(along, timeSeconds);
    const s = along[0]!,
      sDot = along[1]!,
      sDdot = along[2]!;
    // Segment containing s (the first before the path starts); the slot after the last segment is a straight line
    // to infinity.
    const i = Math.max(0, segmentAt.lastAtOrBefore(s));
    const kappa = i < n ? curvatures[i]! : 0;
    const ds = s - starts[i]!;
    const heading = headings[i]! + kappa * ds;
    const p = motion.position,
      v = motion.velocity,
      a = motion.acceleration;
    let c: number, sn: number;
    if (kappa === 0) {
      c = cosH0[i]!;
      sn = sinH0[i]!;
      p[0] = north[i]! + ds * c;
      p[1] = east[i]! + ds * sn;
    } else {
      sinCos(scratch, heading);
      sn = scratch[0]!;
      c = scratch[1]!;
      p[0] = north[i]! + (sn - sinH0[i]!) / kappa;
      p[1] = east[i]! - (c - cosH0[i]!) / kappa;
    }
    p[2] = -altitude;
    v[0] = sDot * c;
    v[1] = sDot * sn;
    v[2] = 0;
    // Along-track s̈·T plus centripetal ṡ²κ along the right-hand normal (−sin H, cos H).
    const centripetal = sDot * sDot * kappa;
    a[0] = sDdot * c - centripetal * sn;
    a[1] = sDdot * sn + centripetal * c;
    a[2] = 0;
    motion.attitude[0] = heading;
    motion.attitude[1] = 0;
    motion.attitude[2] = 0;
    motion.attitudeRates[0] = sDot * kappa;
    motion.attitudeRates[1] = 0;
    motion.attitudeRates[2] = 0;
    const cs = motion.attitudeCosSin;
    cs[0] = c;
    cs[1] = sn;
    cs[2] = cs[4] = 1;
    cs[3] = cs[5] = 0;
    motion.attitudeCosSinValid = true;
    return motion;
  };

  return {
    name,
    durationSeconds: options.durationSeconds ?? schedule.endSeconds,
    // Past the path it carries on straight ahead at its last speed: on, unless that speed is 0 (it has stopped).
    endless: knots[knots.length - 1]!.speed > 0,
    sample(timeSeconds: number, out: TruthState): TruthState {
      return frame.toTruth(out, local(timeSeconds));
    },
  };
}

/**
 * Where each segment of a path starts (n + 1 entries for n segments, the last the path's end, from which it goes
 * on straight ahead): distance along the path, m; north and east of the start, m; heading, radians clockwise from
 * north; and each segment's signed curvature, 1/m, positive turning right (0 for a line and past the end).
 */
export interface PathGeometry {
  readonly starts: Float64Array;
  readonly north: Float64Array;
  readonly east: Float64Array;
  readonly headings: Float64Array;
  readonly curvatures: Float64Array;
}

/** The geometry of `segments` from the start (0, 0) at `headingRad`. */
export function pathGeometry(segments: readonly PathSegment[], headingRad: number): PathGeometry {
  const n = segments.length;
  const starts = new Float64Array(n + 1);
  const north = new Float64Array(n + 1);
  const east = new Float64Array(n + 1);
  const headings = new Float64Array(n + 1);
  const curvatures = new Float64Array(n + 1);
  headings[0] = headingRad;
  for (let i = 0; i < n; i++) {
    const seg = segments[i]!;
    const length = 'line' in seg ? seg.line : seg.arc.radius * Math.abs(seg.arc.angleRad);
    curvatures[i] = 'line' in seg ? 0 : Math.sign(seg.arc.angleRad) / seg.arc.radius;
    pointAlong(north, east, headings, i, curvatures[i]!, length, i + 1);
    starts[i + 1] = starts[i]! + length;
  }
  return { starts, north, east, headings, curvatures };
}

/** Fills point `to` as the end of segment `from` (curvature κ, given length). */
function pointAlong(
  north: Float64Array,
  east: Float64Array,
  headings: Float64Array,
  from: number,
  kappa: number,
  length: number,
  to: number,
): void {
  const h0 = headings[from]!;
  const h1 = h0 + kappa * length;
  headings[to] = h1;
  if (kappa === 0) {
    north[to] = north[from]! + length * Math.cos(h0);
    east[to] = east[from]! + length * Math.sin(h0);
  } else {
    north[to] = north[from]! + (Math.sin(h1) - Math.sin(h0)) / kappa;
    east[to] = east[from]! - (Math.cos(h1) - Math.cos(h0)) / kappa;
  }
}
