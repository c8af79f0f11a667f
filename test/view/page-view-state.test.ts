// The page's view in its URL (src/view/page/map/view-state.ts), the area that holds every entity and what of it the map
// frames (src/view/page/map/fit.ts).
import { describe, expect, it } from 'vitest';
import {
  boundsNear,
  boundsWithin,
  entityBounds,
  framedBounds,
  MIN_FRAMED_METERS,
} from '../../src/view/page/map/fit.js';
import { formatViewHash, parseViewHash } from '../../src/view/page/map/view-state.js';

/** Positions as `PageEntities.positions` holds them: longitude, latitude, height. */
const at = (...points: Array<[number, number]>) => points.flatMap(([lon, lat]) => [lon, lat, 0]);

describe('entity bounds', () => {
  it('is the longitudes and latitudes the entities span', () => {
    const b = entityBounds(at([69.1, 34.5], [65.7, 31.6], [70.5, 36.7]), 3)!;
    expect(b[0]).toBeCloseTo(65.7, 9);
    expect(b[1]).toBeCloseTo(31.6, 9);
    expect(b[2]).toBeCloseTo(70.5, 9);
    expect(b[3]).toBeCloseTo(36.7, 9);
    expect(entityBounds([], 0)).toBeNull();
    // Only the first `count` positions count.
    expect(entityBounds(at([10, 10], [100, 50]), 1)).toEqual([10, 10, 10, 10]);
  });

  it('crosses the antimeridian when the entities do (Fiji), instead of spanning the world', () => {
    const [west, south, east, north] = entityBounds(at([178.4, -18.1], [-179.9, -16.5], [179.5, -17]), 3)!;
    expect(west).toBeCloseTo(178.4, 9);
    expect(east).toBeCloseTo(180.1, 9); // −179.9 + 360
    expect(south).toBe(-18.1);
    expect(north).toBe(-16.5);
  });

  it('takes the narrower way round whichever side of 180° the area lies', () => {
    // Hawaii and Guam: across the Pacific (about 130° wide), not across Africa (about 230°).
    const [west, , east] = entityBounds(at([-157.9, 21.3], [144.8, 13.4]), 2)!;
    expect(west).toBeCloseTo(144.8, 9);
    expect(east).toBeCloseTo(202.1, 9);
    // Europe and America: across the Atlantic.
    const atlantic = entityBounds(at([-74, 40.7], [2.35, 48.9]), 2)!;
    expect(atlantic[0]).toBe(-74);
    expect(atlantic[2]).toBe(2.35);
  });

  it('keeps latitudes to what Web Mercator shows, and skips positions that are not numbers', () => {
    expect(entityBounds(at([0, -90], [1, 89.9], [Number.NaN, 0]), 3)).toEqual([0, -85, 1, 85]);
  });
});

describe('view in the URL', () => {
  it('writes and reads back the centre, zoom, selection and filters', () => {
    const hash = formatViewHash({
      center: [-122.99341234, 36.00246789],
      zoom: 12.3456,
      selected: '1:3001:15',
      forces: [1, 2],
      domains: [],
      visibleArea: true,
    });
    expect(hash).toBe('#map=12.35/36.00247/-122.99341&select=1:3001:15&forces=1,2&domains=&area=1');
    expect(parseViewHash(hash)).toEqual({
      center: [-122.99341, 36.00247],
      zoom: 12.35,
      selected: '1:3001:15',
      forces: [1, 2],
      domains: [],
      visibleArea: true,
    });
    expect(formatViewHash({})).toBe('');
    expect(parseViewHash('')).toEqual({});
    // Longitudes are wrapped into [−180, 180) (MapLibre's centre may have gone round the world).
    expect(formatViewHash({ center: [190, 0], zoom: 2 })).toBe('#map=2/0/-170');
  });

  it('leaves out what is malformed instead of applying half of it', () => {
    expect(parseViewHash('#map=30/0/0')).toEqual({});
    expect(parseViewHash('#map=3/95/0&select=<img>&forces=1,300&domains=a&area=yes')).toEqual({});
    expect(parseViewHash('#map=3/10&select=1:2:3')).toEqual({ selected: '1:2:3' });
  });
});

describe('framing', () => {
  it('frames the entities themselves, not a margin of kilometres around them', () => {
    // The VR-Forces Hind engagement: the M1A2 and the Hind 1.4 km to its north.
    const b = entityBounds(at([-122.99341, 36.00246], [-122.99088, 36.01528]), 2)!;
    const [[west, south], [east, north]] = framedBounds(b);
    expect(south).toBeCloseTo(b[1], 9);
    expect(north).toBeCloseTo(b[3], 9);
    // East to west it spans 230 m: widened to MIN_FRAMED_METERS about its middle.
    expect(((east - west) * 111_320 * Math.cos((36.009 * Math.PI) / 180)) / MIN_FRAMED_METERS).toBeCloseTo(1, 3);
    expect((west + east) / 2).toBeCloseTo((b[0] + b[2]) / 2, 9);
  });

  it('frames a lone entity (or a tight group) in at least MIN_FRAMED_METERS, around it', () => {
    const [[west, south], [east, north]] = framedBounds([10, 50, 10, 50]);
    expect(((north - south) * 111_320) / MIN_FRAMED_METERS).toBeCloseTo(1, 3);
    expect(((east - west) * 111_320 * Math.cos((50 * Math.PI) / 180)) / MIN_FRAMED_METERS).toBeCloseTo(1, 3);
    expect((west + east) / 2).toBeCloseTo(10, 9);
    expect((south + north) / 2).toBeCloseTo(50, 9);
  });

  it('adds room on each side when asked (framed again while following)', () => {
    const [[west, south], [east, north]] = framedBounds([0, 0, 1, 1], 0, 0.25);
    expect([west, south, east, north]).toEqual([-0.25, -0.25, 1.25, 1.25]);
  });

  it('tells bounds within others, across the antimeridian too', () => {
    expect(boundsWithin([1, 1, 2, 2], [0, 0, 3, 3])).toBe(true);
    expect(boundsWithin([1, 1, 4, 2], [0, 0, 3, 3])).toBe(false);
    expect(boundsWithin([179, -17, 181, -16], [178, -18, 182, -15])).toBe(true);
    expect(boundsWithin([-181, -17, -179, -16], [178, -18, 182, -15])).toBe(true);
    expect(boundsWithin([-181, -17, -170, -16], [178, -18, 182, -15])).toBe(false);
  });

  it('tells bounds that would frame the same picture: every edge within a share of the span', () => {
    const area: [number, number, number, number] = [10, 50, 10.1, 50.2];
    expect(boundsNear(area, [10.004, 49.991, 10.104, 50.209], 0.05)).toBe(true);
    expect(boundsNear(area, [10, 50, 10.1, 50.22], 0.05)).toBe(false);
    expect(boundsNear(area, [9.994, 50, 10.1, 50.2], 0.05)).toBe(false);
    // A lone entity's tolerance is a share of the least framed span (500 m), not of nothing.
    expect(boundsNear([10, 50, 10, 50], [10, 50.0002, 10, 50.0002], 0.05)).toBe(true);
    expect(boundsNear([10, 50, 10, 50], [10, 50.001, 10, 50.001], 0.05)).toBe(false);
    expect(boundsNear([179.9, -17, 180.1, -16], [-180.1, -17, -179.9, -16], 0.05)).toBe(true);
  });
});
