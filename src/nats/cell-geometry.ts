/**
 * The geometry of H3 cells that lets a router keep an entity's cell without asking H3: a cell's edges as great
 * circles, how far inside them a location is, and how far it may move before it could leave.
 */
import { cellToBoundary, cellToLatLng } from 'h3-js';
import { geodeticLatitudeSinCos } from '../math/geodesy.js';

const RAD_TO_DEG = 180 / Math.PI;

/** Mean Earth radius (IUGG), metres. */
const EARTH_RADIUS_M = 6_371_008.8;

/**
 * How far inside every edge of its cell (sine of the angle on H3's sphere) a location must be for its cell to be
 * taken without asking H3: about 1.3 m, far above the rounding of either computation, so a location this close to
 * an edge is always settled by `latLngToCell`.
 */
export const EDGE_MARGIN = 2e-7;

/**
 * The edges of an H3 cell as the inward unit normals (three numbers each) of the great circles through its
 * consecutive boundary vertices. H3 places a location by a gnomonic projection of an icosahedron face, which maps
 * great circles to straight lines: the edges of a cell, including the extra vertices where a cell crosses a face
 * edge, are arcs of great circles between the vertices `cellToBoundary` gives. H3 takes latitude and longitude as
 * coordinates on a sphere, as done here. A location inside every great circle is in the cell (where the boundary
 * turns inwards at a face edge the test only says "outside" more often, which costs an H3 call, never a wrong cell).
 */
export function cellShape(cell: string): Float64Array {
  const boundary = cellToBoundary(cell);
  const [centreLat, centreLon] = cellToLatLng(cell);
  const cLat = centreLat / RAD_TO_DEG,
    cLon = centreLon / RAD_TO_DEG;
  const cx = Math.cos(cLat) * Math.cos(cLon),
    cy = Math.cos(cLat) * Math.sin(cLon),
    cz = Math.sin(cLat);
  const n = boundary.length;
  const shape = new Float64Array(3 * n);
  for (let i = 0; i < n; i++) {
    const [latA, lonA] = boundary[i]!,
      [latB, lonB] = boundary[(i + 1) % n]!;
    const a0 = latA / RAD_TO_DEG,
      a1 = lonA / RAD_TO_DEG,
      b0 = latB / RAD_TO_DEG,
      b1 = lonB / RAD_TO_DEG;
    const ax = Math.cos(a0) * Math.cos(a1),
      ay = Math.cos(a0) * Math.sin(a1),
      az = Math.sin(a0);
    const bx = Math.cos(b0) * Math.cos(b1),
      by = Math.cos(b0) * Math.sin(b1),
      bz = Math.sin(b0);
    let nx = ay * bz - az * by,
      ny = az * bx - ax * bz,
      nz = ax * by - ay * bx;
    const length = Math.sqrt(nx * nx + ny * ny + nz * nz);
    // Two vertices in one place: a zero normal, so no location is ever inside it by the margin (H3 decides).
    const scale = length > 1e-15 ? (nx * cx + ny * cy + nz * cz < 0 ? -1 : 1) / length : 0;
    nx *= scale;
    ny *= scale;
    nz *= scale;
    shape[3 * i] = nx;
    shape[3 * i + 1] = ny;
    shape[3 * i + 2] = nz;
  }
  return shape;
}

/** Most numbers of a cell's edges (`cellShape`): H3 gives at most 10 boundary vertices. */
export const EDGE_DOUBLES = 30;

/**
 * The unit vector (cos φ cos λ, cos φ sin λ, sin φ) of the geodetic latitude φ and longitude λ of an ECEF location
 * (metres, above half the polar radius), as `insideCellBy` takes them, into `out`: the sine and cosine of φ from
 * `geodeticLatitudeSinCos` (src/math/geodesy.ts), those of λ from x and y, so without trigonometric functions.
 * They agree with the sines and cosines of `ecefToGeodetic`'s angles to within rounding (about 1e-15), far below
 * `EDGE_MARGIN`.
 */
export function geodeticUnitVector(out: Float64Array, x: number, y: number, z: number): Float64Array {
  const p = Math.sqrt(x * x + y * y);
  geodeticLatitudeSinCos(out, 0, p, z);
  const sinLat = out[0]!,
    cosLat = out[1]!;
  // On the axis the longitude is 0, as atan2(0, 0).
  out[0] = p > 0 ? (cosLat * x) / p : cosLat;
  out[1] = p > 0 ? (cosLat * y) / p : 0;
  out[2] = sinLat;
  return out;
}

/**
 * How far inside the edges of `shape` (`cellShape`) the location (radians, on H3's sphere) is: the least sine of
 * its angular distance to an edge's great circle, negative outside one.
 */
export function insideCellBy(shape: Float64Array, latRad: number, lonRad: number): number {
  const cosLat = Math.cos(latRad);
  return insideEdgesBy(shape, 0, shape.length, cosLat * Math.cos(lonRad), cosLat * Math.sin(lonRad), Math.sin(latRad));
}

/**
 * How far inside the edges `edges[from, to)` (inward unit normals, `cellShape`) the unit vector (ux, uy, uz) is:
 * the least of its dot products with them, negative outside one.
 */
export function insideEdgesBy(
  edges: Float64Array,
  from: number,
  to: number,
  ux: number,
  uy: number,
  uz: number,
): number {
  let least = Number.POSITIVE_INFINITY;
  for (let i = from; i < to; i += 3) {
    const d = ux * edges[i]! + uy * edges[i + 1]! + uz * edges[i + 2]!;
    if (d < least) least = d;
  }
  return least;
}

/**
 * The straight-line move in metres that cannot take a location `inside` (`insideCellBy`) out of its cell: the
 * distance to the nearest edge on H3's sphere, less 2 % (a metre on the ellipsoid is at most 0.6 % more on that
 * sphere) and a metre.
 */
export function safeRadiusM(inside: number): number {
  return Math.asin(Math.min(1, inside)) * EARTH_RADIUS_M * 0.98 - 1;
}
