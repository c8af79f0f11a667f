// Builds the `reckon view` page into dist/view/page (docs/view.md): app.js and app.css bundled by esbuild from
// src/view/page/main.ts (the project's own pure modules and the npm browser libraries; no CDN, works offline),
// index.html, MapLibre's worker, and the offline base map: Natural Earth land and country borders (1:50m) from the
// `world-atlas` package converted to GeoJSON, coordinates rounded to 1e-4° (≈ 11 m, below the 1:50m source's own
// precision) to keep the files small. Usage: node scripts/build-page.mjs [--out DIR] [--metafile]
import { build } from 'esbuild';
import { copyFile, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { feature, mesh } from 'topojson-client';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const outAt = args.indexOf('--out');
const out = outAt >= 0 ? resolve(args[outAt + 1]) : join(root, 'dist/view/page');
const page = join(root, 'src/view/page');
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

function geometryJson(geometry) {
  return { ...geometry, coordinates: rounded(geometry.coordinates) };
}

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
      // milsymbol's package entry registers every standard it knows (~0.9 MB); the page draws 2525C letter codes
      // only, so it imports the ES module entry and registers just that one.
      name: 'milsymbol-es',
      setup(b) {
        b.onResolve({ filter: /^milsymbol\/index\.mjs$/ }, () => ({ path: join(modules, 'milsymbol/index.mjs') }));
      },
    },
  ],
});
if (result.metafile) await writeFile(join(staging, '..', 'page-meta.json'), JSON.stringify(result.metafile));
await copyFile(join(page, 'index.html'), join(staging, 'index.html'));
// A classic .js name: every static server knows its content type (module workers need a JavaScript one).
await copyFile(join(modules, 'maplibre-gl/dist/maplibre-gl-worker.mjs'), join(staging, 'assets/maplibre-gl-worker.js'));
const countries = JSON.parse(await readFile(join(modules, 'world-atlas/countries-50m.json'), 'utf8'));
const land = JSON.parse(await readFile(join(modules, 'world-atlas/land-50m.json'), 'utf8'));
const landFeature = feature(land, land.objects.land);
const landGeometries =
  landFeature.type === 'FeatureCollection' ? landFeature.features.map((f) => f.geometry) : [landFeature.geometry];
await writeFile(
  join(staging, 'assets/land.json'),
  JSON.stringify({
    type: 'FeatureCollection',
    features: landGeometries.map((g) => ({ type: 'Feature', properties: {}, geometry: geometryJson(g) })),
  }),
);
// Borders between countries only (a ≠ b): the coastline is the land's edge.
const borders = mesh(countries, countries.objects.countries, (a, b) => a !== b);
await writeFile(
  join(staging, 'assets/borders.json'),
  JSON.stringify({
    type: 'FeatureCollection',
    features: [{ type: 'Feature', properties: {}, geometry: geometryJson(borders) }],
  }),
);
await writeFile(
  join(staging, 'assets/NOTICE.txt'),
  'Land and borders: Natural Earth (public domain), via the world-atlas package (ISC licence, Mike Bostock).\n' +
    'Map rendering: MapLibre GL JS (BSD-3-Clause); layers: deck.gl (MIT); symbols: milsymbol (MIT).\n' +
    'Full licence texts of bundled code: app.js.LEGAL.txt.\n',
);
await rm(out, { recursive: true, force: true });
await mkdir(dirname(out), { recursive: true });
await rename(staging, out);
