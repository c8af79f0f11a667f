/**
 * DIS Euler angles ψ, θ, φ (IEEE 1278.1 §6.2.33): Z-Y-X intrinsic rotations relative to the ECEF axes, and the
 * world-to-body matrix R_wb they define (v_body = R_wb · v_world; body x forward, y right, z down).
 */
import type { Mat3, ReadonlyMat3 } from './mat3.js';
import type { ReadonlyVec3, Vec3 } from './vec3.js';

/**
 * Below this cos θ the yaw and roll axes coincide (gimbal lock) and only their combination is defined;
 * 1e-8 balances the dropped terms (≈ cos θ) against atan2 noise on tiny arguments (≈ 1e-16 / cos θ).
 */
const GIMBAL_LOCK_COS_THETA = 1e-8;

/**
 * World-to-body rotation matrix R_wb (row-major) of DIS Euler angles, IEEE 1278.1 §6.2.33 / docs/dis-reference.md §3.2.
 * @param psi - ψ, rotation about Z, radians.
 * @param theta - θ, about the new Y′, radians.
 * @param phi - φ, about the new X″, radians.
 */
export function worldToBodyFromEuler(out: Mat3, psi: number, theta: number, phi: number): Mat3 {
  const cpsi = Math.cos(psi),
    spsi = Math.sin(psi);
  const cth = Math.cos(theta),
    sth = Math.sin(theta);
  const cphi = Math.cos(phi),
    sphi = Math.sin(phi);
  out[0] = cth * cpsi;
  out[1] = cth * spsi;
  out[2] = -sth;
  out[3] = sphi * sth * cpsi - cphi * spsi;
  out[4] = sphi * sth * spsi + cphi * cpsi;
  out[5] = sphi * cth;
  out[6] = cphi * sth * cpsi + sphi * spsi;
  out[7] = cphi * sth * spsi - sphi * cpsi;
  out[8] = cphi * cth;
  return out;
}

/** `worldToBodyFromEuler` taking [ψ, θ, φ]. */
export function worldToBodyFromEulerVec(out: Mat3, euler: ReadonlyVec3): Mat3 {
  return worldToBodyFromEuler(out, euler[0]!, euler[1]!, euler[2]!);
}

/**
 * DIS Euler angles [ψ, θ, φ] (radians; ψ, φ in (−π, π], θ in [−π/2, π/2]) of a world-to-body matrix.
 * At gimbal lock (θ = ±90°) ψ is set to 0 and φ carries the whole remaining rotation, as KDIS does.
 */
export function eulerFromWorldToBody(out: Vec3, m: ReadonlyMat3): Vec3 {
  const m00 = m[0]!,
    m01 = m[1]!,
    m02 = m[2]!;
  const cosTheta = Math.sqrt(m00 * m00 + m01 * m01); // not Math.hypot: several times slower in V8, and |m| ≤ 1
  // atan2 rather than asin(−m02): accurate near ±90°, and never NaN when rounding makes |m02| > 1.
  const theta = Math.atan2(-m02, cosTheta);
  if (cosTheta < GIMBAL_LOCK_COS_THETA) {
    out[0] = 0;
    out[1] = theta;
    out[2] = Math.atan2(-m[7]!, m[4]!);
  } else {
    out[0] = Math.atan2(m01, m00);
    out[1] = theta;
    out[2] = Math.atan2(m[5]!, m[8]!);
  }
  return out;
}

/**
 * Euler angle rates [ψ̇, θ̇, φ̇] (rad/s) from body angular velocity (rad/s about body x, y, z). Singular at
 * θ = ±90°, where ψ̇ and φ̇ are unbounded: returns null there (out untouched).
 */
export function eulerRatesFromBodyRates(out: Vec3, euler: ReadonlyVec3, bodyRates: ReadonlyVec3): Vec3 | null {
  const theta = euler[1]!,
    phi = euler[2]!;
  const cth = Math.cos(theta);
  if (Math.abs(cth) < GIMBAL_LOCK_COS_THETA) return null;
  const wx = bodyRates[0]!,
    wy = bodyRates[1]!,
    wz = bodyRates[2]!;
  const cphi = Math.cos(phi),
    sphi = Math.sin(phi);
  const psiDot = (wy * sphi + wz * cphi) / cth;
  out[0] = psiDot;
  out[1] = wy * cphi - wz * sphi;
  out[2] = wx + psiDot * Math.sin(theta);
  return out;
}

/** Body angular velocity (rad/s about body x, y, z) from Euler angles and their rates [ψ̇, θ̇, φ̇] (rad/s). */
export function bodyRatesFromEulerRates(out: Vec3, euler: ReadonlyVec3, eulerRates: ReadonlyVec3): Vec3 {
  const theta = euler[1]!,
    phi = euler[2]!;
  const psiDot = eulerRates[0]!,
    thetaDot = eulerRates[1]!,
    phiDot = eulerRates[2]!;
  const cth = Math.cos(theta),
    sth = Math.sin(theta),
    cphi = Math.cos(phi),
    sphi = Math.sin(phi);
  out[0] = phiDot - psiDot * sth;
  out[1] = thetaDot * cphi + psiDot * sphi * cth;
  out[2] = -thetaDot * sphi + psiDot * cphi * cth;
  return out;
}
