/**
 * 3×3 matrices as row-major Float64Array(9): m[3·row + col]. gl-matrix style (out first, returns out,
 * safe when out aliases an input); the only allocating functions are `create` and `fromValues`.
 */
import type { ReadonlyVec3, Vec3 } from './vec3.js';

/** A 3×3 matrix, row-major: m[3·row + col]. */
export type Mat3 = Float64Array;
/** A matrix that is only read. */
export type ReadonlyMat3 = Readonly<Float64Array> | ArrayLike<number>;

/** A new identity matrix (allocates). */
export function create(): Mat3 {
  const out = new Float64Array(9);
  out[0] = out[4] = out[8] = 1;
  return out;
}

/** A new matrix from nine row-major values (allocates). */
export function fromValues(...rowMajor: number[]): Mat3 {
  return Float64Array.from(rowMajor.slice(0, 9));
}

export function identity(out: Mat3): Mat3 {
  out.fill(0);
  out[0] = out[4] = out[8] = 1;
  return out;
}

export function copy(out: Mat3, a: ReadonlyMat3): Mat3 {
  for (let i = 0; i < 9; i++) out[i] = a[i]!;
  return out;
}

export function transpose(out: Mat3, a: ReadonlyMat3): Mat3 {
  const a01 = a[1]!,
    a02 = a[2]!,
    a12 = a[5]!;
  out[0] = a[0]!;
  out[1] = a[3]!;
  out[2] = a[6]!;
  out[3] = a01;
  out[4] = a[4]!;
  out[5] = a[7]!;
  out[6] = a02;
  out[7] = a12;
  out[8] = a[8]!;
  return out;
}

/** out = a · b. */
export function multiply(out: Mat3, a: ReadonlyMat3, b: ReadonlyMat3): Mat3 {
  const a00 = a[0]!,
    a01 = a[1]!,
    a02 = a[2]!,
    a10 = a[3]!,
    a11 = a[4]!,
    a12 = a[5]!,
    a20 = a[6]!,
    a21 = a[7]!,
    a22 = a[8]!;
  const b00 = b[0]!,
    b01 = b[1]!,
    b02 = b[2]!,
    b10 = b[3]!,
    b11 = b[4]!,
    b12 = b[5]!,
    b20 = b[6]!,
    b21 = b[7]!,
    b22 = b[8]!;
  out[0] = a00 * b00 + a01 * b10 + a02 * b20;
  out[1] = a00 * b01 + a01 * b11 + a02 * b21;
  out[2] = a00 * b02 + a01 * b12 + a02 * b22;
  out[3] = a10 * b00 + a11 * b10 + a12 * b20;
  out[4] = a10 * b01 + a11 * b11 + a12 * b21;
  out[5] = a10 * b02 + a11 * b12 + a12 * b22;
  out[6] = a20 * b00 + a21 * b10 + a22 * b20;
  out[7] = a20 * b01 + a21 * b11 + a22 * b21;
  out[8] = a20 * b02 + a21 * b12 + a22 * b22;
  return out;
}

/** out = m · v. */
export function transformVec3(out: Vec3, m: ReadonlyMat3, v: ReadonlyVec3): Vec3 {
  const x = v[0]!,
    y = v[1]!,
    z = v[2]!;
  out[0] = m[0]! * x + m[1]! * y + m[2]! * z;
  out[1] = m[3]! * x + m[4]! * y + m[5]! * z;
  out[2] = m[6]! * x + m[7]! * y + m[8]! * z;
  return out;
}

/** out = mᵀ · v (for a rotation, the inverse transform: body → world when m is world-to-body). */
export function transformTransposeVec3(out: Vec3, m: ReadonlyMat3, v: ReadonlyVec3): Vec3 {
  const x = v[0]!,
    y = v[1]!,
    z = v[2]!;
  out[0] = m[0]! * x + m[3]! * y + m[6]! * z;
  out[1] = m[1]! * x + m[4]! * y + m[7]! * z;
  out[2] = m[2]! * x + m[5]! * y + m[8]! * z;
  return out;
}

/** Outer product a·bᵀ. */
export function outer(out: Mat3, a: ReadonlyVec3, b: ReadonlyVec3): Mat3 {
  const ax = a[0]!,
    ay = a[1]!,
    az = a[2]!,
    bx = b[0]!,
    by = b[1]!,
    bz = b[2]!;
  out[0] = ax * bx;
  out[1] = ax * by;
  out[2] = ax * bz;
  out[3] = ay * bx;
  out[4] = ay * by;
  out[5] = ay * bz;
  out[6] = az * bx;
  out[7] = az * by;
  out[8] = az * bz;
  return out;
}

/** The cross-product matrix Ω = skew(w), so that Ω·v = w × v. */
export function skew(out: Mat3, w: ReadonlyVec3): Mat3 {
  const x = w[0]!,
    y = w[1]!,
    z = w[2]!;
  out[0] = 0;
  out[1] = -z;
  out[2] = y;
  out[3] = z;
  out[4] = 0;
  out[5] = -x;
  out[6] = -y;
  out[7] = x;
  out[8] = 0;
  return out;
}

export function determinant(a: ReadonlyMat3): number {
  return (
    a[0]! * (a[4]! * a[8]! - a[5]! * a[7]!) -
    a[1]! * (a[3]! * a[8]! - a[5]! * a[6]!) +
    a[2]! * (a[3]! * a[7]! - a[4]! * a[6]!)
  );
}

/** Largest |(a·aᵀ − I)ᵢⱼ|: 0 for an exactly orthonormal matrix. */
export function orthonormalityError(a: ReadonlyMat3): number {
  let worst = 0;
  for (let i = 0; i < 3; i++) {
    for (let j = 0; j < 3; j++) {
      const d =
        a[3 * i]! * a[3 * j]! + a[3 * i + 1]! * a[3 * j + 1]! + a[3 * i + 2]! * a[3 * j + 2]! - (i === j ? 1 : 0);
      worst = Math.max(worst, Math.abs(d));
    }
  }
  return worst;
}

/**
 * Angle in radians of the rotation a · bᵀ that takes orientation b to orientation a (both rotation matrices
 * of the same kind). Uses atan2 of the half-angle terms, so it stays accurate for tiny angles where
 * acos((trace − 1)/2) loses everything.
 */
export function rotationAngleBetween(a: ReadonlyMat3, b: ReadonlyMat3): number {
  rotationSinCos(scratchSinCos, a, b);
  return Math.atan2(scratchSinCos[0]!, scratchSinCos[1]!);
}

const scratchSinCos = new Float64Array(2);

/**
 * [2·sin, 2·cos] of the angle of the rotation a · bᵀ (see `rotationAngleBetween`, which is their atan2): enough
 * to compare the angle with a threshold θ without trigonometry (angle > θ ⇔ sin·cos θ − cos·sin θ > 0).
 * @param aOffset - where a starts in its array. Defaults to 0.
 * @returns out
 */
export function rotationSinCos(out: Float64Array, a: ReadonlyMat3, b: ReadonlyMat3, aOffset = 0): Float64Array {
  // Entries of C = a · bᵀ that we need, C[i][j] = row i of a · row j of b: the trace and the antisymmetric
  // part. Written out (eighteen reads, no helper): this runs twice per simulation step, for the emitter's
  // orientation threshold and the displayed orientation error.
  const o = aOffset;
  const a0 = a[o]!,
    a1 = a[o + 1]!,
    a2 = a[o + 2]!,
    a3 = a[o + 3]!,
    a4 = a[o + 4]!,
    a5 = a[o + 5]!,
    a6 = a[o + 6]!,
    a7 = a[o + 7]!,
    a8 = a[o + 8]!;
  const b0 = b[0]!,
    b1 = b[1]!,
    b2 = b[2]!,
    b3 = b[3]!,
    b4 = b[4]!,
    b5 = b[5]!,
    b6 = b[6]!,
    b7 = b[7]!,
    b8 = b[8]!;
  const trace = a0 * b0 + a1 * b1 + a2 * b2 + (a3 * b3 + a4 * b4 + a5 * b5) + (a6 * b6 + a7 * b7 + a8 * b8);
  const sx = a6 * b3 + a7 * b4 + a8 * b5 - (a3 * b6 + a4 * b7 + a5 * b8);
  const sy = a0 * b6 + a1 * b7 + a2 * b8 - (a6 * b0 + a7 * b1 + a8 * b2);
  const sz = a3 * b0 + a4 * b1 + a5 * b2 - (a0 * b3 + a1 * b4 + a2 * b5);
  // 2·sin(angle) = |antisymmetric part|, 2·cos(angle) = trace − 1.
  out[0] = Math.sqrt(sx * sx + sy * sy + sz * sz);
  out[1] = trace - 1;
  return out;
}
