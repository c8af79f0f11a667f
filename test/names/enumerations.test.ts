// Enumeration names against data/siso/enumerations.json itself (every value of all 488 enumerations), spot checks
// from SISO-REF-010, and unknown values named, never thrown.
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  countryCode,
  countryName,
  deadReckoningAlgorithmName,
  domainName,
  entityKindName,
  enumerationName,
  enumerationOf,
  forceName,
  pduTypeName,
} from '../../src/names/index.js';

const source = JSON.parse(
  readFileSync(new URL('../../data/siso/enumerations.json', import.meta.url), 'utf8'),
) as Record<string, { uid: number; values: [number, string][] }>;

describe('enumerationName', () => {
  it('names every value of every enumeration as data/siso/enumerations.json does, by name and by UID', () => {
    const wrong: string[] = [];
    let checked = 0;
    for (const [name, { uid, values }] of Object.entries(source)) {
      expect(enumerationOf(name)?.uid, name).toBe(uid);
      for (const [value, text] of values) {
        checked++;
        if (enumerationName(name, value) !== text) wrong.push(`${name} ${value}: ${enumerationName(name, value)}`);
        if (enumerationName(uid, value) !== text) wrong.push(`uid ${uid} ${value}: ${enumerationName(uid, value)}`);
      }
    }
    expect(wrong).toEqual([]);
    expect(Object.keys(source)).toHaveLength(488);
    expect(checked).toBeGreaterThan(9000);
  });

  it('gives the same string each time for a listed value', () => {
    expect(enumerationName('Country', 225)).toBe(enumerationName(29, 225));
    expect(Object.is(countryName(225), countryName(225))).toBe(true);
  });

  it('names spot checks from SISO-REF-010', () => {
    expect(pduTypeName(1)).toBe('Entity State');
    expect(pduTypeName(2)).toBe('Fire');
    expect(pduTypeName(3)).toBe('Detonation');
    expect(pduTypeName(25)).toBe('Transmitter');
    expect(pduTypeName(41)).toBe('Environmental Process');
    expect(pduTypeName(67)).toBe('Entity State Update');
    expect(countryName(225)).toBe('United States of America (USA)');
    expect(countryCode(225)).toBe('USA');
    expect(countryCode(222)).toBe('RUS');
    expect(countryCode(260)).toBe('Russia');
    expect(forceName(1)).toBe('Friendly');
    expect(forceName(2)).toBe('Opposing');
    expect(forceName(6)).toBe('Neutral 2');
    expect(deadReckoningAlgorithmName(4)).toMatch(/^DRM \(RVW\)/);
    expect(entityKindName(3)).toBe('Life form');
    expect(domainName(1, 2)).toBe('Air');
    expect(domainName(2, 2)).toBe('Anti-Armor');
    expect(domainName(6, 1)).toBe('Class 1 - Subsistence');
  });

  it('names a value SISO does not list `unknown (N)`', () => {
    expect(countryName(999)).toBe('unknown (999)');
    expect(pduTypeName(200)).toBe('unknown (200)');
    expect(forceName(31)).toBe('unknown (31)');
    expect(countryCode(999)).toBe('unknown (999)');
    expect(enumerationName('NoSuchEnumeration', 3)).toBe('unknown (3)');
    expect(enumerationName(99999, 3)).toBe('unknown (3)');
    // 2^32 + 225 must not alias 225 through a 32-bit key.
    expect(countryName(2 ** 32 + 225)).toBe(`unknown (${2 ** 32 + 225})`);
    expect(countryName(-1)).toBe('unknown (-1)');
    expect(countryName(1.5)).toBe('unknown (1.5)');
    expect(countryName(Number.NaN)).toBe('unknown (NaN)');
  });

  it('never throws, for any enumeration and any value', () => {
    const names = Object.keys(source);
    fc.assert(
      fc.property(
        fc.oneof(fc.constantFrom(...names), fc.string(), fc.integer()),
        fc.oneof(fc.integer(), fc.double(), fc.nat({ max: 2 ** 32 })),
        (enumeration, value) => {
          expect(typeof enumerationName(enumeration, value)).toBe('string');
        },
      ),
      { numRuns: 2000 },
    );
  });
});
