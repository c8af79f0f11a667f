// An entity type as a person writes it: SISO-REF-010 numbers, or a name SISO lists (an ICAO designator for an
// airliner), for `reckon publish --type` and a recorded track's `entityType`.
import { describe, expect, it } from 'vitest';
import { entityTypeName } from '../../src/names/index.js';
import { findEntityType } from '../../src/names/entity-type-lookup.js';

describe('findEntityType', () => {
  it('reads the seven numbers, colon- or dot-separated, the missing trailing ones 0', () => {
    expect(findEntityType('1:2:225:87:32:5:0')).toEqual({
      type: { kind: 1, domain: 2, country: 225, category: 87, subcategory: 32, specific: 5, extra: 0 },
      name: '1:2:225:87:32:5:0',
    });
    expect(findEntityType(' 1.1.225 ')).toMatchObject({ type: { kind: 1, domain: 1, country: 225, category: 0 } });
    expect(findEntityType('1:2:256')).toEqual({
      type: expect.objectContaining({ country: 256 }),
      name: '1:2:256:0:0:0:0',
    });
    expect(findEntityType('1:300:225')).toEqual({
      problem: 'each field is 0–255 (the country 0–65535)',
      candidates: [],
    });
  });

  it('finds a platform by the name SISO gives it, whatever its letter case and punctuation', () => {
    for (const [text, name] of [
      ['M1A2', 'M1A2'],
      ['m1a2', 'M1A2'],
      ['T-72', 'T-72'],
      ['t72', 'T-72'],
      ['Boeing 737', 'Boeing 737'],
    ]) {
      const found = findEntityType(text!);
      expect(found, text).toMatchObject({ name });
      // The numbers found are the ones SISO names so (the names module reads them back).
      const names = entityTypeName((found as { type: Parameters<typeof entityTypeName>[0] }).type);
      expect(names.exact, text).toBe(true);
      expect([names.category, names.subcategory, names.specific, names.extra], text).toContain(name);
    }
  });

  it('reads an ICAO type designator of a Boeing or an Airbus as the model SISO lists', () => {
    expect(findEntityType('B737')).toMatchObject({
      name: 'Boeing 737-700',
      type: { kind: 1, domain: 2, country: 225, category: 87, subcategory: 32, specific: 5, extra: 7 },
    });
    expect(findEntityType('B738')).toMatchObject({ name: 'Boeing 737-800' });
    expect(findEntityType('A320')).toMatchObject({ name: 'Airbus A320' });
  });

  it('lists the names that contain a partial one, and says what to give when nothing matches', () => {
    const hind = findEntityType('Hind');
    expect(hind).toMatchObject({ problem: expect.stringMatching(/^no entity type is named "Hind" exactly; 9 names/) });
    expect((hind as { readonly candidates: readonly string[] }).candidates[0]).toBe(
      '1:2:222:20:2:0:0 Mi-24/25/35 Hind',
    );
    expect((hind as { readonly candidates: readonly string[] }).candidates).toHaveLength(8);
    expect(findEntityType('xyzzy')).toEqual({
      problem:
        'no entity type is named "xyzzy": give SISO-REF-010 numbers (kind:domain:country:category:subcategory:specific:extra) or a name SISO lists',
      candidates: [],
    });
  });
});
