/**
 * The motion model of the track estimator: each local east-north-up axis is a constant-acceleration (white-jerk,
 * "Wiener-process acceleration") state [position, velocity, acceleration] with its own 3×3 covariance (Bar-Shalom,
 * Li & Kirubarajan, "Estimation with Applications to Tracking and Navigation", 2001, §6.2.3). The axes are filtered
 * independently: measurement noise is isotropic in the horizontal, so no update couples them, and a fix costs
 * three small filters instead of one 9×9. The kinds differ by how much jerk they fly (the smoothing) and by the
 * accelerations and attitude rates they plausibly reach (the gate's margin, the attitude's bounds and the truth's
 * plausibility checks). docs/recorded-tracks.md lists the figures.
 *
 * Storage: a state is three doubles [p, v, a] at an offset of a Float64Array, its covariance six doubles
 * [pp, pv, pa, vv, va, aa] (the upper triangle, row by row) at an offset of another: the forward filter of a live
 * track and the batch smoother of a recording share these functions, which allocate nothing.
 */
import type { TrackKind } from './track-checks.js';

/** What the estimator assumes of a kind of vehicle. */
export interface MotionModel {
  /** Power spectral density of the horizontal jerk, m²/s⁵: larger follows manoeuvres closer, smooths less. */
  readonly horizontalJerkDensity: number;
  /** The same for the vertical axis, m²/s⁵ (a ground vehicle's height follows the terrain's slow grade). */
  readonly verticalJerkDensity: number;
  /** Largest acceleration the kind plausibly has, m/s²: the gate's manoeuvre margin and the truth's check. */
  readonly maxAccelerationMps2: number;
  /**
   * Acceleration of the kind's ordinary manoeuvres (a turn, a pull-up, braking), m/s²: the margin a reported
   * velocity is judged with, and the turns drawn between sparse fixes.
   */
  readonly turnAccelerationMps2: number;
  /** Largest vertical speed, m/s: a track is not taken up again at a height it could not have climbed to. */
  readonly maxVerticalSpeedMps: number;
  /** Largest vertical acceleration, m/s²: the gate's margin for a height (an aircraft pulls up at 1 g, not 5). */
  readonly maxVerticalAccelerationMps2: number;
  /**
   * Heights the kind can be at, m (above the ellipsoid or sea level: the 100 m between them is within): a height
   * outside is another aircraft's reply or a garbled value, however long the fixes around it are apart.
   */
  readonly heightRangeM: readonly [number, number];
  /** Largest heading rate the attitude may turn at, rad/s. */
  readonly maxHeadingRateRadPerS: number;
  /** Largest pitch rate, rad/s. */
  readonly maxPitchRateRadPerS: number;
  /** Largest roll rate, rad/s. */
  readonly maxRollRateRadPerS: number;
  /** Whether its attitude banks into turns (a coordinated turn: roll = atan(lateral acceleration / g)). */
  readonly banked: boolean;
  /**
   * Distance over which a ground vehicle's pitch is its road's grade, m (height gained over distance driven, which
   * a few metres of GPS height noise hardly tilts, and which a car standing keeps); 0: pitch is the flight path's.
   */
  readonly gradeWindowM: number;
}

const DEG = Math.PI / 180;

/**
 * The model of each kind. Jerk densities are set so that one second of free flight lets the acceleration wander
 * by about √q m/s² (an airliner's manoeuvre onset, a car pulling away, a ship's slow swing); the acceleration
 * and rate bounds are well above what the kind flies (an airliner turns at 3°/s, a fighter at 20°/s, a car at
 * most ~60°/s through a tight corner) and far below what noise makes of a derivative.
 */
export const MOTION_MODELS: Readonly<Record<TrackKind, MotionModel>> = {
  ground: {
    horizontalJerkDensity: 4,
    verticalJerkDensity: 0.01,
    maxAccelerationMps2: 15,
    turnAccelerationMps2: 4,
    maxVerticalSpeedMps: 20,
    maxVerticalAccelerationMps2: 5,
    heightRangeM: [-1_000, 9_000],
    maxHeadingRateRadPerS: 90 * DEG,
    maxPitchRateRadPerS: 20 * DEG,
    maxRollRateRadPerS: 20 * DEG,
    banked: false,
    gradeWindowM: 400,
  },
  surface: {
    horizontalJerkDensity: 0.05,
    verticalJerkDensity: 0.001,
    maxAccelerationMps2: 5,
    turnAccelerationMps2: 1,
    maxVerticalSpeedMps: 5,
    maxVerticalAccelerationMps2: 2,
    heightRangeM: [-200, 200],
    maxHeadingRateRadPerS: 20 * DEG,
    maxPitchRateRadPerS: 5 * DEG,
    maxRollRateRadPerS: 10 * DEG,
    banked: false,
    gradeWindowM: 0,
  },
  subsurface: {
    horizontalJerkDensity: 0.02,
    verticalJerkDensity: 0.005,
    maxAccelerationMps2: 3,
    turnAccelerationMps2: 0.5,
    maxVerticalSpeedMps: 5,
    maxVerticalAccelerationMps2: 1,
    heightRangeM: [-2_000, 200],
    maxHeadingRateRadPerS: 10 * DEG,
    maxPitchRateRadPerS: 5 * DEG,
    maxRollRateRadPerS: 5 * DEG,
    banked: false,
    gradeWindowM: 0,
  },
  air: {
    horizontalJerkDensity: 2,
    verticalJerkDensity: 0.5,
    maxAccelerationMps2: 50,
    turnAccelerationMps2: 10,
    maxVerticalSpeedMps: 200,
    maxVerticalAccelerationMps2: 10,
    heightRangeM: [-1_000, 30_000],
    maxHeadingRateRadPerS: 60 * DEG,
    maxPitchRateRadPerS: 30 * DEG,
    maxRollRateRadPerS: 90 * DEG,
    banked: true,
    gradeWindowM: 0,
  },
  space: {
    horizontalJerkDensity: 1,
    verticalJerkDensity: 1,
    maxAccelerationMps2: 100,
    turnAccelerationMps2: 20,
    maxVerticalSpeedMps: 12_000,
    maxVerticalAccelerationMps2: 50,
    heightRangeM: [-1_000, 1e9],
    maxHeadingRateRadPerS: 30 * DEG,
    maxPitchRateRadPerS: 30 * DEG,
    maxRollRateRadPerS: 30 * DEG,
    banked: false,
    gradeWindowM: 0,
  },
  munition: {
    horizontalJerkDensity: 1e4,
    verticalJerkDensity: 1e4,
    maxAccelerationMps2: 500,
    turnAccelerationMps2: 300,
    maxVerticalSpeedMps: 2_000,
    maxVerticalAccelerationMps2: 500,
    heightRangeM: [-1_000, 1e6],
    maxHeadingRateRadPerS: 360 * DEG,
    maxPitchRateRadPerS: 360 * DEG,
    maxRollRateRadPerS: 3600 * DEG,
    banked: false,
    gradeWindowM: 0,
  },
};

/** Doubles of one axis's state [p, v, a]. */
export const AXIS_STATE = 3;
/** Doubles of one axis's covariance [pp, pv, pa, vv, va, aa]. */
export const AXIS_COVARIANCE = 6;

/**
 * Time update of one axis over dtSeconds (negative runs the model backwards, for a backward filter): x ← F x,
 * P ← F P Fᵀ + Q, with F = [[1, h, h²/2], [0, 1, h], [0, 0, 1]] and Q the white-jerk noise q·∫ g gᵀ. Backwards, the
 * position–velocity and velocity–acceleration terms of Q change sign (the noise enters after, not before).
 * @param jerkDensity - q, m²/s⁵.
 */
export function predictAxis(
  state: Float64Array,
  at: number,
  covariance: Float64Array,
  covAt: number,
  dtSeconds: number,
  jerkDensity: number,
): void {
  const h = dtSeconds,
    h2 = 0.5 * h * h;
  const p = state[at]!,
    v = state[at + 1]!,
    a = state[at + 2]!;
  state[at] = p + h * v + h2 * a;
  state[at + 1] = v + h * a;
  const pp = covariance[covAt]!,
    pv = covariance[covAt + 1]!,
    pa = covariance[covAt + 2]!,
    vv = covariance[covAt + 3]!,
    va = covariance[covAt + 4]!,
    aa = covariance[covAt + 5]!;
  // A = F P (rows), then F P Fᵀ = A Fᵀ.
  const a00 = pp + h * pv + h2 * pa,
    a01 = pv + h * vv + h2 * va,
    a02 = pa + h * va + h2 * aa;
  const a11 = vv + h * va,
    a12 = va + h * aa;
  const m = h < 0 ? -h : h;
  const m2 = m * m,
    m3 = m2 * m;
  const q = jerkDensity;
  covariance[covAt] = a00 + h * a01 + h2 * a02 + q * ((m3 * m2) / 20);
  covariance[covAt + 1] = a01 + h * a02 + q * ((h * m3) / 8);
  covariance[covAt + 2] = a02 + q * (m3 / 6);
  covariance[covAt + 3] = a11 + h * a12 + q * (m3 / 3);
  covariance[covAt + 4] = a12 + q * ((h * m) / 2);
  covariance[covAt + 5] = aa + q * m;
}

/**
 * Measurement update of one axis with a scalar measurement of one component (0 position, 1 velocity,
 * 2 acceleration): K = P hᵀ / S, x ← x + K ν, P ← P − K h P, in the symmetric form that keeps P symmetric.
 * @param variance - the measurement's noise variance, m² (or (m/s)², (m/s²)²).
 */
export function updateAxis(
  state: Float64Array,
  at: number,
  covariance: Float64Array,
  covAt: number,
  component: number,
  value: number,
  variance: number,
): void {
  const pp = covariance[covAt]!,
    pv = covariance[covAt + 1]!,
    pa = covariance[covAt + 2]!,
    vv = covariance[covAt + 3]!,
    va = covariance[covAt + 4]!,
    aa = covariance[covAt + 5]!;
  // Column c of P: the covariances of p, v and a with the measured component.
  const c0 = component === 0 ? pp : component === 1 ? pv : pa;
  const c1 = component === 0 ? pv : component === 1 ? vv : va;
  const c2 = component === 0 ? pa : component === 1 ? va : aa;
  const s = (component === 0 ? pp : component === 1 ? vv : aa) + variance;
  const inverse = 1 / s;
  const innovation = value - state[at + component]!;
  const k0 = c0 * inverse,
    k1 = c1 * inverse,
    k2 = c2 * inverse;
  state[at] = state[at]! + k0 * innovation;
  state[at + 1] = state[at + 1]! + k1 * innovation;
  state[at + 2] = state[at + 2]! + k2 * innovation;
  covariance[covAt] = pp - k0 * c0;
  covariance[covAt + 1] = pv - k0 * c1;
  covariance[covAt + 2] = pa - k0 * c2;
  covariance[covAt + 3] = vv - k1 * c1;
  covariance[covAt + 4] = va - k1 * c2;
  covariance[covAt + 5] = aa - k2 * c2;
}

/**
 * Starts one axis at a measured position (and velocity, when measured; else 0 with `velocityVariance`), with no
 * knowledge of the acceleration beyond what the kind can do.
 */
export function initialiseAxis(
  state: Float64Array,
  at: number,
  covariance: Float64Array,
  covAt: number,
  position: number,
  positionVariance: number,
  velocity: number,
  velocityVariance: number,
  accelerationVariance: number,
): void {
  state[at] = position;
  state[at + 1] = velocity;
  state[at + 2] = 0;
  covariance[covAt] = positionVariance;
  covariance[covAt + 1] = 0;
  covariance[covAt + 2] = 0;
  covariance[covAt + 3] = velocityVariance;
  covariance[covAt + 4] = 0;
  covariance[covAt + 5] = accelerationVariance;
}

/**
 * One step of the Rauch–Tung–Striebel backward pass on one axis (Rauch, Tung & Striebel, AIAA Journal 3(8), 1965):
 * from the filtered state and covariance at k (overwritten with the smoothed ones) and the smoothed ones at k + 1,
 * with Pp = F P Fᵀ + Q the prediction from k to k + 1 and C = P Fᵀ Pp⁻¹:
 * x ← x + C (x_{k+1} − F x), P ← P + C (P_{k+1} − Pp) Cᵀ.
 * @param scratch - 15 doubles of working space.
 * @returns false when the prediction's covariance is singular (the state at k is then left as filtered).
 */
export function smoothAxis(
  state: Float64Array,
  at: number,
  covariance: Float64Array,
  covAt: number,
  nextState: Float64Array,
  nextAt: number,
  nextCovariance: Float64Array,
  nextCovAt: number,
  dtSeconds: number,
  jerkDensity: number,
  scratch: Float64Array,
): boolean {
  // The prediction from k: scratch[0..2] = F x, scratch[3..8] = Pp.
  scratch[0] = state[at]!;
  scratch[1] = state[at + 1]!;
  scratch[2] = state[at + 2]!;
  for (let i = 0; i < 6; i++) scratch[3 + i] = covariance[covAt + i]!;
  predictAxis(scratch, 0, scratch, 3, dtSeconds, jerkDensity);
  const q00 = scratch[3]!,
    q01 = scratch[4]!,
    q02 = scratch[5]!,
    q11 = scratch[6]!,
    q12 = scratch[7]!,
    q22 = scratch[8]!;
  // Pp⁻¹ by cofactors (symmetric 3×3).
  const i00 = q11 * q22 - q12 * q12,
    i01 = q02 * q12 - q01 * q22,
    i02 = q01 * q12 - q02 * q11;
  const det = q00 * i00 + q01 * i01 + q02 * i02;
  if (!(Math.abs(det) > 0) || !Number.isFinite(det)) return false;
  const invDet = 1 / det;
  const n00 = i00 * invDet,
    n01 = i01 * invDet,
    n02 = i02 * invDet,
    n11 = (q00 * q22 - q02 * q02) * invDet,
    n12 = (q02 * q01 - q00 * q12) * invDet,
    n22 = (q00 * q11 - q01 * q01) * invDet;
  // P Fᵀ (rows of P times Fᵀ): B = P Fᵀ.
  const h = dtSeconds,
    h2 = 0.5 * h * h;
  const pp = covariance[covAt]!,
    pv = covariance[covAt + 1]!,
    pa = covariance[covAt + 2]!,
    vv = covariance[covAt + 3]!,
    va = covariance[covAt + 4]!,
    aa = covariance[covAt + 5]!;
  const b00 = pp + h * pv + h2 * pa,
    b01 = pv + h * pa,
    b02 = pa;
  const b10 = pv + h * vv + h2 * va,
    b11 = vv + h * va,
    b12 = va;
  const b20 = pa + h * va + h2 * aa,
    b21 = va + h * aa,
    b22 = aa;
  // C = B Pp⁻¹.
  const c00 = b00 * n00 + b01 * n01 + b02 * n02,
    c01 = b00 * n01 + b01 * n11 + b02 * n12,
    c02 = b00 * n02 + b01 * n12 + b02 * n22;
  const c10 = b10 * n00 + b11 * n01 + b12 * n02,
    c11 = b10 * n01 + b11 * n11 + b12 * n12,
    c12 = b10 * n02 + b11 * n12 + b12 * n22;
  const c20 = b20 * n00 + b21 * n01 + b22 * n02,
    c21 = b20 * n01 + b21 * n11 + b22 * n12,
    c22 = b20 * n02 + b21 * n12 + b22 * n22;
  const d0 = nextState[nextAt]! - scratch[0]!,
    d1 = nextState[nextAt + 1]! - scratch[1]!,
    d2 = nextState[nextAt + 2]! - scratch[2]!;
  state[at] = state[at]! + c00 * d0 + c01 * d1 + c02 * d2;
  state[at + 1] = state[at + 1]! + c10 * d0 + c11 * d1 + c12 * d2;
  state[at + 2] = state[at + 2]! + c20 * d0 + c21 * d1 + c22 * d2;
  // E = P_{k+1} − Pp (symmetric), then P += C E Cᵀ.
  const e00 = nextCovariance[nextCovAt]! - q00,
    e01 = nextCovariance[nextCovAt + 1]! - q01,
    e02 = nextCovariance[nextCovAt + 2]! - q02,
    e11 = nextCovariance[nextCovAt + 3]! - q11,
    e12 = nextCovariance[nextCovAt + 4]! - q12,
    e22 = nextCovariance[nextCovAt + 5]! - q22;
  // G = C E (3×3).
  const g00 = c00 * e00 + c01 * e01 + c02 * e02,
    g01 = c00 * e01 + c01 * e11 + c02 * e12,
    g02 = c00 * e02 + c01 * e12 + c02 * e22;
  const g10 = c10 * e00 + c11 * e01 + c12 * e02,
    g11 = c10 * e01 + c11 * e11 + c12 * e12,
    g12 = c10 * e02 + c11 * e12 + c12 * e22;
  const g20 = c20 * e00 + c21 * e01 + c22 * e02,
    g21 = c20 * e01 + c21 * e11 + c22 * e12,
    g22 = c20 * e02 + c21 * e12 + c22 * e22;
  covariance[covAt] = pp + g00 * c00 + g01 * c01 + g02 * c02;
  covariance[covAt + 1] = pv + g00 * c10 + g01 * c11 + g02 * c12;
  covariance[covAt + 2] = pa + g00 * c20 + g01 * c21 + g02 * c22;
  covariance[covAt + 3] = vv + g10 * c10 + g11 * c11 + g12 * c12;
  covariance[covAt + 4] = va + g10 * c20 + g11 * c21 + g12 * c22;
  covariance[covAt + 5] = aa + g20 * c20 + g21 * c21 + g22 * c22;
  return true;
}
