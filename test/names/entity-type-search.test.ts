// Entity types found by their SISO name, checked against data/siso/entity-types.tsv itself.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { entityTypeByName, entityTypeName } from '../../src/names/index.js';

const rows = readFileSync(new URL('../../data/siso/entity-types.tsv', import.meta.url), 'utf8')
  .trim()
  .split('\n')
  .slice(1);

describe('entityTypeByName', () => {
  it('finds the type SISO lists under a name, whatever the case and spacing', () => {
    expect(entityTypeByName('M1A2')).toEqual([1, 1, 225, 1, 1, 3, 0]);
    expect(entityTypeByName('  boeing   737-900 ')).toEqual([1, 2, 225, 87, 32, 5, 9]);
    expect(entityTypeByName('Generic Container Ship')).toEqual([1, 3, 0, 81, 3, 0, 0]);
    expect(entityTypeByName('no such vehicle')).toBeUndefined();
  });

  it('prefers the kind and domain asked for, then platforms: M1A2 is a tank, not the munition of that name', () => {
    expect(entityTypeByName('M1A2', { kind: 2 })).toEqual([2, 0, 225, 3, 1, 2, 0]);
    expect(entityTypeByName('M1A2')![0]).toBe(1);
  });

  it('gives back, for a sample of the names SISO lists, a type that carries that name', () => {
    let checked = 0;
    for (let i = 0; i < rows.length; i += 97) {
      const cells = rows[i]!.split('\t');
      const names = cells.slice(8).filter((n) => n !== '');
      const name = names.at(-1);
      if (name === undefined || names.length < 2 || names.at(-2) === name) continue;
      const type = entityTypeByName(name);
      expect(type, name).toBeDefined();
      const found = entityTypeName(type!);
      const levels = [found.category, found.subcategory, found.specific, found.extra];
      const plain = (n: string | undefined) => n?.replace(/&amp;/g, '&').replace(/\s+/g, ' ').trim().toLowerCase();
      expect(levels.map(plain), name).toContain(plain(name)); // names are matched without case
      checked++;
    }
    expect(checked).toBeGreaterThan(150);
  });
});
