// A sender that restarts stamps its PDUs from a clock that began again: older than its last ones by more than any
// network reorders. The table takes them as the entity's new timeline instead of dropping them until it times out.
import { describe, expect, it } from 'vitest';
import { RemoteEntityTable } from '../../src/dr/receiver/remote-entity-table.js';
import { ApplyResult } from '../../src/dr/receiver/table-results.js';
import { EntityStateRecord } from '../../src/pdu/wire/entity-state-record.js';
import { timestampFromSeconds } from '../../src/pdu/wire/timestamp.js';

function record(tSeconds: number, x: number): EntityStateRecord {
  const r = new EntityStateRecord(0);
  r.site = 1;
  r.application = 2;
  r.entity = 3;
  r.entityType.set([1, 1, 225, 1, 1, 3, 0]); // a land platform: heartbeat 5 s, timeout 12 s (IEEE table)
  r.drAlgorithm = 2;
  r.location.set([x, -4_300_000, 3_800_000]);
  r.linearVelocity.set([1, 0, 0]);
  r.timestampRaw = timestampFromSeconds(tSeconds, false);
  return r;
}

describe('RemoteEntityTable and a restarted sender', () => {
  it('drops a PDU up to the timeout (12 s) older as out of order; applies one older still as a restart', () => {
    const table = new RemoteEntityTable();
    table.apply(record(600, 1), 0);
    expect(table.apply(record(599, 2), 0.1)).toBe(ApplyResult.OUT_OF_ORDER);
    expect(table.apply(record(588.5, 3), 0.2)).toBe(ApplyResult.OUT_OF_ORDER); // 11.5 s back: could still be a late datagram
    expect(table.apply(record(0.5, -2_700_000), 0.3)).toBe(ApplyResult.UPDATED); // 599.5 s back: the sender started again
    expect(table.apply(record(1, -2_700_001), 0.8)).toBe(ApplyResult.UPDATED); // and its new timeline goes on
    expect(table.apply(record(0.9, 5), 0.9)).toBe(ApplyResult.OUT_OF_ORDER); // reordering within it is still dropped
    expect(table.stats).toMatchObject({ appeared: 1, updated: 2, outOfOrder: 3, restarts: 1 });
    expect(table.size).toBe(1);
    table.extrapolate(0.8);
    expect(table.location[0]).toBeCloseTo(-2_700_001, 3);
  });
});
