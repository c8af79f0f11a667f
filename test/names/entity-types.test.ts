// Entity type names against data/siso/entity-types.tsv itself (every row, every level), spot checks, the
// nearest-parent fallback on made-up types, and any 64-bit type named without an exception.
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { entityTypeName, entityTypeNameOf, entityTypeText } from '../../src/names/index.js';

const rows = readFileSync(new URL('../../data/siso/entity-types.tsv', import.meta.url), 'utf8')
  .split('\n')
  .slice(1)
  .filter((line) => line !== '')
  .map((line) => line.split('\t'));

const type = (text: string) => text.split(':').map(Number);

describe('entityTypeName', () => {
  it('names every level of every entity type SISO lists, as data/siso/entity-types.tsv does', () => {
    const wrong: string[] = [];
    for (const cells of rows) {
      const numbers = cells.slice(0, 7).map(Number);
      const names = entityTypeName(numbers);
      const expected = cells.slice(8, 12).map((n) => (n === '' ? undefined : n));
      const got = [names.category, names.subcategory, names.specific, names.extra];
      if (!names.exact || names.listedAs !== numbers.join(':') || got.some((g, i) => g !== expected[i])) {
        wrong.push(`${numbers.join(':')}: ${JSON.stringify(got)} ≠ ${JSON.stringify(expected)}`);
      }
    }
    expect(wrong.slice(0, 10)).toEqual([]);
    expect(rows).toHaveLength(23_929);
  });

  it('names an M1A2, an AH-64A, a destroyer, a soldier and a missile', () => {
    const m1a2 = entityTypeName({
      kind: 1,
      domain: 1,
      country: 225,
      category: 1,
      subcategory: 1,
      specific: 3,
      extra: 0,
    });
    expect(m1a2).toMatchObject({
      kind: 'Platform',
      domain: 'Land',
      country: 'United States of America (USA)',
      category: 'Tank',
      subcategory: 'M1 Abrams',
      specific: 'M1A2',
      extra: undefined,
      exact: true,
      label: 'M1A2 · Tank · USA',
      path: 'Platform / Land / United States of America (USA) / Tank / M1 Abrams / M1A2',
    });
    expect(entityTypeName(type('1:2:225:20:1:1:0'))).toMatchObject({
      domain: 'Air',
      category: 'Attack helicopter',
      subcategory: 'McDonnell-Douglas AH-64 Apache',
      specific: 'AH-64A',
      label: 'AH-64A · Attack helicopter · USA',
    });
    expect(entityTypeName(type('1:3:225:4:1:1:0'))).toMatchObject({
      domain: 'Surface',
      category: 'Guided Missile Destroyer',
      specific: 'DDG 51 Arleigh Burke',
      label: 'DDG 51 Arleigh Burke · Guided Missile Destroyer · USA',
    });
    expect(entityTypeName(type('3:1:225:11:5:40:0'))).toMatchObject({
      kind: 'Life form',
      category: 'U.S. Army (USA)',
      subcategory: 'Assault Rifles',
      specific: '5.56mm M16A1',
    });
    expect(entityTypeName(type('2:1:225:1:1:1:0'))).toMatchObject({
      kind: 'Munition',
      domain: 'Anti-Air',
      category: 'Guided',
      subcategory: 'AIM-9 Sidewinder',
      specific: 'AIM-9B',
      label: 'AIM-9B · Guided · USA',
    });
  });

  it('names a level left empty between two named ones as absent, and skips it in the path', () => {
    const spill = entityTypeName(type('4:1:0:2:0:1:0'));
    expect(spill.subcategory).toBeUndefined();
    expect(spill.specific).toBe('Powder Spill, Residue');
    expect(spill.path).toBe('Environmental / Land / Other / Powder Spill / Powder Spill, Residue');
    expect(spill.label).toBe('Powder Spill, Residue · Powder Spill');
  });

  it('names a type SISO does not list by its nearest listed parent', () => {
    const extra = entityTypeName(type('1:1:225:1:1:3:77'));
    expect(extra).toMatchObject({ specific: 'M1A2', exact: false, listedAs: '1:1:225:1:1:3:0' });
    expect(extra.label).toBe('M1A2 · Tank · USA');
    expect(entityTypeName(type('1:1:225:1:1:200:0'))).toMatchObject({
      subcategory: 'M1 Abrams',
      specific: undefined,
      listedAs: '1:1:225:1:1:0:0',
    });
    expect(entityTypeName(type('1:1:225:1:250:9:9'))).toMatchObject({
      category: 'Tank',
      subcategory: undefined,
      listedAs: '1:1:225:1:0:0:0',
      label: 'Tank · USA',
    });
    // No listed category: kind, domain and country only.
    expect(entityTypeName(type('1:1:225:199:1:1:1'))).toMatchObject({
      kind: 'Platform',
      domain: 'Land',
      country: 'United States of America (USA)',
      category: undefined,
      exact: false,
      listedAs: undefined,
      label: 'Platform · Land · USA',
    });
  });

  it("names a category SISO lists no entity type for by the kind and domain's category enumeration", () => {
    // Andorra (5) has no entity types; Tank is category 1 of PlatformLandCategory.
    expect(entityTypeName(type('1:1:5:1:1:1:0'))).toMatchObject({
      country: 'Andorra (AND)',
      category: 'Tank',
      subcategory: undefined,
      exact: false,
      listedAs: undefined,
      label: 'Tank · AND',
    });
    expect(entityTypeName(type('1:2:5:20:0:0:0')).category).toBe('Attack Helicopter');
    expect(entityTypeName(type('2:2:5:1:0:0:0')).label).toBe('Guided · Munition · AND');
    expect(entityTypeName(type('8:2:5:2:0:0:0')).category).toBe('Flare');
  });

  it('names unknown kinds, domains and countries `unknown (N)`', () => {
    expect(entityTypeName(type('12:40:999:1:1:1:1'))).toMatchObject({
      kind: 'unknown (12)',
      domain: 'unknown (40)',
      country: 'unknown (999)',
      label: 'unknown (12) · unknown (40) · unknown (999)',
    });
    expect(entityTypeName(type('0:0:0:0:0:0:0')).label).toBe('Other · Other');
  });

  it('returns the same object for the same type (nothing made per lookup)', () => {
    expect(entityTypeName(type('1:1:225:1:1:3:0'))).toBe(entityTypeNameOf(1, 1, 225, 1, 1, 3, 0));
    expect(entityTypeName(type('1:1:225:1:1:3:9'))).toBe(entityTypeName(type('1:1:225:1:1:3:8')));
    expect(entityTypeName(type('1:1:225:199:0:0:0'))).toBe(entityTypeName(type('1:1:225:199:0:0:0')));
  });

  it('writes the seven numbers', () => {
    expect(entityTypeText(new Uint16Array([1, 1, 225, 1, 1, 3, 0]))).toBe('1:1:225:1:1:3:0');
    expect(
      entityTypeText({ kind: 2, domain: 1, country: 225, category: 1, subcategory: 1, specific: 1, extra: 0 }),
    ).toBe('2:1:225:1:1:1:0');
  });

  it('names any 64-bit entity type, and any numbers at all, without throwing', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }), (bits) => {
        const bytes = new Uint8Array(8);
        new DataView(bytes.buffer).setBigUint64(0, bits);
        const numbers = [
          bytes[0]!,
          bytes[1]!,
          (bytes[2]! << 8) | bytes[3]!,
          bytes[4]!,
          bytes[5]!,
          bytes[6]!,
          bytes[7]!,
        ];
        const names = entityTypeName(numbers);
        expect(typeof names.label).toBe('string');
        expect(names.path.startsWith(names.kind)).toBe(true);
      }),
      { numRuns: 3000 },
    );
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.integer(), fc.double()), { minLength: 7, maxLength: 7 }), (numbers) => {
        expect(typeof entityTypeName(numbers).label).toBe('string');
      }),
      { numRuns: 1000 },
    );
  });
});
