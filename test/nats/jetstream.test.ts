// Durable recording in JetStream on Debian's nats-server 2.9 (started with -js): the stream captures the
// exercise's subjects with its limits, and is read back from a start time, in order, up to an end time.
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureStream, readStream, streamInfo, type StoredMessage } from '../../src/nats/jetstream.js';
import { startNatsServer, type RunningNatsServer } from '../support/nats-server.js';
import { findSystemBinary } from '../support/system-binary.js';

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
    const info = await ensureStream(nc, { name: 'DIS', subjects: ['dis.1.>'], maxAgeSeconds: 3600, maxBytes: 1 << 20 });
    expect(info.config.max_age).toBe(3600e9);
    expect(info.config.max_bytes).toBe(1 << 20);
    const updated = await ensureStream(nc, { name: 'DIS', subjects: ['dis.1.>'], maxAgeSeconds: 60, maxBytes: 2 << 20 });
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
});
