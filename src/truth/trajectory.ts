/**
 * The trajectory contract and the one conversion every synthetic trajectory shares: motion is written in a
 * local north-east-down (NED) tangent frame at an origin, with a heading/pitch/roll attitude and its rates,
 * then mapped to the ECEF `TruthState` DIS works in. The tangent frame is flat: over the few kilometres of a
 * test course the Earth's curvature (≈ 0.08 m over 1 km) is far below any DR threshold.
 */
import { createTruthState, type TruthState } from '../dr/owner/truth-state.js';
import { eulerFromWorldToBody } from '../math/euler.js';
import { ecefToNedMatrix, geodeticToEcef } from '../math/geodesy.js';
import * as mat3 from '../math/mat3.js';
import { sinCos } from '../math/trig.js';
import type { TrackKind } from './track-kinds.js';

/** What a recorded track is and what the estimator did to it. */
export interface RecordingSummary {
  readonly kind: TrackKind;
  /** Fixes whose position was not used (held, jumps, outliers, unusable). */
  readonly fixesDropped: number;
  /** Fixes used without one of their other parts (a held height, a velocity), or moved in time order. */
  readonly fixesRepaired: number;
}

/** A truth trajectory: exact state at any instant, cheap to sample, no state carried between samples. */
export interface Trajectory {
  readonly name: string;
  readonly durationSeconds: number;
  /**
   * Whether its motion goes on past `durationSeconds` as it was (an orbit keeps orbiting, a straight run at speed
   * keeps running), so that a longer run still measures a moving entity. Otherwise the trajectory is over at
   * `durationSeconds` (a course that ends at rest, a recording, a missile's impact) and an experiment stops there.
   */
  readonly endless?: boolean;
  /** What a report should say about this truth, e.g. the fixes a recorded track dropped. */
  readonly notes?: readonly string[];
  /** A recorded track's kind and what the estimator dropped and repaired of it (the run's truth quality). */
  readonly recording?: RecordingSummary;
  /**
   * Writes the true state at `timeSeconds` (from the trajectory's start) into `out` and returns it.
   * Allocates nothing.
   */
  sample(timeSeconds: number, out: TruthState): TruthState;
  /**
   * Optional fast path for a fixed-rate sweep: a `StepSampler` for the instants t = step / rateHz, the same
   * doubles the caller would pass to `sample`. Trajectories that advance their state by exact recurrences
   * offer it; their steps agree with `sample` to far below a micrometre.
   * @param rateHz - samples per second.
   */
  stepSampler?(rateHz: number): StepSampler;
}

/**
 * Writes the true state at step / rateHz into `out` (and R_wb, for a `TruthWithAttitude`) and returns it; fastest
 * when called with step = 0, 1, 2, …, but any step order gives the state at that step. Allocates nothing.
 */
export type StepSampler = (step: number, out: TruthState) => TruthState;

/** Where a trajectory starts: geodetic latitude and longitude (degrees) and height above the WGS-84 ellipsoid. */
export interface Origin {
  readonly latitudeDeg: number;
  readonly longitudeDeg: number;
  /** Metres above the ellipsoid. Defaults to 0. */
  readonly heightM?: number;
}

/** Monterey Bay, the example location of the DIS tutorial. */
export const DEFAULT_ORIGIN: Origin = { latitudeDeg: 36.5973, longitudeDeg: -121.8731, heightM: 0 };

/** Standard gravity, m/s². */
export const STANDARD_GRAVITY = 9.80665;

/** Local motion at one instant: NED vectors and a heading/pitch/roll attitude with its rates. */
export interface LocalMotion {
  /** North, east, down from the origin, m. */
  readonly position: Float64Array;
  /** m/s, NED. */
  readonly velocity: Float64Array;
  /** m/s², NED. */
  readonly acceleration: Float64Array;
  /**
   * [heading (clockwise from north), pitch (nose up), roll (right wing down)], radians; not written (left as
   * they were) by producers that give `attitudeCosSin` instead.
   */
  readonly attitude: Float64Array;
  /** Rates of the attitude angles, rad/s. */
  readonly attitudeRates: Float64Array;
  /**
   * [cos, sin] of heading, pitch and roll, when the producer has them without trigonometry (from the velocity):
   * `toTruth` then uses them instead of six sines and cosines of `attitude`.
   */
  readonly attitudeCosSin: Float64Array;
  /** True when `attitudeCosSin` holds the current attitude; producers that set only the angles clear it. */
  attitudeCosSinValid: boolean;
}

export function createLocalMotion(): LocalMotion {
  return {
    position: new Float64Array(3),
    velocity: new Float64Array(3),
    acceleration: new Float64Array(3),
    attitude: new Float64Array(3),
    attitudeRates: new Float64Array(3),
    attitudeCosSin: new Float64Array(6),
    attitudeCosSinValid: false,
  };
}

/** A NED tangent frame at an origin that converts local motion to ECEF truth. */
export class LocalFrame {
  readonly originEcef = new Float64Array(3);
  /** Rows: north, east, down unit vectors in ECEF. */
  readonly ecefToNed = new Float64Array(9);
  private readonly bodyFromNed = new Float64Array(9);
  private readonly worldToBody = new Float64Array(9);
  private readonly sinCos = new Float64Array(2);

  constructor(readonly origin: Origin = DEFAULT_ORIGIN) {
    const lat = (origin.latitudeDeg * Math.PI) / 180;
    const lon = (origin.longitudeDeg * Math.PI) / 180;
    geodeticToEcef(this.originEcef, lat, lon, origin.heightM ?? 0);
    ecefToNedMatrix(this.ecefToNed, lat, lon);
  }

  /**
   * Writes `motion` as ECEF truth into `out`. When `out` also carries a `worldToBody` matrix (see
   * `TruthWithAttitude`), R_wb is written there too, saving its users the trigonometry.
   */
  toTruth(out: TruthState, motion: LocalMotion): TruthState {
    const m = this.ecefToNed;
    rotateToEcef(out.location, m, motion.position);
    out.location[0]! += this.originEcef[0]!;
    out.location[1]! += this.originEcef[1]!;
    out.location[2]! += this.originEcef[2]!;
    rotateToEcef(out.linearVelocity, m, motion.velocity);
    rotateToEcef(out.linearAcceleration, m, motion.acceleration);
    // One set of sines and cosines serves the attitude matrix and the body rates (hot path: trigonometry
    // dominates a simulation step).
    const att = motion.attitude,
      rates = motion.attitudeRates,
      cs = motion.attitudeCosSin;
    if (!motion.attitudeCosSinValid) {
      for (let k = 0; k < 3; k++) {
        sinCos(this.sinCos, att[k]!);
        cs[2 * k] = this.sinCos[1]!;
        cs[2 * k + 1] = this.sinCos[0]!;
      }
    }
    const ch = cs[0]!,
      sh = cs[1]!,
      cp = cs[2]!,
      sp = cs[3]!,
      cr = cs[4]!,
      sr = cs[5]!;
    const withAttitude = out as Partial<TruthWithAttitude>;
    const wb = withAttitude.worldToBody ?? this.worldToBody;
    if (sp === 0 && sr === 0) {
      // Level (ground vehicles, ships, unbanked turns): R_nb is the heading turn alone, so R_wb's rows are the
      // north and east rows turned by the heading and the down row: 12 products instead of the 27 of R_nb · m.
      for (let k = 0; k < 3; k++) {
        const north = m[k]!,
          east = m[3 + k]!;
        wb[k] = ch * north + sh * east;
        wb[3 + k] = ch * east - sh * north;
        wb[6 + k] = m[6 + k]!;
      }
    } else {
      // R_nb(heading, pitch, roll), the DIS Z-Y-X matrix (docs/dis-reference.md §3.2) in the NED frame.
      const r = this.bodyFromNed;
      r[0] = cp * ch;
      r[1] = cp * sh;
      r[2] = -sp;
      r[3] = sr * sp * ch - cr * sh;
      r[4] = sr * sp * sh + cr * ch;
      r[5] = sr * cp;
      r[6] = cr * sp * ch + sr * sh;
      r[7] = cr * sp * sh - sr * ch;
      r[8] = cr * cp;
      // R_wb = R_nb · R_ned←ecef (docs/dis-reference.md §6.5).
      mat3.multiply(wb, r, m);
    }
    if (withAttitude.matrixOnly !== true) eulerFromWorldToBody(out.orientation, wb);
    // Body rates from Euler rates (docs/dis-reference.md §3.2). They do not depend on the Earth-fixed frame the angles are
    // measured in, and the tangent frame is fixed in ECEF, so the local rates give the ECEF body rates.
    const hDot = rates[0]!,
      pDot = rates[1]!,
      rDot = rates[2]!;
    const w = out.angularVelocity;
    w[0] = rDot - hDot * sp;
    w[1] = pDot * cr + hDot * sr * cp;
    w[2] = -pDot * sr + hDot * cr * cp;
    return out;
  }
}

/** A TruthState that also receives the world-to-body matrix R_wb (row-major) of its orientation. */
export interface TruthWithAttitude extends TruthState {
  readonly worldToBody: Float64Array;
  /**
   * When true, trajectories write `worldToBody` and leave `orientation` untouched, saving three atan2 per
   * sample, for loops that take the matrix (the experiment runner hands it to the emitter, which derives the
   * angles it sends). Defaults to false.
   */
  matrixOnly?: boolean;
}

/** A zeroed `TruthWithAttitude`. @param matrixOnly - see `TruthWithAttitude.matrixOnly`. Defaults to false. */
export function createTruthWithAttitude(matrixOnly = false): TruthWithAttitude {
  return { ...createTruthState(), worldToBody: new Float64Array(9), matrixOnly };
}

/** out = mᵀ · v for a row-major 3×3 (local → ECEF). */
function rotateToEcef(out: Float64Array, m: Float64Array, v: Float64Array): void {
  const x = v[0]!,
    y = v[1]!,
    z = v[2]!;
  out[0] = m[0]! * x + m[3]! * y + m[6]! * z;
  out[1] = m[1]! * x + m[4]! * y + m[7]! * z;
  out[2] = m[2]! * x + m[5]! * y + m[8]! * z;
}

/**
 * Sets a velocity-aligned attitude from NED velocity, acceleration and jerk: heading along the ground track,
 * pitch along the flight path (no angle of attack), and — when `banked` — the roll of a coordinated turn,
 * atan(lateral acceleration / g). Every rate is the exact time derivative of its angle. In motion the attitude
 * is written as `attitudeCosSin`; at rest (no ground track) as angles from the fallbacks.
 * @param fallbackHeadingRad - heading while the horizontal speed is zero (at rest, or straight up). Defaults to 0.
 * @param fallbackPitchRad - pitch while the entity is at rest. Defaults to 0.
 */
export function alignAttitudeWithVelocity(
  motion: LocalMotion,
  jerk: ArrayLike<number>,
  banked: boolean,
  fallbackHeadingRad = 0,
  fallbackPitchRad = 0,
): void {
  const v = motion.velocity,
    a = motion.acceleration;
  const vn = v[0]!,
    ve = v[1]!,
    vd = v[2]!;
  const an = a[0]!,
    ae = a[1]!,
    ad = a[2]!;
  const h2 = vn * vn + ve * ve;
  const h = Math.sqrt(h2);
  const att = motion.attitude,
    rates = motion.attitudeRates;
  if (h < 1e-9) {
    att[0] = fallbackHeadingRad;
    att[1] = vd === 0 ? fallbackPitchRad : Math.atan2(-vd, 0);
    att[2] = 0;
    rates.fill(0);
    motion.attitudeCosSinValid = false;
    return;
  }
  // Horizontal cross product v × a (down component): heading rate ψ̇ = (v × a)/h², lateral acceleration (v × a)/h.
  // Divisions by h, h² and the speed go through their reciprocals, taken once (a division costs several
  // multiplications; this runs once per sample).
  const cross = vn * ae - ve * an;
  const invH = 1 / h,
    invH2 = invH * invH;
  const hDot = (vn * an + ve * ae) * invH;
  // Heading atan2(ve, vn), pitch atan2(−vd, h) and roll atan(lateral / g) are given by their sines and cosines,
  // which follow from the same vectors without trigonometry (the angles themselves are never needed).
  rates[0] = cross * invH2;
  const cs = motion.attitudeCosSin;
  cs[0] = vn * invH;
  cs[1] = ve * invH;
  if (vd === 0) {
    // Level flight, the common case: pitch is exactly 0 (cos 1, sin ±0 as −vd), with no second square root.
    rates[1] = -ad * invH;
    cs[2] = 1;
    cs[3] = -vd;
  } else {
    const invSpeed = 1 / Math.sqrt(h2 + vd * vd);
    rates[1] = (h * -ad + vd * hDot) * (invSpeed * invSpeed);
    cs[2] = h * invSpeed;
    cs[3] = -vd * invSpeed;
  }
  if (banked) {
    const lateral = cross * invH;
    // d/dt (v × a) = v × j (a × a = 0), so the lateral acceleration's rate is (v × j)/h − lateral·ḣ/h.
    const lateralDot = (vn * jerk[1]! - ve * jerk[0]! - lateral * hDot) * invH;
    const ratio = lateral * (1 / STANDARD_GRAVITY);
    const cosRoll2 = 1 / (1 + ratio * ratio); // cos² roll = 1 / (1 + tan² roll)
    rates[2] = lateralDot * (1 / STANDARD_GRAVITY) * cosRoll2;
    cs[4] = Math.sqrt(cosRoll2);
    cs[5] = ratio * cs[4];
  } else {
    rates[2] = 0;
    cs[4] = 1;
    cs[5] = 0;
  }
  motion.attitudeCosSinValid = true;
}
