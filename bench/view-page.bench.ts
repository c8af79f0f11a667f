/**
 * The `reckon view` page, measured in headless Chromium (Debian's `chromium`, driven by playwright-core):
 * `view.frame.10k` / `view.frame.100k` / `view.frame.1m`: the page's JS work per frame for 10 000 / 100 000 /
 * 1 000 000 moving entities, the map framing the whole exercise — expiry, loading the PDUs that came (1 % of the
 * entities a frame) into the table, packing and uploading the GPU records of what changed, the GPU's DR pass, what
 * is in view and labelled, the deck.gl layer and attribute update — median and 95th percentile ms over frames of
 * synthetic time (bench/view-page/bench-page.ts); goals: 10k median 2 ms, 100k median 3 ms, 1m median 16 ms and p95
 * 33 ms. Baseline, in the same page and run: the CPU path (`cpuPathMedianMs`, the table's float64 DR and smoothing of
 * every entity and its conversion to longitude, latitude and heading per frame). WebGL runs on the CPU (SwiftShader) here, so drawing is left out of the figure (it is the GPU's part); the
 * interval between frames, which holds it, is reported beside (`intervalMedianMs`).
 * `view.bundle`: bytes of the built page (dist/view/page) as served, raw and gzip-compressed; goal < 2 MB gzipped.
 * Skipped with one line where Chromium is missing.
 */
import { createServer } from 'node:http';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, copyFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, join, resolve } from 'node:path';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { chromiumBinary as binary, launchChromium } from '../scripts/support/chromium.js';
import { contentSecurityPolicy } from '../src/view/http.js';
import { round, type BenchResult, type BenchSuite } from './harness.js';

const ROOT = resolve(import.meta.dirname, '..');
const PAGE = join(ROOT, 'dist/view/page');
const TYPES: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
};

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/**
 * Bytes of everything the page loads at first, raw and gzipped (as a server compressing with gzip would send it),
 * and apart from them the finer base map's cells, loaded only as a view zooms in on them.
 */
function bundleSize(): BenchResult {
  let bytes = 0,
    gzipBytes = 0,
    appJs = 0,
    appJsGzip = 0,
    cellBytes = 0,
    cellFiles = 0;
  for (const file of filesUnder(PAGE)) {
    if (file.endsWith('.LEGAL.txt') || file.endsWith('NOTICE.txt')) continue;
    if (/[/\\]land-(50m|10m)[/\\]/.test(file)) {
      cellBytes += statSync(file).size;
      cellFiles++;
      continue;
    }
    const body = readFileSync(file);
    const gz = gzipSync(body, { level: 9 }).length;
    bytes += body.length;
    gzipBytes += gz;
    if (file.endsWith('app.js')) {
      appJs = body.length;
      appJsGzip = gz;
    }
  }
  return {
    name: 'view.bundle',
    bytes,
    gzipBytes,
    appJsBytes: appJs,
    appJsGzipBytes: appJsGzip,
    onDemandBaseMapBytes: cellBytes,
    onDemandBaseMapFiles: cellFiles,
    goalGzipBytes: 2_000_000,
  };
}

const suite: BenchSuite = async ({ quick }) => {
  const results: BenchResult[] = [bundleSize()];
  if (binary.path === undefined) {
    process.stderr.write(`view-page: frame benchmarks ${binary.skipReason}\n`);
    return results;
  }
  // The bench page, bundled like the real one, beside a copy of the page's worker and stylesheet.
  const dir = mkdtempSync(join(tmpdir(), 'reckon-view-bench-'));
  try {
    await build({
      entryPoints: { bench: join(ROOT, 'bench/view-page/bench-page.ts') },
      bundle: true,
      format: 'esm',
      target: 'es2022',
      minify: true,
      outdir: dir,
      logLevel: 'warning',
      plugins: [
        {
          name: 'milsymbol-es',
          setup(b) {
            b.onResolve({ filter: /^milsymbol\/index\.mjs$/ }, () => ({
              path: join(ROOT, 'node_modules/milsymbol/index.mjs'),
            }));
          },
        },
      ],
    });
    mkdirSync(join(dir, 'assets'));
    copyFileSync(join(PAGE, 'assets/maplibre-gl-worker.js'), join(dir, 'assets/maplibre-gl-worker.js'));
    copyFileSync(join(PAGE, 'app.css'), join(dir, 'app.css'));
    copyFileSync(join(ROOT, 'bench/view-page/index.html'), join(dir, 'index.html'));
    const server = createServer((request, response) => {
      const path = join(dir, (request.url ?? '/') === '/' ? 'index.html' : (request.url ?? '').split('?')[0]!);
      if (!path.startsWith(dir)) return void response.writeHead(403).end();
      try {
        const body = readFileSync(path);
        // The gateway's own policy (src/view/http.ts), so the page's code takes the same paths as under `reckon view`
        // (the table's WebAssembly kernel needs its 'wasm-unsafe-eval').
        response
          .writeHead(200, {
            'Content-Type': TYPES[extname(path)] ?? 'application/octet-stream',
            'Content-Security-Policy': contentSecurityPolicy(),
          })
          .end(body);
      } catch {
        response.writeHead(404).end();
      }
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const browser = await launchChromium(binary.path, [], 'swiftshader');
    try {
      const page = await browser.newPage({ viewport: { width: 640, height: 400 } });
      await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
      await page.waitForFunction(() => (window as unknown as { __benchReady?: boolean }).__benchReady === true, null, {
        timeout: 60_000,
      });
      // The map frames the whole exercise (10° × 10°); 1 % of the entities get a PDU every frame.
      for (const [name, n, frames, goalMs, goalP95Ms] of [
        ['view.frame.10k', 10_000, quick ? 30 : 120, 2, null],
        ['view.frame.100k', 100_000, quick ? 20 : 60, 3, null],
        ['view.frame.1m', 1_000_000, quick ? 20 : 60, 16, 33],
      ] as const) {
        process.stderr.write(`view-page: ${name} …\n`);
        const r = await page.evaluate(
          ([count, f]) =>
            (window as unknown as { __bench: (n: number, f: number) => Promise<Record<string, number>> }).__bench(
              count,
              f,
            ),
          [n, frames] as const,
        );
        const rounded = Object.fromEntries(Object.entries(r).map(([k, v]) => [k, round(v)]));
        results.push({
          name,
          ...rounded,
          speedupVsCpuPath: round((r['cpuPathMedianMs'] ?? 0) / (r['medianMs'] ?? 1)),
          goalMs,
          ...(goalP95Ms === null ? {} : { goalP95Ms }),
          browser: 'chromium-headless-swiftshader',
        });
        if (r['wasmKernel'] !== 1) process.stderr.write(`view-page: ${name} ran without the WebAssembly DR kernel\n`);
      }
    } finally {
      await browser.close();
      server.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return results;
};

export default suite;
