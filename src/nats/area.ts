/**
 * Areas of interest and the H3 cells that cover them (docs/nats.md). A subscriber takes the subjects of exactly
 * these cells: every cell that overlaps the area, so no point of the area is missed, and no more.
 */
import { POLYGON_TO_CELLS_FLAGS, getHexagonAreaAvg, polygonToCellsExperimental } from 'h3-js';
import { parseCircleArea, type CircleArea } from '../config/circle-area.js';

export { parseCircleArea, type CircleArea };

/** Mean Earth radius (IUGG), metres: great-circle geometry of area outlines. */
const EARTH_RADIUS_M = 6_371_008.8;
const DEG = Math.PI / 180;
/** Corners of the polygon drawn around a circle. */
const CIRCLE_CORNERS = 96;

/** A polygon of `[latDeg, lonDeg]` corners (not closed: the last corner joins the first). */
export interface PolygonArea {
  readonly polygon: ReadonlyArray<readonly [number, number]>;
}

/** An area of interest: a circle or a polygon. */
export type Area = CircleArea | PolygonArea;

/** The area a configuration value gives (`nats.area`): a circle as text or `{ polygon }`. */
export function areaFromConfig(value: string | PolygonArea): Area {
  return typeof value === 'string' ? parseCircleArea(value) : value;
}

/**
 * The point `distanceM` from (lat, lon) along the great circle of `bearingRad` (clockwise from north).
 * @returns [latDeg, lonDeg].
 */
export function destination(latDeg: number, lonDeg: number, bearingRad: number, distanceM: number): [number, number] {
  const d = distanceM / EARTH_RADIUS_M,
    lat = latDeg * DEG,
    lon = lonDeg * DEG;
  const sinLat2 = Math.sin(lat) * Math.cos(d) + Math.cos(lat) * Math.sin(d) * Math.cos(bearingRad);
  const lat2 = Math.asin(sinLat2);
  const lon2 =
    lon + Math.atan2(Math.sin(bearingRad) * Math.sin(d) * Math.cos(lat), Math.cos(d) - Math.sin(lat) * sinLat2);
  return [lat2 / DEG, ((lon2 / DEG + 540) % 360) - 180];
}

/** Great-circle distance in metres between two points given in degrees (haversine). */
export function distanceM(lat1Deg: number, lon1Deg: number, lat2Deg: number, lon2Deg: number): number {
  const dLat = (lat2Deg - lat1Deg) * DEG,
    dLon = (lon2Deg - lon1Deg) * DEG;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1Deg * DEG) * Math.cos(lat2Deg * DEG) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(a)));
}

/**
 * The outline of an area as `[latDeg, lonDeg]` corners. A circle becomes a polygon drawn *around* it (corners at
 * radius / cos(π/n), so its edges touch the circle from outside): the cells covering the polygon cover the circle.
 */
export function areaOutline(area: Area): Array<[number, number]> {
  if ('polygon' in area) return area.polygon.map(([lat, lon]) => [lat, lon]);
  const corners: Array<[number, number]> = [];
  const outer = area.radiusM / Math.cos(Math.PI / CIRCLE_CORNERS);
  for (let i = 0; i < CIRCLE_CORNERS; i++) {
    corners.push(destination(area.latitudeDeg, area.longitudeDeg, (2 * Math.PI * i) / CIRCLE_CORNERS, outer));
  }
  return corners;
}

/**
 * Every H3 cell of `resolution` that overlaps the area (H3 "overlapping" containment), sorted.
 * @throws RangeError for an area too large for the resolution (more than `maxCells` cells).
 */
export function cellsCoveringArea(area: Area, resolution: number, maxCells = 100_000): string[] {
  const outline = areaOutline(area);
  // Estimated first (area / mean cell area): listing millions of cells only to refuse them would take minutes.
  const estimate = outlineAreaM2(outline) / getHexagonAreaAvg(resolution, 'm2');
  const tooMany = (count: string) =>
    new RangeError(
      `the area covers ${count} H3 cells at resolution ${resolution}, more than ${maxCells} subscriptions: ` +
        'use a lower nats.h3Resolution (--h3-resolution) or a smaller area',
    );
  if (estimate > maxCells) throw tooMany(`about ${Math.round(estimate)}`);
  const cells = polygonToCellsExperimental(outline, resolution, POLYGON_TO_CELLS_FLAGS.containmentOverlapping);
  if (cells.length > maxCells) throw tooMany(String(cells.length));
  return cells.sort();
}

/** Area enclosed by an outline of [latDeg, lonDeg] corners, m² (shoelace on an equirectangular projection). */
function outlineAreaM2(outline: ReadonlyArray<readonly [number, number]>): number {
  const meanLat = outline.reduce((sum, [lat]) => sum + lat, 0) / outline.length;
  const kx = EARTH_RADIUS_M * DEG * Math.cos(meanLat * DEG),
    ky = EARTH_RADIUS_M * DEG;
  let twice = 0;
  for (let i = 0, j = outline.length - 1; i < outline.length; j = i++) {
    twice += outline[j]![1] * kx * outline[i]![0] * ky - outline[i]![1] * kx * outline[j]![0] * ky;
  }
  return Math.abs(twice) / 2;
}

/** Whether a point (degrees) lies in the area: within the radius of a circle, or inside a polygon (even-odd rule). */
export function areaContains(area: Area, latDeg: number, lonDeg: number): boolean {
  if (!('polygon' in area)) return distanceM(area.latitudeDeg, area.longitudeDeg, latDeg, lonDeg) <= area.radiusM;
  // Planar even-odd test in degrees: adequate for areas that do not straddle the antimeridian or a pole.
  let inside = false;
  const p = area.polygon;
  for (let i = 0, j = p.length - 1; i < p.length; j = i++) {
    const [yi, xi] = p[i]!,
      [yj, xj] = p[j]!;
    if (yi > latDeg !== yj > latDeg && lonDeg < ((xj - xi) * (latDeg - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

/** `48.1,11.6 r 50 km` or `polygon of 5 corners`, for messages. */
export function describeArea(area: Area): string {
  if ('polygon' in area) return `polygon of ${area.polygon.length} corners`;
  const r = area.radiusM >= 1000 ? `${Number((area.radiusM / 1000).toPrecision(4))} km` : `${area.radiusM} m`;
  return `${area.latitudeDeg},${area.longitudeDeg} radius ${r}`;
}
