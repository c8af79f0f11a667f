// DIS over real NATS servers (Debian's nats-server on free loopback ports): subjects by H3 cell, area-of-interest
// subscriptions, the leave of an entity that crosses out of an area, a 3-server cluster, a server restarted under a
// running stream, and refused credentials. Skipped with an install line where nats-server is missing.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { latLngToCell } from 'h3-js';
import { firstValueFrom, filter, take, toArray, Subject, type Observable } from 'rxjs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Area } from '../../src/nats/area.js';
import { NatsTransport } from '../../src/nats/transport.js';
import type { EntityEvent } from '../../src/stream/entity-events.js';
import { createPublisher, type Publisher } from '../../src/stream/publisher.js';
import { createSubscriber, type EntitySubscriber } from '../../src/stream/subscriber.js';
import type { SubscriberReceiver } from '../../src/stream/subscriber-receiver.js';
import { findSystemBinary } from '../../scripts/support/system-binary.js';
import { freePort, startNatsServer, type RunningNatsServer } from '../../scripts/support/nats-server.js';
import { landPlatformRecord } from './records.js';

const natsServer = findSystemBinary('nats-server');
const describeNats = natsServer.path ? describe : describe.skip;
const TIMEOUT_MS = 10_000;

const MUNICH = { lat: 48.137, lon: 11.575 };
const record = landPlatformRecord;

/** The first event of `events$` that matches, within the test's bound. */
function next(events$: Observable<EntityEvent>, match: (e: EntityEvent) => boolean): Promise<EntityEvent> {
  return firstValueFrom(events$.pipe(filter(match), take(1)));
}

/**
 * Sends `send()` until `received` settles: for paths where interest takes a moment to spread (cluster routes, a
 * reconnect), bounded by `maxTries`. Each try waits for the previous publish to reach the server (a flush).
 */
async function sendUntil<T>(received: Promise<T>, send: () => Promise<void>, maxTries = 400): Promise<T> {
  let done = false;
  const result = received.finally(() => (done = true));
  for (let i = 0; i < maxTries && !done; i++) await send();
  return result;
}

const natsConfig = (servers: string[], extra: Record<string, unknown> = {}) => ({
  nats: { servers, ...extra },
  heartbeat: { heartbeatTable: 'ieee' as const },
});

describeNats('NATS transport on one server', () => {
  let server: RunningNatsServer;
  let raw: NatsConnection;
  const open: Array<{ close(): Promise<void> } | Publisher> = [];
  beforeAll(async () => {
    server = await startNatsServer(natsServer.path!);
    raw = await connect({ servers: server.url });
  });
  afterEach(async () => {
    for (const item of open.splice(0)) await item.close();
  });
  afterAll(async () => {
    await raw?.close();
    await server?.stop();
  });

  it(
    'publishes each Entity State PDU to dis.EXERCISE.CELL.KIND.DOMAIN, the cell from its location',
    async () => {
      const seen = raw.subscribe('dis.>', { max: 1 });
      await raw.flush();
      const publisher = await createPublisher(natsConfig([server.url]));
      open.push(publisher);
      publisher.send(record(7, MUNICH.lat, MUNICH.lon, 1));
      const iterator = seen[Symbol.asyncIterator]();
      const message = (await iterator.next()).value!;
      expect(message.subject).toBe(`dis.1.${latLngToCell(MUNICH.lat, MUNICH.lon, 5)}.1.1`);
      expect(message.data.length).toBe(144);
      expect((message.data[16]! << 8) | message.data[17]!).toBe(7);
    },
    TIMEOUT_MS,
  );

  it(
    'bundles the PDUs of one cell and tick into one message',
    async () => {
      const subscription = raw.subscribe('dis.1.>', { max: 1 });
      await raw.flush();
      const publisher = await createPublisher(natsConfig([server.url]));
      open.push(publisher);
      for (let entity = 1; entity <= 20; entity++) publisher.send(record(entity, MUNICH.lat, MUNICH.lon, 1));
      const message = (await subscription[Symbol.asyncIterator]().next()).value!;
      expect(message.data.length).toBe(20 * 144);
    },
    TIMEOUT_MS,
  );

  it(
    'a subscriber with an area gets the entities in it and none outside',
    async () => {
      const subscriber = createSubscriber(natsConfig([server.url], { area: `${MUNICH.lat},${MUNICH.lon},20 km` }));
      const events: EntityEvent[] = [];
      const listening = firstValueFrom(subscriber.listening$);
      const sub = subscriber.entityEvents$.subscribe((e) => events.push(e));
      await listening;
      const publisher = await createPublisher(natsConfig([server.url]));
      open.push(publisher);
      const inside = next(subscriber.entityEvents$, (e) => e.entityId.entity === 2);
      publisher.send(record(1, 52.52, 13.405, 1)); // Berlin: outside
      publisher.send(record(2, MUNICH.lat + 0.1, MUNICH.lon, 1)); // 11 km north: inside
      publisher.flush();
      await inside;
      // The marker entity 3 is sent after entity 1, on the same connection: once it is here, entity 1 would be too.
      const marker = next(subscriber.entityEvents$, (e) => e.entityId.entity === 3);
      publisher.send(record(3, MUNICH.lat, MUNICH.lon, 2));
      await marker;
      sub.unsubscribe();
      expect(events.map((e) => e.entityId.entity).sort()).toEqual([2, 3]);
    },
    TIMEOUT_MS,
  );

  it(
    'an entity crossing out of the area leaves it at once (removed, no timeout); a whole-exercise receiver sees it move',
    async () => {
      const area = createSubscriber(
        natsConfig([server.url], { area: `${MUNICH.lat},${MUNICH.lon},10 km`, h3Resolution: 6 }),
      );
      const everything = createSubscriber(natsConfig([server.url]));
      const areaEvents: EntityEvent[] = [];
      const allEvents: EntityEvent[] = [];
      const ready = Promise.all([firstValueFrom(area.listening$), firstValueFrom(everything.listening$)]);
      const subs = [
        area.entityEvents$.subscribe((e) => areaEvents.push(e)),
        everything.entityEvents$.subscribe((e) => allEvents.push(e)),
      ];
      await ready;
      const publisher = await createPublisher(natsConfig([server.url], { h3Resolution: 6 }));
      open.push(publisher);
      const appeared = next(area.entityEvents$, (e) => e.type === 'appeared');
      publisher.send(record(5, MUNICH.lat, MUNICH.lon, 1));
      await appeared;
      // Moves 0.02° at a time, through cells inside the area, out to 55 km north.
      const removed = next(area.entityEvents$, (e) => e.type === 'removed');
      const allUpdates = firstValueFrom(
        everything.entityEvents$.pipe(
          filter((e) => e.type === 'updated'),
          take(25),
          toArray(),
        ),
      );
      for (let step = 1; step <= 25; step++) {
        publisher.send(record(5, MUNICH.lat + 0.02 * step, MUNICH.lon, 1 + step));
        publisher.flush();
        await new Promise((resolve) => setImmediate(resolve));
      }
      const leave = await removed;
      expect(await allUpdates).toHaveLength(25);
      subs.forEach((s) => s.unsubscribe());
      // The leave came from a cell inside the area, before the entity reached 55 km; no timeout anywhere.
      expect(areaEvents.filter((e) => e.type === 'removed')).toHaveLength(1);
      expect(leave.entityId.entity).toBe(5);
      expect([...areaEvents, ...allEvents].some((e) => e.type === 'timedOut')).toBe(false);
      expect(allEvents.some((e) => e.type === 'removed')).toBe(false);
    },
    TIMEOUT_MS,
  );

  it(
    're-subscribes when the area moves (an Observable of areas)',
    async () => {
      const areas$ = new Subject<Area | undefined>();
      const subscriber: EntitySubscriber = createSubscriber(natsConfig([server.url]), { areas$ });
      const listening = firstValueFrom(subscriber.listening$);
      const events: EntityEvent[] = [];
      const sub = subscriber.entityEvents$.subscribe((e) => events.push(e));
      await listening;
      const transport = (subscriber as SubscriberReceiver).natsTransport!;
      areas$.next({ latitudeDeg: 52.52, longitudeDeg: 13.405, radiusM: 20_000 });
      await transport.settled();
      const berlinCells = transport.cells!;
      expect(berlinCells).toContain(latLngToCell(52.52, 13.405, 5));
      const publisher = await createPublisher(natsConfig([server.url]));
      open.push(publisher);
      const berlin = next(subscriber.entityEvents$, (e) => e.entityId.entity === 11);
      publisher.send(record(10, MUNICH.lat, MUNICH.lon, 1)); // not in the area now
      publisher.send(record(11, 52.52, 13.405, 1));
      await berlin;
      areas$.next({ latitudeDeg: MUNICH.lat, longitudeDeg: MUNICH.lon, radiusM: 20_000 });
      await transport.settled();
      expect(transport.cells).not.toContain(latLngToCell(52.52, 13.405, 5));
      const munich = next(subscriber.entityEvents$, (e) => e.entityId.entity === 10);
      publisher.send(record(10, MUNICH.lat, MUNICH.lon, 2));
      await munich;
      sub.unsubscribe();
      expect(events.filter((e) => e.entityId.entity === 10).map((e) => e.type)).toEqual(['appeared']);
    },
    TIMEOUT_MS,
  );
});

describeNats('NATS cluster of 3 servers', () => {
  const servers: RunningNatsServer[] = [];
  beforeAll(async () => {
    const clusterPorts = [await freePort(), await freePort(), await freePort()];
    for (let i = 0; i < 3; i++) {
      servers.push(
        await startNatsServer(natsServer.path!, {
          name: `n${i}`,
          clusterPort: clusterPorts[i]!,
          routes: clusterPorts.filter((_, j) => j !== i),
        }),
      );
    }
  });
  afterAll(async () => {
    for (const s of servers) await s.stop();
  });

  it(
    'a publisher on server A reaches a subscriber on server C',
    async () => {
      const [a, , c] = servers;
      const subscriber = createSubscriber(natsConfig([c!.url], { area: `${MUNICH.lat},${MUNICH.lon},30 km` }));
      const listening = firstValueFrom(subscriber.listening$);
      const appeared = next(subscriber.entityEvents$, (e) => e.type === 'appeared' && e.entityId.entity === 42);
      const local = await listening;
      expect(local.port).toBe(c!.port);
      const transport = await NatsTransport.open({ servers: [a!.url] });
      expect(transport.local.port).toBe(a!.port);
      const publisher = await createPublisher(natsConfig([a!.url]), { transport });
      let t = 1;
      // The subscription's interest reaches A over the routes shortly after C has it: send until it arrives.
      const event = await sendUntil(appeared, async () => {
        publisher.send(record(42, MUNICH.lat, MUNICH.lon, t++));
        publisher.flush();
        await transport.connection.flush();
      });
      expect(event.marking).toBe('E42');
      await publisher.close();
      await transport.close();
    },
    TIMEOUT_MS,
  );
});

describeNats('NATS server restarted mid-stream', () => {
  let server: RunningNatsServer | undefined;
  afterAll(async () => {
    await server?.stop();
  });

  it('the clients reconnect, the gap is counted, the stream goes on', async () => {
    const port = await freePort();
    server = await startNatsServer(natsServer.path!, { port });
    const url = `nats://127.0.0.1:${port}`;
    const subscriber = createSubscriber(natsConfig([url]));
    const errors: unknown[] = [];
    const seen = new Set<number>();
    const sub = subscriber.entityEvents$.subscribe({
      next: (e) => seen.add(e.entityId.entity),
      error: (e) => errors.push(e),
    });
    await firstValueFrom(subscriber.listening$);
    const transport = await NatsTransport.open({ servers: [url], reconnectTimeWaitMs: 50 });
    const publisher = await createPublisher(natsConfig([url]), { transport });
    let t = 1;
    const before = next(subscriber.entityEvents$, (e) => e.entityId.entity === 1);
    await sendUntil(before, async () => {
      publisher.send(record(1, MUNICH.lat, MUNICH.lon, t++));
      publisher.flush();
      await transport.connection.flush();
    });
    const subscriberNats = (subscriber as SubscriberReceiver).natsTransport!;
    const statusOf = (t: NatsTransport, type: string) =>
      new Promise<void>((resolve) => {
        void (async () => {
          for await (const s of t.connection.status()) if (s.type === type) return resolve();
        })();
      });
    const disconnected = statusOf(transport, 'disconnect');
    const reconnected = Promise.all([statusOf(transport, 'reconnect'), statusOf(subscriberNats, 'reconnect')]);
    await server.stop();
    await disconnected;
    // Sent while no server runs: buffered by the client or lost, never an exception.
    for (let i = 0; i < 10; i++) publisher.send(record(1, MUNICH.lat, MUNICH.lon, t++));
    publisher.flush();
    server = await startNatsServer(natsServer.path!, { port });
    await reconnected;
    const after = next(subscriber.entityEvents$, (e) => e.entityId.entity === 2);
    await sendUntil(after, async () => {
      publisher.send(record(2, MUNICH.lat, MUNICH.lon, t++));
      publisher.flush();
      await transport.connection.flush();
    });
    sub.unsubscribe();
    await publisher.close();
    await transport.close();
    expect(errors).toEqual([]);
    expect(seen.has(2)).toBe(true);
    for (const stats of [transport.natsStats, subscriberNats.natsStats]) {
      expect(stats.disconnects).toBeGreaterThanOrEqual(1);
      expect(stats.reconnects).toBeGreaterThanOrEqual(1);
      expect(stats.gapSeconds).toBeGreaterThan(0);
    }
  }, 20_000);
});

describeNats('NATS credentials', () => {
  let server: RunningNatsServer;
  const TOKEN = 's3cret-token-42';
  beforeAll(async () => {
    server = await startNatsServer(natsServer.path!, { args: ['--auth', TOKEN] });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('a wrong token is a clear error that does not show it', async () => {
    const error = await NatsTransport.open({ servers: [server.url], token: 'wrong-token-99' }).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(error).toBeInstanceOf(Error);
    expect(error!.message).toMatch(/refused the credentials/);
    expect(error!.message).toContain(server.url);
    expect(error!.message).not.toContain('wrong-token-99');
  });

  it('credentials in the URL are not shown either', async () => {
    const url = `nats://user:pa55word@127.0.0.1:${server.port}`;
    const error = await NatsTransport.open({ servers: [url] }).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(error!.message).toMatch(/refused the credentials/);
    expect(error!.message).not.toContain('pa55word');
  });

  it('the right token connects', async () => {
    const transport = await NatsTransport.open({ servers: [server.url], token: TOKEN });
    expect(transport.server).toContain(String(server.port));
    await transport.close();
  });

  it('no server listening is a clear error', async () => {
    const port = await freePort();
    const error = await NatsTransport.open({ servers: [`nats://127.0.0.1:${port}`] }).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(error!.message).toMatch(/nothing listens there|start nats-server/);
  });
});

describeNats('NATS slow consumer', () => {
  let server: RunningNatsServer;
  let dir: string;
  beforeAll(async () => {
    const { mkdtempSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    dir = mkdtempSync(join(tmpdir(), 'reckon-slow-'));
    const config = join(dir, 'server.conf');
    // A small per-client buffer on the server: a receiver that falls 256 KiB behind is a slow consumer.
    writeFileSync(config, 'max_payload: 65536\nmax_pending: 262144\nwrite_deadline: "200ms"\n');
    server = await startNatsServer(natsServer.path!, { args: ['-c', config] });
  });
  afterAll(async () => {
    await server?.stop();
    const { rmSync } = await import('node:fs');
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('a receiver that cannot keep up is cut off by the server, reconnects and goes on; nothing throws', async () => {
    const slow = await NatsTransport.open({ servers: [server.url], reconnectTimeWaitMs: 50, receive: { exercise: 1 } });
    await slow.settled();
    let handled = 0;
    slow.onDatagram(() => {
      handled++;
      // A receiver that stalls for 3 s at the first message of the flood (a long GC pause, a blocked loop): it reads
      // nothing meanwhile, so the server's buffer for it fills far past max_pending and the write deadline passes.
      // The thread is blocked asleep rather than spinning: the same stall, without 3 s of CPU.
      if (handled !== 1) return;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 3000);
    });
    const reconnected = new Promise<void>((resolve) => {
      void (async () => {
        for await (const s of slow.connection.status()) if (s.type === 'reconnect') return resolve();
      })();
    });
    // The flood comes from another process, so this process's busy receiver cannot slow the sender down with it.
    const flood = spawn(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import { connect } from '@nats-io/transport-node';
         const nc = await connect({ servers: process.argv[1] });
         const payload = new Uint8Array(16 * 1024);
         for (let i = 0; i < 4000; i++) { nc.publish('dis.1.all.1', payload); if (i % 256 === 0) await nc.flush(); }
         await nc.flush(); await nc.close();`,
        server.url,
      ],
      { cwd: fileURLToPath(new URL('../..', import.meta.url)), stdio: 'ignore' },
    );
    const flooded = new Promise<number | null>((resolve) => flood.once('exit', resolve));
    expect(await flooded).toBe(0);
    const publisher = await connect({ servers: server.url });
    await server.waitForLog(/Slow Consumer Detected/, 30_000);
    await reconnected;
    // Still subscribed after the reconnect: a new message arrives.
    const before = handled;
    const next = new Promise<void>((resolve) => slow.onDatagram(() => resolve()));
    await sendUntil(next, async () => {
      publisher.publish('dis.1.all.1', new Uint8Array(12));
      await publisher.flush();
    });
    expect(before).toBeGreaterThan(0);
    expect(slow.natsStats.disconnects).toBeGreaterThanOrEqual(1);
    expect(slow.natsStats.reconnects).toBeGreaterThanOrEqual(1);
    await publisher.close();
    await slow.close();
  }, 60_000);
});
