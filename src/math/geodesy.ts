/**
 * WGS-84 geodesy: geodetic ↔ ECEF, local ENU/NED frames, and local heading/pitch/roll ↔ DIS ψθφ
 * (docs/dis-reference.md §6). Angles in radians unless a name says Degrees; heights in metres above the ellipsoid.
 */
import * as mat3 from './mat3.js';
import type { Mat3, ReadonlyMat3 } from './mat3.js';
import { eulerFromWorldToBody, worldToBodyFromEuler } from './euler.js';
import type { ReadonlyVec3, Vec3 } from './vec3.js';

/** WGS-84 semi-major axis, metres. */
export const WGS84_A = 6_378_137.0;
/** WGS-84 flattening. */
export const WGS84_F = 1 / 298.257223563;
/** WGS-84 semi-minor axis b = a(1 − f), metres. */
export const WGS84_B = WGS84_A * (1 - WGS84_F);
/** First eccentricity squared e² = f(2 − f). */
export const WGS84_E2 = WGS84_F * (2 - WGS84_F);
/** Second eccentricity squared e′² = e²/(1 − e²). */
export const WGS84_EP2 = WGS84_E2 / (1 - WGS84_E2);

const DEG = Math.PI / 180;

/**
 * ECEF position of a geodetic point (WGS-84).
 * @param out - receives [x, y, z], ECEF metres.
 * @param latitudeRad - geodetic latitude, radians.
 * @param longitudeRad - longitude, radians east.
 * @param heightM - height above the ellipsoid, metres.
 */
export function geodeticToEcef(out: Vec3, latitudeRad: number, longitudeRad: number, heightM: number): Vec3 {
  const sinLat = Math.sin(latitudeRad),
    cosLat = Math.cos(latitudeRad);
  const n = WGS84_A / Math.sqrt(1 - WGS84_E2 * sinLat * sinLat);
  const r = (n + heightM) * cosLat;
  out[0] = r * Math.cos(longitudeRad);
  out[1] = r * Math.sin(longitudeRad);
  out[2] = (n * (1 - WGS84_E2) + heightM) * sinLat;
  return out;
}

/** `geodeticToEcef` with latitude and longitude in degrees. */
export function geodeticDegreesToEcef(out: Vec3, latitudeDeg: number, longitudeDeg: number, heightM: number): Vec3 {
  return geodeticToEcef(out, latitudeDeg * DEG, longitudeDeg * DEG, heightM);
}

/**
 * Geodetic coordinates of an ECEF point (WGS-84): Bowring's formula iterated twice on the reduced latitude,
 * written with sines and cosines from ratios (no trigonometry inside the loop). One pass is what ODJ/KDIS do;
 * the second brings the error below 1e-12 rad from −500 m to beyond 100 km (see test/math/geodesy.test.ts).
 * The height uses h = p·cos φ + z·sin φ − a·√(1 − e² sin² φ), which is exact at the poles, where the usual
 * p / cos φ − N divides by zero.
 * @param out - receives [latitudeRad, longitudeRad, heightM].
 * @param x - ECEF metres; so are y and z.
 */
export function ecefToGeodetic(out: Vec3, x: number, y: number, z: number): Vec3 {
  const p = Math.hypot(x, y);
  let sinLat: number, cosLat: number, latitude: number;
  if (Math.hypot(p, z) < 0.5 * WGS84_B) {
    // Deep inside the Earth (no entity is ever there) Bowring's denominator changes sign; use the latitude of
    // the scaled point instead, which is finite everywhere including the centre (latitude 0, height −a).
    latitude = Math.atan2(z, (1 - WGS84_E2) * p);
    sinLat = Math.sin(latitude);
    cosLat = Math.cos(latitude);
  } else {
    // Bowring's iteration (`geodeticLatitudeSinCos`), its sine and cosine in `out` until the result goes there.
    geodeticLatitudeSinCos(out, 0, p, z);
    sinLat = out[0]!;
    cosLat = out[1]!;
    latitude = Math.atan2(sinLat, cosLat);
  }
  out[0] = latitude;
  out[1] = Math.atan2(y, x);
  out[2] = p * cosLat + z * sinLat - WGS84_A * Math.sqrt(1 - WGS84_E2 * sinLat * sinLat);
  return out;
}

/**
 * The sine and cosine of the geodetic latitude of an ECEF point: Bowring's formula iterated twice on the reduced
 * latitude (see `ecefToGeodetic`), written with `Math.sqrt` rather than `Math.hypot` (several times cheaper in V8)
 * for code that runs per entity: `ecefToGeodetic`, the map page's frame, the NATS router's cell checks. Within
 * 1e-14 of the sine and cosine of the latitude a point was made from, from −500 m to beyond GEO
 * (test/math/geodesy.test.ts). Not for points deep inside the Earth (nearer the centre than half the polar radius),
 * where `ecefToGeodetic` takes another way, nor beyond 1e150 m, where the squares overflow.
 * @param out - receives sin φ at `at` and cos φ at `at + 1` (a caller's own array rather than a scratch one, which
 *   cost a tenth more per call in a measurement of the page's `geodeticOf`).
 * @param p - distance from the polar axis, √(x² + y²), metres.
 * @param z - ECEF z, metres.
 */
export function geodeticLatitudeSinCos(out: Float64Array, at: number, p: number, z: number): void {
  let t = WGS84_A * z,
    u = WGS84_B * p;
  let r = Math.sqrt(t * t + u * u);
  let sinBeta = t / r,
    cosBeta = u / r;
  let num = 0,
    den = 1;
  for (let k = 0; k < 2; k++) {
    num = z + WGS84_EP2 * WGS84_B * sinBeta * sinBeta * sinBeta;
    den = p - WGS84_E2 * WGS84_A * cosBeta * cosBeta * cosBeta;
    // Reduced latitude of the new estimate: tan β = (b/a)·tan φ.
    t = WGS84_B * num;
    u = WGS84_A * den;
    r = Math.sqrt(t * t + u * u);
    sinBeta = t / r;
    cosBeta = u / r;
  }
  const h = Math.sqrt(num * num + den * den);
  out[at] = num / h;
  out[at + 1] = den / h;
}

/** `ecefToGeodetic` giving [latitudeDeg, longitudeDeg, heightM]. */
export function ecefToGeodeticDegrees(out: Vec3, x: number, y: number, z: number): Vec3 {
  ecefToGeodetic(out, x, y, z);
  out[0]! /= DEG;
  out[1]! /= DEG;
  return out;
}

/** Rotation ECEF → ENU at (lat, lon): rows are the East, North and Up unit vectors in ECEF. */
export function ecefToEnuMatrix(out: Mat3, latitudeRad: number, longitudeRad: number): Mat3 {
  const sLat = Math.sin(latitudeRad),
    cLat = Math.cos(latitudeRad);
  const sLon = Math.sin(longitudeRad),
    cLon = Math.cos(longitudeRad);
  out[0] = -sLon;
  out[1] = cLon;
  out[2] = 0;
  out[3] = -sLat * cLon;
  out[4] = -sLat * sLon;
  out[5] = cLat;
  out[6] = cLat * cLon;
  out[7] = cLat * sLon;
  out[8] = sLat;
  return out;
}

/** Rotation ECEF → NED at (lat, lon): rows are the North, East and Down unit vectors in ECEF. */
export function ecefToNedMatrix(out: Mat3, latitudeRad: number, longitudeRad: number): Mat3 {
  const sLat = Math.sin(latitudeRad),
    cLat = Math.cos(latitudeRad);
  const sLon = Math.sin(longitudeRad),
    cLon = Math.cos(longitudeRad);
  out[0] = -sLat * cLon;
  out[1] = -sLat * sLon;
  out[2] = cLat;
  out[3] = -sLon;
  out[4] = cLon;
  out[5] = 0;
  out[6] = -cLat * cLon;
  out[7] = -cLat * sLon;
  out[8] = -sLat;
  return out;
}

/**
 * Local coordinates of an ECEF point: out = frame · (point − origin).
 * @param frame - an `ecefToEnuMatrix` or `ecefToNedMatrix` at the origin.
 * @param originEcef - the local frame's origin, ECEF metres.
 * @param pointEcef - the point, ECEF metres.
 */
export function ecefToLocal(out: Vec3, frame: ReadonlyMat3, originEcef: ReadonlyVec3, pointEcef: ReadonlyVec3): Vec3 {
  out[0] = pointEcef[0]! - originEcef[0]!;
  out[1] = pointEcef[1]! - originEcef[1]!;
  out[2] = pointEcef[2]! - originEcef[2]!;
  return mat3.transformVec3(out, frame, out);
}

/** ECEF point of local coordinates: out = origin + frameᵀ · local (the inverse of `ecefToLocal`). */
export function localToEcef(out: Vec3, frame: ReadonlyMat3, originEcef: ReadonlyVec3, local: ReadonlyVec3): Vec3 {
  mat3.transformTransposeVec3(out, frame, local);
  out[0]! += originEcef[0]!;
  out[1]! += originEcef[1]!;
  out[2]! += originEcef[2]!;
  return out;
}

const scratchNed = new Float64Array(9);
const scratchBody = new Float64Array(9);

/**
 * DIS Euler angles [ψ, θ, φ] (radians, relative to ECEF) of a local attitude: R_wb = R_nb(heading, pitch,
 * roll) · R_ned←ecef (docs/dis-reference.md §6.5).
 * @param headingRad - clockwise from true north, radians; pitch positive nose-up; roll positive right wing down.
 */
export function eulerFromHeadingPitchRoll(
  out: Vec3,
  latitudeRad: number,
  longitudeRad: number,
  headingRad: number,
  pitchRad: number,
  rollRad: number,
): Vec3 {
  ecefToNedMatrix(scratchNed, latitudeRad, longitudeRad);
  worldToBodyFromEuler(scratchBody, headingRad, pitchRad, rollRad);
  mat3.multiply(scratchBody, scratchBody, scratchNed);
  return eulerFromWorldToBody(out, scratchBody);
}

/** Local [headingRad, pitchRad, rollRad] at (lat, lon) of DIS Euler angles ψ, θ, φ: the inverse of the above. */
export function headingPitchRollFromEuler(
  out: Vec3,
  latitudeRad: number,
  longitudeRad: number,
  psi: number,
  theta: number,
  phi: number,
): Vec3 {
  ecefToNedMatrix(scratchNed, latitudeRad, longitudeRad);
  worldToBodyFromEuler(scratchBody, psi, theta, phi);
  // R_nb = R_wb · R_ned←ecefᵀ.
  mat3.transpose(scratchNed, scratchNed);
  mat3.multiply(scratchBody, scratchBody, scratchNed);
  return eulerFromWorldToBody(out, scratchBody);
}
