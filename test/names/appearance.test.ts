// Appearance and the other bit records: every one of the 64 records of data/siso/bitfields.json decoded on a value
// with every field set, the record each kind and domain selects, and any 32-bit appearance decoded without throwing.
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  appearanceDamage,
  appearanceRecordName,
  appearanceSummary,
  bitRecordNames,
  decodeAppearance,
  decodeBitRecord,
  setAppearanceFields,
} from '../../src/names/index.js';

type Field = [string, number, number, string | null, string];
const read = (file: string) => JSON.parse(readFileSync(new URL(`../../data/siso/${file}`, import.meta.url), 'utf8'));
const records = read('bitfields.json') as Record<string, Field[]>;
const enumerations = read('enumerations.json') as Record<string, { values: [number, string][] }>;

describe('decodeBitRecord', () => {
  it('knows all 64 bit records', () => {
    expect(bitRecordNames().sort()).toEqual(Object.keys(records).sort());
    expect(Object.keys(records)).toHaveLength(64);
  });

  it.each(Object.keys(records))('%s: every field on a value with each field set to a known value', (name) => {
    const fields = records[name]!;
    // Each field gets the largest value its enumeration lists that fits its bits, or all ones.
    let bits = 0;
    const expected = fields.map(([field, first, count, enumeration]) => {
      const fits = (v: number) => v < 2 ** count;
      const listed = enumeration === null ? [] : enumerations[enumeration]!.values.filter(([v]) => fits(v));
      const [value, valueName] =
        listed.length > 0 ? listed[listed.length - 1]! : [2 ** count - 1, count === 1 ? 'yes' : String(2 ** count - 1)];
      bits = (bits | (value * 2 ** first)) >>> 0;
      return { field, firstBit: first, bitCount: count, value, valueName };
    });
    const decoded = decodeBitRecord(name, bits);
    expect(decoded.map(({ label: _label, ...rest }) => rest)).toEqual(expected);
    for (const f of decoded) expect(f.label).toMatch(/^[A-Za-z0-9 ]+$/);
    // And on zero: every field 0, named.
    for (const f of decodeBitRecord(name, 0)) {
      expect(f.value).toBe(0);
      expect(f.valueName.length).toBeGreaterThan(0);
    }
  });

  it('names a value the enumeration does not list `unknown (N)`, and an unknown record has no fields', () => {
    // LandPlatformAppearance PRIMARYHATCH (bits 9–11, AppearanceHatch) lists 0–5.
    const hatch = decodeBitRecord('LandPlatformAppearance', 7 << 9).find((f) => f.field === 'PRIMARYHATCH')!;
    expect(hatch).toMatchObject({ value: 7, valueName: 'unknown (7)' });
    expect(decodeBitRecord('NoSuchRecord', 5)).toEqual([]);
  });
});

describe('decodeAppearance', () => {
  const m1a2 = [1, 1, 225, 1, 1, 3, 0];

  it('selects the record by kind, domain and, for life forms, category', () => {
    expect(appearanceRecordName(1, 1)).toBe('LandPlatformAppearance');
    expect(appearanceRecordName(1, 2)).toBe('AirPlatformAppearance');
    expect(appearanceRecordName(1, 3)).toBe('SurfacePlatformAppearance');
    expect(appearanceRecordName(1, 4)).toBe('SubsurfacePlatformAppearance');
    expect(appearanceRecordName(1, 5)).toBe('SpacePlatformAppearance');
    expect(appearanceRecordName(2, 2)).toBe('MunitionAppearance');
    expect(appearanceRecordName(3, 1, 11)).toBe('LifeFormsAppearance');
    expect(appearanceRecordName(3, 1, 200)).toBe('NonHumanLifeFormsAppearance');
    expect(appearanceRecordName(4, 1)).toBe('EnvironmentalAppearance');
    expect(appearanceRecordName(5, 1)).toBe('CulturalFeatureAppearance');
    expect(appearanceRecordName(6, 1)).toBe('SupplyAppearance');
    expect(appearanceRecordName(7, 1)).toBe('RadioAppearance');
    expect(appearanceRecordName(8, 2)).toBe('ExpendableAppearance');
    expect(appearanceRecordName(9, 1)).toBe('SensorEmitterAppearance');
    expect(appearanceRecordName(0, 0)).toBeUndefined();
    expect(appearanceRecordName(1, 0)).toBeUndefined();
    expect(appearanceRecordName(12, 1)).toBeUndefined();
  });

  it('decodes the destroyed, smoking, burning tank of the VR-Forces capture (0x00008038) and its deactivation', () => {
    expect(appearanceSummary(m1a2, 0x00008038)).toBe('destroyed, smoke emanating, flaming');
    expect(appearanceSummary(m1a2, 0x00808038)).toBe('destroyed, smoke emanating, flaming, deactivated');
    const fields = decodeAppearance(m1a2, 0x00808038);
    expect(fields.record).toBe('LandPlatformAppearance');
    expect(fields.fields).toHaveLength(26);
    expect(setAppearanceFields(m1a2, 0x00808038).map((f) => [f.field, f.valueName])).toEqual([
      ['DAMAGE', 'Destroyed'],
      ['ISSMOKEEMANATING', 'yes'],
      ['ISFLAMING', 'yes'],
      ['STATE', 'Deactivated'],
    ]);
    expect(appearanceSummary(m1a2, 0)).toBe('');
  });

  it('names other fields "label: value": lights, hatch, camouflage, a helicopter, a soldier', () => {
    // Land: head lights (12), primary hatch open (9–11 = 4), forest camouflage (17–18 = 2).
    expect(appearanceSummary(m1a2, (1 << 12) | (4 << 9) | (2 << 17))).toBe(
      'primary hatch: Open, head lights on, camouflage type: Forest Camouflage',
    );
    // Air: landing gear extended (25), slight damage (3–4 = 1).
    expect(appearanceSummary([1, 2, 225, 20, 1, 1, 0], (1 << 25) | (1 << 3))).toBe(
      'slight damage, landing gear extended',
    );
    // Human life form: moderate injury (3–4 = 2), kneeling (16–19 = 4).
    expect(appearanceSummary([3, 1, 225, 11, 5, 40, 0], (2 << 3) | (4 << 16))).toBe(
      'moderate injury, life form posture: Kneeling',
    );
  });

  it("gives the damage (or a life form's health) for a live table, undefined when none", () => {
    expect(appearanceDamage(1, 1, 1, 0x18)).toBe('Destroyed');
    expect(appearanceDamage(1, 2, 20, 1 << 3)).toBe('Slight Damage');
    expect(appearanceDamage(3, 1, 11, 3 << 3)).toBe('Fatal Injury');
    expect(appearanceDamage(1, 1, 1, 0)).toBeUndefined();
    expect(appearanceDamage(0, 0, 0, 0x18)).toBeUndefined();
    expect(appearanceDamage(7, 1, 1, 0x18)).toBeUndefined(); // a radio's appearance has no damage
  });

  it('decodes any entity type and any 32-bit appearance without throwing', () => {
    fc.assert(
      fc.property(
        fc.array(fc.nat({ max: 300 }), { minLength: 7, maxLength: 7 }),
        fc.oneof(fc.nat({ max: 0xffff_ffff }), fc.integer(), fc.double()),
        (type, appearance) => {
          const decoded = decodeAppearance(type, appearance);
          for (const f of decoded.fields) expect(typeof f.valueName).toBe('string');
          expect(typeof appearanceSummary(type, appearance)).toBe('string');
          appearanceDamage(type[0]!, type[1]!, type[3]!, appearance);
        },
      ),
      { numRuns: 3000 },
    );
  });
});
