/**
 * Compact Position Reporting (CPR), the position encoding of Mode S extended squitter: RTCA DO-260B / EUROCAE
 * ED-102A Appendix A.1.7 (also ICAO Doc 9871 and Sun, "The 1090 MHz Riddle", ch. 5). Latitude and longitude are
 * 17-bit fractions of zones that differ between the even and odd formats; a pair of one of each (global decoding)
 * or one message and a reference position within half a zone (local decoding) gives the position.
 */

/** Number of latitude zones between the equator and a pole (NZ). */
const NZ = 15;
const CPR_MAX = 131072; // 2^17

/** Latitudes (degrees) at which NL drops from n to n − 1, for n = 59 … 2, ascending (DO-260B A.1.7.2.d). */
const NL_TRANSITIONS: Float64Array = (() => {
  const out = new Float64Array(58);
  const a = 1 - Math.cos(Math.PI / (2 * NZ));
  for (let n = 59, k = 0; n >= 2; n--, k++) {
    out[k] = (180 / Math.PI) * Math.acos(Math.sqrt(a / (1 - Math.cos((2 * Math.PI) / n))));
  }
  return out;
})();

/** NL(lat): the number of longitude zones at a latitude (1 … 59). */
export function cprNL(latitudeDeg: number): number {
  const lat = Math.abs(latitudeDeg);
  // The count of transitions at or below lat, by binary search.
  let lo = 0,
    hi = NL_TRANSITIONS.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (NL_TRANSITIONS[mid]! <= lat) lo = mid + 1;
    else hi = mid;
  }
  return 59 - lo;
}

/** x mod y, always in [0, y). */
function mod(x: number, y: number): number {
  return x - y * Math.floor(x / y);
}

/**
 * Global decoding of an airborne position from an even and an odd message (DO-260B A.1.7.7). `out` gets latitude
 * and longitude (degrees) of the more recent message (`oddIsNewer`).
 * @returns false when the two lie in different latitude zones (messages too far apart in time or corrupt).
 */
export function cprGlobalAirborne(
  out: Float64Array,
  evenLat: number,
  evenLon: number,
  oddLat: number,
  oddLon: number,
  oddIsNewer: boolean,
): boolean {
  const dLat0 = 360 / (4 * NZ),
    dLat1 = 360 / (4 * NZ - 1);
  const j = Math.floor((59 * evenLat - 60 * oddLat) / CPR_MAX + 0.5);
  let lat0 = dLat0 * (mod(j, 60) + evenLat / CPR_MAX);
  let lat1 = dLat1 * (mod(j, 59) + oddLat / CPR_MAX);
  if (lat0 >= 270) lat0 -= 360;
  if (lat1 >= 270) lat1 -= 360;
  if (!(Math.abs(lat0) <= 90 && Math.abs(lat1) <= 90)) return false;
  const nl = cprNL(lat0);
  if (nl !== cprNL(lat1)) return false;
  const i = oddIsNewer ? 1 : 0;
  const lat = oddIsNewer ? lat1 : lat0;
  const ni = Math.max(nl - i, 1);
  const m = Math.floor((evenLon * (nl - 1) - oddLon * nl) / CPR_MAX + 0.5);
  let lon = (360 / ni) * (mod(m, ni) + (oddIsNewer ? oddLon : evenLon) / CPR_MAX);
  if (lon >= 180) lon -= 360;
  out[0] = lat;
  out[1] = lon;
  return true;
}

/**
 * Local decoding (DO-260B A.1.7.5): one message near a reference position, within half a zone of it (about 180 NM
 * airborne, 45 NM on the surface). `surface` selects the surface format (zones a quarter the size).
 */
export function cprLocal(
  out: Float64Array,
  cprLat: number,
  cprLon: number,
  odd: boolean,
  surface: boolean,
  referenceLatDeg: number,
  referenceLonDeg: number,
): void {
  const span = surface ? 90 : 360;
  const i = odd ? 1 : 0;
  const dLat = span / (4 * NZ - i);
  const yz = cprLat / CPR_MAX,
    xz = cprLon / CPR_MAX;
  const j = Math.floor(referenceLatDeg / dLat) + Math.floor(0.5 + mod(referenceLatDeg, dLat) / dLat - yz);
  const lat = dLat * (j + yz);
  const dLon = span / Math.max(cprNL(lat) - i, 1);
  const m = Math.floor(referenceLonDeg / dLon) + Math.floor(0.5 + mod(referenceLonDeg, dLon) / dLon - xz);
  let lon = dLon * (m + xz);
  if (lon >= 180) lon -= 360;
  else if (lon < -180) lon += 360;
  out[0] = lat;
  out[1] = lon;
}
