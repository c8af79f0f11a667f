// The offline base map for the `reckon view` page, built from Natural Earth (the `world-atlas` package's TopoJSON)
// by scripts/build-page.mjs: land polygons and country borders as planar GeoJSON in longitude and latitude, cut at
// the antimeridian, wound as RFC 7946 asks (outer rings counterclockwise, holes clockwise), and for the finer scales
// split into cells of the globe that the page loads as the view reaches them (src/view/page/map/basemap-detail.ts).
//
// world-atlas keeps the geometry spherical, for d3-geo: a polygon may run across 180° (Russia, Fiji) or round the
// South Pole (Antarctica), and its rings are wound clockwise. Drawn as flat polygons those become bands across the
// world and land-coloured seas. d3-geo's own clipping at the antimeridian, through a plate carrée projection whose
// output is degrees again, turns them into polygons that are right on a flat map.
import { geoArea, geoEquirectangular } from 'd3-geo';
import { geoProject } from 'd3-geo-projection';
import { feature, mesh } from 'topojson-client';

/** Degrees in, degrees out: x = λ, y = φ, cut at ±180° (d3-geo clips spherical polygons at the antimeridian). */
const PLATE_CARREE = geoEquirectangular()
  .scale(180 / Math.PI)
  .translate([0, 0])
  .reflectY(true)
  .precision(0);

/** The land polygons of a world-atlas topology, planar and wound counterclockwise outside, clockwise in holes. */
export function landPolygons(topology) {
  const land = feature(topology, topology.objects.land);
  const geometries = land.type === 'FeatureCollection' ? land.features.map((f) => f.geometry) : [land.geometry];
  const polygons = geometries.flatMap((g) =>
    g.type === 'Polygon' ? [g.coordinates] : g.type === 'MultiPolygon' ? g.coordinates : [],
  );
  // On the sphere a ring bounds two areas; d3-geo takes the one on its right. A few world-atlas rings are wound the
  // other way and would cover the whole Earth but one island: no piece of land is larger than a hemisphere.
  const spherical = polygons.map((rings) =>
    geoArea({ type: 'Polygon', coordinates: rings }) > 2 * Math.PI ? rings.map((ring) => [...ring].reverse()) : rings,
  );
  return planarPolygons({ type: 'MultiPolygon', coordinates: spherical });
}

/** The borders between countries (not the coasts) of a world-atlas countries topology, as planar line strings. */
export function borderLines(topology) {
  const borders = mesh(topology, topology.objects.countries, (a, b) => a !== b);
  const projected = geoProject(borders, PLATE_CARREE);
  const lines = projected.type === 'MultiLineString' ? projected.coordinates : [projected.coordinates];
  return lines.filter((line) => line.length >= 2);
}

/** Polygons (arrays of rings) of a projected GeoJSON object, rings closed and wound as RFC 7946 §3.1.6 asks. */
function planarPolygons(object) {
  const projected = geoProject(object, PLATE_CARREE);
  const polygons = [];
  const take = (geometry) => {
    if (geometry === null) return;
    if (geometry.type === 'Polygon') polygons.push(geometry.coordinates);
    else if (geometry.type === 'MultiPolygon') polygons.push(...geometry.coordinates);
    else if (geometry.type === 'GeometryCollection') geometry.geometries.forEach(take);
  };
  if (projected.type === 'FeatureCollection') projected.features.forEach((f) => take(f.geometry));
  else if (projected.type === 'Feature') take(projected.geometry);
  else take(projected);
  return polygons
    .map((rings) => rings.filter((ring) => ring.length >= 4).map((ring, i) => wound(ring, i === 0)))
    .filter((rings) => rings.length > 0);
}

/** Twice the signed area of a ring (positive counterclockwise, x east and y north). */
export function signedArea(ring) {
  let sum = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    sum += (ring[j][0] - ring[i][0]) * (ring[j][1] + ring[i][1]);
  }
  return sum;
}

/** The ring counterclockwise (outer) or clockwise (hole). */
function wound(ring, outer) {
  return signedArea(ring) > 0 === outer ? ring : [...ring].reverse();
}

// --- cells ----------------------------------------------------------------------------------------------------

/** Cell (column, row) of `sizeDeg` cells from (−180°, −90°). */
export function cellsAcross(sizeDeg) {
  return { columns: Math.round(360 / sizeDeg), rows: Math.round(180 / sizeDeg) };
}

/**
 * A ring clipped to the rectangle (Sutherland–Hodgman, one edge at a time): a polygon ring stays a ring with the
 * rectangle's edge where it was cut. Returns null when nothing of it is left.
 */
export function clipRing(ring, west, south, east, north) {
  let points = ring;
  const edges = [
    [(p) => p[0] >= west, (a, b) => cutX(a, b, west)],
    [(p) => p[0] <= east, (a, b) => cutX(a, b, east)],
    [(p) => p[1] >= south, (a, b) => cutY(a, b, south)],
    [(p) => p[1] <= north, (a, b) => cutY(a, b, north)],
  ];
  for (const [inside, cut] of edges) {
    if (points.length === 0) break;
    const out = [];
    for (let i = 0; i < points.length; i++) {
      const current = points[i],
        previous = points[(i + points.length - 1) % points.length];
      const inCurrent = inside(current),
        inPrevious = inside(previous);
      if (inCurrent) {
        if (!inPrevious) out.push(cut(previous, current));
        out.push(current);
      } else if (inPrevious) out.push(cut(previous, current));
    }
    points = out;
  }
  if (points.length < 3) return null;
  const closed = points[0][0] === points[points.length - 1][0] && points[0][1] === points[points.length - 1][1];
  const result = closed ? points : [...points, points[0]];
  return result.length >= 4 && signedArea(result) !== 0 ? result : null;
}

/** Pieces of a line string inside the rectangle (each segment clipped, Liang–Barsky). */
export function clipLine(line, west, south, east, north) {
  const pieces = [];
  let current = null;
  for (let i = 1; i < line.length; i++) {
    const segment = clipSegment(line[i - 1], line[i], west, south, east, north);
    if (segment === null) {
      current = null;
      continue;
    }
    const [a, b] = segment;
    if (current !== null && current[current.length - 1][0] === a[0] && current[current.length - 1][1] === a[1]) {
      current.push(b);
    } else {
      current = [a, b];
      pieces.push(current);
    }
  }
  return pieces;
}

function clipSegment(a, b, west, south, east, north) {
  let t0 = 0,
    t1 = 1;
  const dx = b[0] - a[0],
    dy = b[1] - a[1];
  for (const [p, q] of [
    [-dx, a[0] - west],
    [dx, east - a[0]],
    [-dy, a[1] - south],
    [dy, north - a[1]],
  ]) {
    if (p === 0) {
      if (q < 0) return null;
      continue;
    }
    const r = q / p;
    if (p < 0) {
      if (r > t1) return null;
      if (r > t0) t0 = r;
    } else {
      if (r < t0) return null;
      if (r < t1) t1 = r;
    }
  }
  return [t0 === 0 ? a : [a[0] + t0 * dx, a[1] + t0 * dy], t1 === 1 ? b : [a[0] + t1 * dx, a[1] + t1 * dy]];
}

function cutX(a, b, x) {
  return [x, a[1] + ((b[1] - a[1]) * (x - a[0])) / (b[0] - a[0])];
}

function cutY(a, b, y) {
  return [a[0] + ((b[0] - a[0]) * (y - a[1])) / (b[1] - a[1]), y];
}

/** Bounding box [west, south, east, north] of rings or lines. */
function boundsOf(lists) {
  let west = Infinity,
    south = Infinity,
    east = -Infinity,
    north = -Infinity;
  for (const list of lists) {
    for (const [x, y] of list) {
      if (x < west) west = x;
      if (x > east) east = x;
      if (y < south) south = y;
      if (y > north) north = y;
    }
  }
  return [west, south, east, north];
}

/**
 * Land polygons and border lines split into cells of `sizeDeg`: a Map from "column_row" to a GeoJSON
 * FeatureCollection whose features carry `kind`: 'land' or 'border'.
 */
export function splitIntoCells(polygons, lines, sizeDeg) {
  const { columns, rows } = cellsAcross(sizeDeg);
  const cells = new Map();
  const add = (key, kind, geometry) => {
    if (!cells.has(key)) cells.set(key, []);
    cells.get(key).push({ type: 'Feature', properties: { kind }, geometry });
  };
  const range = ([west, south, east, north]) => ({
    c0: Math.max(0, Math.floor((west + 180) / sizeDeg)),
    c1: Math.min(columns - 1, Math.floor((east + 180) / sizeDeg)),
    r0: Math.max(0, Math.floor((south + 90) / sizeDeg)),
    r1: Math.min(rows - 1, Math.floor((north + 90) / sizeDeg)),
  });
  for (const rings of polygons) {
    const { c0, c1, r0, r1 } = range(boundsOf([rings[0]]));
    for (let r = r0; r <= r1; r++) {
      for (let c = c0; c <= c1; c++) {
        const west = c * sizeDeg - 180,
          south = r * sizeDeg - 90;
        const outer = clipRing(rings[0], west, south, west + sizeDeg, south + sizeDeg);
        if (outer === null) continue;
        const holes = rings
          .slice(1)
          .map((ring) => clipRing(ring, west, south, west + sizeDeg, south + sizeDeg))
          .filter((ring) => ring !== null);
        add(`${c}_${r}`, 'land', { type: 'Polygon', coordinates: [outer, ...holes] });
      }
    }
  }
  for (const line of lines) {
    const { c0, c1, r0, r1 } = range(boundsOf([line]));
    for (let r = r0; r <= r1; r++) {
      for (let c = c0; c <= c1; c++) {
        const west = c * sizeDeg - 180,
          south = r * sizeDeg - 90;
        for (const piece of clipLine(line, west, south, west + sizeDeg, south + sizeDeg)) {
          add(`${c}_${r}`, 'border', { type: 'LineString', coordinates: piece });
        }
      }
    }
  }
  return new Map([...cells].map(([key, features]) => [key, { type: 'FeatureCollection', features }]));
}

/** The whole world as one FeatureCollection, land and borders (for the coarsest scale, loaded at once). */
export function worldCollection(polygons, lines) {
  return {
    type: 'FeatureCollection',
    features: [
      ...polygons.map((rings) => ({
        type: 'Feature',
        properties: { kind: 'land' },
        geometry: { type: 'Polygon', coordinates: rings },
      })),
      ...lines.map((line) => ({
        type: 'Feature',
        properties: { kind: 'border' },
        geometry: { type: 'LineString', coordinates: line },
      })),
    ],
  };
}
