/**
 * Land and sea around a place for `publish --entities`, from the Natural Earth 1:10m land polygons the package
 * ships for the live map (dist/view/page/assets/land-10m: 10° cells, scripts/build-page.mjs).
 */
import { join } from 'node:path';
import { readInputFile } from '../files/input-file.js';
import { LandMask, type LandPolygon } from '../truth/land-mask.js';
import { defaultPageDir } from '../view/http.js';

/** The grid's cell: about 50 m, finer than a course's turns. */
const CELL_DEG = 0.00045;
/** Largest cell file read (the largest 1:10m cell is about 1 MB). */
const MAX_CELL_BYTES = 16 << 20;
const CELL_SIZE_DEG = 10;

interface Collection {
  readonly features?: ReadonlyArray<{
    readonly geometry?: { readonly type?: string; readonly coordinates?: unknown } | null;
  }>;
}

/** The polygons of a GeoJSON feature collection (Polygon and MultiPolygon features). */
function polygonsOf(collection: Collection): LandPolygon[] {
  const out: LandPolygon[] = [];
  for (const feature of collection.features ?? []) {
    const g = feature.geometry;
    if (g?.type === 'Polygon') out.push(g.coordinates as LandPolygon);
    else if (g?.type === 'MultiPolygon') out.push(...(g.coordinates as LandPolygon[]));
  }
  return out;
}

/**
 * Land and sea within `halfSizeM` of a place.
 * @param pageDir - the built page. Defaults to `defaultPageDir()`.
 * @returns the mask, or why there is none (the page's base map is not built).
 */
export async function landAround(
  latDeg: number,
  lonDeg: number,
  halfSizeM: number,
  pageDir = defaultPageDir(),
): Promise<LandMask | string> {
  const dir = join(pageDir, 'assets', 'land-10m');
  const halfLat = halfSizeM / 111_320;
  const halfLon = halfLat / Math.max(0.05, Math.cos((latDeg * Math.PI) / 180));
  const box = { west: lonDeg - halfLon, south: latDeg - halfLat, east: lonDeg + halfLon, north: latDeg + halfLat };
  let index: Set<string>;
  try {
    const text = new TextDecoder().decode(await readInputFile(join(dir, 'index.json'), 'land index', 1 << 20));
    index = new Set(JSON.parse(text) as string[]);
  } catch (error) {
    return `no land polygons (${(error as Error).message}); run npm run build`;
  }
  const polygons: LandPolygon[] = [];
  const cell = (deg: number, offset: number) => Math.floor((deg + offset) / CELL_SIZE_DEG);
  for (let column = cell(box.west, 180); column <= cell(box.east, 180); column++) {
    for (let row = cell(box.south, 90); row <= cell(box.north, 90); row++) {
      const key = `${column}_${row}`;
      if (!index.has(key)) continue; // open sea
      const bytes = await readInputFile(join(dir, `${key}.json`), 'land cell', MAX_CELL_BYTES);
      polygons.push(...polygonsOf(JSON.parse(new TextDecoder().decode(bytes)) as Collection));
    }
  }
  return new LandMask(polygons, box, CELL_DEG);
}
