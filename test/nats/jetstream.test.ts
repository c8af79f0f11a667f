// Durable recording in JetStream on Debian's nats-server 2.9 (started with -js): the stream captures the
// exercise's subjects with its limits, and is read back from a start time, in order, up to an end time. The CLI
// runs in process (runCli, as the binary does).
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { createSocket } from 'node:dgram';
import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { geodeticDegreesToEcef } from '../../src/math/geodesy.js';
import { NatsTransport } from '../../src/nats/transport.js';
import { udpFromFrame } from '../../src/pcap/packet.js';
import { readCapture } from '../../src/pcap/reader.js';
import { encodeEntityStateInto } from '../../src/pdu/wire/entity-state-encoder.js';
import { EntityStateRecord } from '../../src/pdu/wire/entity-state-record.js';
import { within } from '../support/binary.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jetstreamManager } from '@nats-io/jetstream';
import {
  StreamConflictError,
  ensureStream,
  readStream,
  streamInfo,
  type StoredMessage,
} from '../../src/nats/jetstream.js';
import { cli, startCli } from '../support/cli.js';
import { startNatsServer, type RunningNatsServer } from '../../scripts/support/nats-server.js';
import { findSystemBinary } from '../../scripts/support/system-binary.js';

const natsServer = findSystemBinary('nats-server');
const describeNats = natsServer.path ? describe : describe.skip;

describeNats('JetStream recording', () => {
  let server: RunningNatsServer;
  let nc: NatsConnection;
  beforeAll(async () => {
    server = await startNatsServer(natsServer.path!, { jetstream: true });
    nc = await connect({ servers: server.url });
  });
  afterAll(async () => {
    await nc?.close();
    await server?.stop();
  });

  it('creates the stream with its limits, updates it, and reads back a time window in order', async () => {
    const { info } = await ensureStream(nc, {
      name: 'DIS',
      subjects: ['dis.1.>'],
      maxAgeSeconds: 3600,
      maxBytes: 1 << 20,
    });
    expect(info.config.max_age).toBe(3600e9);
    expect(info.config.max_bytes).toBe(1 << 20);
    const { info: updated } = await ensureStream(nc, {
      name: 'DIS',
      subjects: ['dis.1.>'],
      maxAgeSeconds: 60,
      maxBytes: 2 << 20,
    });
    expect(updated.config.max_age).toBe(60e9);
    for (let i = 0; i < 5; i++) nc.publish(`dis.1.cell${i}.1.1`, new Uint8Array([i]));
    nc.publish('dis.2.x.1.1', new Uint8Array([99])); // another exercise: not captured
    await nc.flush();
    const all: StoredMessage[] = [];
    for await (const m of readStream(nc, 'DIS', 0)) all.push(m);
    expect(all.map((m) => m.data[0])).toEqual([0, 1, 2, 3, 4]);
    expect(all.map((m) => m.subject)).toEqual([0, 1, 2, 3, 4].map((i) => `dis.1.cell${i}.1.1`));
    expect(all.every((m, i) => i === 0 || m.timeMs >= all[i - 1]!.timeMs)).toBe(true);
    // From the third message's time, up to (not including) the fifth's.
    const window: number[] = [];
    for await (const m of readStream(nc, 'DIS', all[2]!.timeMs, all[4]!.timeMs)) window.push(m.data[0]!);
    expect(window[0]).toBeLessThanOrEqual(2);
    expect(window).not.toContain(4);
    expect((await streamInfo(nc, 'DIS')).state.messages).toBe(5);
  });

  it('a stream that does not exist is a clear error', async () => {
    const read = async () => {
      for await (const m of readStream(nc, 'NOPE', 0)) void m;
    };
    await expect(read()).rejects.toThrow(/no such stream: create it with reckon record/);
  });

  it('an existing stream of somebody else is never changed without --stream-update: exit 2 saying what would change', async () => {
    const manager = await jetstreamManager(nc);
    await manager.streams.add({ name: 'ORDERS', subjects: ['orders.>'] });
    for (let i = 0; i < 1000; i++) nc.publish(`orders.${i % 7}`, new Uint8Array(40));
    await nc.flush();
    const before = await manager.streams.info('ORDERS');
    expect(before.state.messages).toBe(1000);
    const args = [
      'record',
      '--nats',
      server.url,
      '--stream',
      'ORDERS',
      '--exercise',
      '7',
      '--stream-max-bytes',
      '1000',
    ];
    const refused = await cli(...args, '--duration', '0.1');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(
      '--stream: stream ORDERS exists and it captures orders.>, not dis.7.>; recording would change: ' +
        'subjects orders.> → dis.7.>; max age no age limit → 24 h; max bytes no byte limit → 1000 B. ' +
        'Record into a stream of its own (--stream NAME), or give --stream-update to change this one',
    );
    const after = await manager.streams.info('ORDERS');
    expect(after.config.subjects).toEqual(['orders.>']);
    expect([after.config.max_age, after.config.max_bytes, after.state.messages]).toEqual([0, -1, 1000]);

    const updated = await cli(...args, '--stream-update', '--duration', '0.1');
    expect(updated.code).toBe(0);
    expect(updated.stderr).toContain('record: stream ORDERS changed: subjects orders.> → dis.7.>;');
    expect((await manager.streams.info('ORDERS')).config.subjects).toEqual(['dis.7.>']);
    await manager.streams.delete('ORDERS');
  });

  it("reckon's own stream: looser limits are applied, tighter ones on stored messages need --stream-update", async () => {
    const settings = { name: 'OWN', subjects: ['dis.3.>'], maxAgeSeconds: 3600, maxBytes: 1 << 20 };
    expect((await ensureStream(nc, settings)).created).toBe(true);
    nc.publish('dis.3.cell.1.1', new Uint8Array(100));
    await nc.flush();
    const looser = await ensureStream(nc, { ...settings, maxAgeSeconds: 7200, maxBytes: -1 });
    expect(looser.changes).toEqual(['max age 1 h → 2 h', 'max bytes 1048576 B → no byte limit']);
    expect(looser.info.config.max_age).toBe(7200e9);
    await expect(ensureStream(nc, { ...settings, maxAgeSeconds: 60 })).rejects.toThrow(StreamConflictError);
    expect((await streamInfo(nc, 'OWN')).config.max_age).toBe(7200e9);
    const forced = await ensureStream(nc, { ...settings, maxAgeSeconds: 60 }, { update: true });
    expect(forced.info.config.max_age).toBe(60e9);
    expect((await ensureStream(nc, { ...settings, maxAgeSeconds: 60 })).changes).toEqual([]);
  });
});

function pdu(entity: number, latDeg: number): Buffer {
  const r = new EntityStateRecord(0);
  r.exerciseId = 1;
  r.site = 1;
  r.application = 1;
  r.entity = entity;
  r.entityType.set([1, 1, 225, 0, 0, 0, 0]);
  geodeticDegreesToEcef(r.location, latDeg, 11, 0);
  const bytes = Buffer.alloc(144);
  encodeEntityStateInto(bytes, r);
  return bytes;
}

describeNats('reckon record/replay --nats --stream', () => {
  let server: RunningNatsServer;
  let dir: string;
  beforeAll(async () => {
    server = await startNatsServer(natsServer.path!, { jetstream: true });
    dir = mkdtempSync(join(tmpdir(), 'reckon-js-'));
  });
  afterAll(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('record creates the stream; replay exports it to pcap and sends it over UDP, leaving out left-cell copies', async () => {
    const record = startCli([
      'record',
      '--nats',
      server.url,
      '--stream',
      'EX1',
      '--stream-max-age',
      '1 h',
      '--duration',
      '0.5',
    ]);
    expect(await within(record.exited, 15_000, 'record to exit')).toBe(0);
    expect(record.stderr()).toMatch(/stream EX1 keeps dis\.1\.> on .*\(1\.00 h, /);
    // An entity moving north across cells: one left-cell copy per crossing, stored too.
    const publisher = await NatsTransport.open({ servers: [server.url], h3Resolution: 7 });
    for (let i = 0; i < 10; i++) {
      publisher.send(pdu(1, 48 + i * 0.05));
      await new Promise((resolve) => setImmediate(resolve));
    }
    await publisher.connection.flush();
    const copies = publisher.natsStats.leftCellCopiesOut;
    expect(copies).toBeGreaterThan(0);
    await publisher.close();

    const out = join(dir, 'window.pcap');
    const exported = startCli(['replay', '--nats', server.url, '--stream', 'EX1', '--from', '-1 h', '--export', out]);
    expect(await within(exported.exited, 15_000, 'export to exit')).toBe(0);
    expect(exported.stderr()).toContain(`${copies} left-cell copies left out`);
    const capture = readCapture(readFileSync(out));
    const payloads = capture.frames
      .map((f) => udpFromFrame(f.linkType, f.data))
      .filter((u) => u.kind === 'udp')
      .map((u) => (u as { payload: Uint8Array }).payload);
    expect(payloads).toHaveLength(10);
    expect(payloads.every((p) => p.length === 144 && p[2] === 1)).toBe(true);
    expect(existsSync(`${out}.partial`)).toBe(false);

    const lan = createSocket('udp4');
    await new Promise<void>((resolve) => lan.bind(0, '127.0.0.1', () => resolve()));
    const got: Buffer[] = [];
    const all = new Promise<void>((resolve) => lan.on('message', (d) => got.push(d) === 10 && resolve()));
    const replay = startCli([
      'replay',
      '--nats',
      server.url,
      '--stream',
      'EX1',
      '--speed',
      '0',
      '--to',
      `127.0.0.1:${lan.address().port}`,
    ]);
    expect(await within(replay.exited, 15_000, 'replay to exit')).toBe(0);
    await within(all, 5_000, 'the datagrams to arrive');
    lan.close();
    expect(got.map((d) => (d[16]! << 8) | d[17]!)).toEqual(Array(10).fill(1));
    expect(replay.stderr()).toMatch(/replay: done: \d+ messages of stream EX1 → 10 datagrams/);
  }, 40_000);

  it('replay of a stream that does not exist: one line, exit 1', async () => {
    const run = startCli(['replay', '--nats', server.url, '--stream', 'NONE', '--export', join(dir, 'x.pcap')]);
    expect(await within(run.exited, 15_000, 'replay to exit')).toBe(1);
    expect(run.stderr()).toMatch(/no such stream/);
    expect(existsSync(join(dir, 'x.pcap'))).toBe(false);
  }, 20_000);
});
