// Stop/Freeze and Start/Resume in the remote-entity table: a held entity is shown where it stood (no dead
// reckoning), never times out, shows a PDU it sends as sent, and continues from where it stood when resumed.
import { describe, expect, it } from 'vitest';
import { ExerciseFreeze, actionTimeSeconds, addresses } from '../../src/dr/receiver/exercise-freeze.js';
import { RemoteEntityTable } from '../../src/dr/receiver/remote-entity-table.js';
import { TableEvent } from '../../src/dr/receiver/table-results.js';
import { EntityStateRecord } from '../../src/pdu/wire/entity-state-record.js';
import { timestampFromSeconds } from '../../src/pdu/wire/timestamp.js';

const X0 = 6_378_137;

/** Entity 1:2:3, a land platform at (x, 0, 0) moving at 10 m/s along ECEF y (FPW), stamped t. */
function pdu(t: number, y = 0): EntityStateRecord {
  const r = new EntityStateRecord(0);
  r.site = 1;
  r.application = 2;
  r.entity = 3;
  r.exerciseId = 1;
  r.entityType.set([1, 1, 225, 1, 1, 3, 0]);
  r.drAlgorithm = 2;
  r.location.set([X0, y, 0]);
  r.linearVelocity.set([0, 10, 0]);
  r.timestampRaw = timestampFromSeconds(t, false);
  return r;
}

function table() {
  const events: TableEvent[] = [];
  const t = new RemoteEntityTable({ smoothing: { method: 'snap' }, onEvent: (kind) => events.push(kind) });
  t.apply(pdu(0), 0);
  return { table: t, events, slot: t.slotOf(t.key[0]!) };
}

/** The y the table shows at t: render, and the one-slot reader. */
function shownY(t: RemoteEntityTable, slot: number, seconds: number): number[] {
  t.render(seconds);
  const location = new Float64Array(3);
  t.renderSlot(slot, seconds, location, new Float64Array(9));
  t.extrapolate(seconds);
  return [t.displayLocation[3 * slot + 1]!, location[1]!, t.location[3 * slot + 1]!];
}

describe('RemoteEntityTable freeze and resume', () => {
  it('holds the entity at the freeze time, then lets it continue from there', () => {
    const { table: t, events, slot } = table();
    expect(t.freeze(slot, 5)).toBe(true);
    expect(t.frozen[slot]).toBe(1);
    expect(shownY(t, slot, 4)).toEqual([40, 40, 40]); // a freeze time still ahead: it runs
    expect(shownY(t, slot, 10)).toEqual([50, 50, 50]);
    expect(shownY(t, slot, 100)).toEqual([50, 50, 50]);
    expect(t.resume(slot, 20)).toBe(true);
    expect(t.frozen[slot]).toBe(0);
    expect(shownY(t, slot, 21)).toEqual([60, 60, 60]);
    expect(events).toEqual([TableEvent.APPEARED, TableEvent.FROZEN, TableEvent.RESUMED]);
    expect([t.freeze(slot, 30), t.freeze(slot, 40), t.resume(slot, 50), t.resume(slot, 60)]).toEqual([
      true,
      false,
      true,
      false,
    ]);
  });

  it('never times a held entity out; after resuming, its timeout counts from where it stood', () => {
    const { table: t, slot } = table();
    t.freeze(slot, 5);
    expect(t.expire(1000)).toBe(0);
    expect(t.size).toBe(1);
    // Held from 5 to 1005: its last PDU (at 0) counts as arriving 1000 s later, at 1000; it times out after 12 s.
    t.resume(slot, 1005);
    expect(t.expire(1011.9)).toBe(0);
    expect(t.expire(1012.1)).toBe(1);
  });

  it('shows a PDU the held entity sends where it says, without dead reckoning, and continues from it', () => {
    const { table: t, slot } = table();
    t.freeze(slot, 5);
    t.apply(pdu(8, 200), 8);
    expect(shownY(t, slot, 12)).toEqual([200, 200, 200]);
    t.resume(slot, 30);
    expect(shownY(t, slot, 31)).toEqual([210, 210, 210]);
  });

  it('holds a correction being smoothed with the entity: frozen means still, and it goes on from there', () => {
    const smoothed = () => {
      const t = new RemoteEntityTable({ smoothing: { method: 'linear', durationSeconds: 2 } });
      t.apply(pdu(0), 0);
      t.render(0.5); // the entity is shown before the next PDU corrects it
      t.apply(pdu(1, 20), 1); // 10 m ahead of the path of the first PDU: a correction over 2 s
      return { t, slot: t.slotOf(t.key[0]!) };
    };
    const { t, slot } = smoothed();
    t.freeze(slot, 1.5);
    expect(t.isConverging(slot)).toBe(true);
    const held = shownY(t, slot, 1.5);
    for (const seconds of [1.6, 3, 100]) expect(shownY(t, slot, seconds)).toEqual(held);
    t.resume(slot, 10);
    const running = smoothed();
    expect(shownY(t, slot, 10.5)).toEqual(shownY(running.t, running.slot, 2));
  });

  it('forgets the hold when the entity leaves and its slot is reused', () => {
    const { table: t, slot } = table();
    t.freeze(slot, 1);
    t.remove(t.key[slot]!);
    t.apply(pdu(2), 2);
    expect(t.frozen[t.slotOf(t.key[slot]!)]).toBe(0);
    expect(shownY(t, slot, 3)).toEqual([10, 10, 10]);
  });
});

describe('ExerciseFreeze', () => {
  it('moves held reference times for an evaluation and puts them back', () => {
    const freeze = new ExerciseFreeze(4);
    const reference = Float64Array.from([0, 1, 2, 3]);
    freeze.freeze(1, 5);
    freeze.freeze(3, 20);
    freeze.hold(reference, 10);
    expect([...reference]).toEqual([0, 6, 2, 3]);
    freeze.unhold(reference);
    expect([...reference]).toEqual([0, 1, 2, 3]);
    expect([freeze.resume(1, 7), freeze.resume(3, 10), freeze.size]).toEqual([2, 0, 0]);
  });
});

describe('addressing and timing', () => {
  it('addresses an entity, all of a simulation (entity 0), or everything (65535)', () => {
    const id = (site: number, application: number, entity: number) => ({ site, application, entity });
    expect(addresses(id(1, 2, 3), 1, 2, 3)).toBe(true);
    expect(addresses(id(1, 2, 3), 1, 2, 4)).toBe(false);
    expect(addresses(id(1, 2, 0), 1, 2, 4)).toBe(true);
    expect(addresses(id(1, 2, 0), 1, 9, 4)).toBe(false);
    expect(addresses(id(0xffff, 0xffff, 0xffff), 7, 8, 9)).toBe(true);
    expect(addresses(id(1, 0xffff, 0xffff), 2, 8, 9)).toBe(false);
  });

  it('acts at the real-world time of the PDU when it is near now, else now', () => {
    const now = 1_700_000_000;
    const hour = Math.floor(now / 3600);
    const past = (s: number) => timestampFromSeconds(s, true);
    expect(actionTimeSeconds(hour, past((now % 3600) + 3), now)).toBeCloseTo(now + 3, 5);
    expect(actionTimeSeconds(hour, past((now % 3600) - 0.5), now)).toBeCloseTo(now - 0.5, 5);
    expect(actionTimeSeconds(hour, past((now % 3600) - 30), now)).toBe(now);
    expect(actionTimeSeconds(0, past(5), now)).toBe(now);
  });
});
