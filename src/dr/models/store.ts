/**
 * Struct-of-arrays storage of dead-reckoning models, and the kernels that evaluate them at a total time since
 * each model's reset. Everything that does not depend on t is computed once at reset (orientation DR is bound by
 * trigonometry, as bench/dr.bench.ts dr.extrapolate.rvw shows): R0 as a unit quaternion, |ω|, and for the
 * fixed-orientation models the world-frame velocity and ½·acceleration, so that every non-rotating model (static,
 * frozen, FPW, FVW, FPB, FVB, and the position of RPW/RVW) is one branch-free quadratic P0 + V·t + ½A·t². R0 as a
 * matrix is derived from the quaternion where it is read (`initialWorldToBody`), and the turn axis −ω/|ω| from the
 * rates: neither is stored, which halves the bytes per slot.
 * Used by `DeadReckoningModel` (one entity), `RemoteEntityTable` and `EmitterBank` (many).
 */
import {
  DR_FPB,
  DR_FPW,
  DR_FVB,
  DR_FVW,
  DR_RPB,
  DR_RPW,
  DR_RVB,
  DR_RVW,
  DR_STATIC,
  isFrozen,
  isKnownAlgorithm,
} from './algorithm.js';
import type { Float64Arena } from './simd-kernel.js';
import { sinCos, sinCosInPlace } from '../../math/trig.js';
import {
  oneMinusCosOverSq,
  r2OuterCoefficient,
  sinc,
  sinMinusThetaCosOverCube,
  thetaMinusSinOverCube,
} from './rotation.js';

/** How a slot is evaluated: quadratic only, + rotating orientation (RPW/RVW), + body-axis position (RPB/RVB). */
export const KERNEL_LINEAR = 0;
export const KERNEL_ROTATING_WORLD = 1;
export const KERNEL_ROTATING_BODY = 2;

type Vec = ArrayLike<number>;

const scratchSinCos = new Float64Array(2);
/** sin, cos of ψ/2, θ/2, φ/2 in `resetSlot`. */
const scratchHalfAngles = new Float64Array(6);
const oneSlot = new Int32Array(1);
/** R0 of one slot, for `resetSlot` and `bodyPosition`. */
const scratchR0 = new Float64Array(9);

/** Below this many slots the call into WebAssembly costs more than it saves. */
const SIMD_MIN_SLOTS = 16;

/**
 * How a store holds the vectors a PDU carries as 32-bit floats (velocity, acceleration, ψθφ, rates; IEEE 1278.1-2012
 * §6.2.95, §6.2.98, §6.2.32): 'float32' holds them as the wire does (half the bytes: a table of many entities),
 * rounding any other value to the nearest float32 first, so every term derived from them is derived from what is
 * held; 'float64' keeps any double (one model fed by a caller's doubles).
 */
export type SentPrecision = 'float32' | 'float64';

/** The vectors a store keeps as sent: Float32Array or Float64Array by the store's `SentPrecision`. */
export type SentVectors = Float32Array | Float64Array;

export class DrStore {
  /** The DR algorithm as received (0–255). */
  readonly algorithm: Uint8Array;
  /** The algorithm actually used: unknown ones and 0 become static. */
  readonly effectiveAlgorithm: Uint8Array;
  readonly kernel: Uint8Array;
  readonly frozen: Uint8Array;
  /** P0, ECEF metres (3 per slot). */
  readonly location0: Float64Array;
  /** World-frame velocity of the quadratic (0 for static and frozen), m/s. */
  readonly velocityWorld: Float64Array;
  /** World-frame ½·acceleration of the quadratic, m/s². */
  readonly halfAccelerationWorld: Float64Array;
  /** Velocity and acceleration as sent, in the algorithm's frame. */
  readonly velocity: SentVectors;
  readonly acceleration: SentVectors;
  /** ψ, θ, φ as sent, radians. */
  readonly orientation0: SentVectors;
  /** ω, rad/s about body axes. */
  readonly angularVelocity: SentVectors;
  /** |ω|, rad/s. */
  readonly omegaMagnitude: Float64Array;
  /**
   * R_wb(0) as a unit quaternion x, y, z, w (4 per slot; `math/quat` conventions): what the rotating kernel turns,
   * and R0 of every model (`initialWorldToBody`).
   */
  readonly attitude0: Float64Array;

  /**
   * @param arena - where the arrays of the quadratic (P0, V, ½A) live; with one, `extrapolateLinear` runs the
   *   WebAssembly SIMD kernel for outputs in the same arena. Defaults to ordinary arrays.
   * @param precision - how the vectors as sent are held. Defaults to 'float64'.
   */
  constructor(
    readonly capacity: number,
    readonly arena: Float64Arena | null = null,
    readonly precision: SentPrecision = 'float64',
  ) {
    const quadratic = (): Float64Array => arena?.allocate(3 * capacity) ?? new Float64Array(3 * capacity);
    const sent = (): SentVectors =>
      precision === 'float32' ? new Float32Array(3 * capacity) : new Float64Array(3 * capacity);
    this.algorithm = new Uint8Array(capacity);
    this.effectiveAlgorithm = new Uint8Array(capacity);
    this.kernel = new Uint8Array(capacity);
    this.frozen = new Uint8Array(capacity);
    this.location0 = quadratic();
    this.velocityWorld = quadratic();
    this.halfAccelerationWorld = quadratic();
    this.velocity = sent();
    this.acceleration = sent();
    this.orientation0 = sent();
    this.angularVelocity = sent();
    this.omegaMagnitude = new Float64Array(capacity);
    this.attitude0 = new Float64Array(4 * capacity);
  }
}

/**
 * Loads one model: the state of an Entity State PDU.
 * @param location - ECEF metres.
 * @param velocity - m/s, world or body frame per the algorithm.
 * @param orientation - ψ, θ, φ radians.
 * @param acceleration - m/s², world or body frame per the algorithm.
 * @param angularVelocity - rad/s about body axes.
 * @param algorithm - DR algorithm number.
 * @param appearance - appearance bits; bit 21 (frozen) stops all extrapolation.
 */
export function resetSlot(
  s: DrStore,
  slot: number,
  location: Vec,
  velocity: Vec,
  orientation: Vec,
  acceleration: Vec,
  angularVelocity: Vec,
  algorithm: number,
  appearance: number,
): void {
  const i3 = 3 * slot;
  const frozen = isFrozen(appearance);
  const alg = isKnownAlgorithm(algorithm) ? algorithm : DR_STATIC;
  s.algorithm[slot] = algorithm;
  s.effectiveAlgorithm[slot] = alg;
  s.frozen[slot] = frozen ? 1 : 0;
  s.location0[i3] = location[0]!;
  s.location0[i3 + 1] = location[1]!;
  s.location0[i3 + 2] = location[2]!;
  // Stored first and read back: every term below is derived from what the store holds (its precision).
  const v = s.velocity,
    a = s.acceleration,
    w = s.angularVelocity,
    o = s.orientation0;
  v[i3] = velocity[0]!;
  v[i3 + 1] = velocity[1]!;
  v[i3 + 2] = velocity[2]!;
  a[i3] = acceleration[0]!;
  a[i3 + 1] = acceleration[1]!;
  a[i3 + 2] = acceleration[2]!;
  w[i3] = angularVelocity[0]!;
  w[i3 + 1] = angularVelocity[1]!;
  w[i3 + 2] = angularVelocity[2]!;
  o[i3] = orientation[0]!;
  o[i3 + 1] = orientation[1]!;
  o[i3 + 2] = orientation[2]!;
  const vx = v[i3]!,
    vy = v[i3 + 1]!,
    vz = v[i3 + 2]!;
  const ax = a[i3]!,
    ay = a[i3 + 1]!,
    az = a[i3 + 2]!;
  const wx = w[i3]!,
    wy = w[i3 + 1]!,
    wz = w[i3 + 2]!;
  s.omegaMagnitude[slot] = Math.sqrt(wx * wx + wy * wy + wz * wz); // not Math.hypot: slower, and it allocates

  // R_wb(0) as a quaternion: R_wb = A_x(−φ)·A_y(−θ)·A_z(−ψ) with A an active rotation, so q0 is the conjugate of
  // the aerospace body-to-world q_z(ψ)⊗q_y(θ)⊗q_x(φ). One sinCos call site in a loop keeps resetSlot within V8's
  // inlining budget.
  const half = scratchSinCos,
    halves = scratchHalfAngles;
  for (let k = 0; k < 3; k++) {
    sinCos(half, 0.5 * o[i3 + k]!);
    halves[2 * k] = half[0]!;
    halves[2 * k + 1] = half[1]!;
  }
  const sp = halves[0]!,
    cp = halves[1]!,
    st = halves[2]!,
    ct = halves[3]!,
    sf = halves[4]!,
    cf = halves[5]!;
  const q = s.attitude0,
    i4 = 4 * slot;
  q[i4] = -(sf * ct * cp - cf * st * sp);
  q[i4 + 1] = -(cf * st * cp + sf * ct * sp);
  q[i4 + 2] = -(cf * ct * sp - sf * st * cp);
  q[i4 + 3] = cf * ct * cp + sf * st * sp;

  // World-frame quadratic terms. Body models map V_b, A_b through R0ᵀ (exact for FPB/FVB, whose R1 = tI and
  // R2 = ½t²I; for RPB/RVB only a first guess that the body kernel replaces).
  let vwx = 0,
    vwy = 0,
    vwz = 0,
    awx = 0,
    awy = 0,
    awz = 0;
  if (!frozen) {
    if (alg === DR_FPW || alg === DR_RPW || alg === DR_FVW || alg === DR_RVW) {
      vwx = vx;
      vwy = vy;
      vwz = vz;
      if (alg === DR_FVW || alg === DR_RVW) {
        awx = 0.5 * ax;
        awy = 0.5 * ay;
        awz = 0.5 * az;
      }
    } else if (alg >= DR_FPB) {
      const r = scratchR0;
      initialWorldToBody(s, slot, r, 0);
      vwx = r[0]! * vx + r[3]! * vy + r[6]! * vz;
      vwy = r[1]! * vx + r[4]! * vy + r[7]! * vz;
      vwz = r[2]! * vx + r[5]! * vy + r[8]! * vz;
      if (alg === DR_FVB || alg === DR_RVB) {
        awx = 0.5 * (r[0]! * ax + r[3]! * ay + r[6]! * az);
        awy = 0.5 * (r[1]! * ax + r[4]! * ay + r[7]! * az);
        awz = 0.5 * (r[2]! * ax + r[5]! * ay + r[8]! * az);
      }
    }
  }
  s.velocityWorld[i3] = vwx;
  s.velocityWorld[i3 + 1] = vwy;
  s.velocityWorld[i3 + 2] = vwz;
  s.halfAccelerationWorld[i3] = awx;
  s.halfAccelerationWorld[i3 + 1] = awy;
  s.halfAccelerationWorld[i3 + 2] = awz;
  s.kernel[slot] = frozen
    ? KERNEL_LINEAR
    : alg === DR_RPW || alg === DR_RVW
      ? KERNEL_ROTATING_WORLD
      : alg === DR_RPB || alg === DR_RVB
        ? KERNEL_ROTATING_BODY
        : KERNEL_LINEAR;
}

/**
 * R_wb(0) of a slot, row-major at `out` offset o: the matrix of its quaternion q0, computed as `rotateSlots` computes
 * R(t) (so a rotating slot's R at its reference time is this matrix, up to the sign of zero entries).
 */
export function initialWorldToBody(s: DrStore, slot: number, out: Float64Array, o: number): void {
  const q = s.attitude0;
  const i4 = 4 * slot;
  quaternionMatrixInto(out, o, q[i4]!, q[i4 + 1]!, q[i4 + 2]!, q[i4 + 3]!);
}

/** The rotation matrix of unit quaternion (x, y, z, w), row-major at `out` offset o (math/quat toMat3, 2 folded in). */
function quaternionMatrixInto(out: Float64Array, o: number, x: number, y: number, z: number, w: number): void {
  const x2 = x + x;
  const y2 = y + y;
  const z2 = z + z;
  const xx = x * x2;
  const yy = y * y2;
  const zz = z * z2;
  const xy = x * y2;
  const xz = x * z2;
  const yz = y * z2;
  const wx = w * x2;
  const wy = w * y2;
  const wz = w * z2;
  out[o] = 1 - (yy + zz);
  out[o + 1] = xy - wz;
  out[o + 2] = xz + wy;
  out[o + 3] = xy + wz;
  out[o + 4] = 1 - (xx + zz);
  out[o + 5] = yz - wx;
  out[o + 6] = xz - wy;
  out[o + 7] = yz + wx;
  out[o + 8] = 1 - (xx + yy);
}

/**
 * Position of every slot in [0, count) by the quadratic: out = P0 + V·dt + ½A·dt², dt = tSeconds − reference.
 * Branch-free over all kernels; the rotating kernels overwrite what differs. Runs the WebAssembly SIMD kernel
 * (simd-kernel.ts, same results to the bit) when the store, the reference times and the output share an arena.
 * @param referenceSeconds - per slot, the time the model state is valid at (same axis as tSeconds).
 */
export function extrapolateLinear(
  s: DrStore,
  count: number,
  referenceSeconds: Float64Array,
  tSeconds: number,
  outLocation: Float64Array,
): void {
  const p = s.location0,
    v = s.velocityWorld,
    a = s.halfAccelerationWorld,
    arena = s.arena;
  let first = 0;
  if (
    arena !== null &&
    count >= SIMD_MIN_SLOTS &&
    referenceSeconds.buffer === arena.buffer &&
    outLocation.buffer === arena.buffer &&
    a.buffer === arena.buffer
  ) {
    const pairs = count >>> 1;
    arena.quadratic(
      pairs,
      tSeconds,
      p.byteOffset,
      v.byteOffset,
      a.byteOffset,
      referenceSeconds.byteOffset,
      outLocation.byteOffset,
    );
    first = 2 * pairs;
  }
  for (let i = first; i < count; i++) positionAt(s, i, tSeconds, referenceSeconds, outLocation, i);
}

/**
 * Position of one slot by the quadratic of `extrapolateLinear` (P0 + V·dt + ½A·dt², dt = tSeconds − reference),
 * at `outLocation` offset 3·o.
 */
export function positionAt(
  s: DrStore,
  slot: number,
  tSeconds: number,
  referenceSeconds: Float64Array,
  outLocation: Float64Array,
  o: number,
): void {
  const p = s.location0,
    v = s.velocityWorld,
    a = s.halfAccelerationWorld;
  const j = 3 * slot,
    o3 = 3 * o,
    dt = tSeconds - referenceSeconds[slot]!;
  outLocation[o3] = p[j]! + (v[j]! + a[j]! * dt) * dt;
  outLocation[o3 + 1] = p[j + 1]! + (v[j + 1]! + a[j + 1]! * dt) * dt;
  outLocation[o3 + 2] = p[j + 2]! + (v[j + 2]! + a[j + 2]! * dt) * dt;
}

/**
 * R(t) = DR(t)·R0 of every slot in `slots[0…count)` at tSeconds (dt = tSeconds − referenceSeconds[slot]), row-major
 * into `outMatrix` at 9·slot, or at 9·m for m ≥ 0. As quaternions, DR(t)·R0 is (−ω̂·sin(|ω|dt/2), cos(|ω|dt/2)) ⊗ q0:
 * one sine and cosine, a division (−ω̂ = ω·(−1/|ω|)), 16 products and the matrix of the result, from 9 numbers
 * per slot (|ω|, ω, q0, the reference time) where the matrix product reads 14. At 10⁵ entities the loop is bound by
 * what it reads, and a loop over a list costs less than a call per slot (bench/dr.bench.ts). Exact for any |ω|
 * including 0 and tiny rates: no series; ω = 0 leaves the axis 0, so DR(t) = I exactly.
 * @param m - the matrix index for every slot, or −1 for each slot's own.
 */
export function rotateSlots(
  s: DrStore,
  slots: Int32Array,
  count: number,
  tSeconds: number,
  referenceSeconds: Float64Array,
  outMatrix: Float64Array,
  m: number,
): void {
  const q0 = s.attitude0,
    rates = s.angularVelocity,
    omega = s.omegaMagnitude,
    half = scratchSinCos;
  for (let k = 0; k < count; k++) {
    const slot = slots[k]!,
      i3 = 3 * slot,
      i4 = 4 * slot,
      o = m < 0 ? 9 * slot : 9 * m;
    half[0] = 0.5 * omega[slot]! * (tSeconds - referenceSeconds[slot]!);
    // No turn (ω = 0, or t at the reference, as when a PDU is loaded): sinCosInPlace(±0) is [+0, 1] exactly.
    if (half[0] === 0) {
      half[0] = 0;
      half[1] = 1;
    } else sinCosInPlace(half);
    const sh = half[0],
      pw = half[1]!;
    const w = omega[slot]!,
      minusInverse = w > 0 ? -1 / w : 0;
    const px = rates[i3]! * minusInverse * sh,
      py = rates[i3 + 1]! * minusInverse * sh,
      pz = rates[i3 + 2]! * minusInverse * sh;
    const qx = q0[i4]!,
      qy = q0[i4 + 1]!,
      qz = q0[i4 + 2]!,
      qw = q0[i4 + 3]!;
    // Hamilton product p ⊗ q0 (math/quat multiply), then its matrix.
    const x = pw * qx + px * qw + py * qz - pz * qy;
    const y = pw * qy - px * qz + py * qw + pz * qx;
    const z = pw * qz + px * qy - py * qx + pz * qw;
    const rw = pw * qw - px * qx - py * qy - pz * qz;
    quaternionMatrixInto(outMatrix, o, x, y, z, rw);
  }
}

/**
 * R(t) = DR(t)·R0 of one rotating slot at tSeconds (`rotateSlots`), row-major at `outMatrix` offset 9·m; for RPB/RVB
 * also the position (`bodyPosition`) at `outLocation` offset 3·o. Euler angles are written (at `outOrientation`
 * offset 3·o) only when asked: their three atan2 cost more than the rest of the kernel.
 * Time comes as the caller's t and the reference array rather than a computed dt: a double computed by the
 * caller and passed to a function V8 does not inline is boxed on the heap, and callers pass t unchanged.
 */
export function evaluateRotating(
  s: DrStore,
  slot: number,
  tSeconds: number,
  referenceSeconds: Float64Array,
  outLocation: Float64Array,
  o: number,
  outMatrix: Float64Array,
  m: number,
  outOrientation: Float64Array | null,
): void {
  oneSlot[0] = slot;
  rotateSlots(s, oneSlot, 1, tSeconds, referenceSeconds, outMatrix, m);
  if (outOrientation !== null) eulerAt(outOrientation, 3 * o, outMatrix, 9 * m);
  if (s.kernel[slot] === KERNEL_ROTATING_BODY) bodyPosition(s, slot, tSeconds, referenceSeconds, outLocation, o);
}

/**
 * Position of a body-axis rotating slot (RPB/RVB) at tSeconds, at `outLocation` offset 3·o:
 * P0 + R0ᵀ·(R1·V_b + R2·A_b) (IEEE 1278.1 Annex E).
 */
export function bodyPosition(
  s: DrStore,
  slot: number,
  tSeconds: number,
  referenceSeconds: Float64Array,
  outLocation: Float64Array,
  o: number,
): void {
  const i3 = 3 * slot,
    o3 = 3 * o;
  const dt = tSeconds - referenceSeconds[slot]!;
  const w = s.angularVelocity,
    r = scratchR0;
  initialWorldToBody(s, slot, r, 0);
  const wx = w[i3]!,
    wy = w[i3 + 1]!,
    wz = w[i3 + 2]!;
  const theta = s.omegaMagnitude[slot]! * Math.abs(dt);
  // Body displacement R1·V_b + R2·A_b; R1 = g·ωωᵀ + fs·t·I + fc·t²·Ω, R2 = h4·ωωᵀ + h2·I + h3·Ω (rotation.ts).
  const v = s.velocity,
    acc = s.acceleration;
  const vx = v[i3]!,
    vy = v[i3 + 1]!,
    vz = v[i3 + 2]!;
  const ax = acc[i3]!,
    ay = acc[i3 + 1]!,
    az = acc[i3 + 2]!;
  const t2 = dt * dt;
  const fc = oneMinusCosOverSq(theta),
    fs = sinc(theta);
  const g1 = thetaMinusSinOverCube(theta) * t2 * dt,
    i1 = fs * dt,
    k1 = fc * t2;
  const useAcc = s.effectiveAlgorithm[slot] === DR_RVB;
  const g2 = useAcc ? r2OuterCoefficient(theta) * t2 * t2 : 0;
  const i2 = useAcc ? (fs - fc) * t2 : 0;
  const k2 = useAcc ? sinMinusThetaCosOverCube(theta) * t2 * dt : 0;
  const wv = wx * vx + wy * vy + wz * vz,
    wa = wx * ax + wy * ay + wz * az;
  // ωωᵀ·v = ω(ω·v); Ω·v = ω × v.
  const bx = g1 * wx * wv + i1 * vx + k1 * (wy * vz - wz * vy) + g2 * wx * wa + i2 * ax + k2 * (wy * az - wz * ay);
  const by = g1 * wy * wv + i1 * vy + k1 * (wz * vx - wx * vz) + g2 * wy * wa + i2 * ay + k2 * (wz * ax - wx * az);
  const bz = g1 * wz * wv + i1 * vz + k1 * (wx * vy - wy * vx) + g2 * wz * wa + i2 * az + k2 * (wx * ay - wy * ax);
  const p = s.location0;
  const r00 = r[0]!,
    r01 = r[1]!,
    r02 = r[2]!,
    r10 = r[3]!,
    r11 = r[4]!,
    r12 = r[5]!;
  const r20 = r[6]!,
    r21 = r[7]!,
    r22 = r[8]!;
  outLocation[o3] = p[i3]! + r00 * bx + r10 * by + r20 * bz;
  outLocation[o3 + 1] = p[i3 + 1]! + r01 * bx + r11 * by + r21 * bz;
  outLocation[o3 + 2] = p[i3 + 2]! + r02 * bx + r12 * by + r22 * bz;
}

/**
 * ψ, θ, φ of the row-major R_wb at `matrix` offset m9, written at `out` offset o3: math/euler.ts
 * `eulerFromWorldToBody` on offsets, so that tables convert their matrices in place.
 */
export function eulerAt(out: Float64Array, o3: number, matrix: Float64Array, m9: number): void {
  const m00 = matrix[m9]!,
    m01 = matrix[m9 + 1]!,
    m02 = matrix[m9 + 2]!;
  const cosTheta = Math.sqrt(m00 * m00 + m01 * m01); // not Math.hypot: several times slower in V8
  out[o3 + 1] = Math.atan2(-m02, cosTheta);
  if (cosTheta < 1e-8) {
    out[o3] = 0;
    out[o3 + 2] = Math.atan2(-matrix[m9 + 7]!, matrix[m9 + 4]!);
  } else {
    out[o3] = Math.atan2(m01, m00);
    out[o3 + 2] = Math.atan2(matrix[m9 + 5]!, matrix[m9 + 8]!);
  }
}

/**
 * World-frame velocity of one slot after dt seconds (m/s), at `out` offset 3·o: what the rendered entity moves
 * with. Body models: R(t)ᵀ·(V_b + A_b·t) with R(t) the dead-reckoned orientation.
 * @param rotation - R(t) row-major at offset 9·m for rotating body models (from `evaluateRotating`), else ignored.
 * @param referenceSeconds - when given, `dt` is a time t and the elapsed time is t − referenceSeconds[slot] (the
 *   convention of `evaluateRotating`, which keeps a computed double from crossing the call). Defaults to null.
 */
export function worldVelocity(
  s: DrStore,
  slot: number,
  dt: number,
  rotation: Float64Array | null,
  m: number,
  out: Float64Array,
  o: number,
  referenceSeconds: Float64Array | null = null,
): void {
  // One subtraction on both paths (dt − 0 is dt, −0 included): a phi of the untyped parameter and a computed
  // double would be boxed.
  const elapsed = dt - (referenceSeconds === null ? 0 : referenceSeconds[slot]!);
  const i3 = 3 * slot,
    o3 = 3 * o,
    m9 = 9 * m;
  if (s.kernel[slot] === KERNEL_ROTATING_BODY && rotation !== null) {
    const accT = s.effectiveAlgorithm[slot] === DR_RVB ? elapsed : 0;
    const vx = s.velocity[i3]! + s.acceleration[i3]! * accT;
    const vy = s.velocity[i3 + 1]! + s.acceleration[i3 + 1]! * accT;
    const vz = s.velocity[i3 + 2]! + s.acceleration[i3 + 2]! * accT;
    const r = rotation;
    out[o3] = r[m9]! * vx + r[m9 + 3]! * vy + r[m9 + 6]! * vz;
    out[o3 + 1] = r[m9 + 1]! * vx + r[m9 + 4]! * vy + r[m9 + 7]! * vz;
    out[o3 + 2] = r[m9 + 2]! * vx + r[m9 + 5]! * vy + r[m9 + 8]! * vz;
    return;
  }
  // d/dt (P0 + V t + ½A t²) = V + 2·(½A)·t.
  const v = s.velocityWorld,
    a = s.halfAccelerationWorld,
    twoDt = 2 * elapsed;
  out[o3] = v[i3]! + a[i3]! * twoDt;
  out[o3 + 1] = v[i3 + 1]! + a[i3 + 1]! * twoDt;
  out[o3 + 2] = v[i3 + 2]! + a[i3 + 2]! * twoDt;
}
