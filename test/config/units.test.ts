import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { quantity, readQuantity, type Dimension } from '../../src/config/units.js';
import { ROOT } from '../support/binary.js';

/** The common units, read without mathjs: each with its dimension. */
const COMMON: ReadonlyArray<readonly [string, Dimension]> = [
  ['m', 'length'],
  ['km', 'length'],
  ['cm', 'length'],
  ['mm', 'length'],
  ['nmi', 'length'],
  ['NM', 'length'],
  ['rad', 'angle'],
  ['deg', 'angle'],
  ['s', 'time'],
  ['ms', 'time'],
  ['min', 'time'],
  ['h', 'time'],
  ['Hz', 'frequency'],
  ['m/s', 'speed'],
  ['rad/s', 'angularRate'],
];

describe('the common units', () => {
  it('read exactly as mathjs reads them, with or without a space, signs and exponents too', () => {
    type MathUnit = { toNumber(unit: string): number };
    const { create, all } = createRequire(import.meta.url)('mathjs/lib/browser/math.js') as {
      create(factories: unknown): { unit(text: string): MathUnit; createUnit(name: string, def: object): unknown };
      all: unknown;
    };
    const math = create(all);
    math.createUnit('nmi', { definition: '1852 m', aliases: ['NM'] });
    const si: Record<Dimension, string> = {
      length: 'm',
      angle: 'rad',
      time: 's',
      frequency: 'Hz',
      speed: 'm/s',
      acceleration: 'm/s^2',
      angularRate: 'rad/s',
      dataRate: 'b/s',
    };
    for (const [unit, dimension] of COMMON)
      for (const number of ['1', '200', '0.5', '-3', '+2.5', '1.5e3', '.25', '7.']) {
        for (const text of [`${number} ${unit}`, `${number}${unit}`]) {
          const result = readQuantity(text, dimension);
          expect(result, text).toEqual({ ok: true, value: math.unit(text).toNumber(si[dimension]) });
        }
      }
  });

  it('load no mathjs; another unit, or a common one of another dimension, does', () => {
    const units = pathToFileURL(join(ROOT, 'dist/config/units.js')).href;
    const script = `import { createRequire } from 'node:module';
const { readQuantity } = await import(${JSON.stringify(units)});
const loaded = () => Object.keys(createRequire(import.meta.url).cache).some((f) => f.includes('/mathjs/'));
const steps = [];
for (const [text, dimension] of ${JSON.stringify(COMMON.map(([u, d]) => [`2 ${u}`, d]))}) readQuantity(text, dimension);
steps.push(loaded());
steps.push(readQuantity('3 s', 'length').ok, loaded());
console.log(JSON.stringify(steps));`;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    // The error for a unit of the wrong dimension is mathjs's to give (it names what the unit is).
    expect(JSON.parse(out)).toEqual([false, false, true]);
  });
});

describe('mathjs for units', () => {
  it('is its one-file build, not the entry that loads a thousand modules (every command with a unit pays it)', () => {
    expect(readQuantity('36 km/h', 'speed').ok).toBe(true);
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
