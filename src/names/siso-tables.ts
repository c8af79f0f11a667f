/**
 * The SISO-REF-010 tables, read from their compact form (siso-data.generated.ts, laid out by scripts/siso-names.ts)
 * piece by piece as lookups need them: an enumeration at the first lookup in it, the entity types of one kind,
 * domain and country at the first lookup among them. Once read, a lookup is one `PairIndex` probe.
 */
import {
  BIT_RECORDS,
  ENTITY_TYPE_COUNT,
  ENTITY_TYPES,
  ENUMERATION_VALUE_COUNT,
  ENUMERATIONS,
} from './siso-data.generated.js';
import { PairIndex } from './pair-index.js';

/** One enumeration of SISO-REF-010. */
export interface Enumeration {
  /** SISO's name without spaces, e.g. `Country`, `DisPduType`. */
  readonly name: string;
  /** SISO's UID, e.g. 29 for Country. */
  readonly uid: number;
  /** Its values, ascending, and the name of each. */
  readonly values: readonly number[];
  readonly names: readonly string[];
}

/** One field of a bit record (an appearance, capabilities, lights…). */
export interface BitField {
  /** SISO's field name, e.g. `DAMAGE`, `ISSMOKEEMANATING`. */
  readonly field: string;
  /** A readable label, e.g. "damage", "smoke emanating". */
  readonly label: string;
  /** Bit 0 is the least significant bit of the record. */
  readonly firstBit: number;
  readonly bitCount: number;
  /** The enumeration that names the field's values; undefined for a flag or a count. */
  readonly enumeration: Enumeration | undefined;
}

/** A bit record of SISO-REF-010 (an appearance, capabilities, …) and its fields. */
export interface BitRecord {
  /** SISO's record name, e.g. `LandPlatformAppearance`. */
  readonly name: string;
  readonly fields: readonly BitField[];
}

/** The high word of an entity type's key: kind, domain, country. */
export function entityTypeHigh(kind: number, domain: number, country: number): number {
  return ((kind & 0xff) << 24) | ((domain & 0xff) << 16) | (country & 0xffff);
}

/** The low word of an entity type's key: category, subcategory, specific, extra. */
export function entityTypeLow(category: number, subcategory: number, specific: number, extra: number): number {
  return ((category & 0xff) << 24) | ((subcategory & 0xff) << 16) | ((specific & 0xff) << 8) | (extra & 0xff);
}

// Enumerations ------------------------------------------------------------------------------------------------

interface EnumerationEntry {
  readonly name: string;
  readonly uid: number;
  readonly line: string;
  read: Enumeration | undefined;
}

let enumerationEntries: { byName: Map<string, EnumerationEntry>; byUid: Map<number, EnumerationEntry[]> } | undefined;
/** (uid, value) → the value's name, filled an enumeration at a time. */
let enumerationIndex = new PairIndex(0);
const enumerationValueNames: string[] = [];

function entries() {
  if (enumerationEntries === undefined) {
    enumerationIndex = new PairIndex(ENUMERATION_VALUE_COUNT);
    const byName = new Map<string, EnumerationEntry>();
    const byUid = new Map<number, EnumerationEntry[]>();
    for (const line of ENUMERATIONS.split('\n')) {
      const bar = line.indexOf('|');
      const head = bar < 0 ? line : line.slice(0, bar);
      const caret = head.indexOf('^');
      const entry: EnumerationEntry = {
        name: head.slice(0, caret),
        uid: parseInt(head.slice(caret + 1), 36),
        line,
        read: undefined,
      };
      byName.set(entry.name, entry);
      // Two enumerations may share a UID (SISO splits EmitterName in two): a lookup by UID reads both.
      byUid.set(entry.uid, [...(byUid.get(entry.uid) ?? []), entry]);
    }
    enumerationEntries = { byName, byUid };
  }
  return enumerationEntries;
}

function readEnumeration(entry: EnumerationEntry): Enumeration {
  if (entry.read === undefined) {
    const values: number[] = [];
    const names: string[] = [];
    let value = 0;
    const pairs = entry.line.split('|');
    for (let i = 1; i < pairs.length; i++) {
      const pair = pairs[i]!;
      const caret = pair.indexOf('^');
      value += parseInt(pair.slice(0, caret), 36);
      const name = pair.slice(caret + 1);
      values.push(value);
      names.push(name);
      enumerationIndex.set(entry.uid, value, enumerationValueNames.length);
      enumerationValueNames.push(name);
    }
    entry.read = { name: entry.name, uid: entry.uid, values, names };
  }
  return entry.read;
}

/** The enumeration with this name, or undefined. */
export function enumerationByName(name: string): Enumeration | undefined {
  const entry = entries().byName.get(name);
  return entry === undefined ? undefined : readEnumeration(entry);
}

/** The enumeration with this UID (the first, where two share it), or undefined. */
export function enumerationByUid(uid: number): Enumeration | undefined {
  const list = entries().byUid.get(uid);
  if (list === undefined) return undefined;
  for (const entry of list) readEnumeration(entry);
  return list[0]!.read;
}

/**
 * The name of `value` (a whole number 0 to 2^32 − 1) in the enumeration with this UID, or undefined when SISO does
 * not list it: one probe once the enumeration is read.
 */
export function enumerationValueName(uid: number, value: number): string | undefined {
  let id = enumerationIndex.get(uid, value);
  if (id < 0) {
    const list = entries().byUid.get(uid);
    if (list === undefined || list[0]!.read !== undefined) return undefined;
    for (const entry of list) readEnumeration(entry);
    id = enumerationIndex.get(uid, value);
    if (id < 0) return undefined;
  }
  return enumerationValueNames[id];
}

// Bit records ---------------------------------------------------------------------------------------------------

let bitRecords: Map<string, BitRecord> | undefined;

/** The bit record with this name (`LandPlatformAppearance`, …), or undefined. */
export function bitRecord(name: string): BitRecord | undefined {
  if (bitRecords === undefined) {
    bitRecords = new Map();
    for (const line of BIT_RECORDS.split('\n')) {
      const [record, ...fieldTexts] = line.split('|');
      const fields = fieldTexts.map((text): BitField => {
        const [field, first, count, enumeration, label] = text.split('^');
        return {
          field: field!,
          label: label!,
          firstBit: Number(first),
          bitCount: Number(count),
          enumeration: enumeration ? enumerationByName(enumeration) : undefined,
        };
      });
      bitRecords.set(record!, { name: record!, fields });
    }
  }
  return bitRecords.get(name);
}

/** The names of every bit record. */
export function bitRecordNames(): string[] {
  bitRecord('');
  return [...bitRecords!.keys()];
}

// Entity types --------------------------------------------------------------------------------------------------

/** The entity types SISO lists, by row; a row is filled when its kind, domain and country are first looked up. */
export interface EntityTypeRows {
  readonly count: number;
  /** kind << 24 | domain << 16 | country, per row. */
  readonly high: Int32Array;
  /** category << 24 | subcategory << 16 | specific << 8 | extra, per row. */
  readonly low: Int32Array;
  /** The names of category, subcategory, specific and extra, 4 per row (undefined: none). */
  readonly names: (string | undefined)[];
}

interface TypeGroup {
  readonly firstRow: number;
  readonly line: string;
  read: boolean;
}

let typeGroups: Map<number, TypeGroup> | undefined;
let typeIndex = new PairIndex(0);
let rows: EntityTypeRows = { count: 0, high: new Int32Array(0), low: new Int32Array(0), names: [] };

/** The rows (read so far). */
export function entityTypeRows(): EntityTypeRows {
  return rows;
}

/** The row SISO lists for exactly this key (`entityTypeHigh`, `entityTypeLow`), or -1. */
export function entityTypeRowOf(high: number, low: number): number {
  const row = typeIndex.get(high, low);
  if (row >= 0 || !readTypeGroup(high)) return row;
  return typeIndex.get(high, low);
}

/** Reads the rows of one kind, domain and country; false when there are none or they are read already. */
function readTypeGroup(high: number): boolean {
  if (typeGroups === undefined) {
    typeGroups = new Map();
    typeIndex = new PairIndex(ENTITY_TYPE_COUNT);
    rows = {
      count: ENTITY_TYPE_COUNT,
      high: new Int32Array(ENTITY_TYPE_COUNT),
      low: new Int32Array(ENTITY_TYPE_COUNT),
      names: new Array(ENTITY_TYPE_COUNT * 4).fill(undefined),
    };
    let firstRow = 0;
    for (const line of ENTITY_TYPES.split('\n')) {
      const caret = line.indexOf('^');
      const bar = line.indexOf('|');
      const key = parseInt(line.slice(0, caret), 36) | 0;
      typeGroups.set(key, { firstRow, line, read: false });
      firstRow += parseInt(line.slice(caret + 1, bar), 36);
    }
  }
  const group = typeGroups.get(high | 0);
  if (group === undefined || group.read) return false;
  group.read = true;
  const written = group.line.split('|');
  const above: (string | undefined)[] = [undefined, undefined, undefined, undefined];
  for (let i = 1; i < written.length; i++) {
    const row = group.firstRow + i - 1;
    const fields = written[i]!.split('^');
    const low = parseInt(fields[0]!, 36) | 0;
    for (let level = 0; level < 4; level++) {
      const text = fields[level + 1];
      const name = text === undefined ? undefined : text === '' ? above[level] : text === '~' ? undefined : text;
      above[level] = name;
      rows.names[row * 4 + level] = name;
    }
    rows.high[row] = high;
    rows.low[row] = low;
    typeIndex.set(high, low, row);
  }
  return true;
}

/** Reads every entity type SISO lists (for a search by name): after it, `entityTypeRows()` holds them all. */
export function readAllEntityTypes(): EntityTypeRows {
  readTypeGroup(-1); // makes the groups known
  for (const high of typeGroups!.keys()) readTypeGroup(high);
  return rows;
}
