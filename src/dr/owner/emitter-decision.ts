/**
 * The parts of the owner's send decision (IEEE 1278.1 §E.7.5) that the one-entity `DeadReckoningEmitter` and the
 * many-entity `EmitterBank` share, so that both decide and send the same doubles: the threshold comparisons, the
 * orientation error terms, the state a PDU carries (float32-rounded, body frame for B models) and the 'auto'
 * choice of algorithm. Doubles pass through typed arrays (`errors`, `limits`), never boxed.
 */
import { eulerFromWorldToBody, worldToBodyFromEulerVec } from '../../math/euler.js';
import { DR_FPW, DR_FVW, DR_RPW, DR_RVW, DR_STATIC, isBodyAlgorithm, usesAcceleration } from '../models/algorithm.js';
import type { TruthState } from './truth-state.js';

/** Below these an 'auto' emitter sends static / fixed-orientation models. */
export const REST_SPEED = 0.01; // m/s
export const TURN_RATE = 1e-3; // rad/s
/** Acceleration above which an 'auto' emitter's first PDU takes a V model, m/s². */
export const FIRST_ACCELERATION = 0.1;

/** Indices of the `errors` array: |error|², (2·sin)² and 2·cos of the orientation error angle, and dt. */
export const POSITION_SQ = 0,
  SKEW_SQ = 1,
  COS2 = 2,
  LAST_DT = 3;
/** Indices of the `limits` array: the position threshold, cos θ, sin θ, cos²θ and `maxErrorNormWithin(θ)`. */
export const POSITION_M = 0,
  COS = 1,
  SIN = 2,
  COS_SQ = 3,
  DELTA_MAX = 4;

/** The orientation entries of `limits` (COS, SIN, COS_SQ, DELTA_MAX) for a threshold in radians. */
export function writeOrientationLimits(limits: Float64Array, at: number, thresholdRad: number): void {
  // The comparison in `exceedsAngle` holds for thresholds in [0, π]; beyond π no rotation exceeds it.
  const threshold = Math.min(Math.max(thresholdRad, 0), Math.PI);
  const cos = Math.cos(threshold);
  limits[at + COS] = cos;
  limits[at + SIN] = Math.sin(threshold);
  limits[at + COS_SQ] = cos * cos;
  limits[at + DELTA_MAX] = maxErrorNormWithin(threshold);
}

/**
 * The position test √(errors[POSITION_SQ]) > limits[POSITION_M], decided as that expression decides it. The square
 * root is taken only within a relative 1e-12 of the threshold: further away, e² against t² answers the same, since
 * √ is correctly rounded and monotonic and the few roundings of e² and t² are ~1e-16 relative (t in [1e-100, 1e100],
 * so that t² is a normal double).
 */
export function exceedsThreshold(errors: Float64Array, limits: Float64Array): boolean {
  const e2 = errors[POSITION_SQ]!,
    t = limits[POSITION_M]!;
  if (t >= 1e-100 && t <= 1e100) {
    const t2 = t * t;
    if (e2 > t2 * (1 + 1e-12)) return true;
    if (e2 < t2 * (1 - 1e-12)) return false;
  }
  return Math.sqrt(e2) > t; // also NaN, 0 and extreme thresholds
}

/**
 * The orientation test angle > θ, as sin(angle − θ) > 0 for angle, θ in [0, π]: 2sin·cos θ − 2cos·sin θ > 0 with
 * 2sin = √(errors[SKEW_SQ]) and 2cos = errors[COS2]. With cos θ > 0 and c = 2cos·sin θ a normal positive double,
 * the test is √S·cos θ > c, which S·cos²θ against c² answers the same outside a relative 1e-12 band (each side is
 * within a few roundings, ~1e-16, of its exact value, and rounding √S·cos θ is monotonic). Inside the band, at an
 * angle above 90° or for θ = 0, the exact form decides.
 * @param at - where the orientation entries start in `limits` (0 for an emitter's own array).
 */
export function exceedsAngle(errors: Float64Array, limits: Float64Array, at = 0): boolean {
  const s2 = errors[SKEW_SQ]!,
    c = errors[COS2]! * limits[at + SIN]!,
    cos = limits[at + COS]!;
  if (c >= 1e-100 && c <= 1e100 && cos > 0) {
    const x = s2 * limits[at + COS_SQ]!,
      y = c * c;
    if (x > y * (1 + 1e-12)) return true;
    if (x < y * (1 - 1e-12)) return false;
  }
  return Math.sqrt(s2) * cos - c > 0;
}

/**
 * The largest ‖A − B‖_F (Frobenius; A any matrix, B a rotation) for which `exceedsAngle` is sure to answer no at
 * threshold θ, less a margin; −1 when there is none (θ = 0, or θ ≥ 90°). With N = (A − B)·Bᵀ, A·Bᵀ = I + N, so
 * 2sin = |antisymmetric part| ≤ √2‖N‖_F and 2cos = trace − 1 ≥ 2 − √3‖N‖_F; the test 2sin·cos θ > 2cos·sin θ then
 * fails while ‖N‖_F < 2 sin θ / (√2 cos θ + √3 sin θ) (for small angles 0.94 of the exact 2√2·sin(θ/2)). The margin
 * (relative 1e-9, absolute 1e-12) covers the roundings of both sides, ~1e-15, and a B orthogonal only to ~1e-16.
 */
export function maxErrorNormWithin(thresholdRad: number): number {
  const cos = Math.cos(thresholdRad),
    sin = Math.sin(thresholdRad);
  if (!(cos > 0 && sin > 0)) return -1;
  return ((2 * sin) / (Math.SQRT2 * cos + Math.sqrt(3) * sin)) * (1 - 1e-9) - 1e-12;
}

/**
 * errors[SKEW_SQ] and errors[COS2] from the trace and antisymmetric part of a · bᵀ (row-major matrices at offsets
 * ai and bi), as `rotationSinCos` writes them out (same operations in the same order, hence the same doubles),
 * without its square root.
 */
export function writeOrientationErrors(
  errors: Float64Array,
  a: Float64Array,
  ai: number,
  b: Float64Array,
  bi: number,
): void {
  const a0 = a[ai]!,
    a1 = a[ai + 1]!,
    a2 = a[ai + 2]!,
    a3 = a[ai + 3]!,
    a4 = a[ai + 4]!,
    a5 = a[ai + 5]!,
    a6 = a[ai + 6]!,
    a7 = a[ai + 7]!,
    a8 = a[ai + 8]!;
  const b0 = b[bi]!,
    b1 = b[bi + 1]!,
    b2 = b[bi + 2]!,
    b3 = b[bi + 3]!,
    b4 = b[bi + 4]!,
    b5 = b[bi + 5]!,
    b6 = b[bi + 6]!,
    b7 = b[bi + 7]!,
    b8 = b[bi + 8]!;
  const trace = a0 * b0 + a1 * b1 + a2 * b2 + (a3 * b3 + a4 * b4 + a5 * b5) + (a6 * b6 + a7 * b7 + a8 * b8);
  const sx = a6 * b3 + a7 * b4 + a8 * b5 - (a3 * b6 + a4 * b7 + a5 * b8);
  const sy = a0 * b6 + a1 * b7 + a2 * b8 - (a6 * b0 + a7 * b1 + a8 * b2);
  const sz = a3 * b0 + a4 * b1 + a5 * b2 - (a0 * b3 + a1 * b4 + a2 * b5);
  errors[SKEW_SQ] = sx * sx + sy * sy + sz * sz;
  errors[COS2] = trace - 1;
}

/** The kinematic fields of a PDU, as the emitters write them: float32-rounded, in the algorithm's frame. */
export interface SentKinematics {
  /** m/s, world frame, or body frame for B models. */
  readonly velocity: Float64Array;
  /** m/s², frame as velocity; 0 for P models. */
  readonly acceleration: Float64Array;
  /** ψ, θ, φ radians. */
  readonly orientation: Float64Array;
  /** rad/s about body axes. */
  readonly angularVelocity: Float64Array;
  /** Scratch R_wb for B models sent from angles. */
  readonly worldToBody: Float64Array;
}

export function createSentKinematics(): SentKinematics {
  return {
    velocity: new Float64Array(3),
    acceleration: new Float64Array(3),
    orientation: new Float64Array(3),
    angularVelocity: new Float64Array(3),
    worldToBody: new Float64Array(9),
  };
}

/**
 * Writes what a PDU of algorithm `alg` carries for `truth` into `out`: float32 angles, rates, velocity and
 * acceleration (location stays float64). Body models: V_b = R·V; A_b = d/dt(V_b) = R·A − ω × V_b (Towers & Hines;
 * docs/dis-reference.md §3.4), since dR/dt = −Ω·R. The angles come from `trueWorldToBody` when given.
 */
export function writeSentKinematics(
  out: SentKinematics,
  truth: TruthState,
  trueWorldToBody: Float64Array | null,
  alg: number,
): void {
  const v = truth.linearVelocity,
    a = truth.linearAcceleration,
    w = truth.angularVelocity;
  const o = trueWorldToBody === null ? truth.orientation : eulerFromWorldToBody(out.orientation, trueWorldToBody);
  fround3(out.orientation, o);
  fround3(out.angularVelocity, w);
  const sentV = out.velocity,
    sentA = out.acceleration;
  if (isBodyAlgorithm(alg)) {
    const r = trueWorldToBody ?? worldToBodyFromEulerVec(out.worldToBody, o);
    const vbx = r[0]! * v[0]! + r[1]! * v[1]! + r[2]! * v[2]!;
    const vby = r[3]! * v[0]! + r[4]! * v[1]! + r[5]! * v[2]!;
    const vbz = r[6]! * v[0]! + r[7]! * v[1]! + r[8]! * v[2]!;
    const wx = w[0]!,
      wy = w[1]!,
      wz = w[2]!;
    sentV[0] = Math.fround(vbx);
    sentV[1] = Math.fround(vby);
    sentV[2] = Math.fround(vbz);
    sentA[0] = Math.fround(r[0]! * a[0]! + r[1]! * a[1]! + r[2]! * a[2]! - (wy * vbz - wz * vby));
    sentA[1] = Math.fround(r[3]! * a[0]! + r[4]! * a[1]! + r[5]! * a[2]! - (wz * vbx - wx * vbz));
    sentA[2] = Math.fround(r[6]! * a[0]! + r[7]! * a[1]! + r[8]! * a[2]! - (wx * vby - wy * vbx));
  } else {
    fround3(sentV, v);
    fround3(sentA, a);
  }
  if (!usesAcceleration(alg)) sentA.fill(0);
}

/**
 * The 'auto' algorithm for a truth moving at `speed` (m/s) and turning at `rate` (rad/s): static at rest, F models
 * without a turn, V models when `accelerating` (which form predicted the last interval better: the caller's).
 */
export function autoAlgorithm(speed: number, rate: number, accelerating: boolean): number {
  const rotating = rate > TURN_RATE;
  if (speed < REST_SPEED && !rotating) return DR_STATIC;
  if (accelerating) return rotating ? DR_RVW : DR_FVW;
  return rotating ? DR_RPW : DR_FPW;
}

/** |(x, y, z)|; Math.hypot is slower and allocates its arguments. */
export function norm(x: number, y: number, z: number): number {
  return Math.sqrt(x * x + y * y + z * z);
}

export function fround3(out: Float64Array, a: ArrayLike<number>): Float64Array {
  out[0] = Math.fround(a[0]!);
  out[1] = Math.fround(a[1]!);
  out[2] = Math.fround(a[2]!);
  return out;
}
