/**
 * Orientation smoothing of dead-reckoning corrections (docs/dis-reference.md §5), the companion of
 * position-smoothing.ts's `positionOffset`: when a new PDU moves an entity's dead-reckoned orientation, the
 * displayed R_wb turns from the previously displayed one onto the new path over the correction's duration,
 * whatever the position method. With the error rotation E = R_disp·R_newᵀ, the displayed matrix at blend
 * fraction s is slerp(E, I, s)·R_new = E^(1−s)·R_new: E at s = 0, the new path at s = 1.
 *
 * Flat arrays indexed by correction, float32 (a display's correction needs no more): E as a unit quaternion
 * x, y, z, w with w ≥ 0 (4 each, `math/quat` conventions) and half its rotation angle, radians (1 each). No
 * allocation: the scratch below is the module's.
 */
import * as quat from '../../math/quat.js';
import { sinCosInPlace } from '../../math/trig.js';
import { SMOOTH_FRACTION as SMOOTH_FRACTION_IMPORTED } from './position-smoothing.js';

// An imported constant copied to a module const, so that TurboFan folds it (a transpiled import is a getter).
const SMOOTH_FRACTION = SMOOTH_FRACTION_IMPORTED;

const scratchQ1 = new Float64Array(4);
const scratchQ2 = new Float64Array(4);
const scratchM = new Float64Array(9);

/**
 * Starts a slot's orientation correction: E = R_disp · R_newᵀ as a unit quaternion (the shorter way: w ≥ 0) at
 * errorRotation[4i…4i+3], and half its angle at errorHalfAngle[i].
 * @param displayed - R_wb displayed when the PDU arrived, row-major (9, at offset 0).
 * @param target - R_wb of the new path at that time, row-major (9, at offset 0).
 */
export function startRotationError(
  errorRotation: Float32Array,
  errorHalfAngle: Float32Array,
  i: number,
  displayed: Float64Array,
  target: Float64Array,
): void {
  const q1 = scratchQ1,
    q2 = scratchQ2;
  quat.fromMat3(q1, displayed);
  quat.fromMat3(q2, target);
  const e = quat.multiply(q1, q1, quat.conjugate(q2, q2));
  const sign = e[3]! < 0 ? -1 : 1; // q and −q are the same rotation: take the shorter way
  for (let k = 0; k < 4; k++) errorRotation[4 * i + k] = sign * e[k]!;
  errorHalfAngle[i] = Math.atan2(Math.sqrt(e[0]! * e[0]! + e[1]! * e[1]! + e[2]! * e[2]!), sign * e[3]!);
}

/**
 * Writes slerp(E, I, s) · R (R row-major at `from` offset f9) at `to` offset t9, E slot i's error rotation and
 * s the blend fraction in time[SMOOTH_FRACTION] (as `positionOffset` wrote it; handed in an array, as a double
 * passed to a function V8 does not inline is boxed on the heap). E^(1−s) is E's axis turned by k = 1 − s of its
 * angle, one sine and one cosine (sin(kα/2)/sin(α/2) → k as α → 0). `to` may be `from` at the same offset: each
 * column is read before it is written.
 */
export function turnByError(
  errorRotation: Float32Array,
  errorHalfAngle: Float32Array,
  i: number,
  time: Float64Array,
  from: Float64Array,
  f9: number,
  to: Float64Array,
  t9: number,
): void {
  const e = errorRotation,
    e4 = 4 * i,
    half = errorHalfAngle[i]!;
  const ex = e[e4]!,
    ey = e[e4 + 1]!,
    ez = e[e4 + 2]!;
  if (ex === 0 && ey === 0 && ez === 0) {
    // E = I exactly (e.g. a fixed orientation the PDU did not change): the product would be R itself, up to
    // the sign of zero entries (−0 + 0 = +0).
    if (from !== to) for (let k = 0; k < 9; k++) to[t9 + k] = from[f9 + k]!;
    return;
  }
  const k = 1 - time[SMOOTH_FRACTION]!,
    q = scratchQ1,
    m = scratchM;
  if (half < 1e-8) {
    q[0] = k * ex;
    q[1] = k * ey;
    q[2] = k * ez;
    q[3] = 1;
  } else {
    const turn = scratchQ2;
    turn[0] = k * half;
    sinCosInPlace(turn);
    const f = turn[0] / Math.sqrt(ex * ex + ey * ey + ez * ez);
    q[0] = f * ex;
    q[1] = f * ey;
    q[2] = f * ez;
    q[3] = turn[1]!;
  }
  quat.toMat3(m, q);
  for (let c = 0; c < 3; c++) {
    const b0 = from[f9 + c]!,
      b1 = from[f9 + 3 + c]!,
      b2 = from[f9 + 6 + c]!;
    to[t9 + c] = m[0]! * b0 + m[1]! * b1 + m[2]! * b2;
    to[t9 + 3 + c] = m[3]! * b0 + m[4]! * b1 + m[5]! * b2;
    to[t9 + 6 + c] = m[6]! * b0 + m[7]! * b1 + m[8]! * b2;
  }
}
