// The subscriber in virtual time over a test-double transport: events and their timing (appear, update, time out
// after heartbeat × 2.4), frames at the render rate holding the dead-reckoned position, opt-in diagnostics, and
// the transport released when the last subscriber leaves.
import { map } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { describe, expect, it } from 'vitest';
import { APPEARANCE_DEACTIVATED, DR_FPW } from '../../src/dr/models/algorithm.js';
import { encodeEntityStateInto } from '../../src/pdu/wire/entity-state-encoder.js';
import { EntityStateRecord, setMarkingText } from '../../src/pdu/wire/entity-state-record.js';
import { timestampFromSeconds } from '../../src/pdu/wire/timestamp.js';
import type { EntityEvent } from '../../src/stream/entity-events.js';
import { createSubscriber, type Diagnostic } from '../../src/stream/subscriber.js';
import { markingAt } from '../../src/stream/frame.js';
import { FakeTransport } from '../support/fake-transport.js';

const LOCATION = [-2_700_000, -4_300_000, 3_800_000];

/** An Entity State PDU of entity 1:2:3 moving at 10 m/s along ECEF x (FPW), stamped at tSeconds. */
function pdu(
  tSeconds: number,
  options: { entity?: number; appearance?: number; exercise?: number; x?: number } = {},
): Uint8Array {
  const r = new EntityStateRecord(0);
  r.exerciseId = options.exercise ?? 1;
  r.site = 1;
  r.application = 2;
  r.entity = options.entity ?? 3;
  r.entityType.set([1, 1, 225, 1, 1, 3, 0]);
  r.location.set(LOCATION);
  r.location[0]! += options.x ?? 0;
  r.linearVelocity.set([10, 0, 0]);
  r.drAlgorithm = DR_FPW;
  r.appearance = options.appearance ?? 0;
  r.timestampRaw = timestampFromSeconds(tSeconds, false);
  setMarkingText(r, 'TANK 1');
  const bytes = new Uint8Array(144);
  expect(encodeEntityStateInto(bytes, r)).toBe(144);
  return bytes;
}

/**
 * An Entity State Update PDU (PDU type 67, 72 bytes; IEEE 1278.1-2012, Entity State Update PDU) of entity 1:2:3, laid out here byte by
 * byte: header, entity id, padding, parameter count, velocity, location, orientation, appearance.
 */
function updatePdu(tSeconds: number, x: number, appearance: number): Uint8Array {
  const bytes = new Uint8Array(72);
  const v = new DataView(bytes.buffer);
  bytes.set([7, 1, 67, 1]);
  v.setUint32(4, timestampFromSeconds(tSeconds, false));
  v.setUint16(8, 72);
  v.setUint16(12, 1);
  v.setUint16(14, 2);
  v.setUint16(16, 3);
  v.setFloat32(20, 10);
  v.setFloat64(32, LOCATION[0]! + x);
  v.setFloat64(40, LOCATION[1]!);
  v.setFloat64(48, LOCATION[2]!);
  v.setUint32(68, appearance);
  return bytes;
}

function testScheduler(): TestScheduler {
  return new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
}

describe('createSubscriber in virtual time', () => {
  it('emits appeared, updated, then timedOut once heartbeat × 2.4 = 12 s pass in silence', () => {
    testScheduler().run(({ expectObservable, cold }) => {
      const transport = new FakeTransport();
      const subscriber = createSubscriber({}, { transport });
      // Delivered 1 ms in, after expectObservable has subscribed (at 0 ms).
      cold('-a 999ms b', { a: 0, b: 1 }).subscribe((t) => transport.deliver(pdu(t)));
      const types$ = subscriber.entityEvents$.pipe(map((e) => `${e.type} ${e.marking}`));
      // Expiry runs every second: silent since 1.001 s, more than 12 s later at the check at 14 s.
      expectObservable(types$, '^ 15s !').toBe('-a 999ms b 12998ms c', {
        a: 'appeared TANK 1',
        b: 'updated TANK 1',
        c: 'timedOut TANK 1',
      });
    });
  });

  it('renders frames at the render rate with the dead-reckoned, smoothed position', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const transport = new FakeTransport();
      const subscriber = createSubscriber({ receiver: { smoothing: 'snap' } }, { transport });
      const keep = subscriber.entityEvents$.subscribe(); // connected now, before the delivery at 0 ms
      cold('1200ms a').subscribe(() => keep.unsubscribe()); // virtual time ends when nothing is scheduled
      cold('a', { a: 0 }).subscribe((t) => transport.deliver(pdu(t)));
      const x$ = subscriber.frames({ rateHz: 4 }).pipe(
        map((frame) => {
          const slot = frame.table.slotOf(frame.key[0]!);
          expect(frame.entityCount).toBe(1);
          expect(markingAt(frame, slot)).toBe('TANK 1');
          return Math.round((frame.location[3 * slot]! - LOCATION[0]!) * 1000) / 1000;
        }),
      );
      // 10 m/s along x: 2.5 m per 250 ms frame.
      expectObservable(x$, '^ 1100ms !').toBe('250ms a 249ms b 249ms c 249ms d', { a: 2.5, b: 5, c: 7.5, d: 10 });
    });
  });

  it('removes an entity at once on its leave notice (appearance Deactivated)', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const transport = new FakeTransport();
      const subscriber = createSubscriber({}, { transport });
      cold('-a 99ms b', { a: 0, b: 0.1 }).subscribe((t) =>
        transport.deliver(pdu(t, t > 0 ? { appearance: APPEARANCE_DEACTIVATED } : {})),
      );
      expectObservable(subscriber.entityEvents$.pipe(map((e) => e.type)), '^ 1s !').toBe('-a 99ms b', {
        a: 'appeared',
        b: 'removed',
      });
    });
  });

  it('a removal by leave notice carries the notice itself: its appearance (Deactivated), time and position', () => {
    const transport = new FakeTransport();
    const subscriber = createSubscriber({}, { transport });
    const events: EntityEvent[] = [];
    const subscription = subscriber.entityEvents$.subscribe((e) => events.push(e));
    transport.deliver(pdu(0));
    transport.deliver(pdu(0.5, { appearance: APPEARANCE_DEACTIVATED, x: 5 }));
    subscription.unsubscribe();
    expect(events.map((e) => e.type)).toEqual(['appeared', 'removed']);
    const removed = events[1]!.state;
    expect(removed.appearance & APPEARANCE_DEACTIVATED).toBe(APPEARANCE_DEACTIVATED);
    expect(removed.location[0]).toBe(LOCATION[0]! + 5);
    expect(removed.timestamp.raw).toBe(timestampFromSeconds(0.5, false));
    expect(removed.marking.text).toBe('TANK 1');
  });

  it('a leave notice sent as an Entity State Update is merged into the last full PDU', () => {
    const transport = new FakeTransport();
    const subscriber = createSubscriber({}, { transport });
    const events: EntityEvent[] = [];
    const subscription = subscriber.entityEvents$.subscribe((e) => events.push(e));
    transport.deliver(pdu(0));
    transport.deliver(updatePdu(0.5, 7, APPEARANCE_DEACTIVATED));
    subscription.unsubscribe();
    expect(events.map((e) => e.type)).toEqual(['appeared', 'removed']);
    const removed = events[1]!.state;
    expect(removed.appearance & APPEARANCE_DEACTIVATED).toBe(APPEARANCE_DEACTIVATED);
    expect(removed.location[0]).toBe(LOCATION[0]! + 7);
    // What the update does not carry comes from the full PDU before it.
    expect(removed.marking.text).toBe('TANK 1');
    expect(removed.entityType).toMatchObject({ kind: 1, domain: 1, country: 225 });
    expect(removed.deadReckoning.algorithm).toBe(DR_FPW);
  });

  it('reports every dropped datagram on diagnostics$ (opt-in) and never errors', () => {
    const transport = new FakeTransport();
    const subscriber = createSubscriber({ receiver: { maxEntities: 2 } }, { transport });
    const diagnostics: Diagnostic[] = [];
    const events: string[] = [];
    const a = subscriber.diagnostics$.subscribe((d) => diagnostics.push(d));
    const b = subscriber.entityEvents$.subscribe({
      next: (e) => events.push(e.type),
      error: (e) => events.push(`error ${e}`),
    });
    transport.deliver(new Uint8Array([1, 2, 3])); // truncated
    transport.deliver(pdu(0, { exercise: 9 })); // wrong exercise
    const short = pdu(0).slice(0, 100);
    short[9] = 100; // consistent Length, but too short for an Entity State PDU
    transport.deliver(short);
    transport.deliver(pdu(0, { entity: 1 }));
    transport.deliver(pdu(0, { entity: 2 }));
    transport.deliver(pdu(0, { entity: 3 })); // beyond maxEntities
    transport.deliver(pdu(0.5, { entity: 1 }));
    expect(diagnostics.map((d) => d.reason)).toEqual(['truncated', 'wrongExercise', 'decode', 'tableFull']);
    expect(diagnostics[0]!.source.address).toBe('127.0.0.1');
    expect(events).toEqual(['appeared', 'appeared', 'updated']);
    expect(subscriber.stats.transport.rejected.truncated).toBe(1);
    expect(subscriber.stats.transport.rejected.wrongExercise).toBe(1);
    expect(Object.entries(subscriber.stats.decodeErrors).filter(([, n]) => n > 0)).toEqual([['TRUNCATED', 1]]);
    expect(subscriber.table!.stats.full).toBe(1);
    a.unsubscribe();
    b.unsubscribe();
    expect(transport.listening).toBe(false);
    expect(subscriber.table).toBeUndefined();
  });

  it('reports each dropped PDU of a bundle on diagnostics$, with where it starts in the datagram', () => {
    const transport = new FakeTransport();
    const subscriber = createSubscriber({ receiver: { maxEntities: 1 } }, { transport });
    const diagnostics: Diagnostic[] = [];
    const events: string[] = [];
    const a = subscriber.diagnostics$.subscribe((d) => diagnostics.push(d));
    const b = subscriber.entityEvents$.subscribe((e) => events.push(e.type));
    const undecodable = pdu(0, { entity: 5 });
    undecodable[19] = 1; // one variable parameter record, which a 144-byte Length leaves no room for
    const bundle = new Uint8Array([
      ...pdu(0, { exercise: 9 }),
      ...pdu(0, { entity: 1 }),
      ...pdu(0, { exercise: 8 }),
      ...undecodable,
      ...pdu(0, { entity: 2 }), // beyond maxEntities
      0,
      0,
      0, // not a header
    ]);
    transport.deliver(bundle);
    expect(events).toEqual(['appeared']);
    expect(diagnostics.map((d) => [d.reason, d.offset, d.bytes])).toEqual([
      ['wrongExercise', 0, 723],
      ['wrongExercise', 288, 723],
      ['decode', 432, 723],
      ['tableFull', 576, 723],
      ['truncated', 720, 723],
    ]);
    expect(diagnostics[2]!.message).toBe(
      "the Length field disagrees with the PDU's layout (Entity State PDU: 144 bytes + 16 per variable parameter record)",
    );
    expect(subscriber.stats.transport.rejected.wrongExercise).toBe(2);
    a.unsubscribe();
    b.unsubscribe();
  });

  it('a transport failure errors every stream once and releases it; the next subscription attaches again', () => {
    class FailingTransport extends FakeTransport {
      fail: (error?: Error) => void = () => {};
      override onClose(listener?: (error?: Error) => void): void {
        if (listener) this.fail = listener;
      }
    }
    const transport = new FailingTransport();
    const subscriber = createSubscriber({}, { transport });
    const errors: string[] = [];
    const onError = (name: string) => (e: unknown) => errors.push(`${name}: ${(e as Error).message}`);
    subscriber.entityEvents$.subscribe({ error: onError('events') });
    subscriber.diagnostics$.subscribe({ error: onError('diagnostics') });
    subscriber.frames({ rateHz: 1 }).subscribe({ error: onError('frames') });
    subscriber.listening$.subscribe({ error: onError('listening') });
    const first = subscriber.table;
    expect(transport.listening).toBe(true);
    transport.fail(new Error('network down'));
    expect(errors.sort()).toEqual(['diagnostics', 'events', 'frames', 'listening'].map((n) => `${n}: network down`));
    expect(transport.listening).toBe(false);
    expect(subscriber.table).toBeUndefined();
    const events: string[] = [];
    const again = subscriber.entityEvents$.subscribe((e) => events.push(e.type));
    expect(transport.listening).toBe(true);
    expect(subscriber.table !== undefined && subscriber.table !== first).toBe(true); // a new table
    transport.deliver(pdu(0));
    expect(events).toEqual(['appeared']);
    again.unsubscribe();
    expect(transport.listening).toBe(false);
  });

  it('shares one connection between streams and detaches only when the last one leaves', () => {
    const transport = new FakeTransport();
    const subscriber = createSubscriber({}, { transport });
    const a = subscriber.entityEvents$.subscribe();
    const b = subscriber.frames({ rateHz: 1 }).subscribe();
    const table = subscriber.table;
    a.unsubscribe();
    expect(transport.listening).toBe(true);
    expect(subscriber.table).toBe(table);
    b.unsubscribe();
    expect(transport.listening).toBe(false);
    expect(transport.closed).toBe(false); // the caller's transport stays open
  });
});
