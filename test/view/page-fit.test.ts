// The map frames what arrives and follows it (src/view/page/map/framing.ts), draws shots over the PDU arrival dots
// (src/view/page/map/layer-stack.ts) and counts what arrives: a real gateway fed over UDP, its page in Chromium at a
// desktop's and a phone's size, with the VR-Forces Hind engagement of test/fixtures/dis (1.4 km from the Hind to
// the M1A2 it fires at).
import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { geodeticDegreesToEcef } from '../../src/math/geodesy.js';
import { encodeAnyPduInto } from '../../src/pdu/wire/any-pdu.js';
import { HeaderOffset, PduType } from '../../src/pdu/wire/constants.js';
import { decodeEntityState, encodeEntityState } from '../../src/pdu/json/entity-state-json.js';
import { FireRecord } from '../../src/pdu/wire/warfare.js';
import { udpFromFrame } from '../../src/pcap/packet.js';
import { readCapture } from '../../src/pcap/reader.js';
import { chromiumBinary, launchChromium } from '../../scripts/support/chromium.js';
import { artifactPath, consoleProblems, nextFrames } from './support/browser.js';
import { entityStatePdu, type TestEntity } from './support/page-server.js';
import { startGateway, type TestGateway } from './support.js';

const HIND = new URL('../fixtures/dis/dis5_kdis_vrforces_hind_vs_m1a2.pcap', import.meta.url);

/**
 * The DIS datagrams of a capture, in order, with every entity held where its PDU puts it (DR algorithm 1, Static:
 * IEEE 1278.1-2012 Annex E): the Hind flies at the tank at 30 m/s, so the framed picture would otherwise shrink with
 * every second a busy machine takes to look at it.
 */
function heldCaptureDatagrams(file: URL): Uint8Array[] {
  return readCapture(readFileSync(file)).frames.flatMap((frame) => {
    const udp = udpFromFrame(frame.linkType, frame.data);
    if (udp.kind !== 'udp') return [];
    if (udp.payload[HeaderOffset.PDU_TYPE] !== PduType.ENTITY_STATE) return [udp.payload.slice()];
    const pdu = decodeEntityState(udp.payload);
    return [encodeEntityState({ ...pdu, deadReckoning: { ...pdu.deadReckoning, algorithm: 1 } })];
  });
}

const ground = (entity: number, lat: number, lon: number, marking: string): TestEntity => ({
  site: 7,
  application: 7,
  entity,
  marking,
  force: 1,
  kind: 1,
  domain: 1,
  lat,
  lon,
  altM: 0,
  eastMps: 0,
  northMps: 0,
});

describe.skipIf(!chromiumBinary.path)('the map frames and follows what arrives', () => {
  let browser: Browser;
  let gateway: TestGateway;
  const problems: string[][] = [];

  beforeAll(async () => {
    browser = await launchChromium();
    gateway = await startGateway();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await gateway?.close();
    expect(problems.flat()).toEqual([]);
  });

  async function open(width: number, height: number, url = gateway.url): Promise<Page> {
    const page = await browser.newPage({ viewport: { width, height }, deviceScaleFactor: 1 });
    problems.push(consoleProblems(page));
    await page.goto(url);
    await page.waitForFunction(() => window.__reckon?.connected === true, null, { timeout: 30_000 });
    return page;
  }

  /**
   * Resolves once the page has drawn for a second of its own time without framing again, and then two more frames
   * (any eased framing has ended). Counted in the page's frames, not the test's clock: a page starved of frames by a
   * busy machine has not looked at its entities yet.
   */
  async function settled(page: Page): Promise<void> {
    await page.evaluate(
      () =>
        new Promise<void>((resolve) => {
          let fits = window.__reckon.fits;
          let since = performance.now();
          let late = 0;
          const step = (now: number): void => {
            if (window.__reckon.fits !== fits || fits === 0) {
              fits = window.__reckon.fits;
              since = now;
              late = 0;
            }
            // Framing looks again at most every 500 ms (src/view/page/map/framing.ts): frames past that have looked.
            else if (now - since > 600) late++;
            if (late >= 2 && now - since >= 1000) resolve();
            else requestAnimationFrame(step);
          };
          requestAnimationFrame(step);
        }),
    );
    await nextFrames(page);
  }

  it('fills the map with the Hind engagement on a desktop and on a phone, then follows what moves', async () => {
    const desktop = await open(940, 800);
    const phone = await open(390, 844);
    gateway.send(...heldCaptureDatagrams(HIND));
    for (const page of [desktop, phone]) {
      await page.waitForFunction(
        () => ['1:3001:15', '1:3001:18'].every((id) => window.__reckon.screenPoint(id) !== null),
        null,
        { timeout: 20_000 },
      );
      await settled(page);
      const [tank, hind] = await page.evaluate(() => [
        window.__reckon.screenPoint('1:3001:15')!,
        window.__reckon.screenPoint('1:3001:18')!,
      ]);
      const free = await page.evaluate(() => {
        const map = document.getElementById('map')!.getBoundingClientRect();
        const panel = document.getElementById('panel')!.getBoundingClientRect();
        // On a phone the panel is a sheet over the map's bottom; on a desktop it is beside the map.
        const bottom = panel.left < map.right - 1 && panel.top > map.top ? Math.min(map.bottom, panel.top) : map.bottom;
        const right = panel.left > map.left && panel.top <= map.top + 1 ? Math.min(map.right, panel.left) : map.right;
        return { left: map.left, top: map.top, right, bottom };
      });
      await page.screenshot({ path: artifactPath(`page-fit-${page.viewportSize()!.width}.png`) });
      // 1.4 km north to south: the free height less framing's margin (src/view/page/map/framing.ts), where the entities
      // settled, not where the first PDUs of the burst put them.
      const freeHeight = free.bottom - free.top;
      const margin = Math.min(60, (free.right - free.left) / 6, freeHeight / 6);
      expect(Math.abs(tank[1] - hind[1])).toBeGreaterThan(0.95 * (freeHeight - 2 * margin));
      for (const [x, y] of [tank, hind]) {
        expect(x).toBeGreaterThan(free.left);
        expect(x).toBeLessThan(free.right);
        expect(y).toBeGreaterThan(free.top);
        expect(y).toBeLessThan(free.bottom);
      }
    }
    await phone.close();

    // An aircraft that leaves the framed area at 250 m/s, a PDU a second: the view goes along.
    const start = ground(9, 36.009, -122.992, 'FAST');
    const fast = { ...start, kind: 1, domain: 2, altM: 1000, eastMps: 250 };
    const fitsBefore = await desktop.evaluate(() => window.__reckon.fits);
    const t0 = Date.now();
    const inView: boolean[] = [];
    const rates: number[] = [];
    for (let s = 0; s <= 9; s++) {
      const at = { lat: fast.lat, lon: fast.lon + (250 * s) / (111_320 * Math.cos((fast.lat * Math.PI) / 180)) };
      gateway.send(entityStatePdu(fast, t0 + 1000 * s, at));
      await desktop.waitForTimeout(Math.max(0, t0 + 1000 * (s + 1) - Date.now()));
      // In view within the follow interval and its ease (src/view/page/map/framing.ts), not at one sampled instant: a
      // page held off the CPU draws late, but a view that does not follow loses the aircraft for good.
      const seen = await desktop
        .waitForFunction(
          () => {
            const p = window.__reckon.screenPoint('7:7:9');
            const map = document.getElementById('map')!.getBoundingClientRect();
            return p !== null && p[0] > map.left && p[0] < map.right && p[1] > map.top && p[1] < map.bottom;
          },
          undefined,
          { timeout: 2000 },
        )
        .then(
          () => true,
          () => false,
        );
      inView.push(seen);
      // The panel's rate once the capture's burst is out of its window: about the one PDU a second that comes.
      if (s >= 7) rates.push(await desktop.evaluate(() => window.__reckon.counters!['pdusPerSecond']!));
    }
    await desktop.screenshot({ path: artifactPath('page-fit-followed.png') });
    expect(inView).toEqual(inView.map(() => true));
    expect(await desktop.evaluate(() => window.__reckon.fits)).toBeGreaterThan(fitsBefore + 1);
    for (const rate of rates) {
      expect(rate).toBeGreaterThanOrEqual(0.6);
      expect(rate).toBeLessThanOrEqual(1.4);
    }
    expect(await desktop.locator('#c-pdus').textContent()).toMatch(/^[01]\.\d$/);
    await desktop.close();
  }, 120_000);

  it('draws the arrival dots of an aircraft where its PDUs put it, and a shot across them over them', async () => {
    const own = await startGateway();
    try {
      const page = await open(940, 800, own.url);
      const lat = 36.2,
        lon = -122.5;
      const t0 = Date.now();
      const shooter = ground(1, lat, lon - 0.01, 'SHOOTER');
      const target = ground(2, lat, lon + 0.01, 'TARGET');
      own.send(entityStatePdu(shooter, t0), entityStatePdu(target, t0));
      // An aircraft 1 km up, its PDUs (position-threshold dots, orange) along a line north across the shot's path.
      const aircraft = { ...ground(3, lat - 0.006, lon, 'HIGH'), domain: 2, altM: 1000 };
      for (let k = -4; k <= 4; k++)
        own.send(entityStatePdu(aircraft, t0 + 100 * (k + 4), { lat: lat + 0.0015 * k, lon }));
      await page.waitForFunction(() => window.__reckon.entities().length === 3, null, { timeout: 20_000 });
      await settled(page);
      // The aircraft's trail runs through its dots (its PDUs' places) too: off, so that the colours read are the
      // dots' and the shot's alone.
      await page.uncheck('#t-trails');
      const fire = new FireRecord();
      fire.exerciseId = 1;
      Object.assign(fire.firingEntityId, { site: 7, application: 7, entity: 1 });
      Object.assign(fire.targetEntityId, { site: 7, application: 7, entity: 2 });
      Object.assign(fire.eventId, { site: 7, application: 7, eventNumber: 1 });
      fire.location.set(geodeticDegreesToEcef(new Float64Array(3), lat, lon - 0.01, 0));
      fire.descriptor.munitionType.set([2, 2, 225, 1, 1, 0, 0]);
      // Where a dot of the aircraft's PDUs is drawn, on the ground like its trail (not shifted by its height), and
      // where the shot will cross the dot its PDU left at the shot's latitude.
      const [dotPixel, crossingPixel] = await page.evaluate(
        ([lo, la]) => [window.__reckon.project(lo!, la! - 0.003), window.__reckon.project(lo!, la!)],
        [lon, lat],
      );
      const bytes = new Uint8Array(200);
      own.send(bytes.slice(0, encodeAnyPduInto(bytes, fire)));
      await page.waitForFunction(() => window.__reckon.engagements().shots === 1, null, { timeout: 10_000 });
      await nextFrames(page);
      // One picture at once: the shot fades over 8 s (src/view/page/engagements/engagements.ts), a busy machine takes seconds.
      const picture = PNG.sync.read(await page.screenshot());
      await page.screenshot({ path: artifactPath('page-fit-shot-over-dots.png') });
      const colourAt = ([x, y]: [number, number]) => {
        const i = 4 * (Math.round(y) * picture.width + Math.round(x));
        return { r: picture.data[i]!, g: picture.data[i + 1]!, b: picture.data[i + 2]! };
      };
      const dot = colourAt(dotPixel!);
      const crossing = colourAt(crossingPixel!);
      expect({ dot, orange: dot.r > 150 && dot.g > 90 && dot.g < 170 && dot.b < 90 }).toMatchObject({ orange: true });
      // The shot's yellow (255, 238, 70) over the orange dot raises its green; a dot drawn over the shot would not.
      expect({ crossing, dot, shotOver: crossing.g >= dot.g + 25 && crossing.r >= dot.r - 10 }).toMatchObject({
        shotOver: true,
      });
      const order = await page.evaluate(() => window.__reckon.layerOrder());
      expect(order.indexOf('shots')).toBeGreaterThan(order.indexOf('pdu-markers'));
      expect(order.indexOf('labels')).toBeGreaterThan(order.indexOf('trails'));
      await page.close();
    } finally {
      await own.close();
    }
  }, 90_000);
});
