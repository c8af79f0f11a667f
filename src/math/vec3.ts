/**
 * 3-vectors as Float64Array(3), gl-matrix style: `fn(out, a, b)` returns `out`, inputs are read into locals
 * before `out` is written (so `add(a, a, b)` is safe), and nothing allocates except `create`.
 */

/** A 3-vector; Float64Array so ECEF metres (~6.4e6) keep sub-millimetre precision. */
export type Vec3 = Float64Array;
/** A vector that is only read. */
export type ReadonlyVec3 = Readonly<Float64Array> | ArrayLike<number>;

/** A new zero vector (allocates: call once, reuse). */
export function create(): Vec3 {
  return new Float64Array(3);
}

/** A new vector holding x, y, z (allocates). */
export function fromValues(x: number, y: number, z: number): Vec3 {
  const out = new Float64Array(3);
  out[0] = x;
  out[1] = y;
  out[2] = z;
  return out;
}

export function set(out: Vec3, x: number, y: number, z: number): Vec3 {
  out[0] = x;
  out[1] = y;
  out[2] = z;
  return out;
}

export function copy(out: Vec3, a: ReadonlyVec3): Vec3 {
  out[0] = a[0]!;
  out[1] = a[1]!;
  out[2] = a[2]!;
  return out;
}

export function add(out: Vec3, a: ReadonlyVec3, b: ReadonlyVec3): Vec3 {
  out[0] = a[0]! + b[0]!;
  out[1] = a[1]! + b[1]!;
  out[2] = a[2]! + b[2]!;
  return out;
}

export function subtract(out: Vec3, a: ReadonlyVec3, b: ReadonlyVec3): Vec3 {
  out[0] = a[0]! - b[0]!;
  out[1] = a[1]! - b[1]!;
  out[2] = a[2]! - b[2]!;
  return out;
}

export function scale(out: Vec3, a: ReadonlyVec3, s: number): Vec3 {
  out[0] = a[0]! * s;
  out[1] = a[1]! * s;
  out[2] = a[2]! * s;
  return out;
}

/** out = a + b·s. */
export function scaleAndAdd(out: Vec3, a: ReadonlyVec3, b: ReadonlyVec3, s: number): Vec3 {
  out[0] = a[0]! + b[0]! * s;
  out[1] = a[1]! + b[1]! * s;
  out[2] = a[2]! + b[2]! * s;
  return out;
}

/** out = a + (b − a)·t. */
export function lerp(out: Vec3, a: ReadonlyVec3, b: ReadonlyVec3, t: number): Vec3 {
  const ax = a[0]!,
    ay = a[1]!,
    az = a[2]!;
  out[0] = ax + (b[0]! - ax) * t;
  out[1] = ay + (b[1]! - ay) * t;
  out[2] = az + (b[2]! - az) * t;
  return out;
}

export function dot(a: ReadonlyVec3, b: ReadonlyVec3): number {
  return a[0]! * b[0]! + a[1]! * b[1]! + a[2]! * b[2]!;
}

export function cross(out: Vec3, a: ReadonlyVec3, b: ReadonlyVec3): Vec3 {
  const ax = a[0]!,
    ay = a[1]!,
    az = a[2]!;
  const bx = b[0]!,
    by = b[1]!,
    bz = b[2]!;
  out[0] = ay * bz - az * by;
  out[1] = az * bx - ax * bz;
  out[2] = ax * by - ay * bx;
  return out;
}

export function length(a: ReadonlyVec3): number {
  return Math.hypot(a[0]!, a[1]!, a[2]!);
}

/** Euclidean distance between two points (not per axis). */
export function distance(a: ReadonlyVec3, b: ReadonlyVec3): number {
  return Math.hypot(a[0]! - b[0]!, a[1]! - b[1]!, a[2]! - b[2]!);
}

/** Unit vector along `a`; returns null (out untouched) for the zero vector. */
export function normalize(out: Vec3, a: ReadonlyVec3): Vec3 | null {
  const len = Math.hypot(a[0]!, a[1]!, a[2]!);
  if (len === 0) return null;
  return scale(out, a, 1 / len);
}

/** Rounds each component to the nearest float32, as a float32 wire field would carry it. */
export function fround(out: Vec3, a: ReadonlyVec3): Vec3 {
  out[0] = Math.fround(a[0]!);
  out[1] = Math.fround(a[1]!);
  out[2] = Math.fround(a[2]!);
  return out;
}
