// The page's model without a browser: src/view/page/entities.ts (decode → table → map arrays), the SIDC mapping
// and the metric grid, against the project's geodesy and the feed framing of src/view/protocol.ts.
import fc from 'fast-check';
import { ArrivalMarkers, MARKER_FADE_SECONDS, MARKER_HOLD_SECONDS } from '../../src/view/page/map/arrival-markers.js';
import { describe, expect, it } from 'vitest';
import { ecefToGeodetic, geodeticDegreesToEcef } from '../../src/math/geodesy.js';
import { FeedWriter } from '../../src/view/protocol.js';
import { PageEntities, MAX_PAGE_ENTITIES, pageCapacity } from '../../src/view/page/entities.js';
import { PDU_REASON_APPEARED, PDU_REASON_HEARTBEAT, PDU_REASON_POSITION } from '../../src/view/page/send-reasons.js';
import { geodeticOf, nearLongitude, wrapLongitude } from '../../src/view/page/map/map-coordinates.js';
import { entityKey } from '../../src/pdu/wire/entity-state-record.js';
import { sidcFor } from '../../src/view/page/map/symbols.js';
import { gridSpacingMeters, metricGrid } from '../../src/view/page/map/basemap.js';
import { entityStatePdu, positionAfter, type TestEntity } from './support/page-server.js';

const tank: TestEntity = {
  site: 1,
  application: 2,
  entity: 3,
  marking: 'TANK 1',
  force: 2,
  kind: 1,
  domain: 1,
  lat: 48.1,
  lon: 11.5,
  altM: 500,
  eastMps: 10,
  northMps: 0,
};

describe('page entities', () => {
  it('converts ECEF to geodetic as src/math/geodesy.ts does, to a micrometre', () => {
    const out = new Float64Array(5),
      reference = new Float64Array(3),
      ecef = new Float64Array(3);
    fc.assert(
      fc.property(
        fc.double({ min: -89.9, max: 89.9, noNaN: true }),
        fc.double({ min: -180, max: 180, noNaN: true }),
        fc.double({ min: -500, max: 40_000_000, noNaN: true }),
        (lat, lon, h) => {
          geodeticDegreesToEcef(ecef, lat, lon, h);
          geodeticOf(out, ecef[0]!, ecef[1]!, ecef[2]!);
          ecefToGeodetic(reference, ecef[0]!, ecef[1]!, ecef[2]!);
          expect(Math.abs(out[0]! - reference[0]!) * 6.4e6).toBeLessThan(1e-6);
          expect(Math.abs(out[1]! - reference[1]!) * 6.4e6).toBeLessThan(1e-6);
          expect(Math.abs(out[2]! - reference[2]!)).toBeLessThan(1e-6);
          expect(out[3]!).toBeCloseTo(Math.sin(reference[0]!), 12);
          expect(out[4]!).toBeCloseTo(Math.cos(reference[0]!), 12);
        },
      ),
    );
  });

  it('applies a feed message, shows it on its true course and heading, and keeps the marking', () => {
    const e = new PageEntities({ capacity: 16 });
    const t0 = 1_800_000_000_000;
    const writer = new FeedWriter();
    const pdu = entityStatePdu(tank, t0);
    writer.add(t0, pdu, 0, pdu.length);
    expect(e.applyMessage(writer.bytes())).toEqual({ pdus: 1, rejected: 0 });
    e.frame(t0 / 1000 + 10);
    expect(e.count).toBe(1);
    const slot = e.instanceSlot[0]!;
    const truth = positionAfter(tank, 10);
    const place = e.placeOf(slot, new Float64Array(4));
    expect(place[0]).toBeCloseTo(truth.lon, 6);
    expect(place[1]).toBeCloseTo(truth.lat, 6);
    expect(place[2]).toBeCloseTo(500, 1);
    // East along a straight ECEF line: 100 m on, meridian convergence turns it by Δλ·sin φ ≈ 0.001°.
    expect(place[3]).toBeCloseTo(90, 2);
    // The rough place of every instance: dead-reckoned (a few thousand a frame), on the ground.
    expect([...e.positions.subarray(0, 3)]).toEqual([expect.closeTo(truth.lon, 6), expect.closeTo(truth.lat, 6), 0]);
    expect(e.markings[slot]).toBe('TANK 1');
    expect(e.ids[slot]).toBe('1:2:3');
    expect(e.symbolOf(slot)).toBe(sidcFor(1, 1, 2, 1));
    expect(e.lastReason[slot]).toBe(PDU_REASON_APPEARED);
  });

  it('gives every longitude as the copy nearest the map centre, and a trail over 180° as one line', () => {
    const e = new PageEntities({ capacity: 16, trailPoints: 4 });
    const t0 = 1_800_000_000;
    // Eastward over 180°: 1000 m/s carries it from 179.95° E to about 179.96° W in 10 s; a PDU a second.
    const crossing: TestEntity = { ...tank, entity: 4, lat: -17, lon: 179.95, eastMps: 1000, altM: 0 };
    const east: TestEntity = { ...tank, entity: 5, lat: -17, lon: -179.5, eastMps: 0, altM: 0 };
    e.applyPdu(entityStatePdu(east, t0 * 1000), 0, 144, t0);
    for (let s = 0; s <= 10; s++) {
      const at = positionAfter(crossing, s);
      e.applyPdu(entityStatePdu(crossing, (t0 + s) * 1000, at), 0, 144, t0 + s);
    }
    e.referenceLonDeg = 179;
    e.frame(t0 + 10);
    const slotOf = (entity: number) => e.table.slotOf(entityKey(1, 2, entity));
    const place = new Float64Array(4);
    expect(e.placeOf(slotOf(5), place)[0]).toBeCloseTo(180.5, 9);
    expect(e.placeOf(slotOf(4), place)[0]).toBeGreaterThan(180);
    expect(place[0]).toBeLessThan(180.5);
    // Its trail (the last 4 PDUs' places, then where it is shown) is one line, east of 179° throughout.
    e.trails.pack([slotOf(4)], 1, (slot, out) => e.placeOf(slot, out));
    const trail = Array.from(e.trails.path.subarray(0, 2 * e.trails.starts[1]!)).filter((_, k) => k % 2 === 0);
    expect(trail.length).toBe(5);
    for (const lon of trail) expect(lon).toBeGreaterThan(179.5);
    // Seen from the other side the same entities are west of −180°… and back within [−180, 180) for people.
    e.referenceLonDeg = -179;
    expect(e.placeOf(slotOf(5), place)[0]).toBeCloseTo(-179.5, 9);
    expect(nearLongitude(190, 0)).toBe(-170);
    expect(nearLongitude(-170, 175)).toBe(190);
    expect(wrapLongitude(180.5)).toBeCloseTo(-179.5, 12);
    expect(wrapLongitude(-180)).toBe(-180);
  });

  it('counts a message cut inside a record and keeps the records before it', () => {
    const e = new PageEntities({ capacity: 16 });
    const writer = new FeedWriter();
    const t0 = 1_800_000_000_000;
    const a = entityStatePdu(tank, t0),
      b = entityStatePdu({ ...tank, entity: 4 }, t0);
    writer.add(t0, a, 0, a.length);
    writer.add(t0, b, 0, b.length);
    const cut = writer.bytes().slice(0, writer.length - 10);
    expect(e.applyMessage(cut)).toEqual({ pdus: 1, rejected: 1 });
    const junk = new Uint8Array(10 + 40).fill(0xee);
    new DataView(junk.buffer).setFloat64(0, t0);
    new DataView(junk.buffer).setUint16(8, 40);
    expect(e.applyMessage(junk)).toEqual({ pdus: 0, rejected: 1 });
    expect(e.stats.rejected).toBe(2);
    expect(e.table.size).toBe(1);
  });

  it('packs GPU records of the entities that changed only, and tells whether anything moves', () => {
    const e = new PageEntities({ capacity: 100 });
    const t0 = 1_800_000_000;
    const still = { ...tank, eastMps: 0 };
    for (let k = 0; k < 50; k++) e.applyPdu(entityStatePdu({ ...still, entity: 10 + k }, t0 * 1000), 0, 144, t0);
    e.frame(t0);
    expect(e.staging.count).toBe(50);
    expect(e.moved).toBe(true);
    e.staging.count = 0; // uploaded
    // Nothing came, nothing moves: no record, the picture stands.
    e.frame(t0 + 1);
    expect(e.staging.count).toBe(0);
    expect(e.moved).toBe(false);
    // Two PDUs of one entity and one of another: two records. One of them moves now: every frame changes.
    const mover = { ...tank, entity: 10 };
    e.applyPdu(entityStatePdu(mover, (t0 + 2) * 1000), 0, 144, t0 + 2);
    e.applyPdu(entityStatePdu(mover, (t0 + 2.1) * 1000, positionAfter(mover, 0.1)), 0, 144, t0 + 2.1);
    e.applyPdu(entityStatePdu({ ...still, entity: 11 }, (t0 + 2) * 1000), 0, 144, t0 + 2);
    e.frame(t0 + 2.2);
    expect(e.staging.count).toBe(2);
    expect([e.staging.slotAt(0), e.staging.slotAt(1)].sort()).toEqual([0, 1]);
    e.staging.count = 0;
    e.frame(t0 + 10);
    expect(e.staging.count).toBe(0);
    expect(e.moved).toBe(true);
    // Held by a Stop/Freeze it stands: its record changes once, then nothing moves.
    e.table.freeze(e.table.slotOf(entityKey(1, 2, 10)), t0 + 10);
    e.frame(t0 + 11);
    expect(e.staging.count).toBe(1);
    e.staging.count = 0;
    e.frame(t0 + 12);
    expect(e.moved).toBe(false);
    // A correction being smoothed moves it, until the smoothing time (0.5 s) is over.
    const corrected = positionAfter({ ...still, northMps: 10 }, 1);
    e.applyPdu(entityStatePdu({ ...still, entity: 12 }, (t0 + 13) * 1000, corrected), 0, 144, t0 + 13);
    e.frame(t0 + 13.1);
    e.staging.count = 0;
    e.frame(t0 + 13.4);
    expect(e.moved).toBe(true);
    e.frame(t0 + 13.6);
    expect(e.moved).toBe(false);
    // A removed entity's record goes too (inactive: the GPU draws nothing there).
    e.table.remove(entityKey(1, 2, 11));
    e.frame(t0 + 14);
    expect(e.staging.count).toBe(1);
    expect(e.staging.bits[11]).toBe(0);
  });

  it('puts an entity that takes a freed slot where its PDU put it, not where the last one was', () => {
    const e = new PageEntities({ capacity: 1 });
    const t0 = 1_800_000_000;
    e.applyPdu(entityStatePdu({ ...tank, eastMps: 0 }, t0 * 1000), 0, 144, t0);
    e.frame(t0);
    e.clear();
    e.applyPdu(entityStatePdu({ ...tank, entity: 7, eastMps: 0, lat: 48.1001 }, t0 * 1000), 0, 144, t0);
    e.frame(t0);
    expect(e.positions[1]).toBeCloseTo(48.1001, 8);
    expect(e.placeOf(0, new Float64Array(4))[1]).toBeCloseTo(48.1001, 8);
  });

  it('takes a trail point from a PDU at most once a second, and packs the trails asked to where they are shown', () => {
    const e = new PageEntities({ capacity: 16, trailPoints: 4 });
    const t0 = 1_800_000_000;
    const mover = { ...tank, entity: 9 };
    // PDUs every 0.5 s for 5 s: a point a second, the last 4 kept.
    for (let k = 0; k <= 10; k++) {
      const s = 0.5 * k;
      e.applyPdu(entityStatePdu(mover, (t0 + s) * 1000, positionAfter(mover, s)), 0, 144, t0 + s);
    }
    e.applyPdu(entityStatePdu({ ...tank, eastMps: 0 }, t0 * 1000), 0, 144, t0);
    e.frame(t0 + 5.2);
    const moving = e.table.slotOf(entityKey(1, 2, 9)),
      standing = e.table.slotOf(entityKey(1, 2, 3));
    expect(e.trails.pointsOf(moving)).toBe(4);
    expect(e.trails.pointsOf(standing)).toBe(1);
    e.trails.pack([moving, standing], 2, (slot, out) => e.placeOf(slot, out));
    expect([e.trails.starts[1], e.trails.starts[2]]).toEqual([5, 7]);
    // Oldest first (2 s), the newest PDU's (5 s), then where it is shown at 5.2 s.
    const lon = (k: number) => e.trails.path[2 * k]!;
    expect(lon(0)).toBeCloseTo(positionAfter(mover, 2).lon, 6);
    expect(lon(3)).toBeCloseTo(positionAfter(mover, 5).lon, 6);
    expect(lon(4)).toBeCloseTo(positionAfter(mover, 5.2).lon, 6);
  });

  it('tells a position-threshold PDU from a heartbeat', () => {
    const e = new PageEntities({ capacity: 16, positionThresholdMeters: 1 });
    const t0 = 1_800_000_000_000;
    e.applyPdu(entityStatePdu(tank, t0), 0, 144, t0 / 1000);
    const slot = e.table.slotOf(1 * 2 ** 32 + 2 * 2 ** 16 + 3);
    // 2 s on, 5 m off the dead-reckoned course: a threshold PDU.
    const off = positionAfter({ ...tank, northMps: 2.5 }, 2);
    e.applyPdu(entityStatePdu(tank, t0 + 2000, off), 0, 144, t0 / 1000 + 2);
    expect(e.lastReason[slot]).toBe(PDU_REASON_POSITION);
    // 5 s (a heartbeat) after that, right on the course: a heartbeat.
    const on = positionAfter({ ...tank, lat: off.lat, lon: off.lon }, 5);
    e.applyPdu(entityStatePdu({ ...tank, lat: off.lat, lon: off.lon }, t0 + 7000, on), 0, 144, t0 / 1000 + 7);
    expect(e.lastReason[slot]).toBe(PDU_REASON_HEARTBEAT);
    expect(e.markers.count).toBe(3);
  });

  it('keeps when each PDU came, and fades its dot out after MARKER_HOLD_SECONDS, gone at MARKER_FADE_SECONDS', () => {
    const e = new PageEntities({ capacity: 4, markerCapacity: 2 });
    const t0 = 1_800_000_000_000;
    for (let k = 0; k < 3; k++) e.applyPdu(entityStatePdu(tank, t0 + 1000 * k), 0, 144, t0 / 1000 + k);
    const m = e.markers;
    expect(m.count).toBe(2); // a ring: the oldest went
    expect([...m.timeSeconds].sort()).toEqual([t0 / 1000 + 1, t0 / 1000 + 2]);
    expect(m.positions[2]).toBe(0); // on the ground, as the symbols
    expect(ArrivalMarkers.opacity(0)).toBe(1);
    expect(ArrivalMarkers.opacity(MARKER_HOLD_SECONDS)).toBe(1);
    expect(ArrivalMarkers.opacity((MARKER_HOLD_SECONDS + MARKER_FADE_SECONDS) / 2)).toBeCloseTo(0.5, 9);
    expect(ArrivalMarkers.opacity(MARKER_FADE_SECONDS)).toBe(0);
    expect(m.fading(t0 / 1000 + 2 + MARKER_FADE_SECONDS - 0.1)).toBe(true);
    expect(m.fading(t0 / 1000 + 2 + MARKER_FADE_SECONDS)).toBe(false); // all faded: the layer stands still
    e.clear();
    expect(m.count).toBe(0);
  });
});

describe('page symbols and grid', () => {
  it('maps DIS kind, domain, category and force to 2525C codes (the table of docs/cot.md)', () => {
    // Category 0 (other): the domain's generic symbol.
    expect(sidcFor(1, 1, 1)).toBe('SFGPEV---------');
    expect(sidcFor(1, 2, 2)).toBe('SHAP-----------');
    expect(sidcFor(1, 3, 3)).toBe('SNSP-----------');
    expect(sidcFor(1, 4, 0)).toBe('SUUP-----------');
    expect(sidcFor(2, 2, 1)).toBe('SFAPW----------');
    expect(sidcFor(3, 1, 4)).toBe('SFGPUCI--------');
    // The category's own symbol.
    expect(sidcFor(1, 1, 1, 1)).toBe('SFGPEVAT-------'); // tank
    expect(sidcFor(1, 1, 2, 2)).toBe('SHGPEVAI-------'); // armoured fighting vehicle
    expect(sidcFor(1, 2, 2, 20)).toBe('SHAPMHA--------'); // attack helicopter
    expect(sidcFor(1, 2, 1, 50)).toBe('SFAPMFQ--------'); // unmanned aircraft
    expect(sidcFor(1, 3, 3, 5)).toBe('SNSPCLDD-------'); // destroyer
    expect(sidcFor(1, 4, 2, 3)).toBe('SHUPSNA--------'); // SSN
    expect(sidcFor(2, 2, 1, 1)).toBe('SFAPWM---------'); // guided munition: missile in flight
    expect(sidcFor(1, 9, 1, 1)).toBe('SFZP-----------'); // a domain SISO does not list: unknown dimension
    for (const sidc of [sidcFor(9, 9, 200), sidcFor(0, 0, 0)]) expect(sidc).toHaveLength(15);
  });

  it('chooses a 1–2–5 grid spacing and spaces the lines by it on the ellipsoid', () => {
    expect(gridSpacingMeters(30_000)).toBe(5000);
    expect(gridSpacingMeters(900)).toBe(200);
    const grid = metricGrid(11, 48, 11.5, 48.3);
    expect(grid.spacingMeters).toBe(10_000);
    const parallels = grid.geojson.features.filter(
      (f) => f.geometry.coordinates[0]![1] === f.geometry.coordinates[1]![1],
    );
    const lat1 = parallels[0]!.geometry.coordinates[0]![1]!,
      lat2 = parallels[1]!.geometry.coordinates[0]![1]!;
    const p = geodeticDegreesToEcef(new Float64Array(3), lat1, 11, 0),
      q = geodeticDegreesToEcef(new Float64Array(3), lat2, 11, 0);
    expect(Math.hypot(p[0]! - q[0]!, p[1]! - q[1]!, p[2]! - q[2]!)).toBeCloseTo(10_000, -1);
  });
});

describe('pageCapacity', () => {
  it("takes the gateway's maxEntities up to the page's cap, and the default when it is missing or no count", () => {
    expect(pageCapacity(1)).toBe(1);
    expect(pageCapacity(25_000)).toBe(25_000);
    expect(pageCapacity(MAX_PAGE_ENTITIES)).toBe(MAX_PAGE_ENTITIES);
    expect(pageCapacity(5_000_000)).toBe(MAX_PAGE_ENTITIES);
    expect(MAX_PAGE_ENTITIES).toBe(1_000_000);
    for (const bad of [undefined, 0, -5, 2.5, Number.NaN, Number.POSITIVE_INFINITY])
      expect(pageCapacity(bad)).toBe(10_000);
    expect(new PageEntities({ capacity: pageCapacity(25_000) }).table.capacity).toBe(25_000);
  });
});
