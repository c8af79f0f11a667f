// What the remote-entity table reports comes as `as const` unions, as CodecStatus does: `apply` returns an
// ApplyResult and the listener gets a TableEvent, so a caller compares with a name the compiler checks.
import { describe, expect, it } from 'vitest';
import { APPEARANCE_DEACTIVATED } from '../../src/dr/models/algorithm.js';
import { RemoteEntityTable } from '../../src/dr/receiver/remote-entity-table.js';
import { ApplyResult, TableEvent } from '../../src/dr/receiver/table-results.js';
import { EntityStateRecord } from '../../src/pdu/wire/entity-state-record.js';
import { timestampFromSeconds } from '../../src/pdu/wire/timestamp.js';

function record(tSeconds: number, pduType = 1, appearance = 0): EntityStateRecord {
  const r = new EntityStateRecord(0);
  r.pduType = pduType;
  r.site = 1;
  r.application = 2;
  r.entity = 3;
  r.entityType.set([1, 1, 225, 1, 1, 3, 0]);
  r.drAlgorithm = 2;
  r.appearance = appearance;
  r.location.set([4_000_000, -4_300_000, 3_800_000]);
  r.timestampRaw = timestampFromSeconds(tSeconds, false);
  return r;
}

describe('RemoteEntityTable results and events', () => {
  it('apply returns an ApplyResult and the listener gets TableEvents', () => {
    const events: TableEvent[] = [];
    const table = new RemoteEntityTable({ capacity: 1, onEvent: (kind) => events.push(kind) });
    const results: ApplyResult[] = [
      table.apply(record(1, 67), 0),
      table.apply(record(1), 0),
      table.apply(record(2), 1),
      table.apply(record(2), 1.1),
      table.apply(record(1.5), 1.2),
      table.apply(record(3, 2), 1.3),
      table.apply(record(3, 1, APPEARANCE_DEACTIVATED), 2),
      table.apply(record(4, 1, APPEARANCE_DEACTIVATED), 2.1),
    ];
    expect(results).toEqual([
      ApplyResult.UNKNOWN_UPDATE,
      ApplyResult.APPEARED,
      ApplyResult.UPDATED,
      ApplyResult.DUPLICATE,
      ApplyResult.OUT_OF_ORDER,
      ApplyResult.NOT_ENTITY_STATE,
      ApplyResult.REMOVED,
      ApplyResult.IGNORED,
    ]);
    expect(events).toEqual([TableEvent.APPEARED, TableEvent.UPDATED, TableEvent.REMOVED]);
    const other = record(1);
    other.entity = 4;
    table.apply(record(5), 3);
    expect(table.apply(other, 3)).toBe(ApplyResult.TABLE_FULL);
    table.expire(1000);
    expect(events.at(-1)).toBe(TableEvent.TIMED_OUT);
  });

  it('keeps every code apart, as numbers that never change', () => {
    expect(Object.values(ApplyResult)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(Object.values(TableEvent)).toEqual([1, 2, 3, 4, 5, 6]);
  });
});
