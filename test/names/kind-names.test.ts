// Kinds and domains named as SISO-REF-010 names them — every kind, and every domain of the enumeration the kind takes
// its domains from (data/siso/enumerations.json, read here on its own) — and every entity type's short label saying
// what kind of thing it is (a supply is not just "Other").
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { entityTypeNameOf } from '../../src/names/index.js';

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url));
type Values = { uid: number; values: Array<[number, string]> };
const enumerations = JSON.parse(read('data/siso/enumerations.json').toString('utf8')) as Record<string, Values>;
const KINDS = enumerations.EntityKind!.values;
/**
 * The enumeration an Entity Type's domain field takes its names from (SISO-REF-010, Entity Type record): munitions
 * (kind 2) and supplies (kind 6) have domains of their own, every other kind the platform domains.
 */
const domainsOf = (kind: number) =>
  (kind === 2 ? enumerations.MunitionDomain : kind === 6 ? enumerations.SupplyDomain : enumerations.PlatformDomain)!
    .values;
const kindName = new Map(KINDS);
const GENERIC = /^(other|unused|not used|unknown)$/i;

/** Does a label that names no level below the category say the kind? Platforms' categories do ("Tank"). */
function saysKind(label: string, kind: number, category: string | undefined): boolean {
  if (kind === 1 && category !== undefined && !GENERIC.test(category)) return true;
  return label.toLowerCase().split(' · ').includes(kindName.get(kind)!.toLowerCase());
}

describe('kinds and domains', () => {
  it('names every kind and every domain SISO lists, from the enumeration the kind takes its domains from', () => {
    expect(KINDS.map(([, name]) => name)).toContain('Supply');
    let pairs = 0;
    for (const [kind, kind_] of KINDS) {
      for (const [domain, domain_] of domainsOf(kind)) {
        const names = entityTypeNameOf(kind, domain, 0, 0, 0, 0, 0);
        expect({ kind: names.kind, domain: names.domain }).toEqual({ kind: kind_, domain: domain_ });
        expect(names.path.startsWith(`${kind_} / ${domain_}`)).toBe(true);
        expect(saysKind(names.label, kind, names.category), names.label).toBe(true);
        pairs++;
      }
    }
    expect(pairs).toBe(10 * 6 - 2 * 6 + 13 + 13);
  });

  it('labels every entity type SISO names only down to its category with its kind (kind 6: "… · Supply")', () => {
    const rows = read('data/siso/entity-types.tsv').toString('utf8').split('\n').slice(1).filter(Boolean);
    const wrong: string[] = [];
    let categoryOnly = 0;
    for (const row of rows) {
      const cells = row.split('\t');
      const numbers = cells.slice(0, 7).map(Number) as [number, number, number, number, number, number, number];
      const names = entityTypeNameOf(...numbers);
      if (names.kind !== kindName.get(numbers[0]) || names.domain !== new Map(domainsOf(numbers[0])).get(numbers[1])) {
        wrong.push(`${numbers.join(':')}: ${names.kind} / ${names.domain}`);
      }
      // A level below the category counts when it is named and numbered (0 is the "…, Other" under the parent).
      if ([9, 10, 11].some((c) => cells[c] !== '' && numbers[c - 5] !== 0)) continue;
      categoryOnly++;
      if (!saysKind(names.label, numbers[0], cells[8] || undefined)) wrong.push(`${numbers.join(':')}: ${names.label}`);
    }
    expect(wrong.slice(0, 10)).toEqual([]);
    expect(categoryOnly).toBeGreaterThan(1000);
    expect(entityTypeNameOf(6, 0, 0, 0, 0, 0, 0).label).toBe('Other · Supply');
    expect(entityTypeNameOf(6, 1, 0, 3, 0, 0, 0).label).toBe('C - Combat Rations · Supply');
  });
});
