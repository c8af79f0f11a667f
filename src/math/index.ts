/**
 * `reckon/math`: Float64Array vectors, matrices and quaternions (destination first, as in gl-matrix), Euler angles
 * ψθφ, WGS-84 geodesy (ECEF, geodetic, ENU/NED) and a seeded random source.
 */
import * as mat3 from './mat3.js';
import * as quat from './quat.js';
import * as vec3 from './vec3.js';

export { vec3, mat3, quat };
export type { Vec3, ReadonlyVec3 } from './vec3.js';
export type { Mat3, ReadonlyMat3 } from './mat3.js';
export type { Quat, ReadonlyQuat } from './quat.js';
export {
  worldToBodyFromEuler,
  worldToBodyFromEulerVec,
  eulerFromWorldToBody,
  eulerRatesFromBodyRates,
  bodyRatesFromEulerRates,
} from './euler.js';
export {
  WGS84_A,
  WGS84_B,
  WGS84_F,
  WGS84_E2,
  WGS84_EP2,
  geodeticToEcef,
  geodeticDegreesToEcef,
  ecefToGeodetic,
  ecefToGeodeticDegrees,
  ecefToEnuMatrix,
  ecefToNedMatrix,
  ecefToLocal,
  localToEcef,
  eulerFromHeadingPitchRoll,
  headingPitchRollFromEuler,
} from './geodesy.js';
export { createRandom, createRandomFromState, type Random } from './random.js';
