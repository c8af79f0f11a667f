// The table from SISO categories to MIL-STD-2525C function ids gives symbols milsymbol's 2525C knows: every SIDC
// it can produce, for every kind, domain and category, is a valid 2525C symbol.
import { describe, expect, it } from 'vitest';
import { sidcOf, symbolFunction } from '../../src/names/symbol-functions.js';

// milsymbol's ES module entry, as the page's build takes it (its package exports do not name it).
const { ms, std2525c } = (await import(new URL('../../node_modules/milsymbol/index.mjs', import.meta.url).href)) as {
  ms: { Symbol: new (sidc: string) => { isValid(): boolean }; addIcons(icons: unknown): void };
  std2525c: unknown;
};
ms.addIcons(std2525c);

describe('symbol functions', () => {
  it('produce only SIDCs that are valid 2525C symbols, for every kind, domain and category', () => {
    const sidcs = new Set<string>();
    for (let kind = 0; kind < 12; kind++) {
      for (let domain = 0; domain < 16; domain++) {
        for (let category = 0; category < 256; category++) sidcs.add(sidcOf('F', kind, domain, category));
      }
    }
    const invalid = [...sidcs].filter((sidc) => !new ms.Symbol(sidc).isValid());
    expect(invalid).toEqual([]);
    expect(sidcs.size).toBeGreaterThan(60);
  });

  it('give a category the table lacks its domain generic symbol', () => {
    expect(symbolFunction(1, 1, 77)).toMatchObject({ dimension: 'G', functionId: 'EV' });
    expect(symbolFunction(1, 2, 77)).toMatchObject({ dimension: 'A', functionId: '' });
    expect(symbolFunction(1, 200, 1)).toMatchObject({ dimension: 'X', functionId: '' });
    expect(symbolFunction(Number.NaN, -1, 1e9)).toMatchObject({ dimension: 'X' });
  });
});
