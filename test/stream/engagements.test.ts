// The subscriber acting on the PDUs around Entity State, in virtual time over a test-double transport: fire,
// detonation and collision events with the entities and munition named; Remove Entity removes at once;
// Stop/Freeze holds the exercise's entities (frames and events show where they stood, no timeout) until
// Start/Resume lets them go on.
import { Subscription } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { describe, expect, it } from 'vitest';
import { encodeAnyPduInto, type AnyPduRecord } from '../../src/pdu/wire/any-pdu.js';
import { CollisionRecord } from '../../src/pdu/wire/collision.js';
import { EntityStateRecord, entityKey, setMarkingText } from '../../src/pdu/wire/entity-state-record.js';
import {
  EntityManagementRecord,
  StartResumeRecord,
  StopFreezeRecord,
} from '../../src/pdu/wire/simulation-management.js';
import { timestampFromSeconds } from '../../src/pdu/wire/timestamp.js';
import { DetonationRecord, FireRecord } from '../../src/pdu/wire/warfare.js';
import type { CollisionEvent, DetonationEvent, FireEvent } from '../../src/stream/engagement-events.js';
import type { EntityFrame } from '../../src/stream/frame.js';
import { createSubscriber } from '../../src/stream/subscriber.js';
import type { SubscriberEvent } from '../../src/stream/subscriber-types.js';
import { FakeTransport } from '../support/fake-transport.js';
import { MAX_PENDING_ORDERS } from '../../src/dr/receiver/pending-orders.js';

const TANK = [-2_700_000, -4_300_000, 3_800_000];

function bytes(record: AnyPduRecord): Uint8Array {
  const out = new Uint8Array(2000);
  return out.slice(0, encodeAnyPduInto(out, record));
}

/** Entity 1:2:entity, "TANK n", moving at 10 m/s along ECEF x (FPW), stamped t. */
function tank(entity: number, t: number): Uint8Array {
  const r = new EntityStateRecord(0);
  r.exerciseId = 1;
  Object.assign(r, { site: 1, application: 2, entity, drAlgorithm: 2 });
  r.entityType.set([1, 1, 225, 1, 1, 3, 0]);
  r.location.set([TANK[0]! + 1000 * entity, TANK[1]!, TANK[2]!]);
  r.linearVelocity.set([10, 0, 0]);
  r.timestampRaw = timestampFromSeconds(t, false);
  setMarkingText(r, `TANK ${entity}`);
  return bytes(r);
}

function fire(): FireRecord {
  const r = new FireRecord();
  r.exerciseId = 1;
  Object.assign(r.firingEntityId, { site: 1, application: 2, entity: 3 });
  Object.assign(r.targetEntityId, { site: 1, application: 2, entity: 4 });
  Object.assign(r.eventId, { site: 1, application: 2, eventNumber: 7 });
  r.location.set(TANK);
  r.descriptor.munitionType.set([2, 2, 222, 1, 8, 0, 0]); // AT-6 Spiral
  r.descriptor.quantity = 1;
  r.velocity.set([0, 0, 300]);
  r.range = 1823.25;
  return r;
}

function detonation(result: number): DetonationRecord {
  const r = new DetonationRecord();
  const f = fire();
  r.exerciseId = 1;
  for (const k of ['firingEntityId', 'targetEntityId', 'munitionId', 'eventId'] as const) Object.assign(r[k], f[k]);
  r.location.set([TANK[0]! + 4000, TANK[1]!, TANK[2]!]);
  r.descriptor.munitionType.set(f.descriptor.munitionType);
  r.result = result;
  return r;
}

/** A subscriber on a fake transport; what the test subscribes goes into `subscriptions`, ended by `endAt`. */
function subscriberAt() {
  const transport = new FakeTransport();
  const subscriber = createSubscriber({}, { transport });
  const events: SubscriberEvent[] = [];
  const subscriptions = new Subscription();
  return { transport, subscriber, events, subscriptions };
}

describe('engagements and simulation management through a subscriber', () => {
  it('emits fire, detonation and collision events naming the entities, the munition and the result', () => {
    new TestScheduler((a, b) => expect(a).toEqual(b)).run(({ cold, flush }) => {
      const { transport, subscriber, events, subscriptions } = subscriberAt();
      subscriptions.add(subscriber.events$.subscribe((e) => events.push(e)));
      const collision = new CollisionRecord();
      collision.exerciseId = 1;
      Object.assign(collision.issuingEntityId, { site: 1, application: 2, entity: 3 });
      collision.location.set([5, 0, 0]); // 5 m ahead along the tank's body x (ECEF x here: orientation 0)
      collision.collisionType = 0;
      const datagrams = [tank(3, 0), tank(4, 0), bytes(fire()), bytes(detonation(1)), bytes(collision)];
      cold('-abcde', { a: 0, b: 1, c: 2, d: 3, e: 4 }).subscribe((i) => transport.deliver(datagrams[i]!));
      cold('10ms a').subscribe(() => subscriptions.unsubscribe());
      flush();
      const shot = events.find((e) => e.type === 'fire') as FireEvent;
      expect(shot).toMatchObject({
        shooter: { entityId: { site: 1, application: 2, entity: 3 }, marking: 'TANK 3' },
        target: { marking: 'TANK 4' },
        munition: { name: 'AT-6 Spiral · Guided · RUS', quantity: 1, entity: undefined },
        eventId: { eventNumber: 7 },
        velocity: [0, 0, 300],
        range: 1823.25,
        location: TANK,
      });
      expect(shot.latitude).toBeCloseTo(36.8, 0);
      expect(shot.pdu.pduType).toBe(2);
      const hit = events.find((e) => e.type === 'detonation') as DetonationEvent;
      expect(hit).toMatchObject({ result: 1, resultName: 'Entity Impact', target: { marking: 'TANK 4' } });
      const crash = events.find((e) => e.type === 'collision') as CollisionEvent;
      expect(crash).toMatchObject({ issuing: { marking: 'TANK 3' }, colliding: undefined, located: true });
      expect(crash.collisionTypeName).toBe('Inelastic');
      // Where the tank is shown at 5 ms (10 m/s from its PDU at 1 ms), plus 5 m ahead.
      expect(crash.location[0]).toBeCloseTo(TANK[0]! + 3000 + 0.04 + 5, 6);
      expect(subscriber.stats.engagements).toEqual({ fires: 1, detonations: 1, collisions: 1 });
      // The entity-only stream leaves the engagements out.
    });
  });

  it('removes the entity a Remove Entity PDU addresses, at once, saying why', () => {
    new TestScheduler((a, b) => expect(a).toEqual(b)).run(({ cold, flush }) => {
      const { transport, subscriber, events, subscriptions } = subscriberAt();
      subscriptions.add(subscriber.entityEvents$.subscribe((e) => events.push(e)));
      const remove = new EntityManagementRecord(12);
      remove.exerciseId = 1;
      Object.assign(remove.originatingId, { site: 9, application: 9, entity: 0 }); // the simulation manager
      Object.assign(remove.receivingId, { site: 1, application: 2, entity: 3 });
      const datagrams = [tank(3, 0), tank(4, 0), bytes(remove)];
      cold('-abc', { a: 0, b: 1, c: 2 }).subscribe((i) => transport.deliver(datagrams[i]!));
      let size = -1;
      cold('9ms a').subscribe(() => (size = subscriber.table!.size));
      cold('10ms a').subscribe(() => subscriptions.unsubscribe());
      flush();
      expect(
        events.map((e) => [e.type, (e as { marking?: string }).marking, (e as { reason?: string }).reason]),
      ).toEqual([
        ['appeared', 'TANK 3', undefined],
        ['appeared', 'TANK 4', undefined],
        ['removed', 'TANK 3', 'removeEntity'],
      ]);
      expect(size).toBe(1);
      expect(subscriber.stats.control).toMatchObject({ removeEntityPdus: 1, removedEntities: 1 });
    });
  });

  it('freezes the exercise on Stop/Freeze (frames hold, no timeout) and resumes on Start/Resume', () => {
    new TestScheduler((a, b) => expect(a).toEqual(b)).run(({ cold, flush }) => {
      const { transport, subscriber, events, subscriptions } = subscriberAt();
      subscriptions.add(subscriber.entityEvents$.subscribe((e) => events.push(e)));
      const frames: Array<[number, number, number]> = [];
      subscriptions.add(
        subscriber.frames({ rateHz: 1 }).subscribe((f: EntityFrame) => {
          const slot = f.table.slotOf(entityKey(1, 2, 3));
          frames.push([f.timeSeconds, f.location[3 * slot]! - TANK[0]! - 3000, f.frozen[slot]!]);
        }),
      );
      // A virtual clock at 0 is no real-world time: the PDUs' clock times are taken as "now".
      const stop = new StopFreezeRecord();
      stop.exerciseId = 1;
      Object.assign(stop.receivingId, { site: 0xffff, application: 0xffff, entity: 0xffff });
      const start = new StartResumeRecord();
      start.exerciseId = 1;
      Object.assign(start.receivingId, { site: 1, application: 2, entity: 0 }); // all of simulation 1:2
      const datagrams = [tank(3, 0), bytes(stop), bytes(start)];
      cold('a 1999ms b 29999ms c', { a: 0, b: 1, c: 2 }).subscribe((i) => transport.deliver(datagrams[i]!));
      let size = -1;
      cold('33500ms a').subscribe(() => (size = subscriber.table!.size));
      cold('34s a').subscribe(() => subscriptions.unsubscribe());
      flush();
      expect(events.map((e) => e.type)).toEqual(['appeared', 'frozen', 'resumed']);
      const at = (t: number) => frames.find(([time]) => time === t)!;
      expect(at(1)).toEqual([1, 10, 0]);
      expect(at(2)[2]).toBe(1);
      // Held at 2 s for 30 s, 20 s past its timeout of 12 s, then on from 20 m.
      expect(at(31)).toEqual([31, 20, 1]);
      expect(at(33)).toEqual([33, 30, 0]);
      expect(size).toBe(1);
      expect(subscriber.stats.control).toMatchObject({ stopFreezePdus: 1, frozenEntities: 1, resumedEntities: 1 });
    });
  });

  it('keeps orders dated ahead bounded and merged: one timer, the newest per entity, the excess counted', () => {
    const scheduler = new TestScheduler((a, b) => expect(a).toEqual(b));
    scheduler.run(({ cold, flush }) => {
      const { transport, subscriber, events, subscriptions } = subscriberAt();
      subscriptions.add(subscriber.entityEvents$.subscribe((e) => events.push(e)));
      /** Stop/Freeze PDUs for entities 1:2:n, dated `seconds` ahead of the virtual clock's 0 (1970, hour 0). */
      const stops = (entities: readonly number[], seconds: number) => {
        const stop = new StopFreezeRecord();
        stop.exerciseId = 1;
        stop.realWorldTime.timePastHour = Math.floor((seconds / 3600) * 0x8000_0000) * 2;
        const out = new Uint8Array(40 * entities.length);
        entities.forEach((entity, k) => {
          Object.assign(stop.receivingId, { site: 1, application: 2, entity });
          out.set(bytes(stop), 40 * k);
        });
        return out;
      };
      const others = Array.from({ length: 2000 }, (_, k) => 1000 + k);
      const datagrams = [
        tank(3, 0),
        stops([3], 3),
        ...Array.from({ length: 10 }, (_, d) => stops(others.slice(200 * d, 200 * d + 200), 5)),
        stops([3], 2), // newer, for the same entity: replaces the order dated 3 s
      ];
      datagrams.forEach((datagram, i) => cold(`${i + 1}ms a`).subscribe(() => transport.deliver(datagram)));
      let scheduled = -1;
      cold('20ms a').subscribe(() => (scheduled = scheduler.actions.length));
      cold('6s a').subscribe(() => subscriptions.unsubscribe());
      flush();
      // The frames, the expiry and one action for the earliest order: not one per order.
      expect(scheduled).toBeLessThanOrEqual(4);
      expect(events.map((e) => e.type)).toEqual(['appeared', 'frozen']);
      expect(events[1]!.timeSeconds).toBe(2); // at the newer order's time, not the 3 s of the one it replaced
      expect(subscriber.stats.control).toMatchObject({
        stopFreezePdus: 2002,
        frozenEntities: 1,
        ordersReplaced: 1,
        ordersDropped: 2000 - (MAX_PENDING_ORDERS - 1),
      });
    });
  });

  it('does not let a Fire PDU whose location is not a number reach an event', () => {
    new TestScheduler((a, b) => expect(a).toEqual(b)).run(({ cold, flush }) => {
      const { transport, subscriber, events, subscriptions } = subscriberAt();
      subscriptions.add(subscriber.events$.subscribe((e) => events.push(e)));
      const bad = fire();
      bad.location[1] = Number.NaN;
      cold('-a', { a: 0 }).subscribe(() => transport.deliver(bytes(bad)));
      cold('10ms a').subscribe(() => subscriptions.unsubscribe());
      flush();
      expect(events).toEqual([]);
      expect(subscriber.stats.decodeErrors.LOCATION_NOT_FINITE).toBe(0);
      expect(subscriber.stats.otherDecodeErrors).toEqual({ 2: { LOCATION_NOT_FINITE: 1 } });
    });
  });
});
