// The map page names what it shows from SISO-REF-010 (headless Chromium, a stand-in gateway as in page.test.ts):
// the names are not in the first download and arrive after the first frame; then the entity list and its search
// use the type's name, and the details show the type path, the country, the appearance fields set and the
// articulated parts live (a turret turning).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page, Route } from 'playwright-core';
import { chromiumBinary, launchChromium } from '../../scripts/support/chromium.js';
import { artifactPath, consoleProblems } from './support/browser.js';
import { PAGE_DIR, PageServer, type TestEntity } from './support/page-server.js';

const TURRET_AZIMUTH = 4096 + 11; // Primary Turret Number 1 · Azimuth
const GUN_ELEVATION = 4416 + 13; // Primary Gun Number 1 · Elevation

function fleet(turretRad: number): TestEntity[] {
  const base = { site: 9, application: 4, altM: 0, eastMps: 5, northMps: 0 };
  return [
    {
      ...base,
      entity: 1,
      marking: 'ABRAMS',
      force: 1,
      kind: 1,
      domain: 1,
      lat: 36.5,
      lon: -6.3,
      type: [1, 1, 225, 1, 1, 3, 0],
      appearance: 0x00008038, // destroyed, smoke, flames
      parts: [
        { type: TURRET_AZIMUTH, value: turretRad },
        { type: GUN_ELEVATION, value: 0.1 },
      ],
    },
    {
      ...base,
      entity: 2,
      marking: 'HIND',
      force: 2,
      kind: 1,
      domain: 2,
      lat: 36.52,
      lon: -6.28,
      altM: 500,
      type: [1, 2, 222, 20, 2, 0, 0],
    },
    {
      ...base,
      entity: 3,
      marking: 'BURKE',
      force: 1,
      kind: 1,
      domain: 3,
      lat: 36.48,
      lon: -6.32,
      type: [1, 3, 225, 4, 1, 1, 0],
    },
  ];
}

const pageBuilt = existsSync(join(PAGE_DIR, 'app.js'));

describe.skipIf(chromiumBinary.path === undefined)('view page: SISO names', { timeout: 120_000 }, () => {
  let browser: Browser;
  let server: PageServer;
  let page: Page;
  let t0Ms = 0;
  let heldNames: Route | undefined;
  let pageErrors: string[] = [];
  const publish = (turretRad = Math.PI / 4) => server.publish(fleet(turretRad), t0Ms, Date.now());

  async function publishUntil<A>(condition: (arg: A) => boolean, arg: A, turretRad?: number): Promise<void> {
    const deadline = Date.now() + 30_000;
    for (;;) {
      publish(turretRad);
      if (await page.evaluate(condition as (arg: unknown) => boolean, arg)) return;
      if (Date.now() > deadline) {
        const state = await page.evaluate(() => ({
          n: window.__reckon.entities().length,
          rejected: window.__reckon.rejectedPdus,
          errors: window.__reckon.errors,
        }));
        throw new Error(`condition not met in 30 s: ${condition} ${JSON.stringify(state)} ${pageErrors.join('; ')}`);
      }
      await new Promise((r) => setTimeout(r, 250));
    }
  }

  beforeAll(async () => {
    if (!pageBuilt) throw new Error(`${PAGE_DIR} is missing: run \`npm run build\` first`);
    browser = await launchChromium();
    server = await PageServer.start();
    page = await browser.newPage({ viewport: { width: 1200, height: 760 } });
    pageErrors = consoleProblems(page);
    // The names' chunk is held until the test lets it go.
    await page.route('**/chunks/names.js', (route) => {
      heldNames = route;
    });
    await page.goto(server.url);
    await page.waitForFunction(() => window.__reckon?.connected === true, null, { timeout: 20_000 });
    t0Ms = Date.now();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('keeps the names out of app.js; they are a small chunk of their own with the attribution', () => {
    const app = readFileSync(join(PAGE_DIR, 'app.js'), 'utf8');
    const names = readFileSync(join(PAGE_DIR, 'chunks/names.js'), 'utf8');
    expect(app).not.toContain('Arleigh Burke');
    expect(app).toContain('chunks/names.js');
    expect(names).toContain('Arleigh Burke');
    expect(names).toContain('Reprinted with permission from SISO Inc.');
    // With the library's copy (test/names/generated.test.ts) the package holds them within 1 MB gzipped.
    expect(gzipSync(names, { level: 9 }).length).toBeLessThan(450_000);
    expect(readFileSync(join(PAGE_DIR, 'assets/NOTICE.txt'), 'utf8')).toContain(
      'Reprinted with permission from SISO Inc.',
    );
  });

  it('draws the first frame without the names, and asks for them only after it', async () => {
    // Connected, frames running, nothing to draw: the names are not asked for.
    await page.waitForFunction(() => window.__reckon.frameServerMs > 0, null, { timeout: 20_000 });
    expect(heldNames).toBeUndefined();
    await publishUntil(() => window.__reckon.entities().length === 3, null);
    await publishUntil(() => document.querySelectorAll('#list li').length === 3, null);
    // The page works without them: the list shows markings, the details the numbers.
    const before = await page.evaluate(() => ({
      loaded: window.__reckon.namesLoaded(),
      rows: window.__reckon.listRows(),
    }));
    expect(before.loaded).toBe(false);
    expect(before.rows.some((r) => r.includes('ABRAMS'))).toBe(true);
    await page.evaluate(() => window.__reckon.select('9:4:1'));
    await publishUntil(() => window.__reckon.selectedDetails()['type'] !== undefined, null);
    expect((await page.evaluate(() => window.__reckon.selectedDetails()))['type']).toBe(
      '1:1:225:1:1:3:0 (platform, land)',
    );
    // Asked for once a frame drew entities (and held since: the page got on without them).
    await expect.poll(() => heldNames).toBeDefined();
    await heldNames!.continue();
    await page.waitForFunction(() => window.__reckon.namesLoaded(), null, { timeout: 20_000 });
  });

  it('names each entity in the list, and searches by type', async () => {
    await publishUntil(() => window.__reckon.listRows().some((r) => r.includes('M1A2 · Tank · USA')), null);
    const rows = await page.evaluate(() => window.__reckon.listRows());
    expect(rows.find((r) => r.includes('ABRAMS'))).toContain('M1A2 · Tank · USA');
    expect(rows.find((r) => r.includes('HIND'))).toContain('Mi-24/25/35 Hind · Attack helicopter · RUS');
    expect(rows.find((r) => r.includes('BURKE'))).toContain('DDG 51 Arleigh Burke · Guided Missile Destroyer · USA');
    await page.evaluate(() => window.__reckon.search('helicopter'));
    await page.waitForFunction(() => window.__reckon.listRows().length === 1);
    expect((await page.evaluate(() => window.__reckon.listRows()))[0]).toContain('HIND');
    // The path's levels match too: "surface" is the destroyer's domain.
    await page.evaluate(() => window.__reckon.search('surface'));
    await page.waitForFunction(() => window.__reckon.listRows().length === 1);
    expect((await page.evaluate(() => window.__reckon.listRows()))[0]).toContain('BURKE');
    await page.evaluate(() => window.__reckon.search(''));
    await page.waitForFunction(() => window.__reckon.listRows().length === 3);
  });

  it("draws each entity's symbol from its category (the table of docs/cot.md)", async () => {
    const symbols = Object.fromEntries(
      (await page.evaluate(() => window.__reckon.entities())).map((e) => [e.marking, e.symbol]),
    );
    expect(symbols).toEqual({
      ABRAMS: 'SFGPEVAT-------', // tank
      HIND: 'SHAPMHA--------', // attack helicopter
      BURKE: 'SFSPCLDD-------', // destroyer
    });
  });

  it('details the selected entity: type path, country, appearance, and its turret turning live', async () => {
    await page.evaluate(() => window.__reckon.select('9:4:1'));
    await publishUntil(
      () => window.__reckon.selectedDetails()['Primary Turret Number 1 · Azimuth'] === '45.0°',
      null,
      Math.PI / 4,
    );
    const details = await page.evaluate(() => window.__reckon.selectedDetails());
    expect(details).toMatchObject({
      type: 'M1A2 · Tank · USA',
      'type path': 'Platform / Land / United States of America (USA) / Tank / M1 Abrams / M1A2',
      'entity type': '1:1:225:1:1:3:0',
      country: 'United States of America (USA)',
      force: '1 (Friendly)',
      appearance: 'destroyed, smoke emanating, flaming',
      'Primary Gun Number 1 · Elevation': '5.7°',
    });
    await page.screenshot({ path: artifactPath('view-page-names.png') });
    // The turret turns: the next PDUs say 90°, and the panel follows.
    await publishUntil(
      () => window.__reckon.selectedDetails()['Primary Turret Number 1 · Azimuth'] === '90.0°',
      null,
      Math.PI / 2,
    );
    expect(pageErrors).toEqual([]);
  });

  it('on a phone, the sheet with the details covers the symbols under it', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.click('#panel-toggle'); // narrow screens start with the sheet folded
    await page.evaluate(() => document.getElementById('details')!.scrollIntoView());
    // The tank ~280 px below the map's centre, under the sheet (its top at 60 % of the height).
    await publishUntil(() => window.__reckon.entities().some((e) => e.marking === 'ABRAMS'), null);
    const tank = (await page.evaluate(() => window.__reckon.entities())).find((e) => e.marking === 'ABRAMS')!;
    await page.evaluate(([lon, lat]) => window.__reckon.viewAt(lon!, lat!, 12), [tank.lon, tank.lat + 0.039]);
    await publishUntil((id) => window.__reckon.screenPoint(id) !== null, '9:4:1');
    const point = (await page.evaluate(() => window.__reckon.screenPoint('9:4:1')))!;
    const sheetTop = await page.evaluate(() => document.getElementById('panel')!.getBoundingClientRect().top);
    expect(point[1]).toBeGreaterThan(sheetTop + 20);
    await page.screenshot({ path: artifactPath('view-page-names-phone.png') });
    // What a touch there reaches, were the map's layers (deck.gl's canvas lets touches through) to take it.
    const onTop = await page.evaluate(([x, y]) => {
      const layers = [...document.querySelectorAll('#map *')];
      const saved = layers.map((el) => el.style.pointerEvents);
      for (const el of layers) el.style.pointerEvents = 'auto';
      const hit = document.elementFromPoint(x!, y!);
      layers.forEach((el, i) => (el.style.pointerEvents = saved[i]!));
      return hit?.closest('#panel') ? 'panel' : `${hit?.tagName}.${hit?.className}`;
    }, point);
    expect(onTop).toBe('panel');
    expect(pageErrors).toEqual([]);
  });
});
