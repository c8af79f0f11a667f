// The `reckon view` page in a real browser (headless Chromium), fed by a stand-in gateway that sends exactly what
// each test says (test/view/support/page-server.ts). What the page shows is read through its test hook
// (`window.__reckon`, docs/view.md), not from pixels; a screenshot is written as an artifact.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { geodeticDegreesToEcef } from '../../src/math/geodesy.js';
import { chromiumBinary, defaultRenderer, launchChromium } from '../../scripts/support/chromium.js';
import { artifactPath, consoleProblems, nextFrames } from './support/browser.js';
import { PAGE_DIR, PageServer, positionAfter, type TestEntity } from './support/page-server.js';

const HOSTILE_MARKING = '<img src=x>';

function fleet(): TestEntity[] {
  const specs: Array<[string, number, number, number]> = [
    ['ALPHA 1', 1, 1, 1],
    ['ALPHA 2', 1, 1, 2],
    [HOSTILE_MARKING, 2, 1, 1],
    ['BRAVO 2', 2, 1, 2],
    ['CHARLIE 1', 3, 1, 3],
    ['DELTA 1', 2, 1, 4],
  ];
  return specs.map(([marking, force, kind, domain], i) => ({
    site: 7,
    application: 3,
    entity: i + 1,
    marking,
    force,
    kind,
    domain,
    lat: 36.5 + 0.02 * i,
    lon: -6.3 + 0.03 * (i % 3),
    altM: domain === 2 ? 2000 : 0,
    eastMps: 15 * Math.cos(i),
    northMps: 15 * Math.sin(i),
  }));
}

type HookEntity = { id: string; marking: string; lat: number; lon: number; altM: number; force: number };

/** Straight-line distance between two geodetic points, metres. */
function distanceMeters(
  a: { lat: number; lon: number; altM: number },
  b: { lat: number; lon: number; altM: number },
): number {
  const p = geodeticDegreesToEcef(new Float64Array(3), a.lat, a.lon, a.altM);
  const q = geodeticDegreesToEcef(new Float64Array(3), b.lat, b.lon, b.altM);
  return Math.hypot(p[0]! - q[0]!, p[1]! - q[1]!, p[2]! - q[2]!);
}

const pageBuilt = existsSync(join(PAGE_DIR, 'app.js'));

describe.skipIf(chromiumBinary.path === undefined)('view page in Chromium', () => {
  let browser: Browser;
  let server: PageServer;
  let page: Page;
  const entities = fleet();
  let t0Ms = 0;
  let pageErrors: string[] = [];

  /** Publishes the fleet (once per call), as a sender would. */
  const publish = () => server.publish(entities, t0Ms, Date.now());

  /** Publishes every 200 ms until `condition` holds in the page, for at most `timeoutMs`. */
  // A function, not a string: the page's Content-Security-Policy forbids evaluating strings.
  async function publishUntil<A>(condition: (arg: A) => boolean, arg: A, timeoutMs = 45_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    publish();
    const waiting = page.waitForFunction(condition as (arg: unknown) => boolean, arg, {
      timeout: timeoutMs,
      polling: 100,
    });
    let done = false;
    void waiting.then(
      () => (done = true),
      () => (done = true),
    );
    while (!done && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 200));
      publish();
    }
    await waiting;
  }

  beforeAll(async () => {
    if (!pageBuilt) throw new Error(`${PAGE_DIR} is missing: run \`npm run build\` first`);
    browser = await launchChromium();
    server = await PageServer.start();
    page = await browser.newPage({ viewport: { width: 920, height: 520 } });
    // Console warnings and errors as well as uncaught exceptions: the page must have none.
    pageErrors = consoleProblems(page);
    await page.goto(server.url);
    await page.waitForFunction(() => window.__reckon?.connected === true, null, { timeout: 20_000 });
    t0Ms = Date.now();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('shows every entity with its marking, within the position threshold of where it truly is', async () => {
    await publishUntil(() => window.__reckon.entities().filter((e) => e.marking !== '').length === 6, null);
    // Then silence: a frame 1.5 s after the last PDU shows where dead reckoning has carried them (~22 m on).
    const lastPduMs = Date.now();
    await page.waitForFunction((t) => window.__reckon.frameServerMs >= t, lastPduMs + 1500, { timeout: 20_000 });
    // One frame's positions and the server time they are for, against the true course at that time.
    const { shown, frameServerMs } = await page.evaluate(() => ({
      shown: window.__reckon.entities(),
      frameServerMs: window.__reckon.frameServerMs,
    }));
    expect(shown.map((e) => e.marking).sort()).toEqual(entities.map((e) => e.marking).sort());
    for (const e of entities) {
      const s = shown.find((x: HookEntity) => x.id === `7:3:${e.entity}`)!;
      expect(s.force).toBe(e.force);
      const truth = { ...positionAfter(e, (frameServerMs - t0Ms) / 1000), altM: e.altM };
      // The server's position threshold (1 m, from hello): dead reckoning between PDUs keeps within it.
      expect(distanceMeters(s, truth)).toBeLessThan(1);
    }
    expect(pageErrors).toEqual([]);
  });

  it(`draws its map through ${defaultRenderer}, the renderer scripts/support/chromium.ts chose`, async () => {
    const renderer = await page.evaluate(() => {
      const gl = document.createElement('canvas').getContext('webgl2');
      const info = gl?.getExtension('WEBGL_debug_renderer_info');
      return gl && info ? String(gl.getParameter(info.UNMASKED_RENDERER_WEBGL)) : 'no WebGL2';
    });
    expect(renderer.toLowerCase()).toContain(defaultRenderer);
  });

  it('inserts markings as text, never as HTML', async () => {
    await page.evaluate(() => window.__reckon.select('7:3:3'));
    await page.waitForFunction(() => document.querySelector('#d-title')?.textContent === '<img src=x>');
    const dom = await page.evaluate(() => ({
      images: document.querySelectorAll('#panel img').length,
      listText: document.getElementById('list')!.textContent,
      details: window.__reckon.selectedDetails(),
    }));
    expect(dom.images).toBe(0);
    expect(dom.listText).toContain(HOSTILE_MARKING);
    expect(dom.details['marking']).toBe(HOSTILE_MARKING);
    expect(dom.details['id']).toBe('7:3:3');
    expect(dom.details['DR algorithm']).toMatch(/^2 /);
    await page.screenshot({ path: artifactPath('view-page.png') });
  });

  it('filters the feed: a force unticked in the panel is asked of the server, and its entities leave', async () => {
    const sent = server.received.length;
    await page.uncheck('#f-forces input[value="1"]');
    await server.until(() => server.received.slice(sent).some((m) => m['type'] === 'filter'), 'a filter message');
    const filter = server.received.slice(sent).find((m) => m['type'] === 'filter')!;
    expect(filter['forces']).toEqual([2, 3, 0]);
    await publishUntil(
      () => window.__reckon.entities().length === 4 && window.__reckon.entities().every((e) => e.force !== 1),
      null,
    );
    // Through the hook as well: only the opposing force.
    await page.evaluate(() => window.__reckon.setFilter({ forces: [2] }));
    await publishUntil(
      () => window.__reckon.entities().length === 3 && window.__reckon.entities().every((e) => e.force === 2),
      null,
    );
    await page.evaluate(() => window.__reckon.setFilter({}));
    await page.check('#f-forces input[value="1"]');
    await publishUntil(() => window.__reckon.entities().length === 6, null);
  });

  it('draws its layers again when they are toggled off and on', async () => {
    await publishUntil(() => window.__reckon.entities().length === 6, null);
    for (const id of ['#t-trails', '#t-markers', '#t-labels', '#t-ghosts']) {
      const on = await page.isChecked(id);
      await page.setChecked(id, !on);
      await nextFrames(page);
      await page.setChecked(id, on);
      await nextFrames(page);
    }
    publish();
    await nextFrames(page);
    expect(pageErrors).toEqual([]);
  });

  it('survives malformed messages and keeps applying the feed', async () => {
    const before = await page.evaluate(() => ({
      bad: window.__reckon.badMessages,
      rejected: window.__reckon.rejectedPdus,
    }));
    server.broadcast('this is not JSON');
    server.broadcast('{"type":42}');
    server.broadcast('{"type":"hello","serverTimeMs":"soon"}');
    server.broadcast('{"type":"counters"}');
    server.broadcast('{"type":"truth","serverTimeMs":1,"entities":"none"}');
    server.broadcast('{"type":"from-the-future","x":1}');
    // Binary: too short for a record header, a record longer than the message, and a record that is no PDU.
    server.broadcastBinary(new Uint8Array([1, 2, 3]));
    const cut = new Uint8Array(20);
    new DataView(cut.buffer).setFloat64(0, Date.now());
    new DataView(cut.buffer).setUint16(8, 500);
    server.broadcastBinary(cut);
    const junk = new Uint8Array(10 + 144).fill(0xff);
    new DataView(junk.buffer).setFloat64(0, Date.now());
    new DataView(junk.buffer).setUint16(8, 144);
    server.broadcastBinary(junk);
    const newcomer: TestEntity = { ...entities[0]!, entity: 99, marking: 'LATE 1' };
    entities.push(newcomer);
    await publishUntil(() => window.__reckon.entities().some((e) => e.marking === 'LATE 1'), null);
    const after = await page.evaluate(() => ({
      bad: window.__reckon.badMessages,
      rejected: window.__reckon.rejectedPdus,
      connected: window.__reckon.connected,
      n: window.__reckon.entities().length,
    }));
    expect(after.connected).toBe(true);
    expect(after.n).toBe(7);
    // Not JSON, a non-string type, a hello and a counters without their fields, a truth without a time.
    expect(after.bad - before.bad).toBe(5);
    expect(after.rejected - before.rejected).toBe(3);
    expect(pageErrors).toEqual([]);
  });

  it('reconnects by itself after a server restart and shows the entities again', async () => {
    const port = server.port;
    const hellos = await page.evaluate(() => window.__reckon.hellos);
    const before = pageErrors.length;
    await server.close();
    await page.waitForFunction(() => window.__reckon.connected === false, null, { timeout: 20_000 });
    server = await PageServer.start(port);
    await page.waitForFunction((n) => window.__reckon.connected && window.__reckon.hellos === n + 1, hellos, {
      timeout: 20_000,
    });
    // A restarted server knows nothing yet: the page starts over and fills again as PDUs come.
    await publishUntil((n) => window.__reckon.entities().length === n, entities.length);
    // While the server is away the browser itself reports each refused attempt; nothing else may show.
    const refused = /^error: WebSocket connection to 'ws:\/\/127\.0\.0\.1:\d+\/feed' failed: .*ERR_CONNECTION_REFUSED$/;
    expect(pageErrors.slice(0, before)).toEqual([]);
    expect(pageErrors.slice(before).filter((problem) => !refused.test(problem))).toEqual([]);
  });
});
