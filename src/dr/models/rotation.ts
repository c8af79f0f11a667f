/**
 * The closed-form matrices of the rotating and body-axis DR models (IEEE 1278.1 Annex E; docs/dis-reference.md §3.3), written
 * with θ = |ω|·t so every coefficient is exact to rounding for any |ω|, including 0:
 *
 *   DR(t) = (1 − cos θ)/|ω|² · ωωᵀ + cos θ · I − sin θ/|ω| · Ω          (= exp(−Ω t), a frame rotation)
 *   R1(t) = (θ − sin θ)/|ω|³ · ωωᵀ + sin θ/|ω| · I + (1 − cos θ)/|ω|² · Ω  (= ∫₀ᵗ DR(τ)ᵀ dτ; "+Ω" is the
 *           corrected sign, the 1995 text's "−" does not match the integral)
 *   R2(t) = (½θ² + 1 − cos θ − θ sin θ)/|ω|⁴ · ωωᵀ + (cos θ + θ sin θ − 1)/|ω|² · I
 *           + (sin θ − θ cos θ)/|ω|³ · Ω                                 (= ∫₀ᵗ τ·DR(τ)ᵀ dτ)
 *
 * Each coefficient is t^k times a function of θ alone. Those that cancel catastrophically for small θ use their
 * Taylor series below θ = 0.3 (terms to θ¹⁰, truncation < 1e-16 relative); 1 − cos θ is taken as 2 sin²(θ/2),
 * which never cancels. No threshold drops small rates: ω = 1e-12 rad/s is as exact as ω = 1.
 */
import type { Mat3 } from '../../math/mat3.js';
import type { ReadonlyVec3 } from '../../math/vec3.js';

const SERIES_BELOW = 0.3;

/** (1 − cos θ)/θ², → ½. */
export function oneMinusCosOverSq(theta: number): number {
  if (theta < 1e-4) return 0.5 - (theta * theta) / 24;
  const s = Math.sin(0.5 * theta) / theta;
  return 2 * s * s;
}

/** sin θ / θ, → 1. */
export function sinc(theta: number): number {
  return theta < 1e-4 ? 1 - (theta * theta) / 6 : Math.sin(theta) / theta;
}

/** (θ − sin θ)/θ³, → 1/6. */
export function thetaMinusSinOverCube(theta: number): number {
  if (theta >= SERIES_BELOW) return (theta - Math.sin(theta)) / (theta * theta * theta);
  const x = theta * theta;
  return 1 / 6 - x * (1 / 120 - x * (1 / 5040 - x * (1 / 362880 - x * (1 / 39916800 - x / 6227020800))));
}

/** (sin θ − θ cos θ)/θ³, → 1/3. Series term k: (−1)^(k+1)·2k/(2k+1)!. */
export function sinMinusThetaCosOverCube(theta: number): number {
  if (theta >= SERIES_BELOW) return (Math.sin(theta) - theta * Math.cos(theta)) / (theta * theta * theta);
  const x = theta * theta;
  return 1 / 3 - x * (1 / 30 - x * (1 / 840 - x * (1 / 45360 - x * (1 / 3991680 - x / 518918400))));
}

/** (½θ² + 1 − cos θ − θ sin θ)/θ⁴, → 1/8. Series term k: (−1)^k·(2k − 1)/(2k)!. */
export function r2OuterCoefficient(theta: number): number {
  if (theta >= SERIES_BELOW) {
    return (0.5 * theta * theta + 1 - Math.cos(theta) - theta * Math.sin(theta)) / (theta * theta * theta * theta);
  }
  const x = theta * theta;
  return 1 / 8 - x * (1 / 144 - x * (1 / 5760 - x * (1 / 403200 - x * (11 / 479001600 - (x * 13) / 87178291200))));
}

/** Writes a·ωωᵀ + b·I + c·Ω (row-major). */
function combine(out: Mat3, w: ReadonlyVec3, a: number, b: number, c: number): Mat3 {
  const x = w[0]!,
    y = w[1]!,
    z = w[2]!;
  out[0] = a * x * x + b;
  out[1] = a * x * y - c * z;
  out[2] = a * x * z + c * y;
  out[3] = a * y * x + c * z;
  out[4] = a * y * y + b;
  out[5] = a * y * z - c * x;
  out[6] = a * z * x - c * y;
  out[7] = a * z * y + c * x;
  out[8] = a * z * z + b;
  return out;
}

/**
 * DR(t): the frame rotation over t seconds at body rate ω; R_wb(t) = DR(t)·R_wb(0).
 * @param angularVelocity - ω, rad/s about body x, y, z.
 * @param tSeconds - total time since the state's time.
 */
export function drMatrix(out: Mat3, angularVelocity: ReadonlyVec3, tSeconds: number): Mat3 {
  const t = tSeconds,
    theta = Math.hypot(angularVelocity[0]!, angularVelocity[1]!, angularVelocity[2]!) * Math.abs(t);
  return combine(out, angularVelocity, oneMinusCosOverSq(theta) * t * t, Math.cos(theta), -sinc(theta) * t);
}

/** R1(t) = ∫₀ᵗ DR(τ)ᵀ dτ (body velocity → displacement in the initial body frame). */
export function r1Matrix(out: Mat3, angularVelocity: ReadonlyVec3, tSeconds: number): Mat3 {
  const t = tSeconds,
    theta = Math.hypot(angularVelocity[0]!, angularVelocity[1]!, angularVelocity[2]!) * Math.abs(t);
  return combine(
    out,
    angularVelocity,
    thetaMinusSinOverCube(theta) * t * t * t,
    sinc(theta) * t,
    oneMinusCosOverSq(theta) * t * t,
  );
}

/** R2(t) = ∫₀ᵗ τ·DR(τ)ᵀ dτ (body acceleration → displacement in the initial body frame). */
export function r2Matrix(out: Mat3, angularVelocity: ReadonlyVec3, tSeconds: number): Mat3 {
  const t = tSeconds,
    theta = Math.hypot(angularVelocity[0]!, angularVelocity[1]!, angularVelocity[2]!) * Math.abs(t);
  const t2 = t * t;
  return combine(
    out,
    angularVelocity,
    r2OuterCoefficient(theta) * t2 * t2,
    (sinc(theta) - oneMinusCosOverSq(theta)) * t2,
    sinMinusThetaCosOverCube(theta) * t2 * t,
  );
}
