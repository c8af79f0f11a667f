/**
 * Names of enumerated DIS values from SISO-REF-010: any enumeration by its name or UID, and the ones every reader
 * meets (PDU type, country, force, DR algorithm, entity kind and domain). A value SISO does not list is named
 * `unknown (N)`; nothing here throws.
 */
import { type Enumeration, enumerationByName, enumerationByUid, enumerationValueName } from './siso-tables.js';

/** SISO-REF-010 UIDs of the enumerations named here. */
export const EnumerationUid = {
  DIS_PDU_TYPE: 4,
  FORCE_ID: 6,
  ENTITY_KIND: 7,
  PLATFORM_DOMAIN: 8,
  MUNITION_DOMAIN: 14,
  COUNTRY: 29,
  DEAD_RECKONING_ALGORITHM: 44,
  VARIABLE_PARAMETER_RECORD_TYPE: 56,
  ATTACHED_PARTS: 57,
  ARTICULATED_PARTS_TYPE_METRIC: 58,
  ARTICULATED_PARTS_TYPE_CLASS: 59,
  SUPPLY_DOMAIN: 600,
} as const;

/** Entity kinds whose domain field is not a platform domain (SISO-REF-010 §6.1.3). */
const KIND_MUNITION = 2;
const KIND_SUPPLY = 6;

/** The enumeration with this name (`Country`) or UID (29), or undefined. */
export function enumerationOf(enumeration: string | number): Enumeration | undefined {
  return typeof enumeration === 'number' ? enumerationByUid(enumeration) : enumerationByName(enumeration);
}

/**
 * The name SISO gives `value` in an enumeration named by its name (`'Country'`) or UID (29): `unknown (N)` for a
 * value it does not list, or when there is no such enumeration. A listed value's name is the same string each call.
 */
export function enumerationName(enumeration: string | number, value: number): string {
  const uid = typeof enumeration === 'number' ? enumeration : enumerationByName(enumeration)?.uid;
  return uid === undefined ? unknownName(value) : nameByUid(uid, value);
}

/** The name of `value` in the enumeration with this UID, or `unknown (value)`. Allocates nothing for a listed value. */
export function nameByUid(uid: number, value: number): string {
  return (value >>> 0 === value ? enumerationValueName(uid, value) : undefined) ?? unknownName(value);
}

/** True when SISO lists `value` in the enumeration with this UID. */
export function isListed(uid: number, value: number): boolean {
  return value >>> 0 === value && enumerationValueName(uid, value) !== undefined;
}

/** PDU type (UID 4): 1 "Entity State", 2 "Fire", 67 "Entity State Update", … */
export function pduTypeName(pduType: number): string {
  return nameByUid(EnumerationUid.DIS_PDU_TYPE, pduType);
}

/** Country (UID 29): 225 "United States of America (USA)", … */
export function countryName(country: number): string {
  return nameByUid(EnumerationUid.COUNTRY, country);
}

/** Force ID (UID 6): 1 "Friendly", 2 "Opposing", 3 "Neutral", 4 "Friendly 2", … */
export function forceName(forceId: number): string {
  return nameByUid(EnumerationUid.FORCE_ID, forceId);
}

/** Dead reckoning algorithm (UID 44): 4 "DRM (RVW) - High Speed or Maneuvering Entity with Extrapolation of Orientation", … */
export function deadReckoningAlgorithmName(algorithm: number): string {
  return nameByUid(EnumerationUid.DEAD_RECKONING_ALGORITHM, algorithm);
}

/** Entity kind (UID 7): 1 "Platform", 2 "Munition", 3 "Life form", … */
export function entityKindName(kind: number): string {
  return nameByUid(EnumerationUid.ENTITY_KIND, kind);
}

/** The UID of the enumeration an entity type's domain field takes its names from, which the kind selects. */
export function domainEnumerationUid(kind: number): number {
  return kind === KIND_MUNITION
    ? EnumerationUid.MUNITION_DOMAIN
    : kind === KIND_SUPPLY
      ? EnumerationUid.SUPPLY_DOMAIN
      : EnumerationUid.PLATFORM_DOMAIN;
}

/** The domain of an entity type: a platform domain ("Land", "Air", …), a munition's ("Anti-Armor") or a supply class. */
export function domainName(kind: number, domain: number): string {
  return nameByUid(domainEnumerationUid(kind), domain);
}

let countryCodes: string[] | undefined;

/**
 * A country's short form for a screen: the ISO 3166 three-letter code SISO writes after the name ("USA" for 225),
 * the name where it gives none ("Russia" for 260), `unknown (N)` for a value it does not list.
 */
export function countryCode(country: number): string {
  if (countryCodes === undefined) {
    const table = enumerationByUid(EnumerationUid.COUNTRY)!;
    countryCodes = [];
    for (let i = 0; i < table.values.length; i++) {
      const name = table.names[i]!;
      countryCodes[table.values[i]!] = /\(([A-Z]{3})\)$/.exec(name)?.[1] ?? name;
    }
  }
  return (country >>> 0 === country ? countryCodes[country] : undefined) ?? unknownName(country);
}

const UNKNOWN_CACHE_LIMIT = 4096;
const unknownNames = new Map<number, string>();

/** `unknown (N)`, the name of any value SISO does not list; made once per value (up to a bound, then again). */
export function unknownName(value: number): string {
  let name = unknownNames.get(value);
  if (name === undefined) {
    if (unknownNames.size >= UNKNOWN_CACHE_LIMIT) unknownNames.clear();
    name = `unknown (${value})`;
    unknownNames.set(value, name);
  }
  return name;
}
