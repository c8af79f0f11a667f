// Durations past Node's longest timer (2³¹−1 ms, 24.8 days): a setTimeout that long fires after 1 ms, so
// `record --duration "30 days"` stopped at once, reported success and replaced the capture with an empty one, and
// `replay` sent a capture with a 136-year gap all at once. Timers are chained; replay's gaps are capped.
import { createSocket } from 'node:dgram';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { GapCap } from '../../src/cli/gap-cap.js';
import { MAX_TIMER_MS, setLongTimeout, sleep } from '../../src/cli/long-timer.js';
import { untilStopped } from '../../src/cli/until-stopped.js';
import { udpFromFrame } from '../../src/pcap/packet.js';
import { readCapture } from '../../src/pcap/reader.js';
import { pcapFileHeader, pcapUdpRecord } from '../../src/pcap/writer.js';
import { cli, startCli } from '../support/cli.js';
import { FakeTimerHost } from '../support/fake-timer-host.js';
import { ROOT, reckon, within } from '../support/binary.js';

const dir = mkdtempSync(join(tmpdir(), 'reckon-long-'));
const DAY_MS = 86_400_000;

describe('chained timers', () => {
  it('a 30-day timer fires after 30 days, not after 1 ms', () => {
    const host = new FakeTimerHost();
    const fired = vi.fn();
    setLongTimeout(fired, 30 * DAY_MS, false, host);
    host.advance(MAX_TIMER_MS + 1000);
    expect(fired).not.toHaveBeenCalled();
    host.advance(30 * DAY_MS - MAX_TIMER_MS - 2000);
    expect(fired).not.toHaveBeenCalled();
    host.advance(1000);
    expect(fired).toHaveBeenCalledTimes(1);
  });

  it('untilStopped with 1000 h stops after 1000 h; clear and abort release it', async () => {
    const host = new FakeTimerHost();
    const { stopped } = untilStopped(new AbortController().signal, 1000 * 3600, host);
    let reason: string | undefined;
    void stopped.then((r) => (reason = r));
    host.advance(999 * 3600 * 1000);
    await Promise.resolve();
    expect(reason).toBeUndefined();
    host.advance(3600 * 1000);
    expect(await stopped).toBe('3600000 s elapsed');
    const controller = new AbortController();
    const wait = sleep(365 * DAY_MS, controller.signal, host);
    expect(host.count).toBe(1);
    controller.abort();
    await wait;
    expect(host.count).toBe(0);
  });
});

describe('replay schedule: gaps capped', () => {
  it('a 136-year gap is shortened to the cap and said so; steps back and missing times are no gap', () => {
    const gaps = new GapCap(3600);
    expect([1, 2, 2 ** 32 - 1, 2 ** 32 - 0.5, 5, Number.NaN, 2 ** 32].map((t) => gaps.next(t))).toEqual([
      0,
      1,
      3601,
      3601.5,
      3601.5,
      3601.5,
      3601.5 + 3600,
    ]);
    expect(gaps.shortened).toBe(2);
    expect(gaps.describe()).toBe(
      '2 gaps longer than 1 h 0 min (the longest 49710 d 6 h) shortened to 1 h 0 min (--max-gap)',
    );
  });
});

describe('commands given durations past 24.8 days', () => {
  it('record --duration "30 days" keeps recording until interrupted, and keeps the existing file until then', async () => {
    const out = join(dir, 'session.pcap');
    writeFileSync(out, 'precious');
    const run = reckon(['record', '--duration', '30 days', '--out', out, '--port', '0']);
    await run.waitFor(/listening on/);
    expect(readFileSync(out, 'utf8')).toBe('precious');
    run.child.kill('SIGINT');
    expect(await within(run.exited, 15_000, 'record to exit', run.child)).toBe(0);
    expect(run.stderr()).toContain('record: stopped (interrupted)');
    expect(run.stderr()).not.toContain('TimeoutOverflowWarning');
  });

  it('demo --duration "1000 h" runs until interrupted', async () => {
    const run = reckon(['demo', '--duration', '1000 h', '--port', '0', '--no-view']);
    await run.waitFor(/demo: t=/);
    expect(run.stdout()).not.toContain('Summary');
    run.child.kill('SIGINT');
    await within(run.exited, 15_000, 'demo to exit', run.child);
    expect(run.stdout()).toMatch(/Summary after \d/);
    expect(run.stderr()).not.toContain('TimeoutOverflowWarning');
  });

  it('rates whose period outlasts any timer are refused (exit 2)', async () => {
    const publish = await cli('publish', '--rate', '1e-9 Hz', '--duration', '1 s');
    expect(publish.code).toBe(2);
    expect(publish.stderr).toContain('--rate: must be at least 0.001 Hz');
    const subscribe = await cli('subscribe', '--render-rate', '1e-9', '--duration', '1 s');
    expect(subscribe.code).toBe(2);
    expect(subscribe.stderr).toContain('receiver.renderRate (from --render-rate): must be at least 0.001 Hz');
  });
});

describe('reckon replay of a capture with a 136-year gap', () => {
  const fixture = join(ROOT, 'test/fixtures/dis/dis7_vrforces_gaz69_90deg_turn.pcap');
  const [first, second] = readCapture(readFileSync(fixture)).frames.flatMap((f) => {
    const udp = udpFromFrame(f.linkType, f.data);
    return udp.kind === 'udp' ? [udp.payload] : [];
  });
  const capture = join(dir, 'gap.pcap');
  writeFileSync(
    capture,
    Buffer.concat([pcapFileHeader(), pcapUdpRecord(first!, 1), pcapUdpRecord(second!, 2 ** 32 - 1)]),
  );

  it('sends the first datagram, says the gap was shortened, and sends the second after --max-gap', async () => {
    const socket = createSocket('udp4');
    await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
    const arrivals: number[] = [];
    const both = new Promise<void>((resolve) =>
      socket.on('message', () => arrivals.push(performance.now()) === 2 && resolve()),
    );
    const { port } = socket.address();
    const run = startCli(['replay', capture, '--to', `127.0.0.1:${port}`, '--max-gap', '300 ms']);
    try {
      await within(both, 20_000, 'two datagrams');
      expect(await within(run.exited, 10_000, 'replay to exit')).toBe(0);
    } finally {
      socket.close();
    }
    expect(run.stderr()).toContain('1 gap longer than 0.3 s (of 49710 d 6 h) shortened to 0.3 s (--max-gap)');
    expect(arrivals[1]! - arrivals[0]!).toBeGreaterThanOrEqual(250);
  });

  it('by default the gap is shortened to 1 h and said so at the start', async () => {
    const run = startCli(['replay', capture, '--to', '127.0.0.1:9']);
    await run.waitFor(/shortened to 1 h 0 min/);
    run.interrupt();
    expect(await within(run.exited, 10_000, 'replay to exit')).toBe(0);
    expect(run.stderr()).toContain('replay: interrupted: 1 datagram');
  });
});
