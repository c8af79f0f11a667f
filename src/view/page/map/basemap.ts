/**
 * The offline base map: a MapLibre style whose only sources are files of the page itself — Natural Earth land and
 * country borders from the `world-atlas` package at three scales, made planar and split into cells at build time
 * (scripts/basemap.mjs) — and a metric grid computed here for the current view. 1:110m draws the world at once;
 * 1:50m and 1:10m take over as the view zooms in, their cells loaded as it reaches them (src/view/page/map/basemap-detail.ts).
 * With `tiles` set in the server's configuration, an online style URL replaces it. No fonts or sprites: every label
 * on the map is drawn by deck.gl.
 */
import type { StyleSpecification } from 'maplibre-gl';
import { WGS84_A, WGS84_E2 } from '../../../math/geodesy.js';

const DEG = Math.PI / 180;

/** The scales of the base map, coarsest first: the zoom each is drawn from, and its cell size (null: one file). */
export const BASEMAP_LEVELS = [
  { scale: '110m', minZoom: 0, cellDeg: null },
  { scale: '50m', minZoom: 3, cellDeg: 30 },
  { scale: '10m', minZoom: 6, cellDeg: 10 },
] as const;

export const SEA_COLOUR = '#0d1b2a';
export const LAND_COLOUR = '#243447';

/** The offline style; `assetsUrl` is where the base map's files are served (ends with a slash). */
export function offlineStyle(assetsUrl: string): StyleSpecification {
  const sources: StyleSpecification['sources'] = {};
  const layers: StyleSpecification['layers'] = [
    { id: 'sea', type: 'background', paint: { 'background-color': SEA_COLOUR } },
  ];
  BASEMAP_LEVELS.forEach((level, i) => {
    const next = BASEMAP_LEVELS[i + 1];
    const id = `land-${level.scale}`;
    sources[id] = {
      type: 'geojson',
      data: level.cellDeg === null ? `${assetsUrl}${id}.json` : { type: 'FeatureCollection', features: [] },
    };
    const zooms = { minzoom: level.minZoom, ...(next ? { maxzoom: next.minZoom } : {}) };
    layers.push(
      {
        id,
        type: 'fill',
        source: id,
        filter: ['==', ['get', 'kind'], 'land'],
        paint: { 'fill-color': LAND_COLOUR, 'fill-antialias': true },
        ...zooms,
      },
      {
        id: `borders-${level.scale}`,
        type: 'line',
        source: id,
        filter: ['==', ['get', 'kind'], 'border'],
        paint: { 'line-color': '#5c7590', 'line-width': 0.8 },
        ...zooms,
      },
    );
  });
  return {
    version: 8,
    sources: { ...sources, grid: { type: 'geojson', data: { type: 'FeatureCollection', features: [] } } },
    layers: [...layers, GRID_LAYER],
  };
}

/** The grid's source and layer, added on top of any style. */
const GRID_LAYER = {
  id: 'grid',
  type: 'line',
  source: 'grid',
  paint: { 'line-color': '#8fb3d9', 'line-opacity': 0.22, 'line-width': 1 },
} as const;

/**
 * The online base map for `tiles` from the server's configuration: a raster tile URL template (`{z}/{x}/{y}`) as a
 * raster source under the grid, or anything else as a MapLibre style URL (the grid is added when it has loaded).
 */
export function onlineStyle(tiles: string): StyleSpecification | string {
  if (!tiles.includes('{z}')) return tiles;
  return {
    version: 8,
    sources: {
      tiles: { type: 'raster', tiles: [tiles], tileSize: 256 },
      grid: { type: 'geojson', data: { type: 'FeatureCollection', features: [] } },
    },
    layers: [
      { id: 'sea', type: 'background', paint: { 'background-color': SEA_COLOUR } },
      { id: 'tiles', type: 'raster', source: 'tiles', paint: { 'raster-brightness-max': 0.75 } },
      GRID_LAYER,
    ],
  };
}

/** Adds the grid's source and layer to a loaded style that lacks them (an online style URL). */
export function ensureGrid(map: {
  getSource(id: string): unknown;
  addSource(id: string, source: object): unknown;
  addLayer(layer: object): unknown;
}): void {
  if (map.getSource('grid') !== undefined) return;
  map.addSource('grid', { type: 'geojson', data: { type: 'FeatureCollection', features: [] } });
  map.addLayer(GRID_LAYER);
}

/** A grid spacing from the 1–2–5 series, metres, giving between about 4 and 10 lines across `widthMeters`. */
export function gridSpacingMeters(widthMeters: number): number {
  const target = Math.max(widthMeters, 1) / 6;
  const decade = 10 ** Math.floor(Math.log10(target));
  for (const step of [1, 2, 5, 10]) if (step * decade >= target) return step * decade;
  return 10 * decade;
}

/** "500 m", "2 km", "1000 km". */
export function formatDistance(meters: number): string {
  return meters >= 1000 ? `${meters / 1000} km` : `${meters} m`;
}

export interface MetricGrid {
  spacingMeters: number;
  /** GeoJSON LineStrings, longitude/latitude degrees. */
  geojson: {
    type: 'FeatureCollection';
    features: Array<{ type: 'Feature'; properties: object; geometry: { type: 'LineString'; coordinates: number[][] } }>;
  };
}

/**
 * A local metric grid over a view: lines north–south every `spacing` metres of east distance and east–west every
 * `spacing` metres of north distance, measured on the WGS-84 ellipsoid at the view's centre latitude (meridian
 * radius M and prime-vertical radius N), anchored at the equator and the prime meridian so that lines stay put while
 * panning. Exact at the centre latitude; away from it the east–west spacing follows cos φ of the centre, which is
 * what a plotting grid on a small area looks like. At most `maxLines` per direction.
 */
export function metricGrid(
  westDeg: number,
  southDeg: number,
  eastDeg: number,
  northDeg: number,
  maxLines = 40,
): MetricGrid {
  const south = Math.max(-85, southDeg),
    north = Math.min(85, northDeg);
  const centreLat = ((south + north) / 2) * DEG;
  const sin = Math.sin(centreLat);
  const w = 1 - WGS84_E2 * sin * sin;
  const meridianRadius = (WGS84_A * (1 - WGS84_E2)) / (w * Math.sqrt(w));
  const primeVerticalRadius = WGS84_A / Math.sqrt(w);
  const metersPerDegLat = meridianRadius * DEG;
  const metersPerDegLon = Math.max(primeVerticalRadius * Math.cos(centreLat) * DEG, 1);
  const span = eastDeg >= westDeg ? eastDeg - westDeg : eastDeg + 360 - westDeg;
  let spacingMeters = gridSpacingMeters(span * metersPerDegLon);
  while (
    ((north - south) * metersPerDegLat) / spacingMeters > maxLines ||
    (span * metersPerDegLon) / spacingMeters > maxLines
  ) {
    spacingMeters *= 2;
  }
  const features: MetricGrid['geojson']['features'] = [];
  const dLat = spacingMeters / metersPerDegLat,
    dLon = spacingMeters / metersPerDegLon;
  for (let lat = Math.ceil(south / dLat) * dLat; lat <= north; lat += dLat) {
    features.push(
      line([
        [westDeg, lat],
        [westDeg + span / 2, lat],
        [westDeg + span, lat],
      ]),
    );
  }
  for (let lon = Math.ceil(westDeg / dLon) * dLon; lon <= westDeg + span; lon += dLon) {
    features.push(
      line([
        [lon, south],
        [lon, north],
      ]),
    );
  }
  return { spacingMeters, geojson: { type: 'FeatureCollection', features } };
}

function line(coordinates: number[][]): MetricGrid['geojson']['features'][number] {
  return { type: 'Feature', properties: {}, geometry: { type: 'LineString', coordinates } };
}
