import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { quantity, readQuantity } from '../../src/config/units.js';

describe('mathjs for units', () => {
  it('is its one-file build, not the entry that loads a thousand modules (every command with a unit pays it)', () => {
    expect(readQuantity('3 deg', 'angle').ok).toBe(true);
    const loaded = Object.keys(createRequire(import.meta.url).cache).filter((f) => f.includes('/mathjs/'));
    expect(loaded).toEqual([expect.stringMatching(/\/mathjs\/lib\/browser\/math\.js$/)]);
  });
});

describe('readQuantity', () => {
  it.each([
    ['1 m', 'length', 1],
    ['2.5 km', 'length', 2500],
    ['1 nmi', 'length', 1852],
    ['3 deg', 'angle', (3 * Math.PI) / 180],
    ['5 s', 'time', 5],
    ['200 ms', 'time', 0.2],
    ['15 Hz', 'frequency', 15],
    ['10 kn', 'speed', 5.14444444],
    ['36 km/h', 'speed', 10],
    ['10 deg/s', 'angularRate', (10 * Math.PI) / 180],
    [7, 'length', 7],
    ['0.25', 'time', 0.25],
  ] as const)('%s as %s', (input, dimension, expected) => {
    const r = readQuantity(input, dimension);
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.value).toBeCloseTo(expected, 6);
  });

  it.each([
    ['3 deg', 'length', /not a length/],
    ['3 m', 'angle', /is not an angle \(expected units like rad\)/],
    ['3 m', 'acceleration', /is not an acceleration /],
    ['3 m', 'angularRate', /is not an angular rate /],
    ['fast', 'speed', /not a quantity/],
    [Number.NaN, 'time', /finite/],
    [true, 'time', /expected a number/],
  ] as const)('rejects %s as %s', (input, dimension, message) => {
    const r = readQuantity(input, dimension);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toMatch(message);
  });
});

describe('quantity schema', () => {
  it('transforms to SI and reports the path of a bad value', () => {
    const schema = z.object({ emitter: z.object({ positionThreshold: quantity('length') }) });
    expect(schema.parse({ emitter: { positionThreshold: '150 cm' } }).emitter.positionThreshold).toBeCloseTo(1.5);
    const bad = schema.safeParse({ emitter: { positionThreshold: '3 s' } });
    expect(bad.success).toBe(false);
    if (!bad.success) {
      expect(bad.error.issues[0]!.path).toEqual(['emitter', 'positionThreshold']);
      expect(bad.error.issues[0]!.message).toMatch(/e\.g\. "1 m"/);
    }
  });
});
