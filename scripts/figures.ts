// `npm run figures`: renders the README's report figures with headless Chromium (Debian's `chromium`):
//   docs/figures/experiment-report.png  the `thresholds` preset's report: error against rate, cheapest runs, reasons
//   docs/figures/capture-report.png     `reckon decode` --report of the v5 capture in test/fixtures/dis, to its engagements
// Runs the built CLI (npm run figures builds first); the reports themselves go to a temporary folder.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromiumBinary as chromium, launchChromium } from './support/chromium.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = join(root, 'docs', 'figures');
const work = mkdtempSync(join(tmpdir(), 'reckon-figures-'));
if (chromium.path === undefined) {
  console.error(`npm run figures: ${chromium.skipReason}`);
  process.exit(1);
}

const reckon = (...args: string[]) =>
  execFileSync(process.execPath, [join(root, 'dist/cli/main.js'), ...args], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
reckon('experiment', '--preset', 'thresholds', '--out', join(work, 'thresholds'));
const capture = join(work, 'capture.html');
reckon('decode', 'test/fixtures/dis/dis5_kdis_vrforces_hind_vs_m1a2.pcap', '--report', capture);

mkdirSync(out, { recursive: true });
const browser = await launchChromium(chromium.path);
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  /** Screenshots the page from the top of section `first` to the bottom of section `last` (by their headings). */
  const shoot = async (file: string, png: string, first: string, last: string) => {
    await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
    // The page has just loaded, unscrolled: viewport coordinates are page coordinates.
    const box = await page.$$eval(
      'section',
      // No named functions inside: tsx would wrap them in a helper the page does not have.
      (sections, [a, b]) => {
        const boxes = sections.map((s) => ({
          title: s.querySelector('h2')?.textContent,
          box: s.getBoundingClientRect(),
        }));
        return {
          top: a === '' ? 0 : boxes.find((s) => s.title === a)!.box.top,
          bottom: boxes.find((s) => s.title === b)!.box.bottom,
        };
      },
      [first, last] as const,
    );
    const path = join(out, png);
    await page.screenshot({
      path,
      fullPage: true,
      clip: { x: 0, y: Math.max(0, box.top - 12), width: 1280, height: box.bottom - box.top + 24 },
    });
    console.log(`wrote ${path} (${Math.round(statSync(path).size / 1024)} KB)`);
  };
  await shoot(
    join(work, 'thresholds', 'report.html'),
    'experiment-report.png',
    'Position error against PDU rate',
    'Why PDUs are sent',
  );
  await shoot(capture, 'capture-report.png', '', 'Engagements');
} finally {
  await browser.close();
}
