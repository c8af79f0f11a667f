// `reckon publish --entities N`, the load generator, over real UDP on 127.0.0.1: every datagram received is split
// and decoded; ids are unique, the kinds mixed, the rate set by the emitters rather than the tick; bad N exits 2.
// In process (runCli, as the binary does), but where the share of its thread's time on a CPU is measured.
import { createSocket } from 'node:dgram';
import { describe, expect, it } from 'vitest';
import { isDeactivated } from '../../src/dr/models/algorithm.js';
import { decodeEntityStateInto } from '../../src/pdu/wire/entity-state-decoder.js';
import { EntityStateRecord, markingText } from '../../src/pdu/wire/entity-state-record.js';
import { forEachPdu } from '../../src/pdu/wire/header.js';
import { CodecStatus } from '../../src/pdu/wire/status.js';
import { reckon, within } from '../support/binary.js';
import { cli, startCli } from '../support/cli.js';

describe('reckon publish --entities', () => {
  it('publishes N entities with unique ids and a mix of kinds, at the rate their emitters need', async () => {
    const socket = createSocket('udp4');
    await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
    const record = new EntityStateRecord();
    const seen = new Map<string, { marking: string; domain: number; pdus: number; left: boolean }>();
    let datagrams = 0,
      pdus = 0,
      bad = 0;
    socket.on('message', (datagram: Buffer) => {
      datagrams++;
      const status = forEachPdu(datagram, (bytes, offset, length) => {
        pdus++;
        if (decodeEntityStateInto(record, bytes, offset, offset + length) !== CodecStatus.OK) return void bad++;
        const key = `${record.site}:${record.application}:${record.entity}`;
        const entry = seen.get(key) ?? {
          marking: markingText(record),
          domain: record.entityType[1]!,
          pdus: 0,
          left: false,
        };
        entry.pdus++;
        if (isDeactivated(record.appearance)) entry.left = true;
        else expect(markingText(record)).toBe(entry.marking);
        seen.set(key, entry);
      });
      if (status !== CodecStatus.OK) bad++;
    });
    try {
      const { port } = socket.address();
      const n = 60,
        seconds = 7;
      const run = startCli([
        'publish',
        '--entities',
        String(n),
        '--address',
        '127.0.0.1',
        '--port',
        String(port),
        '--application',
        '9',
        '--duration',
        `${seconds} s`,
        '--json',
      ]);
      expect(await within(run.exited, 30_000, 'publish --entities to exit')).toBe(0);
      const summary = JSON.parse(run.stdout().trim().split('\n').pop()!) as Record<string, number>;
      // Everything sent arrives (loopback, a few hundred PDUs) before the socket is read for the last time.
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
      expect(bad).toBe(0);
      expect(pdus).toBe(summary.pdus);
      expect(datagrams).toBe(summary.datagrams);
      expect(datagrams).toBeLessThan(pdus); // bundled
      expect([...seen.keys()].sort()).toEqual(Array.from({ length: n }, (_, i) => `1:9:${i + 1}`).sort());
      expect(new Set([...seen.values()].map((e) => e.marking)).size).toBe(n);
      const domains = [...seen.values()].map((e) => e.domain);
      expect([1, 3, 2].map((d) => domains.filter((x) => x === d).length)).toEqual([30, 12, 18]);
      expect([...seen.values()].every((e) => e.left)).toBe(true);
      // Emitter-driven: every entity is evaluated 10 times a second, and sends a small fraction of that.
      expect(summary.decisions).toBeGreaterThan(n * 10 * (seconds - 5) * 0.8);
      expect((summary.pdus! - summary.leaveNotices!) / summary.decisions!).toBeLessThan(0.15);
      // How often each entity was evaluated, over the time it was there: entity i joins at i / n × 5 s.
      let joinedSeconds = 0;
      for (let i = 0; i < n; i++) joinedSeconds += Math.max(0, summary.seconds! - (i / n) * 5);
      expect(summary.evaluationsPerEntityPerSecond).toBeCloseTo(summary.decisions! / joinedSeconds, 1);
      expect(summary.evaluationsPerEntityPerSecond).toBeLessThanOrEqual(10.2);
      expect(run.stderr()).toContain(
        `every entity evaluated ${summary.evaluationsPerEntityPerSecond} times per second`,
      );
      const statuses = run
        .stdout()
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as Record<string, unknown>)
        .filter((line) => line.type === 'status');
      expect(statuses.length).toBeGreaterThan(0);
      for (const line of statuses) {
        expect(line.evaluationsPerEntityPerSecond).toBeGreaterThan(0);
        expect(line.evaluationsPerEntityPerSecond).toBeLessThanOrEqual(10.2);
        expect(line.maxEvaluationGapSeconds).toBeGreaterThanOrEqual(0.09);
      }
      expect(run.stderr()).toMatch(/ready in .* → 127\.0\.0\.1:\d+/);
      expect(run.stderr()).toMatch(/stopped \(7 s elapsed\)/);
    } finally {
      socket.close();
    }
  }, 60_000);

  it('keeps to --max-rate: entities past the budget wait for the next slice', async () => {
    const run = startCli([
      'publish',
      '--entities',
      '100',
      '--max-rate',
      '10',
      '--address',
      '127.0.0.1',
      '--port',
      '9',
      '--duration',
      '3 s',
      '--json',
    ]);
    expect(await within(run.exited, 30_000, 'publish --entities to exit')).toBe(0);
    const summary = JSON.parse(run.stdout().trim().split('\n').pop()!) as Record<string, number>;
    // The bucket fills at 10 PDUs per second of wall clock from one tick's worth (1 PDU): a bound, not a timing.
    expect(summary.pdus! - summary.leaveNotices!).toBeLessThanOrEqual(10 * summary.seconds! + 2);
    expect(summary.pdus! - summary.leaveNotices!).toBeGreaterThan(0);
    expect(summary.deferred).toBeGreaterThan(0);
  });

  it('never sleeps while behind: its thread is on a CPU or waiting for one, and it says which', async () => {
    // 100 000 entities at 1000 ticks a second: behind from the first slice to the last, on any machine, even while
    // they join (over 5 s); 20 000 caught up in the first second on an idle machine and slept, rightly.
    const run = reckon([
      'publish',
      '--entities',
      '100000',
      '--rate',
      '1000',
      '--address',
      '127.0.0.1',
      '--port',
      '9',
      '--duration',
      '3 s',
      '--json',
    ]);
    expect(await within(run.exited, 60_000, 'publish --entities to exit', run.child)).toBe(0);
    const summary = JSON.parse(run.stdout().trim().split('\n').pop()!) as Record<string, any>;
    expect(summary.ticksSkipped).toBeGreaterThan(0);
    expect(summary.coresForRate).toBeGreaterThan(1);
    expect(run.stderr()).toMatch(/[\d.]+ cores for every entity at 1000 Hz at this cost/);
    if (process.platform !== 'linux') return;
    const shares = summary.mainThread as { onCpu: number; waitingForCpu: number; idle: number };
    expect(shares.onCpu + shares.waitingForCpu + shares.idle).toBeCloseTo(1, 2);
    // Asleep only for what the event loop's I/O takes, not a timer's millisecond after every chunk (most of the time).
    expect(shares.idle).toBeLessThan(0.3);
    expect(run.stderr()).toMatch(/the loop's thread was on a CPU \d+ % of the time, waiting for one \d+ %/);
  }, 90_000);

  it('says on an 80-column terminal how often each entity was evaluated while they join, within the width', async () => {
    // 20 000 entities at 1000 ticks a second: behind, and still joining (over 5 s) when it stops.
    const run = startCli(
      [
        'publish',
        '--entities',
        '20000',
        '--rate',
        '1000',
        '--address',
        '127.0.0.1',
        '--port',
        '9',
        '--duration',
        '2.5 s',
      ],
      {},
      { columns: 80 },
    );
    expect(await within(run.exited, 30_000, 'publish --entities to exit')).toBe(0);
    const lines = run
      .stderr()
      .split(/[\r\n]/)
      .map((line) => line.replace('\x1b[K', ''))
      .filter((line) => /^publish: \d+ s ·/.test(line));
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) {
      expect(line.length).toBeLessThan(80);
      expect(line).toMatch(/^publish: \d+ s · \d+\/20000 joined · each evaluated [\d.]+×\/s of 1000 · /);
    }
  });

  it.each([['0'], ['1000001'], ['abc'], ['-5'], ['1.5']])('refuses --entities %s with exit 2', async (value) => {
    const { code, stderr } = await cli('publish', '--entities', value, '--port', '9');
    expect(code).toBe(2);
    expect(stderr).toContain(`--entities: expected a whole number from 1 to 1000000, got "${value}"`);
    expect(stderr).not.toMatch(/\n\s+at /); // no stack trace
  });

  it('lists every problem of a load run together', async () => {
    const { code, stderr } = await cli(
      'publish',
      '--entities',
      '10',
      '--entity',
      'tank',
      '--max-rate',
      '0',
      '--seed',
      'x',
      '--rate',
      '5000',
    );
    expect(code).toBe(2);
    for (const text of ['--entity: cannot be combined with --entities', '--max-rate', '--seed', '--rate'])
      expect(stderr).toContain(text);
  });
});
