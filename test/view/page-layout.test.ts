// The page's layout on a phone, a tablet held upright and a desktop, with the real `reckon demo` feeding it: the map
// keeps most of the screen (the panel a collapsible sheet over it on narrow screens), the demo's entities are framed
// in the part of the map that shows, and the console stays quiet. One demo and one browser for the whole file.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { reckon, within, type Running } from '../support/binary.js';
import { chromiumBinary, launchChromium } from '../../scripts/support/chromium.js';
import { artifactPath, consoleProblems } from './support/browser.js';

const DEMO_IDS = ['1:1:1', '1:2:1', '1:3:1'];

interface Visible {
  /** Share of the viewport where the map shows (not under the panel). */
  mapShare: number;
  /** Demo entities whose symbol is inside the visible part of the map. */
  shown: string[];
}

/** What of the map shows, and which demo entities are drawn inside it. */
function visible(page: Page): Promise<Visible> {
  return page.evaluate((ids) => {
    const w = window.innerWidth,
      h = window.innerHeight;
    const map = document.getElementById('map')!.getBoundingClientRect();
    const panel = document.getElementById('panel')!.getBoundingClientRect();
    const overlap =
      Math.max(0, Math.min(map.right, panel.right) - Math.max(map.left, panel.left)) *
      Math.max(0, Math.min(map.bottom, panel.bottom) - Math.max(map.top, panel.top));
    const mapArea =
      Math.max(0, Math.min(map.right, w) - Math.max(map.left, 0)) *
      Math.max(0, Math.min(map.bottom, h) - Math.max(map.top, 0));
    const shown = ids.filter((id) => {
      const p = window.__reckon.screenPoint(id);
      if (p === null) return false;
      const [x, y] = p;
      const inMap =
        x >= map.left && x <= map.right && y >= map.top && y <= map.bottom && x >= 0 && x <= w && y >= 0 && y <= h;
      const underPanel = x >= panel.left && x <= panel.right && y >= panel.top && y <= panel.bottom;
      return inMap && !underPanel;
    });
    return { mapShare: (mapArea - overlap) / (w * h), shown };
  }, DEMO_IDS);
}

describe.skipIf(chromiumBinary.path === undefined)('view page layout in Chromium', () => {
  let demo: Running;
  let url = '';
  let browser: Browser;
  let page: Page;
  let problems: string[] = [];

  beforeAll(async () => {
    demo = reckon(['demo', '--duration', '120', '--json', '--http', '127.0.0.1:0']);
    url = (await demo.waitFor(/live map at (http:\/\/127\.0\.0\.1:\d+\/)/))[1]!;
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    if (demo) {
      demo.child.kill('SIGINT');
      await within(demo.exited, 10_000, 'the demo to stop').catch(() => demo.child.kill('SIGKILL'));
    }
  });

  it('on a phone (390×844) gives the map the screen, the panel a sheet, and frames every demo entity', async () => {
    page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    problems = consoleProblems(page);
    await page.goto(url);
    await page.waitForFunction((n) => window.__reckon?.entities().length === n, DEMO_IDS.length, { timeout: 45_000 });
    expect(await page.evaluate(() => document.body.classList.contains('panel-collapsed'))).toBe(true);
    // The first view frames the entities inside what the collapsed sheet leaves free.
    await expect.poll(() => visible(page).then((v) => v.shown), { timeout: 10_000 }).toEqual(DEMO_IDS);
    expect((await visible(page)).mapShare).toBeGreaterThanOrEqual(0.6);
    await page.screenshot({ path: artifactPath('view-phone.png') });
    // Opened, the sheet still leaves the map at least 60 % of the screen; closed again, the map has it all back.
    await page.click('#panel-toggle');
    await page.waitForFunction(() => !document.body.classList.contains('panel-collapsed'));
    expect((await visible(page)).mapShare).toBeGreaterThanOrEqual(0.6);
    expect(await page.isVisible('#list')).toBe(true);
    await page.click('#panel-toggle');
    await page.waitForFunction(() => document.body.classList.contains('panel-collapsed'));
    expect(problems).toEqual([]);
  }, 120_000);

  it('on a tablet held upright (768×1024) also gives the map the screen and shows every demo entity', async () => {
    await page.setViewportSize({ width: 768, height: 1024 });
    await page.waitForFunction(() => document.body.classList.contains('panel-collapsed'));
    await expect.poll(() => visible(page).then((v) => v.shown)).toEqual(DEMO_IDS);
    expect((await visible(page)).mapShare).toBeGreaterThanOrEqual(0.6);
    await page.click('#panel-toggle');
    await page.waitForFunction(() => !document.body.classList.contains('panel-collapsed'));
    expect((await visible(page)).mapShare).toBeGreaterThanOrEqual(0.6);
    expect(problems).toEqual([]);
  });

  it('on a desktop (1280×800) puts the panel beside the map, and can fold it away', async () => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.waitForFunction(() => !document.body.classList.contains('panel-collapsed'));
    await expect.poll(() => visible(page).then((v) => v.shown)).toEqual(DEMO_IDS);
    expect((await visible(page)).mapShare).toBeGreaterThanOrEqual(0.7);
    await page.screenshot({ path: artifactPath('view-desktop.png') });
    await page.click('#panel-toggle');
    await page.waitForFunction(() => document.body.classList.contains('panel-collapsed'));
    await expect.poll(() => visible(page).then((v) => v.mapShare)).toBeGreaterThan(0.95);
    expect(problems).toEqual([]);
  });
});
