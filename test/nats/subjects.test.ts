// Subjects and areas without a server: the cell of an Entity State PDU is h3-js's cell of its geodetic position,
// the cells covering an area contain the cell of every point in it (property test), and nothing throws on bytes
// that are not a routable entity.
import fc from 'fast-check';
import { cellToBoundary, cellToLatLng, getPentagons, getResolution, latLngToCell } from 'h3-js';
import { describe, expect, it } from 'vitest';
import { ecefToGeodetic, geodeticDegreesToEcef } from '../../src/math/geodesy.js';
import { areaContains, cellsCoveringArea, destination, distanceM, parseCircleArea } from '../../src/nats/area.js';
import { EDGE_MARGIN, cellShape, geodeticUnitVector, insideCellBy } from '../../src/nats/cell-geometry.js';
import { createRoute } from '../../src/nats/route.js';
import { SubjectRouter } from '../../src/nats/subjects.js';
import { redactUrl } from '../../src/nats/url-credentials.js';

const DEG = 180 / Math.PI;
import { encodeEntityStateInto } from '../../src/pdu/wire/entity-state-encoder.js';
import { EntityStateRecord } from '../../src/pdu/wire/entity-state-record.js';

function pdu(latDeg: number, lonDeg: number, heightM = 100, type: [number, number] = [1, 2]): Uint8Array {
  const r = new EntityStateRecord(0);
  r.exerciseId = 3;
  r.site = 2;
  r.application = 5;
  r.entity = 9;
  r.entityType.set([type[0], type[1], 225, 0, 0, 0, 0]);
  geodeticDegreesToEcef(r.location, latDeg, lonDeg, heightM);
  const bytes = new Uint8Array(144);
  expect(encodeEntityStateInto(bytes, r)).toBe(144);
  return bytes;
}

describe('SubjectRouter', () => {
  it("routes an Entity State PDU to PREFIX.EXERCISE.CELL.KIND.DOMAIN with h3-js's cell of its position", () => {
    const router = new SubjectRouter('dis', 5);
    fc.assert(
      fc.property(
        fc.double({ min: -85, max: 85, noNaN: true }),
        fc.double({ min: -179.9, max: 179.9, noNaN: true }),
        fc.double({ min: -400, max: 12_000, noNaN: true }),
        (lat, lon, h) => {
          const route = router.route(pdu(lat, lon, h), 0, 144, createRoute());
          const cell = latLngToCell(lat, lon, 5);
          // A point within a few centimetres of a cell edge may fall either side after the ECEF round trip.
          if (route.cell !== cell) {
            const [clat, clon] = cellToLatLng(route.cell!);
            return distanceM(clat, clon, lat, lon) < 20_000;
          }
          return route.subject === `dis.3.${cell}.1.2` && route.entityKey === 2 * 2 ** 32 + 5 * 2 ** 16 + 9;
        },
      ),
      { numRuns: 300 },
    );
  });

  it('the per-entity cell cache gives the same cell as computing it afresh, along random walks (resolutions 5–9)', () => {
    fc.assert(
      fc.property(
        fc.double({ min: -80, max: 80, noNaN: true }),
        fc.double({ min: -179, max: 179, noNaN: true }),
        fc.integer({ min: 5, max: 9 }),
        fc.array(
          fc.tuple(fc.double({ min: 0, max: 2 * Math.PI, noNaN: true }), fc.double({ min: 0, max: 3000, noNaN: true })),
          {
            minLength: 5,
            maxLength: 60,
          },
        ),
        (lat0, lon0, resolution, steps) => {
          const cached = new SubjectRouter('dis', resolution);
          let [lat, lon] = [lat0, lon0];
          for (const [bearing, metres] of steps) {
            [lat, lon] = destination(lat, lon, bearing, metres);
            const bytes = pdu(lat, lon);
            const fresh = new SubjectRouter('dis', resolution).route(bytes, 0, 144, createRoute());
            const route = cached.route(bytes, 0, 144, createRoute());
            if (route.cell !== fresh.cell || route.subject !== fresh.subject) return false;
          }
          return true;
        },
      ),
      { numRuns: 150 },
    );
  });

  it("a location inside a cell's edges by the margin is in that cell, by h3-js (all resolutions, poles, pentagons)", () => {
    let inside = 0;
    fc.assert(
      fc.property(
        fc.oneof(
          fc.tuple(fc.double({ min: -89.9, max: 89.9, noNaN: true }), fc.double({ min: -180, max: 180, noNaN: true })),
          // Near the twelve pentagons' centres at resolution 0, where cells cross icosahedron faces.
          fc.constantFrom(...getPentagons(0).map((c) => cellToLatLng(c))),
        ),
        fc.integer({ min: 0, max: 12 }),
        fc.array(
          fc.tuple(fc.double({ min: 0, max: 2 * Math.PI, noNaN: true }), fc.double({ min: 0, max: 1.5, noNaN: true })),
          {
            minLength: 1,
            maxLength: 40,
          },
        ),
        ([lat, lon], resolution, offsets) => {
          const cell = latLngToCell(lat, lon, resolution);
          const shape = cellShape(cell);
          const [clat, clon] = cellToLatLng(cell);
          // The centre is well inside; points up to 1.5 cell radii away (from the centre) are in it, or not.
          if (!(insideCellBy(shape, clat / DEG, clon / DEG) > EDGE_MARGIN)) return false;
          const radius = Math.max(...cellToBoundary(cell).map(([a, b]) => distanceM(clat, clon, a, b)));
          for (const [bearing, share] of offsets) {
            const [plat, east] = destination(clat, clon, bearing, share * radius);
            const plon = ((((east + 180) % 360) + 360) % 360) - 180;
            if (insideCellBy(shape, plat / DEG, plon / DEG) <= EDGE_MARGIN) continue;
            inside++;
            if (latLngToCell(plat, plon, resolution) !== cell) return false;
          }
          return true;
        },
      ),
      { numRuns: 400 },
    );
    // Not vacuous: many of the points were inside.
    expect(inside).toBeGreaterThan(1000);
  });

  it("the unit vector of a location agrees with ecefToGeodetic's latitude and longitude (poles and axis too)", () => {
    const check = (x: number, y: number, z: number) => {
      const [lat, lon] = ecefToGeodetic(new Float64Array(3), x, y, z);
      const unit = geodeticUnitVector(new Float64Array(3), x, y, z);
      const expected = [Math.cos(lat!) * Math.cos(lon!), Math.cos(lat!) * Math.sin(lon!), Math.sin(lat!)];
      for (let i = 0; i < 3; i++) expect(Math.abs(unit[i]! - expected[i]!)).toBeLessThan(1e-12);
    };
    fc.assert(
      fc.property(
        fc.double({ min: -90, max: 90, noNaN: true }),
        fc.double({ min: -180, max: 180, noNaN: true }),
        fc.double({ min: -400, max: 4e7, noNaN: true }),
        (lat, lon, h) => {
          const ecef = geodeticDegreesToEcef(new Float64Array(3), lat, lon, h);
          check(ecef[0]!, ecef[1]!, ecef[2]!);
        },
      ),
      { numRuns: 1000 },
    );
    check(0, 0, 6_356_852);
    check(0, 0, -6_356_752);
    check(6_378_137, 0, 0);
  });

  it('the cell cache follows entities across cells in small steps near edges (resolutions 9–11)', () => {
    fc.assert(
      fc.property(
        fc.double({ min: -80, max: 80, noNaN: true }),
        fc.double({ min: -179, max: 179, noNaN: true }),
        fc.integer({ min: 9, max: 11 }),
        fc.double({ min: 0, max: 2 * Math.PI, noNaN: true }),
        fc.array(
          fc.tuple(fc.double({ min: -0.3, max: 0.3, noNaN: true }), fc.double({ min: 0, max: 40, noNaN: true })),
          {
            minLength: 20,
            maxLength: 120,
          },
        ),
        (lat0, lon0, resolution, heading, steps) => {
          const cached = new SubjectRouter('dis', resolution);
          let [lat, lon] = [lat0, lon0];
          let bearing = heading;
          for (const [turn, metres] of steps) {
            bearing += turn;
            [lat, lon] = destination(lat, lon, bearing, metres);
            const bytes = pdu(lat, lon);
            const fresh = new SubjectRouter('dis', resolution).route(bytes, 0, 144, createRoute());
            if (cached.route(bytes, 0, 144, createRoute()).cell !== fresh.cell) return false;
          }
          return true;
        },
      ),
      { numRuns: 150 },
    );
  });

  it('computes a cell only when an entity may have left its cell', () => {
    const router = new SubjectRouter('dis', 5);
    for (let i = 0; i < 100; i++) router.route(pdu(48 + i * 1e-5, 11), 0, 144, createRoute()); // 1 m steps
    expect(router.cellComputations).toBeLessThanOrEqual(2);
    const far = new SubjectRouter('dis', 5);
    for (let i = 0; i < 20; i++) far.route(pdu(48 + i * 0.4, 11), 0, 144, createRoute()); // 44 km steps
    expect(far.cellComputations).toBe(20);
    // 3 km steps: each crossing lands in a neighbour of the cell left, settled by the neighbours' edges (H3 asked
    // only for a location near an edge), and the same cell as h3-js's.
    const hopper = new SubjectRouter('dis', 5);
    const cells = new Set<string>();
    for (let i = 0; i < 100; i++) {
      const lat = 48 + i * 0.027;
      const route = hopper.route(pdu(lat, 11), 0, 144, createRoute());
      cells.add(route.cell!);
      expect(route.cell).toBe(latLngToCell(lat, 11, 5));
    }
    expect(cells.size).toBeGreaterThan(15);
    expect(hopper.cellComputations).toBeLessThan(cells.size / 2);
    // 300 m steps in 8.5 km cells: the edges are checked as the entity leaves its safe distance, H3 asked only
    // near an edge.
    const walker = new SubjectRouter('dis', 5);
    for (let i = 0; i < 100; i++) walker.route(pdu(48, 11 + i * 0.004), 0, 144, createRoute());
    expect(walker.cellChecks).toBeGreaterThan(walker.cellComputations);
    expect(walker.cellComputations).toBeLessThan(20);
  });

  it('sends other PDU types, unset locations and truncated PDUs to PREFIX.EXERCISE.all.TYPE', () => {
    const router = new SubjectRouter('site1.dis', 4);
    const fire = pdu(10, 10);
    fire[2] = 2;
    expect(router.route(fire, 0, 144, createRoute()).subject).toBe('site1.dis.3.all.2');
    const zero = pdu(10, 10);
    zero.fill(0, 48, 72); // location (0, 0, 0): never set
    expect(router.route(zero, 0, 144, createRoute())).toMatchObject({ subject: 'site1.dis.3.all.1', cell: undefined });
    const nan = pdu(10, 10);
    new DataView(nan.buffer).setFloat64(48, Number.NaN);
    expect(router.route(nan, 0, 144, createRoute()).cell).toBeUndefined();
    expect(router.route(pdu(10, 10), 0, 100, createRoute()).subject).toBe('site1.dis.3.all.1');
  });

  it("an Entity State Update PDU takes the kind and domain of the entity's last full PDU", () => {
    const router = new SubjectRouter('dis', 5);
    const full = pdu(48, 11, 0, [3, 0]);
    router.route(full, 0, 144, createRoute());
    // Entity State Update (IEEE 1278.1-2012 §7.2.5): id at 12, location at 32, 72 bytes.
    const update = new Uint8Array(72);
    update.set(full.subarray(0, 18));
    update[2] = 67;
    update[9] = 72;
    update.set(full.subarray(48, 72), 32);
    expect(router.route(update, 0, 72, createRoute()).subject).toBe(`dis.3.${latLngToCell(48, 11, 5)}.3.0`);
  });

  it('hides credentials in server URLs', () => {
    expect(redactUrl('nats://user:pw@host:4222')).toBe('nats://***@host:4222');
    expect(redactUrl('tok@host:4222')).toBe('***@host:4222');
    expect(redactUrl('nats://host:4222')).toBe('nats://host:4222');
  });
});

describe('cellsCoveringArea', () => {
  it('holds the cell of every point inside a circle (any resolution 3–6)', () => {
    fc.assert(
      fc.property(
        fc.double({ min: -70, max: 70, noNaN: true }),
        fc.double({ min: -170, max: 170, noNaN: true }),
        fc.double({ min: 1_000, max: 40_000, noNaN: true }),
        fc.integer({ min: 3, max: 6 }),
        fc.double({ min: 0, max: 2 * Math.PI, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (lat, lon, radiusM, resolution, bearing, fraction) => {
          const area = { latitudeDeg: lat, longitudeDeg: lon, radiusM };
          const cells = new Set(cellsCoveringArea(area, resolution));
          const [plat, plon] = destination(lat, lon, bearing, radiusM * fraction);
          return areaContains(area, plat, plon) ? cells.has(latLngToCell(plat, plon, resolution)) : true;
        },
      ),
      { numRuns: 60 },
    );
  });

  it('holds no more than the cells that touch the area: a 50 km circle at resolution 5 takes ~60 cells', () => {
    const cells = cellsCoveringArea(parseCircleArea('48.1,11.6,50 km'), 5);
    expect(cells.every((c) => getResolution(c) === 5)).toBe(true);
    // Each cell's centre lies within the radius plus one cell diameter (edge 9.85 km at most at resolution 5).
    for (const c of cells) {
      const [clat, clon] = cellToLatLng(c);
      expect(distanceM(48.1, 11.6, clat, clon)).toBeLessThan(50_000 + 2 * 9_900);
    }
    expect(cells.length).toBeGreaterThan(30);
    expect(cells.length).toBeLessThan(90);
  });

  it('covers a polygon, and refuses an area needing too many cells', () => {
    const polygon = {
      polygon: [
        [48, 11],
        [48, 12],
        [49, 12],
        [49, 11],
      ] as Array<[number, number]>,
    };
    const cells = new Set(cellsCoveringArea(polygon, 5));
    for (const [lat, lon] of [
      [48.01, 11.01],
      [48.5, 11.5],
      [48.99, 11.99],
    ])
      expect(cells.has(latLngToCell(lat!, lon!, 5))).toBe(true);
    expect(() => cellsCoveringArea(parseCircleArea('0,0,2000 km'), 8, 1000)).toThrow(/lower nats\.h3Resolution/);
  });

  it('parses circles with units and rejects malformed ones', () => {
    expect(parseCircleArea('48.1, 11.6, 50 km')).toEqual({ latitudeDeg: 48.1, longitudeDeg: 11.6, radiusM: 50_000 });
    expect(parseCircleArea('-33,151,10 nmi').radiusM).toBe(18_520);
    expect(() => parseCircleArea('48,11')).toThrow(/LAT,LON,RADIUS/);
    expect(() => parseCircleArea('95,11,1 km')).toThrow(/latitude/);
  });
});
