/**
 * Bit records of SISO-REF-010 decoded field by field: above all the 32-bit appearance of an Entity State PDU, whose
 * layout the entity's kind (and for a platform its domain) selects (SISO-REF-010 §4.3; bit 0 the least significant).
 */
import { type EntityTypeLike, entityTypeFields } from './entity-type-fields.js';
import { unknownName } from './enumerations.js';
import { type BitField, type BitRecord, bitRecord, enumerationValueName } from './siso-tables.js';

/** One field of a decoded bit record. */
export interface BitFieldValue {
  /** SISO's field name, e.g. `DAMAGE`. */
  readonly field: string;
  /** Readable, e.g. "damage", "smoke emanating". */
  readonly label: string;
  readonly firstBit: number;
  readonly bitCount: number;
  readonly value: number;
  /**
   * The value's name: its enumeration's ("Destroyed"), "yes"/"no" for a one-bit flag, the number itself for a
   * count; `unknown (N)` for a value the enumeration does not list.
   */
  readonly valueName: string;
}

/** The appearance of an entity, field by field. */
export interface DecodedAppearance {
  /** The bit record the entity type selects (`LandPlatformAppearance`, …), or undefined for a kind that has none. */
  readonly record: string | undefined;
  readonly fields: readonly BitFieldValue[];
}

const PLATFORM_APPEARANCE: readonly (string | undefined)[] = [
  undefined,
  'LandPlatformAppearance',
  'AirPlatformAppearance',
  'SurfacePlatformAppearance',
  'SubsurfacePlatformAppearance',
  'SpacePlatformAppearance',
];
const KIND_APPEARANCE: readonly (string | undefined)[] = [
  undefined,
  undefined, // platforms: by domain
  'MunitionAppearance',
  'LifeFormsAppearance',
  'EnvironmentalAppearance',
  'CulturalFeatureAppearance',
  'SupplyAppearance',
  'RadioAppearance',
  'ExpendableAppearance',
  'SensorEmitterAppearance',
];
/** Life form categories from 200 up are animals (SISO-REF-010 §6.2.3), with an appearance of their own. */
const FIRST_NON_HUMAN_CATEGORY = 200;

/**
 * The name of the appearance record an entity type selects: a platform's by its domain (land, air, surface,
 * subsurface, space), a life form's by whether it is human (categories below 200) or not, every other kind its own;
 * undefined for kind 0 (other), a platform of domain 0 and kinds SISO does not list.
 */
export function appearanceRecordName(kind: number, domain: number, category = 0): string | undefined {
  if (kind === 1) return PLATFORM_APPEARANCE[domain];
  if (kind === 3 && category >= FIRST_NON_HUMAN_CATEGORY) return 'NonHumanLifeFormsAppearance';
  return KIND_APPEARANCE[kind];
}

/** The value of `field` in `bits` (read as 32 unsigned bits). */
export function bitFieldValue(field: BitField, bits: number): number {
  const word = bits >>> 0;
  return field.bitCount >= 32 ? word : (word >>> field.firstBit) & (2 ** field.bitCount - 1);
}

/** The name of a field's value: as `BitFieldValue.valueName`. */
export function bitFieldValueName(field: BitField, value: number): string {
  if (field.enumeration !== undefined) return enumerationValueName(field.enumeration.uid, value) ?? unknownName(value);
  if (field.bitCount === 1) return value === 0 ? 'no' : 'yes';
  return String(value);
}

/** Every field of the bit record named `record` (`LandPlatformAppearance`, `AirPlatformCapabilities`, …) in `bits`. */
export function decodeBitRecord(record: string | BitRecord, bits: number): BitFieldValue[] {
  const fields = (typeof record === 'string' ? bitRecord(record) : record)?.fields ?? [];
  return fields.map((f) => {
    const value = bitFieldValue(f, bits);
    return {
      field: f.field,
      label: f.label,
      firstBit: f.firstBit,
      bitCount: f.bitCount,
      value,
      valueName: bitFieldValueName(f, value),
    };
  });
}

/** The appearance record of an entity type, or undefined. */
export function appearanceRecord(type: EntityTypeLike): BitRecord | undefined {
  const [kind, domain, , category] = entityTypeFields(type);
  const name = appearanceRecordName(kind, domain, category);
  return name === undefined ? undefined : bitRecord(name);
}

/** Every field of an entity's appearance, as its type selects them. Never throws. */
export function decodeAppearance(type: EntityTypeLike, appearance: number): DecodedAppearance {
  const record = appearanceRecord(type);
  return { record: record?.name, fields: record === undefined ? [] : decodeBitRecord(record, appearance) };
}

/** Fields whose value alone says it all ("destroyed", "deactivated", "moderate injury"). */
const SELF_EXPLAINING = new Set(['DAMAGE', 'HEALTH', 'STATE']);

/**
 * The fields of an appearance that are set (not zero), as short text: "destroyed, smoke emanating, flaming,
 * deactivated"; '' when none is. Flags give their label, damage, health and state their value's name, other fields
 * "label: value".
 */
export function appearanceSummary(type: EntityTypeLike, appearance: number): string {
  return setAppearanceFields(type, appearance)
    .map((f) =>
      f.bitCount === 1 && f.valueName === 'yes'
        ? f.label
        : SELF_EXPLAINING.has(f.field)
          ? f.valueName.toLowerCase()
          : `${f.label}: ${f.valueName}`,
    )
    .join(', ');
}

/** The fields of an appearance that are not zero. */
export function setAppearanceFields(type: EntityTypeLike, appearance: number): BitFieldValue[] {
  return decodeAppearance(type, appearance).fields.filter((f) => f.value !== 0);
}

const conditionFields = new Map<string, BitField | null>();

/**
 * The damage an entity's appearance shows ("Slight Damage", "Destroyed"; for a life form its health, "Slight
 * Injury", "Fatal Injury"), or undefined when it shows none or its record has no such field. Allocates nothing: for
 * a live table's every row and frame.
 */
export function appearanceDamage(
  kind: number,
  domain: number,
  category: number,
  appearance: number,
): string | undefined {
  const name = appearanceRecordName(kind, domain, category);
  if (name === undefined) return undefined;
  let field = conditionFields.get(name);
  if (field === undefined) {
    field = bitRecord(name)?.fields.find((f) => f.field === 'DAMAGE' || f.field === 'HEALTH') ?? null;
    conditionFields.set(name, field);
  }
  if (field === null) return undefined;
  const value = bitFieldValue(field, appearance);
  return value === 0 ? undefined : bitFieldValueName(field, value);
}
