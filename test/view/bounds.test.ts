// The gateway's bounds against clients that misbehave (docs/view.md, "Bounds"): a client that never reads holds at
// most its high-water mark however many entities its snapshot has (100 clients × a 15 MB snapshot of 100 000
// entities took RSS from 70 MB to 1.38 GB); a client sending thousands of filters gets them coalesced (2 000 filter
// messages with 10 000 entities stalled /healthz for 6.9 s); and nothing of a client is held once it leaves.
import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { within } from '../support/binary.js';
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
