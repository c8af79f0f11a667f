// `npm run figures` (after scripts/figures.ts): the live map as a user first sees it, with `reckon demo` feeding it,
// on a desktop (1280×800) and a phone (390×844): docs/figures/view-desktop.png and docs/figures/view-phone.png.
// Runs the built CLI; headless Chromium (Debian's `chromium`).
import { spawn } from 'node:child_process';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromiumBinary, launchChromium } from './support/chromium.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = join(root, 'docs', 'figures');
if (chromiumBinary.path === undefined) {
  console.error(`npm run figures: ${chromiumBinary.skipReason}`);
  process.exit(1);
}

const demo = spawn(
  process.execPath,
  [join(root, 'dist/cli/main.js'), 'demo', '--duration', '120', '--json', '--http', '127.0.0.1:0'],
  {
    cwd: root,
    stdio: ['ignore', 'ignore', 'pipe'],
  },
);
const url = await new Promise<string>((resolve, reject) => {
  let text = '';
  const timer = setTimeout(() => reject(new Error('reckon demo did not print its map URL')), 30_000);
  demo.stderr!.on('data', (chunk) => {
    text += String(chunk);
    const match = /live map at (http:\/\/127\.0\.0\.1:\d+\/)/.exec(text);
    if (match) {
      clearTimeout(timer);
      resolve(match[1]!);
    }
  });
});
const browser = await launchChromium();
try {
  for (const [name, width, height] of [
    ['view-desktop.png', 1280, 800],
    ['view-phone.png', 390, 844],
  ] as const) {
    const page = await browser.newPage({ viewport: { width, height } });
    await page.goto(url);
    await page.waitForFunction(() => window.__reckon?.entities().filter((e) => e.marking !== '').length === 3, null, {
      timeout: 60_000,
    });
    // Trails and PDU markers a few seconds long, and the base map's cells for the view loaded.
    await page.waitForTimeout(8_000);
    await page.evaluate(() => {
      const [, zoom, lat, lon] = /map=([\d.]+)\/(-?[\d.]+)\/(-?[\d.]+)/.exec(location.hash) ?? [];
      return zoom === undefined ? undefined : window.__reckon.viewAt(Number(lon), Number(lat), Number(zoom));
    });
    const path = join(out, name);
    await page.screenshot({ path });
    console.log(`wrote ${path} (${Math.round(statSync(path).size / 1024)} KB)`);
    await page.close();
  }
} finally {
  await browser.close();
  demo.kill('SIGINT');
}
