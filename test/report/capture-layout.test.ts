// The capture report laid out in a real browser (Chromium), at a desktop's 1280 px and a phone's 390 px: every table
// fits the page (long names and appearances wrap; on a phone each row is a card), and a capture of isolated single
// PDUs draws small panels side by side, not a large, mostly empty one per entity. Screenshots go to a temporary
// folder (printed). Without chromium the tests are skipped with an install line.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entityTypeName } from '../../src/names/index.js';
import { readCapture } from '../../src/pcap/reader.js';
import { pcapFileHeader, pcapUdpRecord } from '../../src/pcap/writer.js';
import { captureReportHtml } from '../../src/report/capture-report.js';
import { largeCapture } from '../../scripts/large-captures.js';
import { chromiumBinary as chromium, launchChromium } from '../../scripts/support/chromium.js';

const fixture = (path: string) => readFileSync(new URL(`../fixtures/${path}`, import.meta.url));
const DESKTOP = { width: 1280, height: 900 };

/** The `count` entities of siso-entity-types.pcap with the longest names, as a capture of their own. */
function longestNames(count: number): Uint8Array {
  const { frames } = readCapture(fixture('names/siso-entity-types.pcap'));
  const length = (data: Uint8Array) => {
    const pdu = data.subarray(data.length - 144);
    const type = [pdu[20]!, pdu[21]!, (pdu[22]! << 8) | pdu[23]!, pdu[24]!, pdu[25]!, pdu[26]!, pdu[27]!];
    return entityTypeName(type).label.length;
  };
  const longest = [...frames].sort((a, b) => length(b.data) - length(a.data)).slice(0, count);
  return Buffer.concat([pcapFileHeader(), ...longest.map((f) => pcapUdpRecord(f.data.subarray(42), f.timeSeconds))]);
}
const PHONE = { width: 390, height: 844 };

describe.skipIf(chromium.path === undefined)(
  `the capture report's layout in Chromium${chromium.skipReason ? ` (${chromium.skipReason})` : ''}`,
  () => {
    let browser: Browser;
    const folder = mkdtempSync(join(tmpdir(), 'reckon-capture-layout-'));

    beforeAll(async () => {
      browser = await launchChromium();
    });
    afterAll(async () => {
      await browser?.close();
      console.info(`capture report screenshots: ${folder}`);
    });

    /** Opens the report of `capture` at `viewport`, screenshots it, and hands the page to `look`. */
    async function open<T>(
      name: string,
      capture: Uint8Array,
      viewport: { width: number; height: number },
      look: (page: Page) => Promise<T>,
    ): Promise<T> {
      const file = join(folder, `${name}.html`);
      writeFileSync(file, await captureReportHtml(`${name}.pcap`, readCapture(capture)));
      const context = await browser.newContext({ viewport });
      try {
        const page = await context.newPage();
        await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
        await page.screenshot({ path: join(folder, `${name}-${viewport.width}.png`) });
        return await look(page);
      } finally {
        await context.close();
      }
    }

    /** Each table's title and how far it runs past its box (0 when it fits), and the page's own overflow. */
    const overflow = (page: Page): Promise<{ tables: string[]; page: number }> =>
      page.evaluate(`({
        tables: [...document.querySelectorAll('section')]
          .filter((s) => s.querySelector('.scroll'))
          .map((s) => {
            const box = s.querySelector('.scroll');
            return s.querySelector('h2').textContent + ': ' + Math.max(0, box.scrollWidth - box.clientWidth);
          }),
        page: document.documentElement.scrollWidth - document.documentElement.clientWidth,
      })`);

    const captures: Array<[string, Uint8Array]> = [
      ['hind', fixture('dis/dis5_kdis_vrforces_hind_vs_m1a2.pcap')],
      ['longest-names', longestNames(15)],
      ['made', largeCapture({ entities: 30, radios: 12, shots: 6 })],
    ];

    it.each(captures)('%s: every table fits 1280 px, the appearance in view', async (name, capture) => {
      const seen = await open(name, capture, DESKTOP, async (page) => ({
        ...(await overflow(page)),
        // The right edge of each entity's appearance cell, against the page's width.
        appearance: await page.$$eval('td[data-label="appearance"]', (cells) =>
          Math.max(0, ...cells.slice(0, 200).map((c) => c.getBoundingClientRect().right)),
        ),
      }));
      expect(seen.tables.filter((t) => !t.endsWith(': 0'))).toEqual([]);
      expect(seen.page).toBe(0);
      expect(seen.appearance).toBeGreaterThan(0);
      expect(seen.appearance).toBeLessThanOrEqual(DESKTOP.width);
    });

    it.each(captures.slice(0, 1))(
      '%s: on a phone, each entity is a card and nothing runs off the page',
      async (name, capture) => {
        const seen = await open(`${name}-phone`, capture, PHONE, async (page) => ({
          ...(await overflow(page)),
          display: await page.evaluate<string>(
            `getComputedStyle(document.querySelector('td[data-label="appearance"]')).display`,
          ),
          header: await page.evaluate<string>(`getComputedStyle(document.querySelector('table.cards thead')).display`),
        }));
        expect(seen.tables.filter((t) => !t.endsWith(': 0'))).toEqual([]);
        expect(seen.page).toBe(0);
        expect(seen.display).toBe('block');
        expect(seen.header).toBe('none');
      },
    );

    it('draws isolated single PDUs as small panels side by side, not one large panel each', async () => {
      // Twelve entities far apart, one PDU each.
      const capture = largeCapture({ entities: 12 });
      for (const viewport of [DESKTOP, PHONE]) {
        const seen = await open(`single-${viewport.width}`, capture, viewport, (page) =>
          page.evaluate<{ titles: string[]; panels: Array<{ width: number; height: number; top: number }> }>(`({
            titles: [...document.querySelectorAll('section > h2')].map((h) => h.textContent),
            panels: [...document.querySelectorAll('.panels figure svg')].map((svg) => {
              const box = svg.getBoundingClientRect();
              return { width: box.width, height: box.height, top: Math.round(box.top) };
            }),
          })`),
        );
        expect(seen.titles.filter((t) => t.startsWith('Entity tracks'))).toEqual([]);
        expect(seen.titles[0]).toBe('Entity positions');
        expect(seen.panels).toHaveLength(12);
        for (const p of seen.panels) {
          expect(p.width).toBeLessThanOrEqual(200);
          expect(p.height).toBeLessThanOrEqual(200);
        }
        // Side by side: rows of several panels.
        const rows = new Set(seen.panels.map((p) => p.top)).size;
        expect(rows).toBeLessThanOrEqual(viewport === DESKTOP ? 2 : 6);
      }
    });
  },
);
