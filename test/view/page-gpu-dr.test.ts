// The page's dead reckoning on the GPU (src/view/page/gpu/), read back from its buffer in headless Chromium and held
// to the table's float64 evaluation (src/dr/, `RemoteEntityTable.renderSlot`: the same DR and smoothing): every DR
// model, at several latitudes and heights and across the antimeridian, with corrections being smoothed by every
// method and entities held by Stop/Freeze or frozen by their appearance, within 0.1 m over 10 s after the PDU.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from 'esbuild';
import type { Browser, Page } from 'playwright-core';
import { chromiumBinary, defaultRenderer, launchChromium, type WebglRenderer } from '../../scripts/support/chromium.js';
import { consoleProblems } from './support/browser.js';
import type { CaseEntity, CaseResult } from './support/gpu-dr-cases.js';

const ROOT = resolve(import.meta.dirname, '../..');

const Z: [number, number, number] = [0, 0, 0];

/** One of each model, where float32 is hardest on the GPU: fast, far from the equator, high, over 180°. */
const ENTITIES: CaseEntity[] = [
  {
    name: 'other (0)',
    algorithm: 0,
    latDeg: 45,
    lonDeg: 10,
    altM: 0,
    velocity: [50, 0, 0],
    acceleration: Z,
    orientation: [0.3, 0, 0],
    angularVelocity: Z,
  },
  {
    name: 'static',
    algorithm: 1,
    latDeg: 45,
    lonDeg: 10,
    altM: 0,
    velocity: Z,
    acceleration: Z,
    orientation: [0.3, 0, 0],
    angularVelocity: Z,
  },
  {
    name: 'FPW 300 m/s, 45° N',
    algorithm: 2,
    latDeg: 45,
    lonDeg: 10,
    altM: 0,
    velocity: [212, 212, 0],
    acceleration: Z,
    orientation: [0.785, 0, 0],
    angularVelocity: Z,
  },
  {
    name: 'FPW 300 m/s, 70° N, 10 km',
    algorithm: 2,
    latDeg: 70,
    lonDeg: -30,
    altM: 10_000,
    velocity: [300, 0, 0],
    acceleration: Z,
    orientation: [1.57, 0, 0],
    angularVelocity: Z,
  },
  {
    name: 'RPW over 180°',
    algorithm: 3,
    latDeg: -17,
    lonDeg: 179.99,
    altM: 0,
    velocity: [250, 30, 0],
    acceleration: Z,
    orientation: [1.2, 0, 0],
    angularVelocity: [0, 0, 0.1],
  },
  {
    name: 'RVW, equator, climbing',
    algorithm: 4,
    latDeg: 0,
    lonDeg: 0,
    altM: 500,
    velocity: [0, 200, 5],
    acceleration: [3, -2, 0.5],
    orientation: [0, 0.1, 0],
    angularVelocity: [0.01, 0.02, 0.08],
  },
  {
    name: 'FVW, 60° N',
    algorithm: 5,
    latDeg: 60,
    lonDeg: 100,
    altM: 0,
    velocity: [-100, 150, 0],
    acceleration: [5, 5, 0],
    orientation: [2.5, 0, 0],
    angularVelocity: Z,
  },
  {
    name: 'FPB',
    algorithm: 6,
    latDeg: 30,
    lonDeg: -120,
    altM: 3000,
    velocity: [250, 0, 0],
    acceleration: Z,
    orientation: [0.5, 0.05, 0.1],
    angularVelocity: Z,
  },
  {
    name: 'RPB, turning and rolled',
    algorithm: 7,
    latDeg: 50,
    lonDeg: 8,
    altM: 2000,
    velocity: [200, 0, 0],
    acceleration: Z,
    orientation: [1, 0, 0.2],
    angularVelocity: [0.02, 0, 0.12],
  },
  {
    name: 'RVB, 35° S, 8 km',
    algorithm: 8,
    latDeg: -35,
    lonDeg: 150,
    altM: 8000,
    velocity: [150, 0, 0],
    acceleration: [4, 0.5, 0],
    orientation: [-2, 0.05, 0],
    angularVelocity: [0, 0.01, 0.09],
  },
  {
    name: 'FVB',
    algorithm: 9,
    latDeg: 10,
    lonDeg: -60,
    altM: 0,
    velocity: [20, 0, 0],
    acceleration: [2, 0, 0],
    orientation: [3, 0, 0],
    angularVelocity: Z,
  },
  {
    name: 'frozen (appearance)',
    algorithm: 2,
    latDeg: 45,
    lonDeg: 10,
    altM: 0,
    velocity: [100, 0, 0],
    acceleration: Z,
    orientation: Z,
    angularVelocity: Z,
    frozen: true,
  },
  {
    name: 'RVW held at 2 s',
    algorithm: 4,
    latDeg: 45,
    lonDeg: -179.995,
    altM: 0,
    velocity: [100, 50, 0],
    acceleration: [1, 0, 0],
    orientation: Z,
    angularVelocity: [0, 0, 0.05],
    holdAfterSeconds: 2,
  },
  {
    name: 'RVW corrected at 1 s',
    algorithm: 4,
    latDeg: 40,
    lonDeg: -70,
    altM: 0,
    velocity: [30, 40, 0],
    acceleration: [0, 1, 0],
    orientation: [0.6, 0, 0],
    angularVelocity: [0, 0, 0.05],
    correctAfterSeconds: 1,
    correctionMeters: 8,
  },
  {
    name: 'RPB corrected at 3 s',
    algorithm: 7,
    latDeg: -60,
    lonDeg: -100,
    altM: 1000,
    velocity: [120, 0, 0],
    acceleration: Z,
    orientation: [0.2, 0, 0.3],
    angularVelocity: [0, 0.01, 0.2],
    correctAfterSeconds: 3,
    correctionMeters: 40,
  },
];

/** Seconds after the first PDU: before, during and after each correction (2 s long) and the hold (2 s), and 10 s. */
const TIMES = [0, 0.5, 1.5, 2, 3.7, 6, 10];

/** Both CPU renderers where there are two: SwiftShader's sin and cos are off by 1e-4, llvmpipe's are not. */
const RENDERERS: WebglRenderer[] = defaultRenderer === 'llvmpipe' ? ['llvmpipe', 'swiftshader'] : ['swiftshader'];

let script: Uint8Array;
let server: Server;
const browsers: Browser[] = [];
beforeAll(async () => {
  if (chromiumBinary.path === undefined) return;
  const built = await build({
    entryPoints: [join(ROOT, 'test/view/browser/gpu-dr-page.ts')],
    bundle: true,
    format: 'esm',
    target: 'es2022',
    write: false,
    logLevel: 'warning',
  });
  script = built.outputFiles[0]!.contents;
  server = createServer((request, response) => {
    if (request.url === '/page.js')
      return void response.writeHead(200, { 'Content-Type': 'text/javascript' }).end(script);
    response
      .writeHead(200, { 'Content-Type': 'text/html' })
      .end('<!doctype html><meta charset="utf-8"><body><script type="module" src="page.js"></script></body>');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
}, 60_000);
afterAll(async () => {
  await Promise.all(browsers.map((b) => b.close()));
  server?.close();
});

/** The test page in a new browser drawing through `renderer`, and its console's problems. */
async function open(renderer: WebglRenderer): Promise<{ page: Page; problems: string[] }> {
  const browser = await launchChromium(chromiumBinary.path, [], renderer);
  browsers.push(browser);
  const page = await browser.newPage();
  const problems = consoleProblems(page);
  await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
  await page.waitForFunction(() => window.__gpuDrReady === true, null, { timeout: 30_000 });
  return { page, problems };
}

describe.skipIf(chromiumBinary.path === undefined)('dead reckoning on the GPU', () => {
  for (const renderer of RENDERERS) {
    it(`matches the table within 0.1 m and 0.05° for every model and smoothing over 10 s (${renderer})`, async () => {
      const { page, problems } = await open(renderer);
      for (const method of ['linear', 'projective', 'convergence'] as const) {
        const results: CaseResult[] = await page.evaluate(
          ([entities, m, times]) => window.__gpuDr(entities, m, times),
          [ENTITIES, method, TIMES] as const,
        );
        for (const r of results) {
          expect(Math.max(...r.errorsMeters), `${r.name}, ${method}`).toBeLessThanOrEqual(0.1);
          expect(Math.max(...r.headingErrorsDeg.map(Math.abs)), `${r.name}, ${method}`).toBeLessThanOrEqual(0.05);
        }
        // Frozen entities stand still, to the bit: by their appearance at every time, held from 2 s on.
        const frozen = results.find((r) => r.name.startsWith('frozen'))!.gpuLonLat;
        for (const p of frozen) expect(p).toEqual(frozen[0]);
        const held = results.find((r) => r.name.includes('held'))!.gpuLonLat;
        expect(held[0]).not.toEqual(held[3]);
        for (const p of held.slice(4)) expect(p).toEqual(held[3]);
      }
      expect(problems).toEqual([]);
    }, 60_000);
  }
});
