// The selected entity's names in the page's details panel (src/view/page/panel/entity-details.ts), without a browser:
// before the names arrive, the numbers with kind and domain; after, every level, the appearance and each part.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as names from '../../src/names/index.js';
import { typeDetailRows, typeLabel, typeSearchText } from '../../src/view/page/panel/entity-details.js';

/** 16-byte variable parameter records (IEEE 1278.1-2012 §6.2.94). */
function records(...fill: Array<(view: DataView) => void>): Uint8Array {
  const bytes = new Uint8Array(16 * fill.length);
  fill.forEach((write, i) => write(new DataView(bytes.buffer, 16 * i, 16)));
  return bytes;
}

describe('page entity details', () => {
  const tank = [1, 1, 225, 1, 1, 3, 0];

  it('shows the numbers with the kind and domain until the names are loaded', () => {
    expect(typeDetailRows(undefined, tank, 0, undefined, 0)).toEqual([['type', '1:1:225:1:1:3:0 (platform, land)']]);
    expect(typeDetailRows(undefined, [12, 9, 0, 0, 0, 0, 0], 0, undefined, 0)).toEqual([
      ['type', '12:9:0:0:0:0:0 (kind 12, domain 9)'],
    ]);
    expect(typeLabel(undefined, tank)).toBe('');
    expect(typeSearchText(undefined, tank)).toBe('');
  });

  it('names the type, a type SISO does not list by its nearest parent, and the appearance', () => {
    const rows = Object.fromEntries(typeDetailRows(names, [1, 1, 225, 1, 1, 3, 77], 0x00008038, undefined, 0));
    expect(rows).toEqual({
      type: 'M1A2 · Tank · USA',
      'type path':
        'Platform / Land / United States of America (USA) / Tank / M1 Abrams / M1A2 (1:1:225:1:1:3:77 is not listed)',
      'entity type': '1:1:225:1:1:3:77',
      country: 'United States of America (USA)',
      appearance: 'destroyed, smoke emanating, flaming',
    });
    expect(typeDetailRows(names, tank, 0, undefined, 0)).toContainEqual(['appearance', 'nothing set']);
    expect(typeSearchText(names, tank)).toContain('abrams');
  });

  it('names each part: articulated with its value, attached with its store, any other record by its bytes', () => {
    const parts = records(
      (v) => {
        v.setUint8(0, 0);
        v.setUint32(4, 4096 + 11); // primary turret #1 azimuth
        v.setFloat32(8, -Math.PI / 2);
      },
      (v) => {
        v.setUint8(0, 1);
        v.setUint8(1, 1); // detached
        v.setUint32(4, 640 + 2); // left wing station 3
        // The store's entity type (kind, domain, country, category, subcategory, specific, extra): 2:2:225:1:1:2:0.
        v.setUint8(8, 2);
        v.setUint8(9, 2);
        v.setUint16(10, 225);
        v.setUint8(12, 1);
        v.setUint8(13, 1);
        v.setUint8(14, 2);
      },
      (v) => v.setUint8(0, 2), // separation
    );
    const rows = typeDetailRows(names, [1, 2, 225, 1, 1, 0, 0], 0, parts, 3).slice(5);
    expect(rows[0]).toEqual(['Primary Turret Number 1 · Azimuth', '-90.0°']);
    expect(rows[1]![0]).toBe('Left-wing station 3');
    expect(rows[1]![1]).toMatch(/ · USA \(detached\)$/);
    expect(rows[2]).toEqual(['Separation', '02000000000000000000000000000000']);
  });

  it('never throws on any type, appearance or part records', () => {
    fc.assert(
      fc.property(
        fc.array(fc.nat({ max: 0xffff }), { minLength: 7, maxLength: 7 }),
        fc.nat({ max: 0xffffffff }),
        fc.uint8Array({ minLength: 64, maxLength: 64 }),
        fc.nat({ max: 3 }),
        (type, appearance, bytes, recordType) => {
          bytes[0] = recordType;
          expect(typeDetailRows(names, type, appearance, bytes, 4)).toHaveLength(9);
        },
      ),
    );
  });
});
