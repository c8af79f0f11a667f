// subscribe's summary says what the entity table did not take, as view's does: new entities past
// receiver.maxEntities are dropped by design (the table is bounded), and a user must see that they were.
import { createSocket } from 'node:dgram';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run.js';
import { encodeEntityStateInto } from '../../src/pdu/wire/entity-state-encoder.js';
import { EntityStateRecord } from '../../src/pdu/wire/entity-state-record.js';
import { within } from '../support/binary.js';

/** A full Entity State PDU of entity 1:1:`entity` in exercise 1, 1 km above the equator at 0° E. */
function entityState(entity: number): Uint8Array {
  const r = new EntityStateRecord(0);
  r.exerciseId = 1;
  r.site = 1;
  r.application = 1;
  r.entity = entity;
  r.entityType.set([1, 1, 225, 1, 1, 3, 0]);
  r.location.set([6_379_137, 0, 0]);
  r.drAlgorithm = 2;
  const bytes = new Uint8Array(144);
  expect(encodeEntityStateInto(bytes, r)).toBe(144);
  return bytes;
}

describe('subscribe with a full table', () => {
  it('says how many PDUs of new entities were over receiver.maxEntities', async () => {
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    let err = '';
    stdout.resume();
    const stop = new AbortController();
    const waiting: Array<() => void> = [];
    stderr.on('data', (chunk) => {
      err += String(chunk);
      for (const check of waiting) check();
    });
    /** Resolves once stderr matches `pattern`; its first group. */
    const stderrMatch = (pattern: RegExp) =>
      new Promise<string>((resolve) => {
        const check = () => {
          const match = pattern.exec(err);
          if (match) resolve(match[1] ?? match[0]);
        };
        waiting.push(check);
        check();
      });
    const tableFullReported = (n: number) =>
      stderrMatch(new RegExp(`(?:table holds its maximum of 2 entities[^]*){${n}}`));
    const listening = stderrMatch(/listening on 127\.0\.0\.1 port (\d+)/).then(Number);
    const argv = ['subscribe', '--address', '127.0.0.1', '--port', '0', '--max-entities', '2', '--duration', '60'];
    argv.push('--diagnostics');
    const exited = runCli(argv, { stdout, stderr, signal: stop.signal });
    const port = await within(listening, 30_000, 'subscribe to listen');
    const socket = createSocket('udp4');
    // Entities 1 and 2 fill the table; 3, 4 and 5 are over it. Loopback UDP sent one at a time is not lost.
    for (const entity of [1, 2, 3, 4, 5]) {
      await new Promise<void>((resolve, reject) =>
        socket.send(entityState(entity), port, '127.0.0.1', (e) => (e ? reject(e) : resolve())),
      );
    }
    socket.close();
    // --diagnostics reports each drop as it happens: the summary is asked for after the third.
    await within(tableFullReported(3), 15_000, 'three drops to be reported');
    stop.abort();
    expect(await within(exited, 10_000, 'subscribe to stop')).toBe(0);
    expect(err).toMatch(
      /; not taken: 3 of new entities over receiver\.maxEntities \(2; raise it with --max-entities\)/,
    );
  }, 60_000);
});
