import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as mat3 from '../../src/math/mat3.js';
import {
  WGS84_A,
  WGS84_B,
  ecefToEnuMatrix,
  ecefToGeodetic,
  ecefToGeodeticDegrees,
  ecefToLocal,
  ecefToNedMatrix,
  eulerFromHeadingPitchRoll,
  geodeticDegreesToEcef,
  geodeticLatitudeSinCos,
  geodeticToEcef,
  headingPitchRollFromEuler,
  localToEcef,
} from '../../src/math/geodesy.js';
import { worldToBodyFromEuler } from '../../src/math/euler.js';
import { DEG, expectClose } from '../support/close.js';

const v = () => new Float64Array(3);

describe('WGS-84 geodetic ↔ ECEF', () => {
  it('reproduces the docs/dis-reference.md §6.2 check value (dis-tutorial CoordinateSystems.md)', () => {
    expectClose(
      geodeticDegreesToEcef(v(), 36.5973, -121.8731, 5),
      [-2707135.985, -4353750.737, 3781611.558],
      1e-3,
      'ecef',
    );
    // The check value is rounded to the millimetre, so the way back is good to ~1e-8° and 1 mm.
    const g = ecefToGeodeticDegrees(v(), -2707135.985, -4353750.737, 3781611.558);
    expectClose(g.subarray(0, 2), [36.5973, -121.8731], 1e-8, 'latitude, longitude');
    expect(g[2]).toBeCloseTo(5, 3);
  });

  it('matches the semi-axes at the equator and the poles', () => {
    expectClose(geodeticToEcef(v(), 0, 0, 0), [WGS84_A, 0, 0], 1e-9, 'equator');
    expectClose(geodeticToEcef(v(), Math.PI / 2, 0, 0), [0, 0, WGS84_B], 1e-9, 'north pole');
    expect(WGS84_B).toBeCloseTo(6356752.314245, 6);
  });

  it.each([
    ['north pole', 0, 0, WGS84_B + 100, [90, 0, 100]],
    ['south pole', 0, 0, -WGS84_B + 500, [-90, 0, -500]],
    ['equator, x axis', WGS84_A - 20, 0, 0, [0, 0, -20]],
    ['Earth centre', 0, 0, 0, [0, 0, -WGS84_A]],
    ['on the axis, deep inside', 0, 0, 1000, [90, 0, 1000 - WGS84_B]],
  ] as const)('is finite and exact at the %s', (_name, x, y, z, expected) => {
    const g = ecefToGeodeticDegrees(v(), x, y, z);
    expectClose(g, expected, 1e-6, 'geodetic');
  });

  it('round-trips geodetic → ECEF → geodetic within 1 mm and 1e-9° over the globe, −500 m … 100 km', () => {
    fc.assert(
      fc.property(
        fc.double({ min: -90, max: 90, noNaN: true }),
        fc.double({ min: -180, max: 180, noNaN: true }),
        fc.double({ min: -500, max: 100_000, noNaN: true }),
        (lat, lon, h) => {
          const p = geodeticDegreesToEcef(v(), lat, lon, h);
          const g = ecefToGeodeticDegrees(v(), p[0]!, p[1]!, p[2]!);
          expect(Math.abs(g[0]! - lat), 'latitude').toBeLessThan(1e-9);
          // Longitude is undefined at the poles; compare positions there instead.
          if (Math.abs(lat) < 90 - 1e-9)
            expect(Math.abs(((g[1]! - lon + 540) % 360) - 180), 'longitude').toBeLessThan(1e-9);
          expect(Math.abs(g[2]! - h), 'height').toBeLessThan(1e-3);
          expectClose(geodeticDegreesToEcef(v(), g[0]!, g[1]!, g[2]!), p, 1e-3, 'position');
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('round-trips ECEF → geodetic → ECEF for points from the centre to 1000 km up', () => {
    fc.assert(
      fc.property(
        fc.double({ min: -7.4e6, max: 7.4e6, noNaN: true }),
        fc.double({ min: -7.4e6, max: 7.4e6, noNaN: true }),
        fc.double({ min: -7.4e6, max: 7.4e6, noNaN: true }),
        (x, y, z) => {
          const g = ecefToGeodetic(v(), x, y, z);
          expect(g.every(Number.isFinite)).toBe(true);
          // Deep inside, the geodetic normal through a point is not unique; check where it is.
          if (Math.hypot(x, y, z) > 6.0e6)
            expectClose(geodeticToEcef(v(), g[0]!, g[1]!, g[2]!), [x, y, z], 1e-6, 'position');
        },
      ),
    );
  });

  it('gives the sine and cosine of the latitude an ECEF point was made from, from −500 m to beyond GEO', () => {
    const out = new Float64Array(2);
    fc.assert(
      fc.property(
        fc.double({ min: -90, max: 90, noNaN: true }),
        fc.double({ min: -180, max: 180, noNaN: true }),
        fc.double({ min: -500, max: 4e7, noNaN: true }),
        (lat, lon, h) => {
          const [x, y, z] = geodeticDegreesToEcef(v(), lat, lon, h);
          geodeticLatitudeSinCos(out, 0, Math.sqrt(x! * x! + y! * y!), z!);
          expect(Math.abs(out[0]! - Math.sin(lat * DEG))).toBeLessThan(1e-14);
          expect(Math.abs(out[1]! - Math.cos(lat * DEG))).toBeLessThan(1e-14);
        },
      ),
    );
  });
});

describe('local frames', () => {
  it('ENU and NED rows are orthonormal, Up is the ellipsoid normal, and local ↔ ECEF round-trips', () => {
    const lat = 47.38 * DEG,
      lon = 8.54 * DEG;
    const enu = ecefToEnuMatrix(mat3.create(), lat, lon),
      ned = ecefToNedMatrix(mat3.create(), lat, lon);
    expect(mat3.orthonormalityError(enu)).toBeLessThan(1e-15);
    expect(mat3.determinant(ned)).toBeCloseTo(1, 14);
    const origin = geodeticToEcef(v(), lat, lon, 400);
    const up = geodeticToEcef(v(), lat, lon, 1400);
    expectClose(ecefToLocal(v(), enu, origin, up), [0, 0, 1000], 1e-6, 'enu of a point 1 km up');
    expectClose(ecefToLocal(v(), ned, origin, up), [0, 0, -1000], 1e-6, 'ned of a point 1 km up');
    const north = geodeticToEcef(v(), lat + 1e-5, lon, 400);
    const n = ecefToLocal(v(), ned, origin, north);
    expect(n[0]).toBeGreaterThan(1.1);
    expect(Math.abs(n[1]!)).toBeLessThan(1e-9);
    expectClose(
      localToEcef(v(), enu, origin, [12, -34, 56]),
      ecefToLocal(v(), mat3.transpose(mat3.create(), enu), [0, 0, 0], [12, -34, 56]).map((c, i) => c + origin[i]!),
      1e-9,
      'local → ECEF',
    );
  });

  it('converts heading/pitch/roll to DIS ψθφ: docs/dis-reference.md §6.5 check vector and its round trip', () => {
    const lat = 36.5973 * DEG,
      lon = -121.8731 * DEG;
    const e = eulerFromHeadingPitchRoll(v(), lat, lon, 20 * DEG, 10 * DEG, 5 * DEG);
    expectClose(e, [0.329531, -1.009364, -2.512434], 1e-6, 'ψθφ');
    const hpr = headingPitchRollFromEuler(v(), lat, lon, e[0]!, e[1]!, e[2]!);
    expectClose(hpr, [20 * DEG, 10 * DEG, 5 * DEG], 1e-12, 'heading, pitch, roll');
  });

  it('level flight heading east at the equator and prime meridian has the nose along ECEF +Y', () => {
    const e = eulerFromHeadingPitchRoll(v(), 0, 0, 90 * DEG, 0, 0);
    const r = worldToBodyFromEuler(mat3.create(), e[0]!, e[1]!, e[2]!);
    expectClose(mat3.transformTransposeVec3(v(), r, [1, 0, 0]), [0, 1, 0], 1e-15, 'nose');
    expectClose(mat3.transformTransposeVec3(v(), r, [0, 0, 1]), [-1, 0, 0], 1e-15, 'body down');
  });
});
