// Every CoT type reckon sends is one MITRE's CoTtypes.xml lists (test/fixtures/cot/CoTtypes.xml.gz, see
// test/fixtures/SOURCES.md): an unlisted 2525C function id gives way to its listed parent, and space entities,
// whose 2525C dimension P the file does not have, are air tracks.
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { cotTypeFor } from '../../src/cot/mapping.js';
import { LISTED_COT_TAILS } from '../../src/cot/listed-types.js';
import { enumerationOf } from '../../src/names/index.js';

const xml = gunzipSync(readFileSync(new URL('../fixtures/cot/CoTtypes.xml.gz', import.meta.url))).toString('utf8');
/** `<cot cot="a-.-A-M-H-A" …/>` entries; `zot=` entries are the file's commented-out ones. */
const listed = new Set([...xml.matchAll(/<cot\s+cot="a-\.-([^"]+)"/g)].map((m) => m[1]!));

/** Every kind, domain and category SISO-REF-010 names for platforms, and each kind and domain alone. */
function entityTypes(): Array<[number, number, number]> {
  const types: Array<[number, number, number]> = [];
  ['Land', 'Air', 'Surface', 'Subsurface', 'Space'].forEach((domain, i) => {
    for (const category of [0, ...enumerationOf(`Platform${domain}Category`)!.values]) types.push([1, i + 1, category]);
  });
  for (let kind = 0; kind < 10; kind++) for (let domain = 0; domain < 12; domain++) types.push([kind, domain, 0]);
  return types;
}

describe('CoT types', () => {
  it('src/cot/listed-types.ts holds exactly the atom types of CoTtypes.xml', () => {
    expect(listed.size).toBe(1005);
    expect([...LISTED_COT_TAILS].sort()).toEqual([...listed].sort());
  });

  it('every type sent, for every SISO platform category and every kind and domain, is listed', () => {
    const unlisted = entityTypes()
      .map(([kind, domain, category]) => `${kind}:${domain}:${category} ${cotTypeFor(2, kind, domain, category)}`)
      .filter((line) => !listed.has(line.split(' ')[1]!.slice('a-h-'.length)));
    expect(unlisted).toEqual([]);
  });

  it('sends space entities as air tracks, and an unlisted function id as its listed parent', () => {
    expect(cotTypeFor(1, 1, 5, 0)).toBe('a-f-A'); // was a-f-P
    expect(cotTypeFor(3, 1, 5, 11)).toBe('a-n-A'); // a satellite: a-n-P-S is not listed
    expect(cotTypeFor(2, 1, 4, 1)).toBe('a-h-U-S-N'); // SSBN: U-S-N-B is not listed
    expect(cotTypeFor(1, 1, 1, 1)).toBe('a-f-G-E-V-A-T'); // a tank, listed as it is
  });
});
