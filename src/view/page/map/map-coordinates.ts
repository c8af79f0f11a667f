/**
 * From the table's ECEF state to what the map shows: longitude and latitude in degrees, the longitude copy near the
 * map's centre, the heading of a symbol. Runs for the entities the page looks at on the CPU (a few thousand a
 * frame; the GPU places the symbols): no allocation, the fewest transcendental calls.
 */
import { WGS84_A, WGS84_E2, geodeticLatitudeSinCos } from '../../../math/geodesy.js';

const DEG = Math.PI / 180;

/** The copy of `lonDeg` (± 360°) within 180° of `referenceDeg`. */
export function nearLongitude(lonDeg: number, referenceDeg: number): number {
  const d = lonDeg - referenceDeg;
  return d > 180 || d < -180 ? lonDeg - 360 * Math.round(d / 360) : lonDeg;
}

/** A longitude in [−180°, 180°). */
export function wrapLongitude(lonDeg: number): number {
  return lonDeg >= -180 && lonDeg < 180 ? lonDeg : ((((lonDeg + 180) % 360) + 360) % 360) - 180;
}

/**
 * ECEF → geodetic latitude, longitude (radians), height (m), as `ecefToGeodetic` in src/math/geodesy.ts, with its
 * deep-inside-the-Earth branch left out (displayed entities are never there) and square roots in place of
 * `Math.hypot` (`geodeticLatitudeSinCos`), since it runs for every entity every frame;
 * test/view/page-entities.test.ts holds it to `ecefToGeodetic`.
 * @param out - receives latitude, longitude (radians), height (m), and the sine and cosine of the latitude, which
 *   the iteration yields anyway (five values).
 */
export function geodeticOf(out: Float64Array, x: number, y: number, z: number): void {
  const p = Math.sqrt(x * x + y * y);
  geodeticLatitudeSinCos(out, 3, p, z);
  const sinLat = out[3]!,
    cosLat = out[4]!;
  out[0] = Math.atan2(sinLat, cosLat);
  out[1] = Math.atan2(y, x);
  out[2] = p * cosLat + z * sinLat - WGS84_A * Math.sqrt(1 - WGS84_E2 * sinLat * sinLat);
}

/**
 * One slot's drawn state from its displayed ECEF location and body x axis (row 0 of R_wb): longitude° in
 * (−180°, 180°], latitude°, height m into `geodeticOut` (3 per slot), the heading (degrees clockwise from true
 * north, [0, 360)) into `headingOut` and cos φ into `cosLatOut` (one per slot).
 * @param scratch - five values for `geodeticOf`.
 */
export function drawnStateOf(
  scratch: Float64Array,
  slot: number,
  x: number,
  y: number,
  z: number,
  bx: number,
  by: number,
  bz: number,
  geodeticOut: Float64Array,
  headingOut: Float64Array,
  cosLatOut: Float64Array,
): void {
  const g = scratch,
    s3 = 3 * slot;
  geodeticOf(g, x, y, z);
  geodeticOut[s3] = g[1]! / DEG;
  geodeticOut[s3 + 1] = g[0]! / DEG;
  geodeticOut[s3 + 2] = g[2]!;
  // Heading: the body x axis against local north and east (IEEE 1278.1 §1.4.3 frames).
  const p = Math.sqrt(x * x + y * y);
  const cosLon = p > 0 ? x / p : 1,
    sinLon = p > 0 ? y / p : 0;
  // sin and cos of the latitude come with it (geodeticOf): no Math.sin / Math.cos per entity.
  const sinLat = g[3]!,
    cosLat = g[4]!;
  const east = -sinLon * bx + cosLon * by;
  const north = -sinLat * cosLon * bx - sinLat * sinLon * by + cosLat * bz;
  let h = Math.atan2(east, north) / DEG;
  if (h < 0) h += 360;
  headingOut[slot] = h;
  cosLatOut[slot] = cosLat;
}
