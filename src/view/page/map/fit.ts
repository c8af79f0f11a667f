/**
 * The area that holds every entity: the smallest band of longitudes (it may cross the antimeridian, as an exercise
 * in the Pacific does) and the span of latitudes, and what of it the map frames (framing.ts). Free of DOM
 * (test/view/page-view-state.test.ts).
 */

/** West, south, east, north in degrees; east may exceed 180 when the area crosses the antimeridian. */
export type Bounds = [number, number, number, number];

/** Web Mercator ends here (MapLibre cannot show the poles). */
const MAX_LATITUDE = 85;
const BINS = 360;

/**
 * The bounds of `count` positions (longitude°, latitude°, height: 3 per entity, as `PageEntities.positions`), or
 * null when there are none. Longitudes are binned by degree to find the widest empty arc; the area is the rest of
 * the circle, from the first entity east of that arc to the last one west of it.
 */
export function entityBounds(positions: ArrayLike<number>, count: number): Bounds | null {
  if (count <= 0) return null;
  const occupied = new Uint8Array(BINS);
  let south = Infinity,
    north = -Infinity;
  for (let i = 0; i < count; i++) {
    const lon = positions[3 * i]!,
      lat = positions[3 * i + 1]!;
    if (!Number.isFinite(lon) || !Number.isFinite(lat)) continue;
    occupied[binOf(lon)] = 1;
    south = Math.min(south, lat);
    north = Math.max(north, lat);
  }
  if (south > north) return null;
  // The widest run of empty bins, going round the circle (it may wrap from 359 to 0).
  let bestStart = -1,
    bestLength = 0;
  for (let start = 0; start < BINS; start++) {
    if (occupied[start] === 1 || occupied[(start + BINS - 1) % BINS] === 0) continue;
    let length = 0;
    while (length < BINS && occupied[(start + length) % BINS] === 0) length++;
    if (length > bestLength) {
      bestLength = length;
      bestStart = start;
    }
  }
  // The area starts where the gap ends: longitudes are taken in [from, from + 360).
  const from = bestLength === 0 ? -180 : ((bestStart + bestLength) % BINS) - 180;
  let west = Infinity,
    east = -Infinity;
  for (let i = 0; i < count; i++) {
    const lon = positions[3 * i]!;
    if (!Number.isFinite(lon) || !Number.isFinite(positions[3 * i + 1]!)) continue;
    const wrapped = lon >= 180 || lon < -180 ? ((((lon + 180) % 360) + 360) % 360) - 180 : lon;
    const shifted = wrapped < from ? wrapped + 360 : wrapped;
    west = Math.min(west, shifted);
    east = Math.max(east, shifted);
  }
  // Kept within [-180, 180) at the west edge, as MapLibre expects of a bounds' west.
  if (west >= 180) {
    west -= 360;
    east -= 360;
  }
  return [west, clampLatitude(south), east, clampLatitude(north)];
}

function binOf(lon: number): number {
  const wrapped = ((((lon + 180) % 360) + 360) % 360) - 180;
  return Math.min(BINS - 1, Math.floor(wrapped + 180));
}

function clampLatitude(lat: number): number {
  return Math.max(-MAX_LATITUDE, Math.min(MAX_LATITUDE, lat));
}

/** A lone entity, or entities close together, are framed in at least this much ground, metres. */
export const MIN_FRAMED_METERS = 500;
const METERS_PER_DEGREE = 111_320;

/**
 * The bounds to frame for the entities' `bounds`: at least `minMeters` across in each direction (around their
 * middle), as MapLibre's fitBounds takes them ([west, south], [east, north]).
 * @param room - added on each side, as a share of the entities' span. Defaults to 0 (tight).
 */
export function framedBounds(
  bounds: Bounds,
  minMeters = MIN_FRAMED_METERS,
  room = 0,
): [[number, number], [number, number]] {
  const [west, south, east, north] = bounds;
  const midLat = (south + north) / 2,
    midLon = (west + east) / 2;
  const cosLat = Math.max(0.01, Math.cos((midLat * Math.PI) / 180));
  const halfLat = Math.max(((north - south) / 2) * (1 + 2 * room), minMeters / 2 / METERS_PER_DEGREE);
  const halfLon = Math.max(((east - west) / 2) * (1 + 2 * room), minMeters / 2 / (METERS_PER_DEGREE * cosLat));
  return [
    [midLon - halfLon, Math.max(-85, midLat - halfLat)],
    [midLon + halfLon, Math.min(85, midLat + halfLat)],
  ];
}

/**
 * Whether bounds `a` and `b` have every edge within `fraction` of their span (at least `minMeters`) of each other:
 * framing one or the other would show the same picture.
 */
export function boundsNear(a: Bounds, b: Bounds, fraction: number, minMeters = MIN_FRAMED_METERS): boolean {
  const midLat = (a[1] + a[3]) / 2;
  const cosLat = Math.max(0.01, Math.cos((midLat * Math.PI) / 180));
  const shift = 360 * Math.round((a[0] + a[2] - b[0] - b[2]) / 2 / 360);
  const lonTolerance = fraction * Math.max(a[2] - a[0], minMeters / (METERS_PER_DEGREE * cosLat));
  const latTolerance = fraction * Math.max(a[3] - a[1], minMeters / METERS_PER_DEGREE);
  return (
    Math.abs(a[0] - b[0] - shift) <= lonTolerance &&
    Math.abs(a[2] - b[2] - shift) <= lonTolerance &&
    Math.abs(a[1] - b[1]) <= latTolerance &&
    Math.abs(a[3] - b[3]) <= latTolerance
  );
}

/**
 * Whether `inner` lies within `outer` (west, south, east, north), the longitudes of `inner` taken as the copy
 * nearest `outer`'s (either may run past ±180°, as bounds across the antimeridian do).
 */
export function boundsWithin(inner: Bounds, outer: Bounds): boolean {
  const shift = 360 * Math.round((outer[0] + outer[2] - inner[0] - inner[2]) / 2 / 360);
  return inner[0] + shift >= outer[0] && inner[1] >= outer[1] && inner[2] + shift <= outer[2] && inner[3] <= outer[3];
}
