// What the page draws, read back through deck.gl's picking (which runs on the layer attributes deck.gl holds, not on
// the page's own arrays): a symbol is where its entity is now, frame after frame, even though the symbol layer only
// updates its moving attributes (docs/view.md, "Design"). Also: the page's table is sized from the hello's
// `maxEntities`. Headless Chromium against the stand-in gateway (test/view/support/page-server.ts).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { chromiumBinary, launchChromium } from '../support/chromium.js';
import { DEFAULT_CONFIG, PAGE_DIR, PageServer, type TestEntity } from './support/page-server.js';

const pageBuilt = existsSync(join(PAGE_DIR, 'app.js'));

/**
 * Fast enough (250 m/s) to cross its own symbol's width on the map within a second or two. A land unit: its
 * symbol (a filled rectangle) is centred on the position, so the symbol covers the pixel of the position itself.
 */
const RUNNER: TestEntity = {
  site: 9,
  application: 1,
  entity: 1,
  marking: 'RUNNER',
  force: 1,
  kind: 1,
  domain: 1,
  lat: 36.5,
  lon: -6.3,
  altM: 0,
  eastMps: 250,
  northMps: 0,
};

describe.skipIf(chromiumBinary.path === undefined)('view page drawing in Chromium', () => {
  let browser: Browser | undefined;
  let server: PageServer | undefined;

  afterEach(async () => {
    await browser?.close();
    await server?.close();
    browser = server = undefined;
  });

  async function open(config = DEFAULT_CONFIG): Promise<Page> {
    if (!pageBuilt) throw new Error(`${PAGE_DIR} is missing: run \`npm run build\` first`);
    server = await PageServer.start();
    server.config = config;
    browser = await launchChromium();
    const page = await browser.newPage({ viewport: { width: 1000, height: 640 } });
    await page.goto(server.url);
    await page.waitForFunction(() => window.__reckon?.connected === true, null, { timeout: 20_000 });
    return page;
  }

  it('draws a moving symbol where its entity is now: a click there selects it, a click where it was does not', async () => {
    const page = await open();
    const t0Ms = Date.now();
    const timer = setInterval(() => server!.publish([RUNNER], t0Ms, Date.now()), 200);
    try {
      const id = '9:1:1';
      await page.waitForFunction((i) => window.__reckon.screenPoint(i) !== null, id, { timeout: 20_000 });
      // The page frames the first entities once; let that settle before taking the first point.
      await page.waitForTimeout(500);
      const before = (await page.evaluate((i) => window.__reckon.screenPoint(i), id))!;
      // Three symbol widths (28 px) on.
      await page.waitForFunction(
        ([i, x, y]) => {
          const p = window.__reckon.screenPoint(i as string);
          return p !== null && Math.hypot(p[0] - (x as number), p[1] - (y as number)) > 90;
        },
        [id, before[0], before[1]] as const,
        { timeout: 20_000 },
      );
      await page.mouse.click(before[0], before[1]);
      await page.waitForTimeout(300);
      expect((await page.evaluate(() => window.__reckon.selectedDetails()))['id']).toBeUndefined();
      const now = (await page.evaluate((i) => window.__reckon.screenPoint(i), id))!;
      await page.mouse.click(now[0], now[1]);
      await page.waitForFunction(() => window.__reckon.selectedDetails()['id'] === '9:1:1', null, {
        timeout: 5_000,
      });
    } finally {
      clearInterval(timer);
    }
  });

  it("sizes its table from the hello's maxEntities, up to its own cap", async () => {
    const capacityFor = async (maxEntities: number | undefined) => {
      const { maxEntities: _default, ...withoutMax } = DEFAULT_CONFIG;
      const page = await open(maxEntities === undefined ? withoutMax : { ...withoutMax, maxEntities });
      await page.waitForFunction(() => window.__reckon.hellos > 0, null, { timeout: 20_000 });
      const capacity = await page.evaluate(() => window.__reckon.capacity);
      await browser!.close();
      await server!.close();
      browser = server = undefined;
      return capacity;
    };
    expect(await capacityFor(50_000)).toBe(50_000);
    expect(await capacityFor(2_500)).toBe(2_500);
    // 1 000 000 is the most `receiver.maxEntities` allows; the page keeps to 100 000.
    expect(await capacityFor(1_000_000)).toBe(100_000);
    // A gateway that does not say: the default.
    expect(await capacityFor(undefined)).toBe(10_000);
  });
});
