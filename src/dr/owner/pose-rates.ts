/**
 * Rates from poses alone: for sources (tracks, recordings) that give only positions and orientations, estimates
 * the velocity and acceleration at the newest sample from a quadratic through the last three positions (exact for
 * constant acceleration, any spacing), and the body angular velocity from the rotation between the last two
 * orientations (exact for a constant rate). Allocates nothing per sample.
 */
import { worldToBodyFromEuler } from '../../math/euler.js';
import type { TruthState } from './truth-state.js';

/** Velocity, acceleration and body rates estimated from the last poses of a track. */
export class PoseRateEstimator {
  private count = 0;
  private readonly locations = new Float64Array(9); // newest first
  private readonly times = new Float64Array(3);
  private readonly previousR = new Float64Array(9);
  private readonly currentR = new Float64Array(9);

  /** Forgets the history (e.g. after a teleport). */
  clear(): void {
    this.count = 0;
  }

  /**
   * Adds a sample and writes the estimated state at its time into `out`.
   * @param location - ECEF metres.
   * @param orientation - ψ, θ, φ radians.
   * @param tSeconds - sample time; a sample not later than the previous one restarts the history.
   */
  add(location: ArrayLike<number>, orientation: ArrayLike<number>, tSeconds: number, out: TruthState): TruthState {
    const L = this.locations,
      T = this.times;
    if (this.count > 0 && !(tSeconds > T[0]!)) this.count = 0;
    L.copyWithin(3, 0, 6);
    T.copyWithin(1, 0, 2);
    L[0] = location[0]!;
    L[1] = location[1]!;
    L[2] = location[2]!;
    T[0] = tSeconds;
    this.count = Math.min(this.count + 1, 3);
    out.location.set(L.subarray(0, 3));
    out.orientation[0] = orientation[0]!;
    out.orientation[1] = orientation[1]!;
    out.orientation[2] = orientation[2]!;
    const v = out.linearVelocity,
      a = out.linearAcceleration;
    if (this.count === 1) {
      v.fill(0);
      a.fill(0);
    } else if (this.count === 2) {
      const h = T[0] - T[1]!;
      for (let k = 0; k < 3; k++) v[k] = (L[k]! - L[3 + k]!) / h;
      a.fill(0);
    } else {
      // Derivatives at t0 of the parabola through (t0, p0), (t1, p1), (t2, p2); differences from p0 keep the
      // digits of ECEF-sized values.
      const h1 = T[0] - T[1]!,
        h2 = T[1]! - T[2]!,
        h12 = h1 + h2;
      for (let k = 0; k < 3; k++) {
        const d1 = L[3 + k]! - L[k]!,
          d2 = L[6 + k]! - L[k]!;
        v[k] = (-d1 * h12) / (h1 * h2) + (d2 * h1) / (h2 * h12);
        a[k] = 2 * (-d1 / (h1 * h2) + d2 / (h2 * h12));
      }
    }
    // Body rates: R_now = exp(−Ω h)·R_prev, so the rotation vector of R_now·R_prevᵀ is −ω·h.
    const w = out.angularVelocity;
    this.previousR.set(this.currentR);
    worldToBodyFromEuler(this.currentR, orientation[0]!, orientation[1]!, orientation[2]!);
    if (this.count === 1) {
      w.fill(0);
      return out;
    }
    const h = T[0] - T[1]!,
      c = this.currentR,
      p = this.previousR;
    const sx = 0.5 * (rowDot(c, p, 2, 1) - rowDot(c, p, 1, 2));
    const sy = 0.5 * (rowDot(c, p, 0, 2) - rowDot(c, p, 2, 0));
    const sz = 0.5 * (rowDot(c, p, 1, 0) - rowDot(c, p, 0, 1));
    const sinAngle = Math.hypot(sx, sy, sz);
    const trace = rowDot(c, p, 0, 0) + rowDot(c, p, 1, 1) + rowDot(c, p, 2, 2);
    const angle = Math.atan2(sinAngle, 0.5 * (trace - 1));
    // angle / sin(angle) → 1 as the angle → 0.
    const k = sinAngle > 1e-12 ? -angle / (sinAngle * h) : -1 / h;
    w[0] = sx * k;
    w[1] = sy * k;
    w[2] = sz * k;
    return out;
  }
}

/** (c · pᵀ)[i][j]. */
function rowDot(c: Float64Array, p: Float64Array, i: number, j: number): number {
  return c[3 * i]! * p[3 * j]! + c[3 * i + 1]! * p[3 * j + 1]! + c[3 * i + 2]! * p[3 * j + 2]!;
}
