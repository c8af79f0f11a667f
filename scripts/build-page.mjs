// Builds the `reckon view` page into dist/view/page (docs/view.md): app.js and app.css bundled by esbuild from
// src/view/page/main.ts (the project's own pure modules and the npm browser libraries; no CDN, works offline),
// index.html, MapLibre's worker, and the offline base map: Natural Earth land and country borders at 1:110m, 1:50m
// and 1:10m from the `world-atlas` package as planar GeoJSON (scripts/basemap.mjs), coordinates rounded to 1e-4°
// (≈ 11 m, below the sources' own precision) to keep the files small. Usage: node scripts/build-page.mjs [--out DIR] [--metafile]
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { copyFile, cp, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { borderLines, landPolygons, splitIntoCells, worldCollection } from './basemap.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const outAt = args.indexOf('--out');
const out = outAt >= 0 ? resolve(args[outAt + 1]) : join(root, 'dist/view/page');
const page = join(root, 'src/view/page');
/** Where app.js finds the SISO names (relative to itself). */
const NAMES_CHUNK = './chunks/names.js';
const modules = join(root, 'node_modules');

/** Rounds every coordinate of a GeoJSON geometry to 1e-4° and drops repeated points. */
function rounded(value) {
  if (typeof value === 'number') return Math.round(value * 1e4) / 1e4;
  if (!Array.isArray(value)) return value;
  const items = value.map(rounded);
  if (typeof items[0]?.[0] !== 'number') return items;
  return items.filter(
    (p, i) => i === 0 || i === items.length - 1 || p[0] !== items[i - 1][0] || p[1] !== items[i - 1][1],
  );
}

function roundedFeature(f) {
  return { ...f, geometry: { ...f.geometry, coordinates: rounded(f.geometry.coordinates) } };
}

/** The base map's scales: the whole world at once, or cells of `cellDeg` loaded on demand. */
const BASEMAP_LEVELS = [
  { scale: '110m', cellDeg: null },
  { scale: '50m', cellDeg: 30 },
  { scale: '10m', cellDeg: 10 },
];

// Built into a fresh directory that replaces the old one at the end, so a failed build leaves the last good page.
const staging = `${out}.building`;
await rm(staging, { recursive: true, force: true });
await mkdir(join(staging, 'assets'), { recursive: true });
const result = await build({
  entryPoints: { app: join(page, 'main.ts') },
  bundle: true,
  format: 'esm',
  target: 'es2022',
  minify: true,
  legalComments: 'linked',
  outdir: staging,
  metafile: args.includes('--metafile'),
  logLevel: 'warning',
  plugins: [
    {
      // The SISO names are not in app.js: src/view/page/names.ts imports them after the first frame from a file
      // of their own, built below.
      name: 'names-apart',
      setup(b) {
        b.onResolve({ filter: /names\/index\.js$/ }, (args) =>
          args.importer.endsWith(join('view', 'page', 'names.ts')) ? { path: NAMES_CHUNK, external: true } : undefined,
        );
      },
    },
    {
      // milsymbol's package entry registers every standard it knows (~0.9 MB); the page draws 2525C letter codes
      // only, so it imports the ES module entry and registers just that one.
      name: 'milsymbol-es',
      setup(b) {
        b.onResolve({ filter: /^milsymbol\/index\.mjs$/ }, () => ({ path: join(modules, 'milsymbol/index.mjs') }));
      },
    },
  ],
});
const names = await build({
  entryPoints: { names: join(root, 'src/names/index.ts') },
  bundle: true,
  format: 'esm',
  target: 'es2022',
  minify: true,
  legalComments: 'linked',
  outdir: join(staging, 'chunks'),
  metafile: args.includes('--metafile'),
  logLevel: 'warning',
});
if (result.metafile) {
  await writeFile(join(staging, '..', 'page-meta.json'), JSON.stringify(result.metafile));
  await writeFile(join(staging, '..', 'page-names-meta.json'), JSON.stringify(names.metafile));
}
await copyFile(join(page, 'index.html'), join(staging, 'index.html'));
// A classic .js name: every static server knows its content type (module workers need a JavaScript one).
await copyFile(join(modules, 'maplibre-gl/dist/maplibre-gl-worker.mjs'), join(staging, 'assets/maplibre-gl-worker.js'));
// The base map at three Natural Earth scales (scripts/basemap.mjs): 1:110m for the whole world at once, 1:50m in
// 30° cells and 1:10m in 10° cells that the page loads as the view reaches them (src/view/page/map/basemap.ts).
// Made once per version of its inputs and kept in node_modules/.cache: it takes most of the build's time.
const basemapKey = createHash('sha256');
for (const file of [
  fileURLToPath(import.meta.url),
  join(root, 'scripts/basemap.mjs'),
  join(modules, 'world-atlas/package.json'),
])
  basemapKey.update(await readFile(file));
const basemapCache = join(modules, '.cache/reckon-basemap', basemapKey.digest('hex').slice(0, 16));
if (!existsSync(basemapCache)) await writeBasemap(basemapCache);
await cp(basemapCache, join(staging, 'assets'), { recursive: true });

/** Writes the base map's files into `dir` (through a temporary directory, so that `dir` is whole or absent). */
async function writeBasemap(dir) {
  const temporary = `${dir}.${process.pid}`;
  await rm(temporary, { recursive: true, force: true });
  await mkdir(temporary, { recursive: true });
  for (const { scale, cellDeg } of BASEMAP_LEVELS) {
    const land = JSON.parse(await readFile(join(modules, `world-atlas/land-${scale}.json`), 'utf8'));
    const countries = JSON.parse(await readFile(join(modules, `world-atlas/countries-${scale}.json`), 'utf8'));
    const polygons = landPolygons(land).map(rounded);
    const lines = borderLines(countries).map(rounded);
    if (cellDeg === null) {
      await writeFile(join(temporary, `land-${scale}.json`), JSON.stringify(worldCollection(polygons, lines)));
      continue;
    }
    const cellDir = join(temporary, `land-${scale}`);
    await mkdir(cellDir);
    const cells = splitIntoCells(polygons, lines, cellDeg);
    for (const [key, collection] of cells) {
      await writeFile(
        join(cellDir, `${key}.json`),
        JSON.stringify({ ...collection, features: collection.features.map(roundedFeature) }),
      );
    }
    // Which cells have a file: the page asks only for those (a cell of open sea has none).
    await writeFile(join(cellDir, 'index.json'), JSON.stringify([...cells.keys()].sort()));
  }
  await rename(temporary, dir).catch(async (error) => {
    // Another build made the same files meanwhile.
    await rm(temporary, { recursive: true, force: true });
    if (!existsSync(dir)) throw error;
  });
}
await writeFile(
  join(staging, 'assets/NOTICE.txt'),
  'Land and borders: Natural Earth (public domain), via the world-atlas package (ISC licence, Mike Bostock).\n' +
    'Entity names (chunks/): SISO-REF-010 v33 (2023-12-17). Reprinted with permission from SISO Inc.\n' +
    'Map rendering: MapLibre GL JS (BSD-3-Clause); layers: deck.gl (MIT); symbols: milsymbol (MIT).\n' +
    'Full licence texts of bundled code: app.js.LEGAL.txt.\n',
);
await rm(out, { recursive: true, force: true });
await mkdir(dirname(out), { recursive: true });
await rename(staging, out);
