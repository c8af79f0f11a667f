// Which entities the side panel's list considers (src/view/page/panel/list-candidates.ts): all of a few thousand, and of
// more only those in view or those a search matches, found once per search rather than on every refresh.
import { describe, expect, it } from 'vitest';
import { PageEntities } from '../../src/view/page/entities.js';
import { LIST_ALL, ListCandidates } from '../../src/view/page/panel/list-candidates.js';
import { entityStatePdu, type TestEntity } from './support/page-server.js';

const unit: TestEntity = {
  site: 1,
  application: 1,
  entity: 1,
  marking: 'U',
  force: 1,
  kind: 1,
  domain: 1,
  lat: 50,
  lon: 8,
  altM: 0,
  eastMps: 0,
  northMps: 0,
};

function entities(n: number): PageEntities {
  const e = new PageEntities({ capacity: n });
  for (let k = 0; k < n; k++) {
    const pdu = entityStatePdu({ ...unit, application: 1 + (k >>> 16), entity: k & 0xffff, marking: `U${k}` }, 0);
    e.applyPdu(pdu, 0, pdu.length, 0);
  }
  e.frame(0);
  return e;
}

describe('the list of entities', () => {
  it('takes every entity up to LIST_ALL, filtered by the search', () => {
    const e = entities(100);
    const list = new ListCandidates();
    const none = { slots: [], count: 0, readable: false };
    expect(list.of(e, none, '', () => false, 0)).toMatchObject({ scope: 'all' });
    expect(list.of(e, none, '', () => false, 0).slots).toHaveLength(100);
    const matching = list.of(e, none, 'u7', (slot) => e.markings[slot]!.toLowerCase().includes('u7'), 0);
    expect(matching.slots.map((slot) => e.markings[slot]).sort()).toEqual(
      ['U7', ...Array.from({ length: 10 }, (_, k) => `U7${k}`)].sort(),
    );
  });

  it('beyond LIST_ALL, takes those in view, or those a search matches, found once per search', () => {
    const e = entities(LIST_ALL + 1000);
    const list = new ListCandidates();
    const inView = { slots: [3, 5, 8], count: 3, readable: true };
    expect(list.of(e, inView, '', () => true, 0)).toEqual({ slots: [3, 5, 8], scope: 'in view' });
    expect(list.of(e, { slots: [], count: 0, readable: false }, '', () => true, 0).scope).toBe('unread');
    let asked = 0;
    const matches = (slot: number) => {
      asked++;
      return e.markings[slot] === 'U12345';
    };
    expect(list.of(e, inView, 'u12345', matches, 0)).toEqual({ slots: [12345], scope: 'matching' });
    expect(asked).toBeGreaterThan(LIST_ALL);
    // The same search again: only its matches are looked at, not every entity.
    asked = 0;
    expect(list.of(e, inView, 'u12345', matches, 100).slots).toEqual([12345]);
    expect(asked).toBe(1);
    // The match leaves: it is gone from the list at once.
    e.table.remove(e.table.key[12345]!);
    e.frame(1);
    expect(list.of(e, inView, 'u12345', matches, 200).slots).toEqual([]);
  });
});
