// `reckon publish --entities N --nats URL`: the load generator publishes through a real nats-server, each PDU to
// its H3 cell's subject, bundled per subject; nothing goes to UDP. A raw NATS subscriber counts what arrives.
import { connect } from '@nats-io/transport-node';
import { createSocket } from 'node:dgram';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isDeactivated } from '../../src/dr/models/algorithm.js';
import { decodeEntityStateInto } from '../../src/pdu/wire/entity-state-decoder.js';
import { EntityStateRecord } from '../../src/pdu/wire/entity-state-record.js';
import { forEachPdu } from '../../src/pdu/wire/header.js';
import { CodecStatus } from '../../src/pdu/wire/status.js';
import { within } from '../support/binary.js';
import { startCli } from '../support/cli.js';
import { startNatsServer, type RunningNatsServer } from '../../scripts/support/nats-server.js';
import { findSystemBinary } from '../../scripts/support/system-binary.js';

const natsServer = findSystemBinary('nats-server');
const describeNats = natsServer.path ? describe : describe.skip;

describeNats('reckon publish --entities --nats', () => {
  let server: RunningNatsServer;
  beforeAll(async () => {
    server = await startNatsServer(natsServer.path!);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('publishes every entity to its cell subject, bundled per subject, and sends no UDP', async () => {
    // A UDP socket on the default port would see what a generator that ignores --nats sends.
    const udp = createSocket('udp4');
    let udpDatagrams = 0;
    udp.on('message', () => udpDatagrams++);
    await new Promise<void>((resolve) => udp.bind(0, '127.0.0.1', resolve));
    const nc = await connect({ servers: server.url });
    const record = new EntityStateRecord();
    const entities = new Map<string, { subjects: Set<string>; left: boolean }>();
    let messages = 0,
      pdus = 0,
      bad = 0,
      bundled = 0;
    const subscription = nc.subscribe('dis.1.>', {
      callback: (error, message) => {
        if (error) return void bad++;
        messages++;
        let inMessage = 0;
        const status = forEachPdu(message.data, (bytes, offset, length) => {
          inMessage++;
          if (decodeEntityStateInto(record, bytes, offset, offset + length) !== CodecStatus.OK) return void bad++;
          const key = `${record.site}:${record.application}:${record.entity}`;
          const entry = entities.get(key) ?? { subjects: new Set<string>(), left: false };
          entry.subjects.add(message.subject);
          if (isDeactivated(record.appearance)) entry.left = true;
          entities.set(key, entry);
        });
        if (status !== CodecStatus.OK) bad++;
        // Left-cell copies (a header) are copies of PDUs counted once already.
        if (message.headers === undefined) pdus += inMessage;
        if (inMessage > 1) bundled++;
      },
    });
    await nc.flush();
    try {
      const n = 2000;
      const run = startCli([
        'publish',
        '--entities',
        String(n),
        '--nats',
        server.url,
        '--port',
        String(udp.address().port),
        '--address',
        '127.0.0.1',
        '--duration',
        '3 s',
        '--json',
      ]);
      expect(await within(run.exited, 30_000, 'publish --entities to exit')).toBe(0);
      const summary = JSON.parse(run.stdout().trim().split('\n').pop()!) as Record<string, number> & {
        nats: Record<string, number>;
      };
      await nc.flush();
      await within(
        new Promise<void>((resolve) => {
          const check = setInterval(() => {
            if (pdus < summary.pdus!) return;
            clearInterval(check);
            resolve();
          }, 20);
        }),
        5_000,
        'every PDU to arrive',
      );
      expect(run.stderr()).toMatch(/→ NATS nats:\/\/127\.0\.0\.1:\d+ \(subjects dis\.1\.<H3 cell, resolution 5>/);
      expect(bad).toBe(0);
      expect(udpDatagrams).toBe(0);
      expect(pdus).toBe(summary.pdus);
      expect(summary.nats.messagesOut).toBe(messages);
      expect(bundled).toBeGreaterThan(0);
      expect(entities.size).toBe(summary.joined);
      expect(summary.joined).toBeGreaterThan(n / 2); // they join over the 5 s heartbeat
      for (const entry of entities.values()) {
        expect(entry.left).toBe(true);
        for (const subject of entry.subjects) expect(subject).toMatch(/^dis\.1\.[0-9a-f]{15}\.1\.[123]$/);
      }
    } finally {
      subscription.unsubscribe();
      await nc.close();
      await new Promise<void>((resolve) => udp.close(() => resolve()));
    }
  }, 40_000);
});
