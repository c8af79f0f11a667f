// What the page draws, read back through deck.gl's picking (which runs on the layer attributes deck.gl holds, not on
// the page's own arrays): a symbol is where its entity is now, frame after frame, even though the symbol layer only
// updates its moving attributes (docs/view.md, "Design"). Also: the page's table is sized from the hello's
// `maxEntities`. Headless Chromium against the stand-in gateway (test/view/support/page-server.ts).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { chromiumBinary, launchChromium } from '../../scripts/support/chromium.js';
import { consoleProblems, nextFrames } from './support/browser.js';
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

/** A desktop-wide window (the side panel beside the map), low so that drawing on the CPU costs little. */
const VIEWPORT = { width: 920, height: 520 };

// One browser and one page for the file, on one stand-in gateway: loading the page and compiling its shaders on the
// CPU renderer costs more than most tests here, so each test starts the page over with a new hello instead
// (`PageServer.restart`). The first test needs the page as loaded (it frames what arrives by itself); the last one
// opens a link afresh.
let browser: Browser;
let server: PageServer;
let page: Page;
let problems: string[] = [];
beforeAll(async () => {
  if (chromiumBinary.path === undefined) return;
  if (!pageBuilt) throw new Error(`${PAGE_DIR} is missing: run \`npm run build\` first`);
  browser = await launchChromium();
  server = await PageServer.start();
  page = await browser.newPage({ viewport: VIEWPORT });
  problems = consoleProblems(page);
  await page.goto(server.url);
  await page.waitForFunction(() => window.__reckon?.connected === true, null, { timeout: 20_000 });
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe.skipIf(chromiumBinary.path === undefined)('view page drawing in Chromium', () => {
  // The page must not have warned or failed in its console during any test.
  afterEach(() => {
    expect(problems).toEqual([]);
  });

  /** The page started over by a gateway restarted with `config`: no entities, its hello counted. */
  async function restart(config = DEFAULT_CONFIG): Promise<void> {
    const hellos = await page.evaluate(() => window.__reckon.hellos);
    server.restart(config);
    await page.waitForFunction((n) => window.__reckon.hellos === n + 1, hellos, { timeout: 20_000 });
    expect(await page.evaluate(() => window.__reckon.entities())).toEqual([]);
  }

  const unit = (entity: number, lat: number, lon: number, force = 1): TestEntity => ({
    ...RUNNER,
    site: 4,
    entity,
    marking: `U${entity}`,
    force,
    lat,
    lon,
    eastMps: 0,
  });

  /** Ids of the entities drawn inside the map's visible part, and the zoom. */
  const onMap = (page: Page) =>
    page.evaluate(() => {
      const map = document.getElementById('map')!.getBoundingClientRect();
      const panel = document.getElementById('panel')!.getBoundingClientRect();
      return window.__reckon
        .entities()
        .filter((e) => {
          const p = window.__reckon.screenPoint(e.id);
          if (p === null) return false;
          const inMap = p[0] >= map.left && p[0] <= map.right && p[1] >= map.top && p[1] <= map.bottom;
          return inMap && !(p[0] >= panel.left && p[0] <= panel.right && p[1] >= panel.top && p[1] <= panel.bottom);
        })
        .map((e) => e.id)
        .sort();
    });

  it('frames what arrives (Afghanistan), follows more as they come, and fits again on the button after a drag', async () => {
    // The page as loaded: no view in its URL, nothing moved by the user.
    expect(await page.evaluate(() => window.__reckon.fits)).toBe(0);
    const kabul = [unit(1, 34.53, 69.17), unit(2, 34.55, 69.2)];
    server.publish(kabul, Date.now(), Date.now());
    await page.waitForFunction(() => window.__reckon.fits >= 1, null, { timeout: 20_000 });
    expect(await onMap(page)).toEqual(['4:1:1', '4:1:2']);
    // Kandahar joins: the view widens to hold it too.
    server.publish([unit(3, 31.61, 65.71)], Date.now(), Date.now());
    await expect.poll(() => onMap(page), { timeout: 10_000 }).toEqual(['4:1:1', '4:1:2', '4:1:3']);
    expect((await page.evaluate(() => location.hash)).startsWith('#map=')).toBe(true);
    // The user drags the map away: no more following, until the fit button.
    await page.mouse.move(400, 300);
    await page.mouse.down();
    await page.mouse.move(100, 300, { steps: 5 });
    await page.mouse.move(-200, 300, { steps: 5 });
    await page.mouse.up();
    const fits = await page.evaluate(() => window.__reckon.fits);
    server.publish([unit(4, 36.7, 67.1)], Date.now(), Date.now());
    await page.waitForFunction(() => window.__reckon.entities().length === 4, null, { timeout: 20_000 });
    expect(await page.evaluate(() => window.__reckon.fits)).toBe(fits);
    await page.click('#fit-entities');
    await expect.poll(() => onMap(page)).toEqual(['4:1:1', '4:1:2', '4:1:3', '4:1:4']);
  }, 120_000);

  it('draws a moving symbol where its entity is now: a click there selects it, a click where it was does not', async () => {
    await restart();
    const t0Ms = Date.now();
    const timer = setInterval(() => server.publish([RUNNER], t0Ms, Date.now()), 200);
    try {
      const id = '9:1:1';
      await page.waitForFunction((i) => window.__reckon.screenPoint(i) !== null, id, { timeout: 20_000 });
      // Once the page's estimate of the server clock has settled (the server is this machine, so its clock is
      // the page's Date.now()), the runner is framed again and moves on at its true speed.
      await page.waitForFunction(() => Math.abs(window.__reckon.frameServerMs - Date.now()) < 200, null, {
        timeout: 20_000,
      });
      const fits = await page.evaluate(() => window.__reckon.fits);
      await page.click('#fit-entities');
      await page.waitForFunction((n) => window.__reckon.fits >= n + 1, fits, { timeout: 20_000 });
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
      // deck.gl picks on the click itself: two frames later a selection would show.
      await nextFrames(page);
      expect(await page.evaluate(() => window.__reckon.selected())).toBeNull();
      // Where it is drawn now: the frames held, so that the click lands on the picture screenPoint read (a moving
      // entity moves on while a click travels, under load by more than its symbol's width).
      await page.evaluate(() => window.__reckon.hold(true));
      const now = (await page.evaluate((i) => window.__reckon.screenPoint(i), id))!;
      await page.mouse.click(now[0], now[1]);
      await nextFrames(page);
      expect(await page.evaluate(() => window.__reckon.selected())).toBe('9:1:1');
    } finally {
      clearInterval(timer);
      await page.evaluate(() => window.__reckon.hold(false));
    }
  }, 120_000);

  it("sizes its table from the hello's maxEntities, up to its own cap", async () => {
    const { maxEntities: _default, ...withoutMax } = DEFAULT_CONFIG;
    // Each hello (a gateway restarted with other settings) sizes the table again.
    const capacityFor = async (maxEntities?: number) => {
      await restart(maxEntities === undefined ? withoutMax : { ...withoutMax, maxEntities });
      return page.evaluate(() => window.__reckon.capacity);
    };
    expect(await capacityFor(50_000)).toBe(50_000);
    // A gateway that does not say: the default.
    expect(await capacityFor()).toBe(10_000);
    expect(await capacityFor(2_500)).toBe(2_500);
    // 1 000 000 is the most `receiver.maxEntities` allows, and what the page holds at most (view.frame.1m).
    expect(await capacityFor(1_000_000)).toBe(1_000_000);
  });

  it('labels entities without overlaps, and always the selected one', async () => {
    await restart();
    // Eight entities within 10 m of each other, and two well apart: at the zoom that frames them all, the eight
    // labels would lie on top of each other.
    const cluster: TestEntity[] = Array.from({ length: 10 }, (_, k) => ({
      ...RUNNER,
      entity: 20 + k,
      marking: `UNIT ${k}`,
      lat: k < 8 ? 36.5 + 1e-5 * k : 36.52,
      lon: k < 8 ? -6.3 : -6.3 + 0.02 * (k - 8) - 0.01,
      eastMps: 0,
    }));
    server.publish(cluster, Date.now(), Date.now());
    await page.waitForFunction(() => window.__reckon.entities().filter((e) => e.marking !== '').length === 10, null, {
      timeout: 20_000,
    });
    // Framed (the page follows what arrives unless the user moved the map; an earlier test may have).
    await page.click('#fit-entities');
    expect(await onMap(page)).toHaveLength(10);
    const overlaps = (labels: Array<{ box: number[] }>) =>
      labels.some((a, i) =>
        labels.some(
          (b, j) =>
            j > i && a.box[0]! < b.box[2]! && a.box[2]! > b.box[0]! && a.box[1]! < b.box[3]! && a.box[3]! > b.box[1]!,
        ),
      );
    await page.waitForFunction(() => window.__reckon.labels().length >= 3, null, { timeout: 20_000 });
    const labels = await page.evaluate(() => window.__reckon.labels());
    expect(overlaps(labels)).toBe(false);
    // Both lone entities and one of the cluster.
    expect(labels.map((l) => l.text).sort()).toEqual(expect.arrayContaining(['UNIT 8', 'UNIT 9']));
    expect(labels).toHaveLength(3);
    const hidden = ['9:1:20', '9:1:21', '9:1:22'].find((id) => !labels.some((l) => l.id === id))!;
    await page.evaluate((id) => window.__reckon.select(id), hidden);
    await page.waitForFunction((id) => window.__reckon.labels().some((l) => l.id === id), hidden, { timeout: 20_000 });
    expect(overlaps(await page.evaluate(() => window.__reckon.labels()))).toBe(false);
  }, 120_000);

  // Last: it leaves the page opened from a link (a view of its own, a force unticked).
  it('frames entities on both sides of the antimeridian (Fiji), keeps the view, selection and filter in its URL, and a link opens them again', async () => {
    await restart();
    // Following what arrives again, as a page just opened does.
    await page.click('#fit-entities');
    const fiji = [unit(11, -17.8, 178.4), unit(12, -16.8, 179.9), unit(13, -16.5, -179.9), unit(14, -17, 179.5, 2)];
    server.publish(fiji, Date.now(), Date.now());
    await expect.poll(() => onMap(page), { timeout: 20_000 }).toEqual(['4:1:11', '4:1:12', '4:1:13', '4:1:14']);
    expect(await page.evaluate(() => Number(/map=([\d.]+)/.exec(location.hash)?.[1]))).toBeGreaterThan(5);
    await page.evaluate(() => window.__reckon.select('4:1:12'));
    await page.uncheck('#f-forces input[value="2"]');
    await page.waitForFunction(() => location.hash.includes('select=4:1:12') && location.hash.includes('forces=1,3,0'));
    const link = await page.evaluate(() => location.href);
    const view = /map=([^&]+)/.exec(link)![1];
    // The link, opened afresh: the view stands (no fitting over it), the filter is ticked and sent, the entity selected.
    await page.goto('about:blank');
    await page.goto(link);
    await page.waitForFunction(() => window.__reckon?.selected() === '4:1:12', null, { timeout: 20_000 });
    const ticked = await page.$$eval('#f-forces input', (inputs) =>
      inputs
        .filter((input) => (input as unknown as { checked: boolean }).checked)
        .map((input) => input.getAttribute('value')),
    );
    expect(ticked).toEqual(['1', '3', '0']);
    expect(await page.evaluate(() => window.__reckon.entities().some((e) => e.force === 2))).toBe(false);
    expect(await page.evaluate(() => window.__reckon.fits)).toBe(0);
    expect(await page.evaluate(() => /map=([^&]+)/.exec(location.hash)![1])).toBe(view);
  }, 120_000);
});
