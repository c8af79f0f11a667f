/** Analytic truth trajectories for emitter and table tests. */
import * as mat3 from '../../src/math/mat3.js';
import { eulerFromWorldToBody, worldToBodyFromEuler } from '../../src/math/euler.js';
import { drMatrix } from '../../src/dr/models/rotation.js';
import type { TruthState } from '../../src/dr/owner/truth-state.js';

export const ORIGIN = [6378137, 0, 0];

/** Constant world acceleration from ORIGIN, fixed orientation. */
export function accelerating(
  out: TruthState,
  t: number,
  v0: number[],
  a: number[],
  euler = [0.1, 0.2, 0.3],
): TruthState {
  for (let k = 0; k < 3; k++) {
    out.location[k] = ORIGIN[k]! + v0[k]! * t + 0.5 * a[k]! * t * t;
    out.linearVelocity[k] = v0[k]! + a[k]! * t;
    out.linearAcceleration[k] = a[k]!;
    out.orientation[k] = euler[k]!;
    out.angularVelocity[k] = 0;
  }
  return out;
}

/** A constant-speed turn at body rate ω_z = rate (rad/s), nose along the velocity. */
export function turning(out: TruthState, t: number, speed: number, rate: number, euler = [0.3, -0.2, 0.1]): TruthState {
  const r0 = worldToBodyFromEuler(mat3.create(), euler[0]!, euler[1]!, euler[2]!);
  const r = mat3.multiply(mat3.create(), drMatrix(mat3.create(), [0, 0, rate], t), r0);
  const bodyDisplacement = [(speed / rate) * Math.sin(rate * t), (speed / rate) * (1 - Math.cos(rate * t)), 0];
  const d = mat3.transformTransposeVec3(new Float64Array(3), r0, bodyDisplacement);
  for (let k = 0; k < 3; k++) out.location[k] = ORIGIN[k]! + d[k]!;
  mat3.transformTransposeVec3(out.linearVelocity, r, [speed, 0, 0]);
  mat3.transformTransposeVec3(out.linearAcceleration, r, [0, speed * rate, 0]);
  eulerFromWorldToBody(out.orientation, r);
  out.angularVelocity.set([0, 0, rate]);
  return out;
}
