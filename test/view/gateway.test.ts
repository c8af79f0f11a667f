/**
 * The view gateway over real sockets on 127.0.0.1: UDP in, WebSocket out. Hello, PDUs byte for byte, snapshots,
 * every filter kind, the Origin check, hostile client messages, and a client that never reads.
 */
import { request } from 'node:http';
import type { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { within } from '../support/binary.js';
import {
  FeedClient,
  entityPdu,
  maskedTextFrame,
  rawClient,
  startGateway,
  until,
  type EntitySpec,
  type TestGateway,
} from './support.js';
import type { ViewFilter } from '../../src/view/protocol.js';
import { binaryFrames } from '../../src/view/ws-frames.js';
import { encodeAnyPduInto } from '../../src/pdu/wire/any-pdu.js';
import { EntityManagementRecord, StopFreezeRecord } from '../../src/pdu/wire/simulation-management.js';
import { FireRecord } from '../../src/pdu/wire/warfare.js';

let running: TestGateway[] = [];
let clients: FeedClient[] = [];
afterEach(async () => {
  for (const c of clients) c.close();
  clients = [];
  await Promise.all(running.map((g) => g.close()));
  running = [];
});

async function gateway(options: Parameters<typeof startGateway>[0] = {}): Promise<TestGateway> {
  const g = await startGateway(options);
  running.push(g);
  return g;
}

async function client(g: TestGateway, options = {}): Promise<FeedClient> {
  const c = await FeedClient.connect(g.feedUrl, options);
  clients.push(c);
  await c.next('hello');
  return c;
}

/** Sends PDUs and waits until `observer` (empty filter) has them all, so every client's tick has been sent. */
async function publish(g: TestGateway, observer: FeedClient, specs: readonly EntitySpec[]): Promise<void> {
  const before = observer.records.length;
  g.send(...specs.map(entityPdu));
  await observer.waitFor(() => observer.records.length >= before + specs.length, `${specs.length} PDUs`);
}

describe('view gateway', () => {
  it('says hello first, with the protocol version and the receive settings', async () => {
    const g = await gateway({ tiles: 'https://tiles.example.org/{z}/{x}/{y}.png' });
    const c = await FeedClient.connect(g.feedUrl);
    clients.push(c);
    await c.waitFor(() => c.json.length > 0, 'a first message');
    const hello = c.json[0]!;
    expect(hello.type).toBe('hello');
    if (hello.type !== 'hello') return;
    expect(hello.protocol).toBe(1);
    expect(Math.abs(hello.serverTimeMs - Date.now())).toBeLessThan(60_000);
    expect(hello.config).toMatchObject({
      exercise: 1,
      smoothing: { method: expect.any(String), timeSeconds: expect.any(Number) },
      tiles: 'https://tiles.example.org/{z}/{x}/{y}.png',
      demo: false,
    });
    expect(hello.config.entityTimeoutSeconds).toBeGreaterThan(0);
    // The default `receiver.maxEntities`.
    expect(hello.config.maxEntities).toBe(10_000);
  });

  it("tells the page the gateway's receiver.maxEntities, which the page sizes its table from", async () => {
    const g = await gateway({ config: { receiver: { maxEntities: 25_000 } } });
    const c = await FeedClient.connect(g.feedUrl);
    clients.push(c);
    await c.waitFor(() => c.json.length > 0, 'a first message');
    const hello = c.json[0]!;
    expect(hello.type === 'hello' && hello.config.maxEntities).toBe(25_000);
  });

  it('forwards the PDUs a UDP publisher sends, byte for byte, with their arrival times', async () => {
    const g = await gateway();
    const c = await client(g);
    const startMs = Date.now();
    const pdus = [entityPdu({ entity: 1 }), entityPdu({ entity: 2, force: 2 }), entityPdu({ entity: 1, update: true })];
    g.send(...pdus);
    await c.waitFor(() => c.records.length >= 3, 'three PDUs');
    expect(c.records.map((r) => [...r.pdu])).toEqual(pdus.map((p) => [...p]));
    expect(c.records.map((r) => r.pdu.length)).toEqual([144, 144, 72]);
    for (const r of c.records) expect(r.arrivalTimeMs).toBeGreaterThanOrEqual(startMs - 1);
    // Other PDU types, other exercises and undecodable bytes never reach a page.
    const fire = entityPdu({ entity: 3 });
    fire[2] = 2;
    const otherExercise = entityPdu({ entity: 4, exercise: 9 });
    const garbage = entityPdu({ entity: 5 }).subarray(0, 100);
    g.send(fire, otherExercise, garbage, entityPdu({ entity: 6 }));
    await c.waitFor(() => c.records.length >= 4, 'the good PDU');
    await c.sync();
    expect(c.entities(3)).toEqual([6]);
  });

  it('sends a new client the newest PDUs of every entity first (snapshot), leaving out those that left', async () => {
    const g = await gateway();
    const first = await client(g);
    await publish(g, first, [
      { entity: 1, speed: 1 },
      { entity: 2 },
      { entity: 1, speed: 2 },
      { entity: 2, update: true, speed: 5 },
      { entity: 3 },
      { entity: 3, deactivated: true },
    ]);
    const late = await client(g);
    await late.waitFor(() => late.records.length >= 3, 'the snapshot');
    await late.sync();
    // Entity 1: its newest full PDU; entity 2: its full PDU, then the newer update; entity 3 left.
    expect(late.records.map((r) => [r.entity, r.pdu.length])).toEqual([
      [1, 144],
      [2, 144],
      [2, 72],
    ]);
    expect([...late.records[0]!.pdu]).toEqual([...entityPdu({ entity: 1, speed: 2 })]);
    expect(g.gateway.entityCount).toBe(2);
  });

  it('streams a snapshot as fast as the client reads it, not a batch per tick', async () => {
    // Ticks a minute apart and a 64 KiB mark: 30 000 entities (4.6 MB) are some 70 batches, each sent when the
    // socket has taken the last one.
    const g = await gateway({
      tickMs: 60_000,
      highWaterBytes: 64 * 1024,
      config: { receiver: { maxEntities: 40_000 } },
    });
    const n = 30_000;
    const source = { address: '127.0.0.1', port: 1, family: 'IPv4' };
    for (let first = 0; first < n; first += 10) {
      const pdus: Uint8Array[] = [];
      for (let i = first; i < first + 10; i++) {
        const pdu = entityPdu({ entity: (i % 60_000) + 1, speed: i % 7 });
        pdus.push(pdu);
      }
      g.gateway.receive(Buffer.concat(pdus), source);
    }
    const late = await client(g);
    await late.waitFor(() => late.records.length >= n, 'the snapshot of 30 000 entities', 20_000);
    expect(new Set(late.records.map((r) => r.entity)).size).toBe(n);
    expect(late.records.length).toBe(n);
    // In messages of at most 64 KiB.
    expect(Math.max(...late.binaryMessages)).toBeLessThanOrEqual(65_535);
  }, 30_000);

  it("filters a snapshot by area at the newest location its PDUs carry, an update's", async () => {
    const g = await gateway();
    const observer = await client(g);
    await publish(g, observer, [
      { entity: 1, latDeg: 50, lonDeg: 8 },
      { entity: 2, latDeg: 50, lonDeg: 8 },
      // Entity 1 moves out of the area, entity 2 stays: their updates say where they are now.
      { entity: 1, update: true, latDeg: 40, lonDeg: 8 },
      { entity: 2, update: true, latDeg: 50.5, lonDeg: 8.5 },
    ]);
    const filtered = await client(g);
    await filtered.sync();
    filtered.send({ type: 'filter', bbox: [5, 45, 10, 55] });
    const ok = await filtered.next('filter-ok');
    const okAt = filtered.json.indexOf(ok) + 1;
    await filtered.sync();
    const snapshot = filtered.records.filter((r) => r.afterJson >= okAt).map((r) => [r.entity, r.pdu.length]);
    expect(snapshot).toEqual([
      [2, 144],
      [2, 72],
    ]);
  });

  const filterCases: Array<[string, Partial<ViewFilter>, EntitySpec[], number[]]> = [
    [
      'force',
      { forces: [2] },
      [
        { entity: 1, force: 1 },
        { entity: 2, force: 2 },
        { entity: 3, force: 3 },
      ],
      [2],
    ],
    [
      'kind',
      { kinds: [1] },
      [
        { entity: 1, kind: 1 },
        { entity: 2, kind: 3 },
      ],
      [1],
    ],
    [
      'domain',
      { domains: [2, 3] },
      [
        { entity: 1, domain: 1 },
        { entity: 2, domain: 2 },
        { entity: 3, domain: 3 },
      ],
      [2, 3],
    ],
    [
      'exercise',
      { exercise: 2 },
      [
        { entity: 1, exercise: 1 },
        { entity: 2, exercise: 2 },
      ],
      [2],
    ],
    [
      'bbox',
      { bbox: [5, 45, 10, 55] },
      [
        { entity: 1, latDeg: 50, lonDeg: 8 },
        { entity: 2, latDeg: 50, lonDeg: 12 },
        { entity: 3, latDeg: 40, lonDeg: 8 },
      ],
      [1],
    ],
    [
      'bbox across the antimeridian',
      { bbox: [170, -20, -170, 20] },
      [
        { entity: 1, latDeg: 0, lonDeg: 175 },
        { entity: 2, latDeg: 0, lonDeg: -175 },
        { entity: 3, latDeg: 0, lonDeg: 0 },
        { entity: 4, latDeg: 0, lonDeg: 165 },
        { entity: 5, latDeg: 30, lonDeg: 179 },
      ],
      [1, 2],
    ],
  ];

  it.each(filterCases)('a %s filter reduces the snapshot and the stream', async (_name, filter, entities, expected) => {
    const g = await gateway({ allExercises: true });
    const observer = await client(g);
    const filtered = await client(g);
    await publish(g, observer, entities);
    await filtered.sync();
    expect(filtered.entities()).toEqual(entities.map((e) => e.entity).sort((a, b) => a - b));

    const full: ViewFilter = { exercise: null, forces: null, kinds: null, domains: null, bbox: null, ...filter };
    filtered.send({ type: 'filter', ...filter });
    const ok = await filtered.next('filter-ok');
    expect(ok.filter).toEqual(full);
    const okAt = filtered.json.indexOf(ok) + 1;
    await filtered.sync();
    const afterFilter = filtered.records.length;
    const snapshot = filtered.records.filter((r) => r.afterJson >= okAt).map((r) => r.entity);
    expect([...new Set(snapshot)].sort((a, b) => a - b)).toEqual(expected);

    await publish(
      g,
      observer,
      entities.map((e) => ({ ...e, speed: 3 })),
    );
    await filtered.sync();
    expect(filtered.entities(afterFilter)).toEqual(expected);
  });

  it('filters Entity State Updates by the entity their full PDU described', async () => {
    const g = await gateway();
    const observer = await client(g);
    const filtered = await client(g);
    filtered.send({ type: 'filter', forces: [2] });
    await filtered.next('filter-ok');
    await publish(g, observer, [
      { entity: 1, force: 1 },
      { entity: 2, force: 2 },
    ]);
    await filtered.sync();
    const from = filtered.records.length;
    await publish(g, observer, [
      { entity: 1, update: true },
      { entity: 2, update: true },
    ]);
    await filtered.sync();
    expect(filtered.records.slice(from).map((r) => [r.entity, r.pdu.length])).toEqual([[2, 72]]);
  });

  it('holds at most receiver.maxEntities entities, counting the PDUs of further ones', async () => {
    const g = await gateway({ config: { receiver: { maxEntities: 2 } } });
    const observer = await client(g);
    g.send(entityPdu({ entity: 1 }), entityPdu({ entity: 2 }), entityPdu({ entity: 3 }), entityPdu({ entity: 3 }));
    await observer.waitFor(() => observer.records.length >= 2, 'two PDUs');
    await publish(g, observer, [{ entity: 1, speed: 1 }]);
    await observer.sync();
    expect(observer.entities()).toEqual([1, 2]);
    expect(g.gateway.entityCount).toBe(2);
    expect(g.gateway.stats.tableFull).toBe(2);
    // A leave frees a place.
    await publish(g, observer, [{ entity: 2, deactivated: true }]);
    await publish(g, observer, [{ entity: 3 }]);
    expect(g.gateway.entityCount).toBe(2);
  });

  it('forgets an entity silent for its timeout, and a new client gets no snapshot of it', async () => {
    let clockMs = Date.now();
    const g = await gateway({ now: () => clockMs });
    const observer = await client(g);
    await publish(g, observer, [{ entity: 1 }]);
    expect(g.gateway.entityCount).toBe(1);
    clockMs += 3_600_000; // an hour later by the gateway's clock: far beyond any heartbeat × 2.4
    const seen = observer.json.length;
    await observer.waitFor(
      () => observer.json.slice(seen).some((m) => m.type === 'counters' && m.entities === 0),
      'counters with no entity',
    );
    expect(g.gateway.stats.timeouts).toBe(1);
    const late = await client(g);
    await late.sync();
    expect(late.records).toEqual([]);
  });

  it('sends shots and entity control as messages; a removed entity leaves, a frozen one does not time out', async () => {
    let clockMs = Date.now();
    const g = await gateway({ now: () => clockMs });
    const observer = await client(g);
    await publish(g, observer, [{ entity: 1 }, { entity: 2 }, { entity: 3 }]);
    const control = (record: EntityManagementRecord | StopFreezeRecord, exercise: number, entity: number) => {
      record.exerciseId = exercise;
      Object.assign(record.receivingId, { site: 1, application: 1, entity });
      const out = new Uint8Array(64);
      return out.slice(0, encodeAnyPduInto(out, record));
    };
    const fire = new FireRecord();
    fire.exerciseId = 1;
    Object.assign(fire.firingEntityId, { site: 1, application: 1, entity: 1 });
    const fireBytes = new Uint8Array(96);
    g.send(fireBytes.subarray(0, encodeAnyPduInto(fireBytes, fire)));
    // Entity 2 leaves; entity 1 is frozen.
    g.send(control(new EntityManagementRecord(12), 1, 2), control(new StopFreezeRecord(), 1, 1));
    await observer.waitFor(
      () => observer.json.some((m) => m.type === 'entity-control' && m.action === 'freeze'),
      'the freeze',
    );
    expect(observer.json.filter((m) => m.type === 'fire' || m.type === 'entity-control').map((m) => m.type)).toEqual([
      'fire',
      'entity-control',
      'entity-control',
    ]);
    expect(g.gateway.entityCount).toBe(2);
    clockMs += 3_600_000; // an hour later: entity 1 is held, entity 3 times out
    const seen = observer.json.length;
    await observer.waitFor(
      () => observer.json.slice(seen).some((m) => m.type === 'counters' && m.entities === 1),
      'counters with one entity',
    );
    const late = await client(g);
    await late.waitFor(() => late.records.length >= 1, 'the snapshot');
    await late.sync();
    expect(late.records.map((r) => r.entity)).toEqual([1]);
    expect(late.json.filter((m) => m.type === 'entity-control')).toMatchObject([{ action: 'freeze', exercise: 1 }]);
  });

  it("refuses a foreign Origin with 403 and accepts the page's own, an allowed one, and none", async () => {
    const g = await gateway({ allowOrigins: ['http://localhost:5173'] });
    const port = new URL(g.url).port;
    const upgrade = (origin: string | undefined) =>
      within(
        new Promise<number>((resolve, reject) => {
          const headers: Record<string, string> = {
            Connection: 'Upgrade',
            Upgrade: 'websocket',
            'Sec-WebSocket-Version': '13',
            'Sec-WebSocket-Key': 'dGhlIHNhbXBsZSBub25jZQ==',
          };
          if (origin !== undefined) headers['Origin'] = origin;
          const req = request({ host: '127.0.0.1', port, path: '/feed', headers });
          req.on('response', (res) => {
            res.resume();
            resolve(res.statusCode!);
          });
          req.on('upgrade', (res, socket) => {
            socket.destroy();
            resolve(res.statusCode!);
          });
          req.on('error', reject);
          req.end();
        }),
        5000,
        `upgrade with origin ${origin}`,
      );
    expect(await upgrade('http://evil.example')).toBe(403);
    expect(await upgrade(`http://localhost:${port}`)).toBe(403); // another host name is another origin
    expect(await upgrade('null')).toBe(403);
    expect(await upgrade(`http://127.0.0.1:${port}`)).toBe(101);
    expect(await upgrade('http://localhost:5173')).toBe(101);
    expect(await upgrade(undefined)).toBe(101);
    expect(g.gateway.stats.upgradesRefused).toBe(3);
    const c = await client(g, { origin: `http://127.0.0.1:${port}` });
    expect(c.json[0]!.type).toBe('hello');
  });

  it('refuses upgrades off /feed (404) and beyond maxClients (503)', async () => {
    const g = await gateway({ maxClients: 1 });
    const refused = (url: string) =>
      within(
        new Promise<number>((resolve) => {
          const ws = new WebSocket(url);
          ws.on('unexpected-response', (_req, res) => {
            ws.terminate();
            resolve(res.statusCode!);
          });
          ws.on('open', () => {
            ws.terminate();
            resolve(101);
          });
          ws.on('error', () => {});
        }),
        5000,
        `upgrade ${url}`,
      );
    expect(await refused(g.feedUrl.replace('/feed', '/other'))).toBe(404);
    const first = await client(g);
    expect(await refused(g.feedUrl)).toBe(503);
    first.close();
    await within(first.closed, 5000, 'the first client closed');
    await until(() => g.gateway.stats.clients === 0, 'the gateway to see it go');
    expect(await refused(g.feedUrl)).toBe(101);
    expect(g.gateway.stats.upgradesRefused).toBe(2);
  });

  it('answers malformed, unknown and oversized client messages with errors, counts them, and serves on', async () => {
    const g = await gateway();
    const observer = await client(g);
    const bad = await client(g);
    bad.send('{not json');
    expect((await bad.next('error')).code).toBe('BAD_JSON');
    bad.send({ type: 'subscribe' });
    expect((await bad.next('error', bad.json.findIndex((m) => m.type === 'error') + 1)).code).toBe('UNKNOWN_TYPE');
    bad.send({ type: 'filter', bbox: [0, 10, 1, 5] });
    await bad.waitFor(() => bad.json.filter((m) => m.type === 'error').length === 3, 'a third error');
    expect(bad.json.filter((m) => m.type === 'error').map((m) => m.type === 'error' && m.code)).toEqual([
      'BAD_JSON',
      'UNKNOWN_TYPE',
      'BAD_MESSAGE',
    ]);
    bad.socket.send(Buffer.from([1, 2, 3]), { binary: true });
    await bad.waitFor(() => bad.json.filter((m) => m.type === 'error').length === 4, 'a fourth error');
    // Still served: the bad messages changed nothing.
    await bad.sync();
    expect(g.gateway.stats.clientErrors).toBe(4);

    bad.send('x'.repeat(17 * 1024));
    expect(await within(bad.closed, 5000, 'the oversized sender closed')).toBe(1009);
    await observer
      .waitFor(() => g.gateway.stats.clientErrors === 5, 'the oversized message counted', 5000)
      .catch(() => {});
    expect(g.gateway.stats.clientErrors).toBe(5);
    expect(g.gateway.stats.clients).toBe(1);
    await publish(g, observer, [{ entity: 7 }]);
    await observer.sync();
    const counters = await observer.next('counters');
    expect(counters.clientErrors).toBe(5);
  });

  it('keeps a client that never reads to a bounded buffer, the newest PDU per entity, and counts what it skipped', async () => {
    const g = await gateway({ highWaterBytes: 256 * 1024, tickMs: 1_000_000 });
    // A raw TCP client: does the upgrade by hand, then never reads again.
    const raw = await rawClient(Number(new URL(g.url).port));
    const reader = await client(g);

    const ENTITIES = 500;
    const datagrams: Buffer[] = [];
    for (let e = 1; e <= ENTITIES; e += 10) {
      datagrams.push(Buffer.concat(Array.from({ length: 10 }, (_, k) => entityPdu({ entity: e + k }))));
    }
    const source = { address: '127.0.0.1', port: 1, family: 'IPv4' };
    let maxBuffered = 0;
    let ticks = 0;
    const slow = () => g.gateway.clientStates().find((s) => s.skipped > 0 || s.congested);
    // Until it has skipped PDUs, then as many ticks again: its buffer must not grow meanwhile.
    let congestedAt = -1;
    for (; ticks < 2000 && (congestedAt < 0 || ticks < congestedAt * 2 + 20); ticks++) {
      for (const d of datagrams) g.gateway.receive(d, source);
      g.gateway.tick();
      await new Promise((resolve) => setImmediate(resolve));
      const s = slow();
      if (s && s.skipped > 0 && congestedAt < 0) congestedAt = ticks;
      const states = g.gateway.clientStates();
      maxBuffered = Math.max(maxBuffered, ...states.map((c) => c.bufferedBytes));
    }
    const s = slow();
    expect(congestedAt).toBeGreaterThanOrEqual(0);
    // One tick's messages at most on top of the mark: 500 × (144 + 10) bytes.
    expect(maxBuffered).toBeLessThanOrEqual(256 * 1024 + ENTITIES * 154);
    expect(s!.pendingEntities).toBeLessThanOrEqual(ENTITIES);
    expect(s!.skipped).toBeGreaterThan(ENTITIES);
    expect(g.gateway.stats.skipped).toBe(s!.skipped);
    // The reading client got every PDU of every tick.
    await reader.waitFor(() => reader.records.length >= ticks * ENTITIES, 'every PDU at the reading client', 20_000);
    expect(reader.records.length).toBe(ticks * ENTITIES);
    raw.destroy();
  });

  it('bounds the buffer of a client that keeps asking for snapshots and never reads', async () => {
    const g = await gateway({ highWaterBytes: 64 * 1024, tickMs: 1_000_000 });
    const source = { address: '127.0.0.1', port: 1, family: 'IPv4' };
    for (let e = 1; e <= 500; e++) g.gateway.receive(entityPdu({ entity: e }), source);
    expect(g.gateway.entityCount).toBe(500);
    const raw = await rawClient(Number(new URL(g.url).port));
    const MESSAGES = 300;
    for (let i = 0; i < MESSAGES; i++) raw.write(maskedTextFrame(JSON.stringify({ type: 'filter', forces: [1] })));
    await until(() => g.gateway.stats.clientMessages === MESSAGES, 'every filter message read');
    for (let i = 0; i < 20; i++) {
      g.gateway.tick();
      await new Promise((resolve) => setImmediate(resolve));
    }
    const [state] = g.gateway.clientStates();
    // Without the bound: 300 snapshots of 500 × 154 bytes (23 MB). With it: one filter applied (the others
    // coalesced into it), its snapshot sent within the mark, the rest held as marks.
    expect(state!.filtersCoalesced).toBe(MESSAGES - 1);
    expect(state!.bufferedBytes).toBeLessThanOrEqual(64 * 1024 + 200);
    raw.destroy();
  });
});

describe('binaryFrames', () => {
  it('frames messages of every length class as ws reads them (7-, 16- and 64-bit lengths), back to back', async () => {
    // ws's own frame parser, as a client reads what a server sends.
    const { Receiver } = (await import('ws')) as unknown as {
      Receiver: new (options: { isServer: boolean }) => Writable;
    };
    const lengths = [0, 1, 125, 126, 127, 65_535, 65_536, 70_000];
    const messages = lengths.map((n) => Uint8Array.from({ length: n }, (_, i) => (i * 31 + n) & 0xff));
    const received: Array<{ data: Buffer; binary: boolean }> = [];
    const receiver = new Receiver({ isServer: false });
    receiver.on('message', (data: Buffer, binary: boolean) => received.push({ data: Buffer.from(data), binary }));
    const frames = binaryFrames(messages);
    // Header bytes: 2 below 126, 4 below 65 536, else 10 (RFC 6455 §5.2).
    expect(frames.length).toBe(lengths.reduce((s, n) => s + n + (n < 126 ? 2 : n < 65_536 ? 4 : 10), 0));
    await new Promise<void>((resolve, reject) => receiver.write(frames, (e) => (e ? reject(e) : resolve())));
    expect(received.map((r) => r.binary)).toEqual(lengths.map(() => true));
    expect(received.map((r) => r.data.length)).toEqual(lengths);
    received.forEach((r, i) => expect(r.data.equals(messages[i]!)).toBe(true));
  });
});
