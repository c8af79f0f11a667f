/**
 * An entity type written by a person: the seven numbers of IEEE 1278.1 §6.2.30 ("1:2:225:87:32:5:0", missing
 * trailing fields 0), or a name SISO-REF-010 gives one ("M1A2", "Boeing 737") — or an ICAO aircraft type designator
 * for a Boeing or an Airbus ("B737", "A320"), which SISO names by the model.
 */
import type { EntityType } from '../pdu/schema/schema.js';
import { readAllEntityTypes } from './siso-tables.js';

/** What `findEntityType` found: one type, or why not (several candidates to choose from, or none). */
export type EntityTypeLookup =
  | { readonly type: EntityType; readonly name: string }
  | { readonly problem: string; readonly candidates: readonly string[] };

/** Most candidates listed when a name is ambiguous. */
const LISTED = 8;

/** Lower case, letters and digits only: "Boeing 737-800" → "boeing737800". */
function squeezed(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/** The SISO names an ICAO designator stands for (B738 → Boeing 737-800, then Boeing 737; A320 → Airbus A320). */
function designatorNames(text: string): string[] {
  const boeing = /^B7(\d)(\d)$/i.exec(text);
  if (boeing) {
    const model = `boeing7${boeing[1]}7`;
    return [`${model}${boeing[2]}00`, `${model}${boeing[2]}`, model];
  }
  const airbus = /^A(3\d\d)$/i.exec(text);
  if (airbus) return [`airbusa${airbus[1]}`];
  return [];
}

function fields(high: number, low: number): EntityType {
  return {
    kind: high >>> 24,
    domain: (high >>> 16) & 0xff,
    country: high & 0xffff,
    category: low >>> 24,
    subcategory: (low >>> 16) & 0xff,
    specific: (low >>> 8) & 0xff,
    extra: low & 0xff,
  };
}

function formatted(t: EntityType): string {
  return [t.kind, t.domain, t.country, t.category, t.subcategory, t.specific, t.extra].join(':');
}

/**
 * The entity type of `text`: numbers (1 to 7 fields, colon- or dot-separated, each within its field's range), else
 * the SISO entry whose deepest name is `text` (letter case, spaces and punctuation aside; platforms, kind 1, before
 * other kinds), else an ICAO designator's model. Several entries of that name are listed to choose from.
 */
export function findEntityType(text: string): EntityTypeLookup {
  const trimmed = text.trim();
  if (/^\d+([:.]\d+){0,6}$/.test(trimmed)) {
    const numbers = trimmed.split(/[:.]/).map(Number);
    while (numbers.length < 7) numbers.push(0);
    const [kind, domain, country, category, subcategory, specific, extra] = numbers as [
      number,
      number,
      number,
      number,
      number,
      number,
      number,
    ];
    const bytes = [kind, domain, category, subcategory, specific, extra];
    if (bytes.some((b) => b > 255) || country > 65535) {
      return { problem: 'each field is 0–255 (the country 0–65535)', candidates: [] };
    }
    const type = { kind, domain, country, category, subcategory, specific, extra };
    return { type, name: formatted(type) };
  }
  const rows = readAllEntityTypes();
  const wanted = [squeezed(trimmed), ...designatorNames(trimmed)];
  for (const name of wanted) {
    if (name === '') continue;
    const found: Array<{ type: EntityType; name: string }> = [];
    for (let row = 0; row < rows.count; row++) {
      let deepest: string | undefined;
      for (let level = 3; level >= 0 && deepest === undefined; level--) deepest = rows.names[row * 4 + level];
      if (deepest !== undefined && squeezed(deepest) === name) {
        found.push({ type: fields(rows.high[row]!, rows.low[row]!), name: deepest });
      }
    }
    // The shallowest entry of that name (a family before its variants), platforms before munitions and the rest.
    const platforms = found.filter((f) => f.type.kind === 1);
    const pool = platforms.length > 0 ? platforms : found;
    if (pool.length === 1) return pool[0]!;
    if (pool.length > 1) {
      return {
        problem: `${pool.length} entity types are named "${trimmed}"; give one by its numbers`,
        candidates: pool.slice(0, LISTED).map((f) => `${formatted(f.type)} ${f.name}`),
      };
    }
  }
  // No exact name: the names that contain it as a word ("Hind" in "Mi-24 HIND").
  const word = new RegExp(`(^|[^a-z0-9])${trimmed.toLowerCase().replace(/[^a-z0-9]+/g, '[^a-z0-9]*')}($|[^a-z0-9])`);
  const containing: Array<{ type: EntityType; name: string }> = [];
  if (squeezed(trimmed).length >= 3) {
    for (let row = 0; row < rows.count; row++) {
      let deepest: string | undefined;
      for (let level = 3; level >= 0 && deepest === undefined; level--) deepest = rows.names[row * 4 + level];
      if (deepest !== undefined && rows.high[row]! >>> 24 === 1 && word.test(deepest.toLowerCase())) {
        containing.push({ type: fields(rows.high[row]!, rows.low[row]!), name: deepest });
      }
    }
  }
  if (containing.length > 0) {
    return {
      problem: `no entity type is named "${trimmed}" exactly; ${containing.length === 1 ? 'one name contains' : `${containing.length} names contain`} it: give one by its numbers or its name`,
      candidates: containing.slice(0, LISTED).map((f) => `${formatted(f.type)} ${f.name}`),
    };
  }
  return {
    problem: `no entity type is named "${trimmed}": give SISO-REF-010 numbers (kind:domain:country:category:subcategory:specific:extra) or a name SISO lists`,
    candidates: [],
  };
}
