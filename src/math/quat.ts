/**
 * Unit quaternions as Float64Array(4) [x, y, z, w], used where they help: orientation error angles and
 * slerp. `toMat3(fromMat3(m)) = m` for any rotation matrix m, whatever frame convention m follows.
 */
import type { Mat3, ReadonlyMat3 } from './mat3.js';

/** A quaternion [w, x, y, z]. */
export type Quat = Float64Array;
/** A quaternion that is only read. */
export type ReadonlyQuat = Readonly<Float64Array> | ArrayLike<number>;

/** A new identity quaternion (allocates). */
export function create(): Quat {
  const out = new Float64Array(4);
  out[3] = 1;
  return out;
}

export function identity(out: Quat): Quat {
  out[0] = out[1] = out[2] = 0;
  out[3] = 1;
  return out;
}

export function copy(out: Quat, a: ReadonlyQuat): Quat {
  out[0] = a[0]!;
  out[1] = a[1]!;
  out[2] = a[2]!;
  out[3] = a[3]!;
  return out;
}

export function dot(a: ReadonlyQuat, b: ReadonlyQuat): number {
  return a[0]! * b[0]! + a[1]! * b[1]! + a[2]! * b[2]! + a[3]! * b[3]!;
}

/** Hamilton product a·b (apply b, then a). */
export function multiply(out: Quat, a: ReadonlyQuat, b: ReadonlyQuat): Quat {
  const ax = a[0]!,
    ay = a[1]!,
    az = a[2]!,
    aw = a[3]!;
  const bx = b[0]!,
    by = b[1]!,
    bz = b[2]!,
    bw = b[3]!;
  out[0] = aw * bx + ax * bw + ay * bz - az * by;
  out[1] = aw * by - ax * bz + ay * bw + az * bx;
  out[2] = aw * bz + ax * by - ay * bx + az * bw;
  out[3] = aw * bw - ax * bx - ay * by - az * bz;
  return out;
}

/** Inverse of a unit quaternion. */
export function conjugate(out: Quat, a: ReadonlyQuat): Quat {
  out[0] = -a[0]!;
  out[1] = -a[1]!;
  out[2] = -a[2]!;
  out[3] = a[3]!;
  return out;
}

/** Scales to unit length; returns null (out untouched) for the zero quaternion. */
export function normalize(out: Quat, a: ReadonlyQuat): Quat | null {
  const len = Math.hypot(a[0]!, a[1]!, a[2]!, a[3]!);
  if (len === 0) return null;
  const s = 1 / len;
  out[0] = a[0]! * s;
  out[1] = a[1]! * s;
  out[2] = a[2]! * s;
  out[3] = a[3]! * s;
  return out;
}

/** Quaternion of a rotation matrix (row-major), Shepperd's method: the largest diagonal term keeps it stable. */
export function fromMat3(out: Quat, m: ReadonlyMat3): Quat {
  const m00 = m[0]!,
    m01 = m[1]!,
    m02 = m[2]!,
    m10 = m[3]!,
    m11 = m[4]!,
    m12 = m[5]!,
    m20 = m[6]!,
    m21 = m[7]!,
    m22 = m[8]!;
  const trace = m00 + m11 + m22;
  if (trace > 0) {
    const s = 0.5 / Math.sqrt(trace + 1);
    out[3] = 0.25 / s;
    out[0] = (m21 - m12) * s;
    out[1] = (m02 - m20) * s;
    out[2] = (m10 - m01) * s;
  } else if (m00 > m11 && m00 > m22) {
    const s = 2 * Math.sqrt(1 + m00 - m11 - m22);
    out[3] = (m21 - m12) / s;
    out[0] = 0.25 * s;
    out[1] = (m01 + m10) / s;
    out[2] = (m02 + m20) / s;
  } else if (m11 > m22) {
    const s = 2 * Math.sqrt(1 + m11 - m00 - m22);
    out[3] = (m02 - m20) / s;
    out[0] = (m01 + m10) / s;
    out[1] = 0.25 * s;
    out[2] = (m12 + m21) / s;
  } else {
    const s = 2 * Math.sqrt(1 + m22 - m00 - m11);
    out[3] = (m10 - m01) / s;
    out[0] = (m02 + m20) / s;
    out[1] = (m12 + m21) / s;
    out[2] = 0.25 * s;
  }
  return out;
}

/** Rotation matrix (row-major) of a unit quaternion. */
export function toMat3(out: Mat3, q: ReadonlyQuat): Mat3 {
  const x = q[0]!,
    y = q[1]!,
    z = q[2]!,
    w = q[3]!;
  const xx = x * x,
    yy = y * y,
    zz = z * z,
    xy = x * y,
    xz = x * z,
    yz = y * z,
    wx = w * x,
    wy = w * y,
    wz = w * z;
  out[0] = 1 - 2 * (yy + zz);
  out[1] = 2 * (xy - wz);
  out[2] = 2 * (xz + wy);
  out[3] = 2 * (xy + wz);
  out[4] = 1 - 2 * (xx + zz);
  out[5] = 2 * (yz - wx);
  out[6] = 2 * (xz - wy);
  out[7] = 2 * (yz + wx);
  out[8] = 1 - 2 * (xx + yy);
  return out;
}

/** Rotation angle in radians (0…π) between two orientations; q and −q are the same orientation. */
export function angleBetween(a: ReadonlyQuat, b: ReadonlyQuat): number {
  // |a·b| = cos(angle/2); atan2 form keeps precision for tiny angles.
  const d = Math.abs(dot(a, b));
  const ax = a[0]!,
    ay = a[1]!,
    az = a[2]!,
    aw = a[3]!,
    bx = b[0]!,
    by = b[1]!,
    bz = b[2]!,
    bw = b[3]!;
  // Vector part of conj(b)·a has length sin(angle/2).
  const vx = bw * ax - bx * aw - by * az + bz * ay;
  const vy = bw * ay + bx * az - by * aw - bz * ax;
  const vz = bw * az - bx * ay + by * ax - bz * aw;
  return 2 * Math.atan2(Math.hypot(vx, vy, vz), d);
}

/**
 * Spherical linear interpolation along the shorter arc: t = 0 gives a, t = 1 gives b (or −b).
 * @param t - fraction, 0…1.
 */
export function slerp(out: Quat, a: ReadonlyQuat, b: ReadonlyQuat, t: number): Quat {
  const ax = a[0]!,
    ay = a[1]!,
    az = a[2]!,
    aw = a[3]!;
  let bx = b[0]!,
    by = b[1]!,
    bz = b[2]!,
    bw = b[3]!;
  let cosom = ax * bx + ay * by + az * bz + aw * bw;
  if (cosom < 0) {
    cosom = -cosom;
    bx = -bx;
    by = -by;
    bz = -bz;
    bw = -bw;
  }
  let s0: number, s1: number;
  if (1 - cosom > 1e-6) {
    const omega = Math.acos(cosom);
    const sinom = Math.sin(omega);
    s0 = Math.sin((1 - t) * omega) / sinom;
    s1 = Math.sin(t * omega) / sinom;
  } else {
    // Nearly parallel: linear interpolation is exact to O(angle²) and avoids 0/0.
    s0 = 1 - t;
    s1 = t;
  }
  out[0] = s0 * ax + s1 * bx;
  out[1] = s0 * ay + s1 * by;
  out[2] = s0 * az + s1 * bz;
  out[3] = s0 * aw + s1 * bw;
  return normalize(out, out) ?? identity(out);
}
