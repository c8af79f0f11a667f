/**
 * Entity types found by name: "M1A2", "Boeing 737-900", "Generic Container Ship", as SISO-REF-010 names the
 * deepest level of a listed type. The whole list is read at the first search and indexed by name, case and spaces
 * ignored; a name SISO gives several types (a platform and a munition, or the same model for several countries)
 * is resolved by the caller's kind and domain, then in SISO's order of rows.
 */
import { readAllEntityTypes } from './siso-tables.js';

let byName: Map<string, number[]> | undefined;

/** A name as the index holds it: lower case, runs of spaces as one. */
function normalized(name: string): string {
  return name.trim().toLowerCase().replace(/\s+/g, ' ');
}

function index(): Map<string, number[]> {
  if (byName) return byName;
  const rows = readAllEntityTypes();
  byName = new Map();
  for (let row = 0; row < rows.count; row++) {
    // The deepest named level is the type's own name; a level repeated from above belongs to its parent.
    for (let level = 3; level >= 0; level--) {
      const name = rows.names[row * 4 + level];
      if (name === undefined) continue;
      const above = level > 0 ? rows.names[row * 4 + level - 1] : undefined;
      if (name === above) break;
      const key = normalized(name);
      const list = byName.get(key);
      if (list) list.push(row);
      else byName.set(key, [row]);
      break;
    }
  }
  return byName;
}

/** What a search may be narrowed to. */
export interface EntityTypeSearch {
  /** Prefer types of this kind (1 platform, 2 munition, …). */
  readonly kind?: number;
  /** Prefer types of this domain (1 land, 2 air, 3 surface, …). */
  readonly domain?: number;
}

/**
 * The entity type SISO lists under this name (its seven numbers), preferring the kind and domain asked for (then
 * platforms), or undefined when no listed type has that name.
 */
export function entityTypeByName(
  name: string,
  prefer: EntityTypeSearch = {},
): [number, number, number, number, number, number, number] | undefined {
  const rows = index().get(normalized(name));
  if (!rows) return undefined;
  const all = readAllEntityTypes();
  const score = (row: number): number => {
    const high = all.high[row]!;
    const kind = high >>> 24,
      domain = (high >>> 16) & 0xff;
    return (
      (prefer.kind === undefined || kind === prefer.kind ? 4 : 0) +
      (prefer.domain === undefined || domain === prefer.domain ? 2 : 0) +
      (kind === 1 ? 1 : 0)
    );
  };
  let best = rows[0]!;
  for (const row of rows) if (score(row) > score(best)) best = row;
  const high = all.high[best]!,
    low = all.low[best]!;
  return [
    high >>> 24,
    (high >>> 16) & 0xff,
    high & 0xffff,
    low >>> 24,
    (low >>> 16) & 0xff,
    (low >>> 8) & 0xff,
    low & 0xff,
  ];
}
