// The gateway's bounds against clients that misbehave (docs/view.md, "Bounds"): a client that never reads holds at
// most its high-water mark however many entities its snapshot has (100 clients × a 15 MB snapshot of 100 000
// entities took RSS from 70 MB to 1.38 GB) or Fire PDUs come (each went to every client as it came: 100 clients
// that never read took `view` to 1.39 GB); a client sending thousands of filters gets them coalesced (2 000 filter
// messages with 10 000 entities stalled /healthz for 6.9 s); and nothing of a client is held once it leaves.
import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { within } from '../support/binary.js';
import { encodeAnyPduInto } from '../../src/pdu/wire/any-pdu.js';
import { StopFreezeRecord } from '../../src/pdu/wire/simulation-management.js';
import { FireRecord } from '../../src/pdu/wire/warfare.js';
import { TICK_BYTES } from '../../src/view/tick-buffer.js';
import { FeedClient, entityPdu, rawClient, startGateway, until, type TestGateway } from './support.js';

const running: TestGateway[] = [];
afterEach(async () => {
  for (const g of running.splice(0)) await g.close();
});

const source = { address: '127.0.0.1', port: 1, family: 'IPv4' };

/** `count` entities (force 1 for even numbers, 2 for odd ones) straight into the gateway, ten PDUs a datagram. */
function fill(g: TestGateway, count: number): void {
  for (let first = 0; first < count; first += 10) {
    const pdus: Uint8Array[] = [];
    for (let i = first; i < Math.min(first + 10, count); i++) {
      const pdu = entityPdu({ entity: (i % 60_000) + 1, force: i % 2 === 0 ? 1 : 2 });
      const application = Math.floor(i / 60_000) + 1; // entity ids are 16 bits: past 60 000, another application
      pdu[14] = application >> 8;
      pdu[15] = application & 0xff;
      pdus.push(pdu);
    }
    g.gateway.receive(Buffer.concat(pdus), source);
  }
}

async function ticks(g: TestGateway, n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    g.gateway.tick();
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** `count` Fire PDUs of exercise 1 (shooter 1:1:1) straight into the gateway, 60 a datagram. */
function fires(g: TestGateway, count: number): void {
  const fire = new FireRecord();
  fire.exerciseId = 1;
  Object.assign(fire.firingEntityId, { site: 1, application: 1, entity: 1 });
  fire.location.set([6_378_137, 0, 0]);
  fire.descriptor.munitionType.set([2, 2, 222, 1, 8, 0, 0]);
  const one = new Uint8Array(200);
  const n = encodeAnyPduInto(one, fire);
  const datagram = Buffer.alloc(60 * n);
  for (let k = 0; k < 60; k++) datagram.set(one.subarray(0, n), k * n);
  for (let sent = 0; sent < count; sent += 60) g.gateway.receive(datagram, source);
}

function healthz(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}healthz`, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode!));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('view gateway bounds', () => {
  it('clients that never read, 100 000 entities: each holds at most its mark; nothing is held once they leave', async () => {
    const HIGH_WATER = 1024 * 1024;
    const g = await startGateway({ config: { receiver: { maxEntities: 100_000 } }, tickMs: 1_000_000 });
    running.push(g);
    fill(g, 100_000);
    expect(g.gateway.entityCount).toBe(100_000);
    const port = Number(new URL(g.url).port);
    const raws = await Promise.all(Array.from({ length: 20 }, () => rawClient(port)));
    await until(() => g.gateway.stats.clients === 20, 'every client connected');
    await ticks(g, 40);
    const states = g.gateway.clientStates();
    // Without the bound each buffered its whole snapshot, 100 000 × 154 bytes (15 MB), less what the kernel took.
    for (const state of states) expect(state.bufferedBytes).toBeLessThanOrEqual(HIGH_WATER + 1024);
    // The rest of each snapshot waits as marks, one byte per entity slot.
    expect(Math.min(...states.map((s) => s.pendingEntities))).toBeGreaterThan(50_000);
    // A reading client meanwhile gets its whole snapshot.
    const reader = await FeedClient.connect(g.feedUrl);
    const ticking = setInterval(() => g.gateway.tick(), 20);
    try {
      await reader.waitFor(() => reader.records.length >= 100_000, 'the whole snapshot', 60_000);
    } finally {
      clearInterval(ticking);
    }
    expect(new Set(reader.records.map((r) => Buffer.from(r.pdu.subarray(12, 18)).toString('hex'))).size).toBe(100_000);
    reader.close();
    for (const raw of raws) raw.destroy();
    await until(() => g.gateway.stats.clients === 0, 'every client gone');
    expect(g.gateway.clientStates()).toEqual([]);
  }, 120_000);

  it('clients that never read, a Fire flood: each holds at most its mark plus one tick; what they miss is counted', async () => {
    const HIGH_WATER = 1024 * 1024;
    const g = await startGateway({ tickMs: 1_000_000 });
    running.push(g);
    const port = Number(new URL(g.url).port);
    const raws = await Promise.all(Array.from({ length: 20 }, () => rawClient(port)));
    const reader = await FeedClient.connect(g.feedUrl);
    await until(() => g.gateway.stats.clients === 21, 'every client connected');
    // 48 000 Fire messages of about 330 bytes: 16 MB for each client, had each been sent everything.
    for (let round = 0; round < 40; round++) {
      fires(g, 1200);
      g.gateway.tick();
      await new Promise((resolve) => setImmediate(resolve));
      for (const state of g.gateway.clientStates()) {
        expect(state.bufferedBytes).toBeLessThanOrEqual(HIGH_WATER + TICK_BYTES + 64 * 1024);
      }
    }
    // Each held back once over its mark, none dropped; the misses counted.
    expect(g.gateway.stats.clientsDropped).toBe(0);
    expect(g.gateway.stats.messagesSkipped).toBeGreaterThan(20 * 10_000);
    // The client that reads got every shot, in the ticks' text messages.
    await reader.waitFor(() => reader.json.filter((m) => m.type === 'fire').length === 48_000, 'every fire', 30_000);
    reader.close();
    for (const raw of raws) raw.destroy();
  }, 120_000);

  it('a client that missed entity control while congested is greeted again once it drains: hello, freezes, snapshot', async () => {
    const g = await startGateway({ tickMs: 1_000_000, highWaterBytes: 64 * 1024 });
    running.push(g);
    fill(g, 10);
    const client = await FeedClient.connect(g.feedUrl);
    await client.next('hello');
    await ticks(g, 2);
    await client.waitFor(() => client.records.length >= 10, 'the snapshot');
    client.socket.pause();
    // Shots until it is congested (the kernel's buffers take a few megabytes first).
    for (let round = 0; round < 200 && !g.gateway.clientStates()[0]!.congested; round++) {
      fires(g, 600);
      await ticks(g, 1);
    }
    expect(g.gateway.clientStates()[0]!.congested).toBe(true);
    const stop = new StopFreezeRecord();
    stop.exerciseId = 1;
    Object.assign(stop.receivingId, { site: 0xffff, application: 0xffff, entity: 0xffff });
    const bytes = new Uint8Array(40);
    encodeAnyPduInto(bytes, stop);
    g.gateway.receive(Buffer.from(bytes), source);
    await ticks(g, 1);
    client.socket.resume();
    const ticking = setInterval(() => g.gateway.tick(), 10);
    try {
      await client.waitFor(() => client.json.filter((m) => m.type === 'hello').length === 2, 'a second hello', 30_000);
      const again = client.json.findLastIndex((m) => m.type === 'hello');
      await client.waitFor(() => client.records.filter((r) => r.afterJson > again).length >= 10, 'the snapshot again');
      expect(client.json.slice(again + 1).find((m) => m.type === 'entity-control')).toMatchObject({ action: 'freeze' });
    } finally {
      clearInterval(ticking);
    }
    expect(g.gateway.stats.greetedAgain).toBe(1);
    expect(g.gateway.clientStates()[0]!.skippedMessages).toBeGreaterThan(0);
    client.close();
  }, 60_000);

  it('a congested client still gets the counters every second: its page shows the entities and what it missed', async () => {
    const g = await startGateway({ tickMs: 1_000_000, highWaterBytes: 64 * 1024 });
    running.push(g);
    fill(g, 10);
    const client = await FeedClient.connect(g.feedUrl);
    await client.next('hello');
    await ticks(g, 2);
    await client.waitFor(() => client.records.length >= 10, 'the snapshot');
    client.socket.pause();
    for (let round = 0; round < 200 && !g.gateway.clientStates()[0]!.congested; round++) {
      fires(g, 600);
      await ticks(g, 1);
    }
    expect(g.gateway.clientStates()[0]!.congested).toBe(true);
    const congestedAtMs = Date.now();
    // Two of the gateway's seconds pass with the client congested (nothing else is sent to it meanwhile).
    const sent = g.gateway.stats.messagesSent;
    await until(() => g.gateway.stats.messagesSent >= sent + 2, 'counters sent while congested');
    expect(g.gateway.clientStates()[0]!.congested).toBe(true);
    const resumedAtMs = Date.now();
    client.socket.resume();
    await client.waitFor(
      () =>
        client.json.some(
          (m) => m.type === 'counters' && m.serverTimeMs >= congestedAtMs && m.serverTimeMs <= resumedAtMs,
        ),
      'counters stamped while the client was congested',
      10_000,
    );
    const during = client.json.find((m) => m.type === 'counters' && m.serverTimeMs >= congestedAtMs);
    expect(during).toMatchObject({ entities: 10 });
    client.close();
  }, 60_000);

  it('2 000 filter messages with 10 000 entities: coalesced, the last one applied, /healthz answers meanwhile', async () => {
    const g = await startGateway();
    running.push(g);
    fill(g, 10_000);
    const client = await FeedClient.connect(g.feedUrl);
    await client.next('hello');
    await client.waitFor(() => client.records.length >= 10_000, 'the first snapshot', 30_000);
    const MESSAGES = 2000;
    for (let i = 0; i < MESSAGES - 1; i++) client.send({ type: 'filter', forces: [i % 2 === 0 ? 1 : 2] });
    client.send({ type: 'filter', forces: [2] });
    const health = within(healthz(g.url), 10_000, '/healthz during the filter storm');
    await until(() => g.gateway.stats.clientMessages >= MESSAGES, 'every filter message read');
    expect(await health).toBe(200);
    const recordsBefore = client.records.length;
    // Applied at most every 200 ms: the storm becomes a few filter changes, the last of them forces [2].
    await client.waitFor(
      () => g.gateway.clientStates()[0]!.filtersCoalesced + countOk(client) >= MESSAGES,
      'every filter applied or coalesced',
      10_000,
    );
    const oks = client.json.filter((m) => m.type === 'filter-ok');
    expect(oks.length).toBeLessThanOrEqual(10);
    expect(oks.at(-1)).toMatchObject({ filter: { forces: [2] } });
    // After the last filter-ok: the snapshot of force 2, 5 000 entities.
    const afterLastOk = client.json.lastIndexOf(oks.at(-1)!) + 1;
    await client.waitFor(
      () => client.records.filter((r) => r.afterJson >= afterLastOk).length >= 5000,
      'the last snapshot',
      30_000,
    );
    expect(client.records.length - recordsBefore).toBeLessThanOrEqual(oks.length * 10_000);
    client.close();
  }, 120_000);
});

function countOk(client: FeedClient): number {
  return client.json.filter((m) => m.type === 'filter-ok').length;
}
