/**
 * Motion between the smoother's knots. On an interval up to SPARSE_SECONDS long, the quintic that matches position,
 * velocity and acceleration at both ends (quintic Hermite interpolation), so the sampled truth is C² — its velocity
 * and acceleration are the derivatives of its position, and they equal the smoothed ones at every knot. Where fixes
 * are sparse the velocity at a fix says little of the path to the next one: a firefighting aircraft reported every
 * 20 s turns a quarter circle between them, and any polynomial through both ends' velocities flies faster than
 * either where they do not point along the chord (a cubic reaches 1.5 × the chord's speed in its middle). There the
 * vehicle turns from its velocity onto a straight leg, flies it, and turns onto the next knot's velocity: each turn
 * a constant acceleration (the velocity changing linearly, so the speed stays within its ends'), the leg's velocity
 * w the one that meets the next knot's position. The turns take the kind's `turnAccelerationMps2`; where the ends'
 * velocities point away from the next position (an aircraft circling between fixes 40 s apart), turns that slow
 * would need a leg faster than the vehicle ever flew, so they are made sharper, up to half the kind's largest
 * acceleration, until the leg is no faster than the fastest speed the recording reports (or than 1.05 × its chord,
 * where the positions demand more). The track is C¹ there.
 */
/** Longest interval bridged by the quintic, s; longer ones by turn, leg and turn. */
export const SPARSE_SECONDS = 3;
/** Rounds of the fixed point between a sparse interval's turn times and its leg's velocity. */
const LEG_ROUNDS = 4;

/** Bisection steps of a sparse interval's turn acceleration. */
const TURN_STEPS = 12;
/** The sharpest turn a leg is given, as a share of the kind's largest acceleration. */
const SHARPEST_TURN = 0.5;
/** A leg may fly this much faster than its chord (a slower leg needs instant turns). */
const CHORD_FACTOR = 1.05;
/** Without reported speeds, a leg may fly this much faster than the fastest of its ends and chord. */
const UNREPORTED_FACTOR = 1.1;

/** Knots: times (not decreasing) and [p, v, a] per axis per knot (`stride` doubles a knot). */
export interface Knots {
  readonly times: Float64Array;
  readonly state: Float64Array;
  readonly stride: number;
  /** The acceleration of the turns flown on a sparse interval, m/s² (`MotionModel.turnAccelerationMps2`). */
  readonly turnAccelerationMps2: number;
  /** The sharpest turn, m/s² (`MotionModel.maxAccelerationMps2`). */
  readonly maxAccelerationMps2: number;
  /** The fastest the recording reports its vehicle, m/s (+∞: it reports no speed). */
  readonly fastestMps: number;
  /**
   * The last sparse interval's turns and leg: [its first knot (−1: none), τ₀, τ₁, w per axis]. Set the first entry to
   * −1 when `state` changes.
   */
  readonly leg: Float64Array;
}

/** Knots over `times` and `state` with the turn accelerations of a motion model. */
export function createKnots(
  times: Float64Array,
  state: Float64Array,
  stride: number,
  model: { readonly turnAccelerationMps2: number; readonly maxAccelerationMps2: number },
  fastestMps = Number.POSITIVE_INFINITY,
): Knots {
  return {
    times,
    state,
    stride,
    turnAccelerationMps2: model.turnAccelerationMps2,
    maxAccelerationMps2: model.maxAccelerationMps2,
    fastestMps,
    leg: Float64Array.of(-1, 0, 0, 0, 0, 0),
  };
}

/**
 * Writes position, velocity, acceleration and jerk of `axes` axes (each [p, v, a] at `3·axis` in a knot) at time t
 * into out ([p, v, a, j] per axis), clamped to the knots' span. `hint` is a knot index to start the search from
 * (the last one found: sampling in time order costs no search).
 * @returns the interval's first knot, to pass as the next hint.
 */
export function interpolateKnots(knots: Knots, axes: number, t: number, out: Float64Array, hint: number): number {
  const times = knots.times,
    x = knots.state,
    stride = knots.stride;
  const last = times.length - 1;
  if (last <= 0) {
    for (let axis = 0; axis < axes; axis++) {
      out[4 * axis] = x[3 * axis]!;
      out[4 * axis + 1] = last === 0 ? x[3 * axis + 1]! : 0;
      out[4 * axis + 2] = last === 0 ? x[3 * axis + 2]! : 0;
      out[4 * axis + 3] = 0;
    }
    return 0;
  }
  let k = hint >= 0 && hint < last ? hint : 0;
  if (!(times[k]! <= t && t < times[k + 1]!)) {
    if (k + 1 < last && times[k + 1]! <= t && t < times[k + 2]!) k++;
    else {
      let lo = 0,
        hi = last - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (times[mid]! <= t) lo = mid;
        else hi = mid - 1;
      }
      k = lo;
    }
  }
  // Repeated times: the interval that has a length (the last of the equal knots starts it).
  while (k + 1 < last && times[k + 1]! === times[k]!) k++;
  const t0 = times[k]!;
  const h = times[k + 1]! - t0;
  if (!(h > 0)) {
    for (let axis = 0; axis < axes; axis++) {
      const b = stride * (k + 1) + 3 * axis;
      out[4 * axis] = x[b]!;
      out[4 * axis + 1] = x[b + 1]!;
      out[4 * axis + 2] = x[b + 2]!;
      out[4 * axis + 3] = 0;
    }
    return k;
  }
  if (h > SPARSE_SECONDS) {
    turnLegTurn(knots, axes, k, Math.min(Math.max(t - t0, 0), h), h, out);
    return k;
  }
  const u = Math.min(Math.max((t - t0) / h, 0), 1);
  const invH = 1 / h;
  const halfH2 = 0.5 * h * h;
  for (let axis = 0; axis < axes; axis++) {
    const a = stride * k + 3 * axis,
      b = a + stride;
    const p0 = x[a]!,
      v0 = x[a + 1]! * h,
      a0 = x[a + 2]! * halfH2;
    const dp = x[b]! - p0,
      v1 = x[b + 1]! * h,
      a1 = x[b + 2]! * halfH2;
    // p(u) = p0 + v0·u + a0·u² + c3·u³ + c4·u⁴ + c5·u⁵ (with v, a scaled to the unit interval).
    const c3 = 10 * dp - 6 * v0 - 4 * v1 - 3 * a0 + a1;
    const c4 = -15 * dp + 8 * v0 + 7 * v1 + 3 * a0 - 2 * a1;
    const c5 = 6 * dp - 3 * v0 - 3 * v1 - a0 + a1;
    const o = 4 * axis;
    out[o] = p0 + u * (v0 + u * (a0 + u * (c3 + u * (c4 + u * c5))));
    out[o + 1] = (v0 + u * (2 * a0 + u * (3 * c3 + u * (4 * c4 + u * 5 * c5)))) * invH;
    out[o + 2] = (2 * a0 + u * (6 * c3 + u * (12 * c4 + u * 20 * c5))) * invH * invH;
    out[o + 3] = (6 * c3 + u * (24 * c4 + u * 60 * c5)) * invH * invH * invH;
  }
  return k;
}

/**
 * The sparse interval [k, k + 1] of length h at s seconds into it: a turn of τ₀ from v₀ to the leg's velocity w, the
 * leg, a turn of τ₁ from w to v₁, the velocity linear in time in each turn (`legOf`).
 */
function turnLegTurn(knots: Knots, axes: number, k: number, s: number, h: number, out: Float64Array): void {
  const x = knots.state,
    stride = knots.stride;
  const a = stride * k,
    b = a + stride;
  const leg = knots.leg;
  if (leg[0] !== k) legOf(knots, axes, k, h);
  const tau0 = leg[1]!,
    tau1 = leg[2]!;
  const r = h - s;
  for (let axis = 0; axis < axes; axis++) {
    const o = 4 * axis;
    const p0 = x[a + 3 * axis]!,
      v0 = x[a + 3 * axis + 1]!,
      p1 = x[b + 3 * axis]!,
      v1 = x[b + 3 * axis + 1]!,
      w = leg[3 + axis]!;
    if (s < tau0) {
      const acceleration = (w - v0) / tau0;
      out[o] = p0 + s * (v0 + 0.5 * acceleration * s);
      out[o + 1] = v0 + acceleration * s;
      out[o + 2] = acceleration;
    } else if (r < tau1) {
      const acceleration = (v1 - w) / tau1;
      out[o] = p1 - r * (v1 - 0.5 * acceleration * r);
      out[o + 1] = v1 - acceleration * r;
      out[o + 2] = acceleration;
    } else {
      out[o] = p0 + 0.5 * (v0 + w) * tau0 + w * (s - tau0);
      out[o + 1] = w;
      out[o + 2] = 0;
    }
    out[o + 3] = 0;
  }
}

/**
 * Writes the turns and leg of the sparse interval [k, k + 1] into `knots.leg`. For a turn acceleration A each τ is
 * the time the turn takes, |w − v|/A (at most h/2), and the leg meets the next position:
 * p₀ + (v₀ + w)·τ₀/2 + w·(h − τ₀ − τ₁) + (w + v₁)·τ₁/2 = p₁ (a fixed point of τ and w, a few rounds). A is the kind's
 * turn acceleration, or the least up to SHARPEST_TURN × its largest that keeps |w| within the fastest speed the
 * recording reports (at least CHORD_FACTOR × the chord's; without reported speeds, UNREPORTED_FACTOR × the fastest
 * of the ends and the chord).
 */
function legOf(knots: Knots, axes: number, k: number, h: number): void {
  const x = knots.state,
    stride = knots.stride;
  const a = stride * k,
    b = a + stride;
  let chord = 0,
    v0 = 0,
    v1 = 0;
  for (let axis = 0; axis < axes; axis++) {
    chord += (x[b + 3 * axis]! - x[a + 3 * axis]!) ** 2;
    v0 += x[a + 3 * axis + 1]! ** 2;
    v1 += x[b + 3 * axis + 1]! ** 2;
  }
  const c = Math.sqrt(chord) / h;
  const limit = Number.isFinite(knots.fastestMps)
    ? Math.max(CHORD_FACTOR * c, knots.fastestMps)
    : UNREPORTED_FACTOR * Math.max(c, Math.sqrt(v0), Math.sqrt(v1));
  const leg = knots.leg;
  leg[0] = k;
  let low = knots.turnAccelerationMps2;
  if (legAt(knots, axes, k, h, low) <= limit) return;
  let high = Math.max(low, SHARPEST_TURN * knots.maxAccelerationMps2);
  if (legAt(knots, axes, k, h, high) > limit) return;
  for (let step = 0; step < TURN_STEPS; step++) {
    const middle = 0.5 * (low + high);
    if (legAt(knots, axes, k, h, middle) > limit) low = middle;
    else high = middle;
  }
  legAt(knots, axes, k, h, high);
}

/** Writes τ₀, τ₁ and w of turns at `acceleration` into `knots.leg` (see `legOf`); returns |w|. */
function legAt(knots: Knots, axes: number, k: number, h: number, acceleration: number): number {
  const x = knots.state,
    stride = knots.stride;
  const a = stride * k,
    b = a + stride;
  const leg = knots.leg;
  for (let axis = 0; axis < axes; axis++) leg[3 + axis] = (x[b + 3 * axis]! - x[a + 3 * axis]!) / h;
  let speed = 0;
  for (let round = 0; round < LEG_ROUNDS; round++) {
    let d0 = 0,
      d1 = 0;
    for (let axis = 0; axis < axes; axis++) {
      d0 += (leg[3 + axis]! - x[a + 3 * axis + 1]!) ** 2;
      d1 += (leg[3 + axis]! - x[b + 3 * axis + 1]!) ** 2;
    }
    const tau0 = Math.min(0.5 * h, Math.sqrt(d0) / acceleration),
      tau1 = Math.min(0.5 * h, Math.sqrt(d1) / acceleration);
    leg[1] = tau0;
    leg[2] = tau1;
    const legSeconds = h - 0.5 * (tau0 + tau1);
    speed = 0;
    for (let axis = 0; axis < axes; axis++) {
      const dp = x[b + 3 * axis]! - x[a + 3 * axis]!;
      const w = (dp - 0.5 * (x[a + 3 * axis + 1]! * tau0 + x[b + 3 * axis + 1]! * tau1)) / legSeconds;
      leg[3 + axis] = w;
      speed += w * w;
    }
  }
  return Math.sqrt(speed);
}
