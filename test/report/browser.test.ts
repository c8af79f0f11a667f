// The reports in a real browser: headless Chromium (Debian's `chromium`, driven by playwright-core) opens an
// experiment report and a capture report from disk and must show every chart with no console error, no page
// error and no network request. Screenshots go to a temporary folder (printed), not the repository.
// Without chromium the tests are skipped with an install line; RECKON_REQUIRE_SYSTEM_BINARIES=1 makes that a failure.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { experimentReportHtml } from '../../src/experiment/report.js';
import { PRESETS } from '../../src/experiment/presets.js';
import { planExperiment } from '../../src/experiment/sweep.js';
import { readCapture } from '../../src/pcap/reader.js';
import { captureReportHtml } from '../../src/report/capture-report.js';
import type { Browser, BrowserContext } from 'playwright-core';
import { chromiumBinary as chromium, launchChromium } from '../../scripts/support/chromium.js';
import { fakeResults } from './fake-results.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

describe.skipIf(chromium.path === undefined)(
  `reports in Chromium${chromium.skipReason ? ` (${chromium.skipReason})` : ''}`,
  () => {
    let browser: Browser;
    let context: BrowserContext;
    const folder = mkdtempSync(join(tmpdir(), 'reckon-report-screenshots-'));

    beforeAll(async () => {
      browser = await launchChromium();
      context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    });
    afterAll(async () => {
      await browser?.close();
      console.info(`report screenshots: ${folder}`);
    });

    /** Opens a page from disk and returns what the browser saw: errors, requests, and each chart's drawn size. */
    async function open(file: string, screenshot: string) {
      const page = await context.newPage();
      const problems: string[] = [];
      const requests: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error' || message.type() === 'warning')
          problems.push(`console ${message.type()}: ${message.text()}`);
      });
      page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
      page.on('request', (request) => {
        if (!request.url().startsWith('file:')) requests.push(request.url());
      });
      await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
      const charts = await page.$$eval('svg', (svgs) =>
        svgs.map((svg) => {
          const box = svg.getBoundingClientRect();
          return { width: box.width, height: box.height, marks: svg.querySelectorAll('path, line, text, rect').length };
        }),
      );
      const titles = await page.$$eval('section > h2', (h) => h.map((e) => e.textContent ?? ''));
      await page.screenshot({ path: join(folder, screenshot), fullPage: true });
      await page.close();
      return { problems, requests, charts, titles };
    }

    it('shows every chart of an experiment report', async () => {
      const plan = planExperiment((PRESETS.thresholds as { spec: unknown }).spec);
      const file = join(folder, 'experiment.html');
      writeFileSync(file, await experimentReportHtml('thresholds', fakeResults(plan), { plan }));
      const seen = await open(file, 'experiment-report.png');
      expect(seen.problems).toEqual([]);
      expect(seen.requests).toEqual([]);
      expect(seen.titles).toEqual([
        'Settings',
        'Position error against PDU rate',
        'Cheapest run for an accepted error',
        'Why PDUs are sent',
        'Displayed position error over time',
        'Tracks and PDUs sent',
        'Results',
      ]);
      expect(seen.charts).toHaveLength(4);
      for (const chart of seen.charts) {
        expect(chart.width).toBeGreaterThan(300);
        expect(chart.height).toBeGreaterThan(200);
        expect(chart.marks).toBeGreaterThan(50);
      }
    });

    it('shows every chart of a capture report', async () => {
      const capture = readCapture(readFileSync(join(root, 'test/fixtures/dis/dis7_vrforces_gaz69_90deg_turn.pcap')));
      const file = join(folder, 'capture.html');
      writeFileSync(file, await captureReportHtml('dis7_vrforces_gaz69_90deg_turn.pcap', capture));
      const seen = await open(file, 'capture-report.png');
      expect(seen.problems).toEqual([]);
      expect(seen.requests).toEqual([]);
      expect(seen.titles).toEqual([
        'Entity tracks',
        'PDUs per second by type',
        'Entities',
        'Radios',
        'Rejected and skipped',
      ]);
      expect(seen.charts).toHaveLength(2);
      for (const chart of seen.charts) {
        expect(chart.width).toBeGreaterThan(300);
        expect(chart.marks).toBeGreaterThan(20);
      }
    });
  },
);
