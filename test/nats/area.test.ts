// A subscriber whose area of interest moves, against a real nats-server (Debian's, on a free loopback port): the
// entities of the cells it no longer covers leave at once (`removed`, reason `areaMoved`, never a timeout), those of
// the cells still covered are untouched, those of the new cells appear; PDUs of a dropped cell still in flight when
// the area moves do not bring their entity back. Skipped with an install line where nats-server is missing.
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { latLngToCell } from 'h3-js';
import { Subject, filter, firstValueFrom, take } from 'rxjs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { geodeticDegreesToEcef } from '../../src/math/geodesy.js';
import { cellsCoveringArea, destination, type Area, type CircleArea } from '../../src/nats/area.js';
import { entityKey } from '../../src/pdu/wire/entity-state-record.js';
import type { EntityEvent } from '../../src/stream/entity-events.js';
import { createPublisher, type Publisher } from '../../src/stream/publisher.js';
import { createSubscriber, type EntitySubscriber } from '../../src/stream/subscriber.js';
import type { SubscriberReceiver } from '../../src/stream/subscriber-receiver.js';
import { startNatsServer, type RunningNatsServer } from '../../scripts/support/nats-server.js';
import { findSystemBinary } from '../../scripts/support/system-binary.js';
import { landPlatformRecord } from './records.js';

const natsServer = findSystemBinary('nats-server');
const describeNats = natsServer.path ? describe : describe.skip;
const TIMEOUT_MS = 10_000;
const RESOLUTION = 5;

const MUNICH = { lat: 48.137, lon: 11.575 };
/** A point `km` east (negative: west) of Munich. */
const east = (km: number): { lat: number; lon: number } => {
  const [lat, lon] = destination(MUNICH.lat, MUNICH.lon, Math.PI / 2, km * 1000);
  return { lat, lon };
};
const circle = (at: { lat: number; lon: number }, radiusKm: number): CircleArea => ({
  latitudeDeg: at.lat,
  longitudeDeg: at.lon,
  radiusM: radiusKm * 1000,
});
/** The first area: 15 km around Munich. The second: 15 km around a point 25 km east; the two overlap. */
const AREA_1 = circle(MUNICH, 15);
const AREA_2 = circle(east(25), 15);
/** Entity 1 only in the first area's cells, 2 in both, 3 only in the second's, 4 (Berlin) in neither. */
const PLACES: Record<number, { lat: number; lon: number }> = {
  1: east(-12),
  2: east(12),
  3: east(37),
  4: { lat: 52.52, lon: 13.405 },
};

/** Entity 1:1:`entity` at its place, stamped at `tSeconds`. */
const record = (entity: number, tSeconds: number) =>
  landPlatformRecord(entity, PLACES[entity]!.lat, PLACES[entity]!.lon, tSeconds);
const cellOf = (entity: number): string => latLngToCell(PLACES[entity]!.lat, PLACES[entity]!.lon, RESOLUTION);
const covers = (area: Area, entity: number): boolean => cellsCoveringArea(area, RESOLUTION).includes(cellOf(entity));

/** `type entity reason`, e.g. `removed 1 areaMoved`, for comparing event lists exactly. */
const brief = (e: EntityEvent): string =>
  [e.type, e.entityId.entity, e.reason].filter((x) => x !== undefined).join(' ');

const natsConfig = (servers: string[]) => ({
  nats: { servers, h3Resolution: RESOLUTION },
  heartbeat: { heartbeatTable: 'ieee' as const },
});

/**
 * A TCP proxy in front of the server whose server → client direction can be held: what the server sends meanwhile
 * is kept (and can be read) until `release()`. Makes "messages in flight while the area moves" deterministic.
 */
class HoldingProxy {
  private holding = false;
  private held: Buffer[] = [];
  private heldText = '';
  private waiters: Array<() => void> = [];
  private readonly sockets = new Set<Socket>();
  private toClient: Socket | undefined;
  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {}

  static async start(targetPort: number): Promise<HoldingProxy> {
    let proxy!: HoldingProxy;
    const server = createServer((client) => {
      const upstream = createConnection(targetPort, '127.0.0.1');
      proxy.sockets.add(client).add(upstream);
      proxy.toClient = client;
      client.on('data', (chunk) => upstream.write(chunk));
      upstream.on('data', (chunk) => proxy.fromServer(chunk));
      const end = () => {
        client.destroy();
        upstream.destroy();
      };
      client.on('close', end).on('error', end);
      upstream.on('close', end).on('error', end);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    proxy = new HoldingProxy(server, typeof address === 'object' && address ? address.port : 0);
    return proxy;
  }

  get url(): string {
    return `nats://127.0.0.1:${this.port}`;
  }

  hold(): void {
    this.holding = true;
  }

  /** Resolves when the held bytes contain `text` at least `times` times. */
  heldUntil(text: string, times: number): Promise<void> {
    return new Promise((resolve) => {
      const check = () => {
        if (this.heldText.split(text).length - 1 < times) return;
        this.waiters = this.waiters.filter((w) => w !== check);
        resolve();
      };
      this.waiters.push(check);
      check();
    });
  }

  /** Sends what was held, in order, and passes everything through again. */
  release(): void {
    this.holding = false;
    for (const chunk of this.held) this.toClient?.write(chunk);
    this.held = [];
    this.heldText = '';
  }

  private fromServer(chunk: Buffer): void {
    if (!this.holding) {
      this.toClient?.write(chunk);
      return;
    }
    this.held.push(chunk);
    this.heldText += chunk.toString('latin1');
    for (const waiter of [...this.waiters]) waiter();
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

describeNats('NATS: a subscriber whose area moves', () => {
  let server: RunningNatsServer;
  const open: Array<{ close(): Promise<void> } | Publisher> = [];
  beforeAll(async () => {
    server = await startNatsServer(natsServer.path!);
    // The places are where the test says they are (the cells of each area, at this resolution).
    expect([1, 2, 3, 4].map((e) => [covers(AREA_1, e), covers(AREA_2, e)])).toEqual([
      [true, false],
      [true, true],
      [false, true],
      [false, false],
    ]);
  });
  afterEach(async () => {
    for (const item of open.splice(0).reverse()) await item.close();
  });
  afterAll(async () => {
    await server?.stop();
  });

  /**
   * A subscriber following `areas$` through `url`, its events collected, subscribed to the cells of `AREA_1`; and a
   * publisher straight to the server.
   */
  async function subscribeInArea1(url: string) {
    const areas$ = new Subject<Area | undefined>();
    const subscriber: EntitySubscriber = createSubscriber(natsConfig([url]), { areas$ });
    const events: EntityEvent[] = [];
    const listening = firstValueFrom(subscriber.listening$);
    const subscription = subscriber.entityEvents$.subscribe((e) => events.push(e));
    open.push({ close: async () => subscription.unsubscribe() });
    await listening;
    const transport = (subscriber as SubscriberReceiver).natsTransport!;
    areas$.next(AREA_1);
    await transport.settled();
    const publisher = await createPublisher(natsConfig([server.url]));
    open.push(publisher);
    return { areas$, subscriber, events, transport, publisher };
  }

  const nextEvent = (subscriber: EntitySubscriber, match: (e: EntityEvent) => boolean) =>
    firstValueFrom(subscriber.entityEvents$.pipe(filter(match), take(1)));

  it(
    'the entities of the dropped cells leave at once, those still covered stay, those of the new cells appear',
    async () => {
      const { areas$, subscriber, events, transport, publisher } = await subscribeInArea1(server.url);

      // Entities 3 and 4 (outside the first area) go out a tick before 1 and 2 on the same connection: once 2 is
      // here, 3 and 4 would have been too.
      const twoAppeared = nextEvent(subscriber, (e) => e.entityId.entity === 2);
      publisher.send(record(3, 1));
      publisher.send(record(4, 1));
      publisher.flush();
      publisher.send(record(1, 1));
      publisher.send(record(2, 1));
      publisher.flush();
      await twoAppeared;
      expect(events.map(brief)).toEqual(['appeared 1', 'appeared 2']);

      // The move removes entity 1 before `next` returns: its cell is no longer taken.
      areas$.next(AREA_2);
      expect(events.map(brief)).toEqual(['appeared 1', 'appeared 2', 'removed 1 areaMoved']);
      expect(subscriber.table!.size).toBe(1);
      expect(transport.natsStats.leftWithCell).toBe(1);
      expect(transport.natsStats.cellsDropped).toBe(
        cellsCoveringArea(AREA_1, RESOLUTION).filter((c) => !cellsCoveringArea(AREA_2, RESOLUTION).includes(c)).length,
      );
      await transport.settled();

      // Entity 1 keeps publishing in its cell, 4 in Berlin: neither comes back. 3 (newly covered) appears, 2 updates.
      const threeAppeared = nextEvent(subscriber, (e) => e.entityId.entity === 3);
      const twoUpdated = nextEvent(subscriber, (e) => e.entityId.entity === 2 && e.type === 'updated');
      publisher.send(record(1, 2));
      publisher.send(record(4, 2));
      publisher.flush();
      publisher.send(record(3, 2));
      publisher.send(record(2, 2));
      publisher.flush();
      await Promise.all([threeAppeared, twoUpdated]);
      expect(events.map(brief)).toEqual(['appeared 1', 'appeared 2', 'removed 1 areaMoved', 'appeared 3', 'updated 2']);
      const removal = events[2]!;
      expect(removal.marking).toBe('E1');
      expect(removal.key).toBe(entityKey(1, 1, 1));

      // An hour later the entities still held time out: 2 and 3, never 1, which is gone.
      const held = events.length;
      subscriber.table!.expire(Date.now() / 1000 + 3600);
      expect(events.slice(held).map(brief).sort()).toEqual(['timedOut 2 timeout', 'timedOut 3 timeout']);
    },
    TIMEOUT_MS,
  );

  it(
    'an entity crossing out of the area leaves with reason leftArea; one that deactivates, with deactivated',
    async () => {
      const { subscriber, events, publisher } = await subscribeInArea1(server.url);
      const appeared = nextEvent(subscriber, (e) => e.entityId.entity === 2);
      publisher.send(record(1, 1));
      publisher.send(record(2, 1));
      publisher.flush();
      await appeared;
      // Entity 1 moves to Berlin (a cell outside the area): the copy in its old cell is its leave notice.
      const left = nextEvent(subscriber, (e) => e.type === 'removed');
      const moved = record(1, 2);
      geodeticDegreesToEcef(moved.location, PLACES[4]!.lat, PLACES[4]!.lon, 500);
      publisher.send(moved);
      publisher.flush();
      expect(brief(await left)).toBe('removed 1 leftArea');
      // Closing the publisher deactivates what it published: entity 2 leaves with its own notice.
      const deactivated = nextEvent(subscriber, (e) => e.type === 'removed' && e.entityId.entity === 2);
      await publisher.close();
      open.pop();
      expect(brief(await deactivated)).toBe('removed 2 deactivated');
      expect(events.map(brief)).toEqual(['appeared 1', 'appeared 2', 'removed 1 leftArea', 'removed 2 deactivated']);
    },
    TIMEOUT_MS,
  );

  it(
    'PDUs of a dropped cell still in flight when the area moves do not bring their entity back',
    async () => {
      const proxy = await HoldingProxy.start(server.port);
      open.push(proxy);
      const { areas$, subscriber, events, transport, publisher } = await subscribeInArea1(proxy.url);
      const appeared = nextEvent(subscriber, (e) => e.entityId.entity === 1);
      publisher.send(record(1, 1));
      publisher.flush();
      await appeared;

      // Three more PDUs of entity 1 reach the server and are on their way to the subscriber, held by the proxy
      // (one message each: the transport bundles what is sent in one tick, so each goes in a tick of its own).
      proxy.hold();
      for (let t = 2; t <= 4; t++) {
        publisher.send(record(1, t));
        publisher.flush();
        await new Promise((resolve) => setImmediate(resolve));
      }
      await proxy.heldUntil(`MSG dis.1.${cellOf(1)}.1.1 `, 3);
      const received = transport.connection.stats().inMsgs;

      // The area moves off entity 1's cell while they are in flight; then they arrive.
      areas$.next(AREA_2);
      proxy.release();
      // A round trip through the proxy: its answer comes after the released messages, so they have been read.
      await transport.settled();
      expect(transport.connection.stats().inMsgs - received).toBe(3);
      expect(events.map(brief)).toEqual(['appeared 1', 'removed 1 areaMoved']);
      expect(subscriber.table!.size).toBe(0);
    },
    TIMEOUT_MS,
  );
});
