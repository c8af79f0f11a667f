/**
 * Where the load generator puts each course: a heading and an offset from the origin, drawn at random within the
 * area, and drawn again until the whole course is on the surface its kind needs (a tank's on land, a ship's at
 * sea) when the caller has a map of land and sea. Pure: the map and the random generator come from the caller.
 */
import type { Random } from '../math/random.js';
import { createTruthWithAttitude, type LocalFrame, type Trajectory } from '../truth/trajectory.js';

/** Where a course may go. */
export type Surface = 'land' | 'sea' | 'any';

/** Land and sea by latitude and longitude (degrees): `LandMask` of src/truth/land-mask.ts. */
export interface SurfaceMap {
  isLand(latDeg: number, lonDeg: number): boolean;
}

/** Points a course passes, sampled along it. */
const FOOTPRINT_POINTS = 48;
/** Courses drawn for an entity before it is placed wherever the last one fell. */
const PLACEMENT_TRIES = 64;
const EARTH_RADIUS_M = 6_371_008.8;

/**
 * The north and east offsets (m, 2 per point) of points along a course, from the frame's origin, where the course
 * starts out: what a rigid motion of the course moves.
 */
export function courseFootprint(shape: Trajectory, frame: LocalFrame): Float64Array {
  const out = new Float64Array(2 * FOOTPRINT_POINTS);
  const truth = createTruthWithAttitude(false);
  const m = frame.ecefToNed,
    o = frame.originEcef;
  for (let k = 0; k < FOOTPRINT_POINTS; k++) {
    shape.sample((k / FOOTPRINT_POINTS) * shape.durationSeconds, truth);
    const l = truth.location;
    const dx = l[0]! - o[0]!,
      dy = l[1]! - o[1]!,
      dz = l[2]! - o[2]!;
    out[2 * k] = m[0]! * dx + m[1]! * dy + m[2]! * dz;
    out[2 * k + 1] = m[3]! * dx + m[4]! * dy + m[5]! * dz;
  }
  return out;
}

/** A course's place: the turn about the local vertical (rad) and the offset (m) of its rigid motion. */
export interface Placement {
  headingRad: number;
  northM: number;
  eastM: number;
}

/**
 * Draws `out` until every point of `footprint`, turned by the heading and moved by the offset (as the generator's
 * rigid motion does), is on `surface`; the offsets within ±area/2 of the origin.
 * @returns whether it was placed on its surface (false: the last draw is kept, after `PLACEMENT_TRIES`).
 */
export function placeCourse(
  out: Placement,
  random: Random,
  footprint: Float64Array,
  frame: LocalFrame,
  areaMeters: number,
  surface: Surface,
  map: SurfaceMap | undefined,
): boolean {
  const latDeg = frame.origin.latitudeDeg,
    lonDeg = frame.origin.longitudeDeg;
  const degPerNorthM = 180 / (Math.PI * EARTH_RADIUS_M);
  const degPerEastM = degPerNorthM / Math.max(0.01, Math.cos((latDeg * Math.PI) / 180));
  const wantLand = surface === 'land';
  for (let attempt = 0; ; attempt++) {
    out.headingRad = random.uniform(0, 2 * Math.PI);
    out.northM = random.uniform(-areaMeters / 2, areaMeters / 2);
    out.eastM = random.uniform(-areaMeters / 2, areaMeters / 2);
    if (surface === 'any' || map === undefined) return true;
    const c = Math.cos(out.headingRad),
      s = Math.sin(out.headingRad);
    let fits = true;
    for (let k = 0; k < footprint.length && fits; k += 2) {
      const n = footprint[k]!,
        e = footprint[k + 1]!;
      // As writeRigidMotion turns a course: (n, e) → (c·n − s·e, s·n + c·e), then the offset.
      const north = c * n - s * e + out.northM,
        east = s * n + c * e + out.eastM;
      fits = map.isLand(latDeg + north * degPerNorthM, lonDeg + east * degPerEastM) === wantLand;
    }
    if (fits) return true;
    if (attempt + 1 >= PLACEMENT_TRIES) return false;
  }
}
