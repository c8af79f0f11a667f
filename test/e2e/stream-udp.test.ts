// The stream API end to end on real UDP sockets on 127.0.0.1 (ephemeral ports): publisher and subscriber agree on
// every entity; open-dis PDUs from a raw socket are received; hostile datagrams are counted while valid entities
// keep updating; unsubscribing frees the port at once. Every wait is for an event, bounded by a timeout.
import { createSocket, type Socket } from 'node:dgram';
import openDis from 'open-dis';
import { filter, firstValueFrom, take, timeout, toArray, type Observable } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { DR_ALGORITHM_NAMES } from '../../src/dr/models/algorithm.js';
import { createTruthState } from '../../src/dr/owner/truth-state.js';
import { aircraftOrbit, shipTurningCircles, tankRoadCourse } from '../../src/truth/index.js';
import { encodeEntityStateInto } from '../../src/pdu/wire/entity-state-encoder.js';
import { EntityStateRecord, entityKey, setMarkingText } from '../../src/pdu/wire/entity-state-record.js';
import { timestampFromSeconds } from '../../src/pdu/wire/timestamp.js';
import type { EntityEvent } from '../../src/stream/entity-events.js';
import { createPublisher } from '../../src/stream/publisher.js';
import { createSubscriber, type EntitySubscriber } from '../../src/stream/subscriber.js';
import { within } from '../support/binary.js';

const cleanup: Array<() => unknown> = [];
afterEach(async () => {
  for (const undo of cleanup.splice(0).reverse()) await undo();
});

/**
 * Subscribes to `events$`, waits until the socket is bound, and returns the port, the events so far, and `until`,
 * which resolves once the events received (already or later) satisfy a condition.
 */
async function listen(subscriber: EntitySubscriber): Promise<{
  port: number;
  events: EntityEvent[];
  until: (done: (events: EntityEvent[]) => boolean) => Promise<void>;
}> {
  const events: EntityEvent[] = [];
  let waiters: Array<{ done: (events: EntityEvent[]) => boolean; resolve: () => void }> = [];
  const subscription = subscriber.entityEvents$.subscribe((event) => {
    events.push(event);
    waiters = waiters.filter((w) => {
      if (!w.done(events)) return true;
      w.resolve();
      return false;
    });
  });
  cleanup.push(() => subscription.unsubscribe());
  const { port } = await firstValueFrom(subscriber.listening$.pipe(timeout(5000)));
  const until = (done: (events: EntityEvent[]) => boolean) =>
    done(events)
      ? Promise.resolve()
      : within(new Promise<void>((resolve) => waiters.push({ done, resolve })), 5000, 'entity events');
  return { port, events, until };
}

async function rawSocket(): Promise<Socket> {
  const socket = createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  cleanup.push(() => new Promise<void>((resolve) => socket.close(() => resolve())));
  return socket;
}

function sendTo(socket: Socket, port: number, bytes: Uint8Array): Promise<void> {
  return new Promise((resolve, reject) =>
    socket.send(bytes, port, '127.0.0.1', (error) => (error ? reject(error) : resolve())),
  );
}

/** A valid Entity State PDU of entity 1:2:`entity` at `tSeconds`. */
function pdu(entity: number, tSeconds: number, exercise = 1): Uint8Array {
  const r = new EntityStateRecord(0);
  r.exerciseId = exercise;
  r.site = 1;
  r.application = 2;
  r.entity = entity;
  r.location.set([-2_700_000, -4_300_000, 3_800_000]);
  r.drAlgorithm = 2;
  r.timestampRaw = timestampFromSeconds(tSeconds, false);
  setMarkingText(r, `E${entity}`);
  const bytes = new Uint8Array(144);
  encodeEntityStateInto(bytes, r);
  return bytes;
}

describe('publisher → UDP → subscriber', () => {
  it('agree on every entity: markings, DR algorithms, positions within the threshold of the truth', async () => {
    // One clock for both sides, advanced by the test: the subscriber takes arrival times from it.
    let nowMs = 1_000_000;
    const clock = { now: () => nowMs, schedule: (() => ({ unsubscribe() {} })) as never };
    const subscriber = createSubscriber({ network: { address: '127.0.0.1', port: 0 } }, { scheduler: clock });
    const { port, events, until } = await listen(subscriber);
    const publisher = await createPublisher({ network: { port }, dis: { site: 4, application: 5 } });
    cleanup.push(() => publisher.close({ deactivate: false }));
    const cast = [
      { entity: { entity: 1, marking: 'TANK', algorithm: 'auto' as const }, trajectory: tankRoadCourse(), start: 30 },
      {
        entity: { entity: 2, marking: 'SHIP', algorithm: 4 },
        trajectory: shipTurningCircles({ straightLength: 50 }),
        start: 0,
      },
      { entity: { entity: 3, marking: 'AIRCRAFT', algorithm: 3 }, trajectory: aircraftOrbit(), start: 0 },
    ];
    const truth = createTruthState();
    const thresholdMeters = publisher.config.emitter.positionThreshold;
    let sent = 0;
    let checked = 0;
    for (let k = 0; k <= 20 * 20; k++) {
      nowMs = 1_000_000 + k * 50; // 20 Hz for 20 s
      const t = nowMs / 1000;
      let sentNow = 0;
      for (const c of cast) {
        c.trajectory.sample(c.start + k * 0.05, truth);
        if (publisher.update(c.entity, truth, t) !== 0) sentNow++;
      }
      if (sentNow > 0) {
        publisher.flush();
        sent += sentNow;
        // Wait until the subscriber holds every PDU sent so far, so that arrival time = send time.
        await until((all) => all.length >= sent);
      }
      const table = subscriber.table!;
      table.extrapolate(t);
      for (const c of cast) {
        c.trajectory.sample(c.start + k * 0.05, truth);
        const slot = table.slotOf(entityKey(4, 5, c.entity.entity));
        expect(slot).toBeGreaterThanOrEqual(0);
        const p = truth.location,
          q = table.location,
          j = 3 * slot;
        const error = Math.hypot(p[0]! - q[j]!, p[1]! - q[j + 1]!, p[2]! - q[j + 2]!);
        expect(error, `${c.entity.marking} at ${k * 0.05} s`).toBeLessThanOrEqual(thresholdMeters + 1e-6);
        checked++;
      }
    }
    expect(checked).toBe(3 * 401);
    expect(sent).toBeGreaterThan(6);
    expect(sent).toBeLessThan((3 * 401) / 4); // dead reckoning saves most updates
    for (const c of cast) {
      const mine = events.filter((e) => e.entityId.entity === c.entity.entity);
      expect(mine[0]!.type).toBe('appeared');
      expect(
        mine.every((e) => e.marking === c.entity.marking && e.entityId.site === 4 && e.entityId.application === 5),
      ).toBe(true);
      if (typeof c.entity.algorithm === 'number') {
        expect(
          mine.every((e) => e.state.deadReckoning.algorithm === c.entity.algorithm),
          DR_ALGORITHM_NAMES[c.entity.algorithm],
        ).toBe(true);
      }
    }
    // Leave notices: every entity is removed at once.
    await publisher.close();
    await until((all) => all.filter((e) => e.type === 'removed').length === 3);
    expect(
      events
        .filter((e) => e.type === 'removed')
        .map((e) => e.marking)
        .sort(),
    ).toEqual(['AIRCRAFT', 'SHIP', 'TANK']);
  });

  it('receives PDUs encoded by open-dis and sent from a raw socket', async () => {
    // subscribeEntities(config) is createSubscriber(config).entityEvents$; listening$ tells when the socket is bound.
    const subscriber = createSubscriber({ network: { address: '127.0.0.1', port: 0 }, dis: { exercise: 3 } });
    const { port, events, until } = await listen(subscriber);
    const o = new openDis.EntityStatePdu();
    o.exerciseID = 3;
    o.pduLength = 144; // open-dis leaves it 0
    Object.assign(o.entityID, { site: 11, application: 22, entity: 33 });
    Object.assign(o.entityLocation, { x: -2_707_000.5, y: -4_353_000.25, z: 3_781_000.125 });
    Object.assign(o.entityLinearVelocity, { x: 1.5, y: -2.5, z: 0.25 });
    o.deadReckoningParameters.deadReckoningAlgorithm = 2;
    o.marking.characters = [...'OPENDIS'].map((c) => c.charCodeAt(0)).concat([0, 0, 0, 0]);
    o.marking.characterSet = 1;
    const out = new openDis.OutputStream(new ArrayBuffer(144));
    o.encodeToBinary(out);
    const bytes = new Uint8Array(out.toByteArray());
    expect(bytes.length).toBe(144);
    const socket = await rawSocket();
    await sendTo(socket, port, bytes);
    await until((all) => all.length > 0);
    const event = events[0]!;
    expect(event.type).toBe('appeared');
    expect(event.entityId).toEqual({ site: 11, application: 22, entity: 33 });
    expect(event.marking).toBe('OPENDIS');
    expect(event.state.protocolVersion).toBe(6);
    expect(event.state.location).toEqual([-2_707_000.5, -4_353_000.25, 3_781_000.125]);
    expect(event.state.linearVelocity).toEqual([1.5, -2.5, 0.25]);
    expect(event.state.deadReckoning.algorithm).toBe(2);
  });
});

describe('bad input on a live socket', () => {
  it('counts garbage, truncated, oversized, wrong-exercise and a flood of spoofed ids; valid entities keep updating', async () => {
    const subscriber = createSubscriber({ network: { address: '127.0.0.1', port: 0 }, receiver: { maxEntities: 20 } });
    const diagnostics: string[] = [];
    const d = subscriber.diagnostics$.subscribe((x) => diagnostics.push(x.reason));
    cleanup.push(() => d.unsubscribe());
    const { port, until } = await listen(subscriber);
    const socket = await rawSocket();
    await sendTo(socket, port, pdu(1, 0));
    await until((all) => all.some((e) => e.type === 'appeared' && e.entityId.entity === 1));

    const garbage = Uint8Array.from({ length: 200 }, (_, i) => (i * 37 + 11) & 0xff);
    garbage[0] = 7;
    garbage[8] = 0; // Length 3 < 12: nothing after this header can be found
    garbage[9] = 3;
    const oversized = new Uint8Array(9000);
    oversized.set(pdu(2, 0).subarray(0, 12));
    oversized[8] = 9000 >> 8; // a Length beyond MAX_PDU_SIZE_OCTETS (8192)
    oversized[9] = 9000 & 0xff;
    await sendTo(socket, port, garbage);
    await sendTo(socket, port, pdu(1, 0.1).subarray(0, 100)); // truncated: Length says 144
    await sendTo(socket, port, oversized);
    await sendTo(socket, port, pdu(5, 0.1, 9)); // wrong exercise
    for (let id = 100; id < 150; id++) await sendTo(socket, port, pdu(id, 0.1)); // 50 spoofed ids, room for 19
    await sendTo(socket, port, pdu(1, 0.2)); // the valid entity, after all of it
    await until((all) => all.some((e) => e.type === 'updated' && e.entityId.entity === 1));

    const s = subscriber.stats.transport;
    expect(s.rejected.badLength).toBe(1);
    expect(s.rejected.truncated).toBe(1);
    expect(s.rejected.oversized).toBe(1);
    expect(s.rejected.wrongExercise).toBe(1);
    expect(subscriber.table!.stats.full).toBe(50 - 19);
    expect(subscriber.table!.size).toBe(20);
    expect(diagnostics.filter((r) => r === 'tableFull')).toHaveLength(31);
    expect(diagnostics.filter((r) => r !== 'tableFull').sort()).toEqual([
      'badLength',
      'oversized',
      'truncated',
      'wrongExercise',
    ]);
  });
});

describe('teardown', () => {
  it('unsubscribing the last subscriber closes the socket: the port can be bound again at once', async () => {
    const subscriber = createSubscriber({ network: { address: '127.0.0.1', port: 0 } });
    const events = subscriber.entityEvents$.subscribe();
    const frames = subscriber.frames({ rateHz: 10 }).subscribe();
    const { port } = await firstValueFrom(subscriber.listening$.pipe(timeout(5000)));
    events.unsubscribe();
    expect(subscriber.local?.port).toBe(port); // frames still hold it
    frames.unsubscribe();
    expect(subscriber.local).toBeUndefined();
    const socket = createSocket('udp4');
    await new Promise<void>((resolve, reject) => {
      socket.once('error', reject);
      socket.bind(port, '127.0.0.1', () => resolve());
    });
    await new Promise<void>((resolve) => socket.close(() => resolve()));

    // And the same subscriber binds again on the next subscription.
    const again = createSubscriber({ network: { address: '127.0.0.1', port } });
    const bound = await firstValueFrom(again.listening$.pipe(timeout(5000)));
    expect(bound.port).toBe(port);
  });

  it('reports a port that cannot be bound on the error channel', async () => {
    const socket = await rawSocket();
    const port = socket.address().port;
    const events$: Observable<EntityEvent> = createSubscriber({
      network: { address: '127.0.0.1', port },
    }).entityEvents$;
    await expect(
      firstValueFrom(
        events$.pipe(
          filter(() => false),
          take(1),
          toArray(),
          timeout(5000),
        ),
      ),
    ).rejects.toThrow(/EADDRINUSE|address already in use/);
  });
});
