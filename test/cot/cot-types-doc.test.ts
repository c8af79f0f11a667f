// docs/cot.md documents the table from SISO platform categories to MIL-STD-2525C function ids and CoT types;
// this checks every row against src/names/symbol-functions.ts and that every SISO platform category has a row.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { cotTypeFor } from '../../src/cot/mapping.js';
import { enumerationOf } from '../../src/names/index.js';
import { symbolFunction } from '../../src/names/symbol-functions.js';

const doc = readFileSync(new URL('../../docs/cot.md', import.meta.url), 'utf8');
const rows = [...doc.matchAll(/^\| 1 Platform \| (\d) \w+ \| (\d+) ([^|]+) \| `([A-Z-]{6})` \| `([^`]+)` \|$/gm)];

describe('docs/cot.md: the CoT type table', () => {
  it('has a row for every platform category SISO-REF-010 lists, named as SISO names it', () => {
    const categories = ['Land', 'Air', 'Surface', 'Subsurface', 'Space'].flatMap((domain, i) => {
      const e = enumerationOf(`Platform${domain}Category`)!;
      return e.values.map((v, j) => `${i + 1} ${v} ${e.names[j]}`);
    });
    expect(rows.map((r) => `${r[1]} ${r[2]} ${r[3]!.trim()}`)).toEqual(categories);
  });

  it('gives the function id and CoT type the code gives', () => {
    for (const [, domain, category, , functionId, cot] of rows) {
      const f = symbolFunction(1, Number(domain), Number(category));
      expect(f.functionId.padEnd(6, '-'), `${domain}:${category}`).toBe(functionId);
      expect(cotTypeFor(1, 1, Number(domain), Number(category))).toBe(cot);
    }
  });
});
