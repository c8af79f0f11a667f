// The offline base map as drawn in Chromium: the colour at known sea and land points, at several zooms, from the
// world view down to a street of Honolulu. Sea west of Ireland and in the Baltic must be sea, Moscow and Paris
// land, Fiji's islands on both sides of the antimeridian land and the water between them sea.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { PNG } from 'pngjs';
import { chromiumBinary, launchChromium } from '../../scripts/support/chromium.js';
import { consoleProblems } from './support/browser.js';
import { PageServer } from './support/page-server.js';

/** The base map's colours (src/view/page/map/basemap.ts). */
const SEA = [0x0d, 0x1b, 0x2a];
const LAND = [0x24, 0x34, 0x47];

type Place = [name: string, lon: number, lat: number, zooms: number[], expected: 'sea' | 'land'];
// Zooms: each place at each scale it is drawn from (1:110 m below zoom 3, 1:50 m below 6, 1:10 m from 6 on;
// BASEMAP_LEVELS in src/view/page/map/basemap.ts), and Honolulu's shore at a street's zoom.
const PLACES: Place[] = [
  ['mid-Atlantic', -35, 40, [1.5, 4], 'sea'],
  ['Atlantic west of Ireland', -12.5, 53.5, [3.5, 6.5], 'sea'],
  ['North Sea', 3, 56, [3.5, 6.5], 'sea'],
  ['Baltic', 19.5, 57.2, [3.5, 6.5], 'sea'],
  ['Norwegian Sea', 2, 68, [1.5, 4], 'sea'],
  ['Paris', 2.35, 48.86, [1.5, 4, 7], 'land'],
  ['Moscow', 37.62, 55.75, [1.5, 4, 8], 'land'],
  ['Siberia', 100, 62, [1.5], 'land'],
  ['Chukotka, east of 180°', -175, 66.5, [2, 5], 'land'],
  ['Anchorage', -149.85, 61.2, [4, 8], 'land'],
  ['North Pacific', -170, 40, [1.5, 4], 'sea'],
  ['Pacific off Honolulu', -157.86, 21.22, [7, 14], 'sea'],
  ['Honolulu, Makiki', -157.83, 21.315, [14], 'land'],
  ['Viti Levu, Fiji', 178.0, -17.8, [6.5], 'land'],
  ['Koro Sea, Fiji', 179.3, -17.5, [6.5], 'sea'],
  ['Taveuni, Fiji', 179.98, -16.85, [9], 'land'],
  ['Lau Islands, Fiji, east of 180°', -178.77, -18.2, [10], 'land'],
];

describe.skipIf(chromiumBinary.path === undefined)('offline base map in Chromium', () => {
  let browser: Browser;
  let server: PageServer;
  let page: Page;
  let problems: string[] = [];

  beforeAll(async () => {
    browser = await launchChromium();
    server = await PageServer.start();
    // Small, so that drawing each view on the CPU is cheap: a narrow window, whose panel starts as a
    // sheet folded to its header over the bottom of the full-width map, far from the map's centre.
    page = await browser.newPage({ viewport: { width: 320, height: 320 } });
    problems = consoleProblems(page);
    await page.goto(server.url);
    await page.waitForFunction(() => window.__reckon?.connected === true, null, { timeout: 45_000 });
    expect(await page.evaluate(() => document.body.classList.contains('panel-collapsed'))).toBe(true);
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  /** 'sea' or 'land' by the colour most of a 9 × 9 px patch at the map's centre has (grid lines aside). */
  async function colourAtCentre(): Promise<'sea' | 'land' | string> {
    const box = await page.evaluate(() => document.getElementById('map')!.getBoundingClientRect());
    const x = Math.round(box.left + box.width / 2) - 4,
      y = Math.round(box.top + box.height / 2) - 4;
    const png = PNG.sync.read(await page.screenshot({ clip: { x, y, width: 9, height: 9 } }));
    const votes = { sea: 0, land: 0, other: 0 };
    for (let i = 0; i < png.data.length; i += 4) {
      const rgb = [png.data[i]!, png.data[i + 1]!, png.data[i + 2]!];
      const near = (c: number[]) => c.every((v, k) => Math.abs(v - rgb[k]!) <= 6);
      votes[near(SEA) ? 'sea' : near(LAND) ? 'land' : 'other']++;
    }
    return votes.sea > 40 ? 'sea' : votes.land > 40 ? 'land' : JSON.stringify(votes);
  }

  it('draws sea as sea and land as land at every zoom, across the antimeridian too', async () => {
    const wrong: string[] = [];
    for (const [name, lon, lat, zooms, expected] of PLACES) {
      for (const zoom of zooms) {
        await page.evaluate(([a, b, z]) => window.__reckon.viewAt(a!, b!, z!), [lon, lat, zoom]);
        const seen = await colourAtCentre();
        if (seen !== expected) wrong.push(`${name} at zoom ${zoom}: ${seen}, not ${expected}`);
      }
    }
    expect(wrong).toEqual([]);
    expect(problems).toEqual([]);
  }, 240_000);
});
