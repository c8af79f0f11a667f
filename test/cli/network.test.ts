// The networked commands as a new user meets them on 127.0.0.1: port 0 for a sender, sends that fail (and why), IPv6
// and host names, two receivers sharing a port, and failures nobody expected — one line, never a stack trace unless
// RECKON_DEBUG=1. Commands run in process (runCli, as the binary does; several at once where the case needs them);
// the built binary where its own handler of the unexpected is under test. Every wait is for an output line or an
// exit, bounded in time.
import type { ChildProcess } from 'node:child_process';
import { createSocket, type Socket } from 'node:dgram';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import { describeFailure, runCli } from '../../src/cli/run.js';
import { readCapture } from '../../src/pcap/reader.js';
import { ROOT, reckon, within } from '../support/binary.js';
import { cli, startCli } from '../support/cli.js';

const CAPTURE = join(ROOT, 'test/fixtures/dis/dis7_vrforces_gaz69_90deg_turn.pcap');
const CAPTURE_DATAGRAMS = 171; // every frame of the capture is a DIS datagram
const dir = mkdtempSync(join(tmpdir(), 'reckon-network-'));
/** A stack trace line, as Node prints them. */
const STACK = /^\s+at /m;

async function exitOf(run: { exited: Promise<number>; child?: ChildProcess }, what: string): Promise<number> {
  return within(run.exited, 20_000, what, run.child);
}

describe('a sender needs a destination port', () => {
  it.each([[['publish', '--port', '0', '--duration', '1']], [['replay', CAPTURE, '--port', '0']]])(
    '%j is a usage error (exit 2) that says why, not a crash',
    async (args) => {
      const { code, stderr } = await cli(...args);
      expect(code).toBe(2);
      expect(stderr).toContain(
        'network.port: 0 means "any free port" to a receiver, but a sender needs the port its receivers listen on',
      );
      expect(stderr).not.toMatch(STACK);
    },
  );
});

describe('failed sends', () => {
  it('publish to a broadcast address without --broadcast: says why and which flag fixes it, exit 1', async () => {
    // The kernel refuses these sends (EACCES) before anything leaves the host.
    const run = startCli(['publish', '--address', '255.255.255.255', '--port', '9', '--duration', '1']);
    expect(await exitOf(run, 'publish to exit')).toBe(1);
    expect(run.stderr()).toMatch(/every send failed \(\d+\): EACCES: sending to a broadcast address needs --broadcast/);
  });

  it('replay of the same capture to the same refused address fails the same way, exit 1', async () => {
    const run = startCli(['replay', CAPTURE, '--to', '255.255.255.255:9', '--speed', '0']);
    expect(await exitOf(run, 'replay to exit')).toBe(1);
    expect(run.stderr()).toMatch(/every send failed \(171\): EACCES: sending to a broadcast address needs --broadcast/);
  });
});

/** A raw receiver; resolves `until(n)` once n datagrams have arrived. */
async function receiver(type: 'udp4' | 'udp6', address: string) {
  const socket: Socket = createSocket(type);
  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.bind(0, address, () => resolve());
  });
  socket.setRecvBufferSize(4 * 1024 * 1024); // a whole capture at full speed
  let count = 0;
  let wake = (): void => {};
  socket.on('message', () => {
    count++;
    wake();
  });
  return {
    port: socket.address().port,
    count: () => count,
    until: (n: number) =>
      within(
        new Promise<void>((resolve) => {
          wake = () => {
            if (count >= n) resolve();
          };
          wake();
        }),
        15_000,
        `${n} datagrams`,
      ),
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}

describe('addresses', () => {
  it('replay --to [::1]:PORT, the example of its help, works without --ipv6 (skipped without IPv6)', async (context) => {
    let rx: Awaited<ReturnType<typeof receiver>>;
    try {
      rx = await receiver('udp6', '::1');
    } catch (error) {
      context.skip(`IPv6 loopback unavailable: ${(error as Error).message}`);
      return;
    }
    try {
      const run = startCli(['replay', CAPTURE, '--to', `[::1]:${rx!.port}`, '--speed', '1000']);
      expect(await exitOf(run, 'replay to exit'), run.stderr()).toBe(0);
      await rx!.until(CAPTURE_DATAGRAMS);
      expect(run.stderr()).not.toMatch(/failed/);
    } finally {
      await rx!.close();
    }
  });

  it('publish --ipv6 sends to ::1 and says so (skipped without IPv6)', async (context) => {
    let rx: Awaited<ReturnType<typeof receiver>>;
    try {
      rx = await receiver('udp6', '::1');
    } catch (error) {
      context.skip(`IPv6 loopback unavailable: ${(error as Error).message}`);
      return;
    }
    try {
      const run = startCli(['publish', '--ipv6', '--port', String(rx!.port), '--duration', '1']);
      expect(await exitOf(run, 'publish to exit'), run.stderr()).toBe(0);
      await rx!.until(2); // the first PDU and the leave notice
      expect(run.stderr()).toContain(`→ [::1]:${rx!.port}, exercise 1`);
    } finally {
      await rx!.close();
    }
  });

  it('--address takes a host name, as --to does: subscribe and publish on localhost', async () => {
    const subscribe = startCli([
      'subscribe',
      '--address',
      'localhost',
      '--port',
      '0',
      '--json',
      '--count',
      '1',
      '--duration',
      '20',
    ]);
    const [, port] = await subscribe.waitFor(/listening on 127\.0\.0\.1 port (\d+)/);
    const publish = startCli(['publish', '--address', 'localhost', '--port', port!, '--duration', '1']);
    expect(await exitOf(publish, 'publish to exit'), publish.stderr()).toBe(0);
    expect(await exitOf(subscribe, 'subscribe to exit'), subscribe.stderr()).toBe(0);
    expect(JSON.parse(subscribe.stdout().trim().split('\n')[0]!)).toMatchObject({
      type: 'appeared',
      marking: 'TANK 1',
    });
  });
});

describe('two receivers on one port', () => {
  it('record and subscribe share a port with --reuse-address and both get the broadcasts', async () => {
    const out = join(dir, 'shared.pcap');
    // Bound to the loopback broadcast address: only this host can reach them.
    const shared = ['--address', '127.255.255.255', '--reuse-address'];
    // A tank published for a second sends at least its first PDU and its leave notice.
    const record = startCli(['record', '--out', out, '--port', '0', ...shared, '--count', '2', '--duration', '20']);
    const [, port] = await record.waitFor(/listening on 127\.255\.255\.255 port (\d+)/);
    const subscribe = startCli(['subscribe', '--port', port!, ...shared, '--json', '--count', '1', '--duration', '20']);
    await subscribe.waitFor(/listening on 127\.255\.255\.255 port \d+/);

    // A third receiver that does not ask to share is told what to do.
    const third = startCli(['subscribe', '--address', '127.255.255.255', '--port', port!, '--duration', '5']);
    expect(await exitOf(third, 'the third receiver to exit')).toBe(1);
    expect(third.stderr()).toMatch(/EADDRINUSE.*--reuse-address \(network\.reuseAddress\) in each of them/);
    expect(third.stderr()).toMatch(/a unicast datagram reaches only one of them/);

    const publish = startCli([
      'publish',
      '--address',
      '127.255.255.255',
      '--broadcast',
      '--port',
      port!,
      '--duration',
      '1',
    ]);
    expect(await exitOf(publish, 'publish to exit'), publish.stderr()).toBe(0);
    expect(await exitOf(subscribe, 'subscribe to exit'), subscribe.stderr()).toBe(0);
    expect(await exitOf(record, 'record to exit'), record.stderr()).toBe(0);
    expect(JSON.parse(subscribe.stdout().trim().split('\n')[0]!)).toMatchObject({
      type: 'appeared',
      marking: 'TANK 1',
    });
    expect(readCapture(readFileSync(out)).frames.length).toBe(2);
  });

  it('the environment sets it too (RECKON_NETWORK_REUSE_ADDRESS), one rule for every entry point', async () => {
    vi.stubEnv('RECKON_NETWORK_REUSE_ADDRESS', 'true');
    try {
      const first = startCli(['subscribe', '--address', '127.0.0.1', '--port', '0', '--duration', '20']);
      const [, port] = await first.waitFor(/listening on 127\.0\.0\.1 port (\d+)/);
      const second = startCli(['subscribe', '--address', '127.0.0.1', '--port', port!, '--duration', '20']);
      await second.waitFor(new RegExp(`listening on 127\\.0\\.0\\.1 port ${port}`));
      for (const run of [first, second]) {
        run.interrupt();
        expect(await exitOf(run, 'subscribe to exit')).toBe(0);
      }
    } finally {
      vi.unstubAllEnvs();
    }
  });
});

describe('unexpected failures', () => {
  // A module preloaded with --import throws from a timer while the command runs: an error no command handles. It
  // waits for the binary's handler rather than a fixed time, which a loaded machine can outlast while starting.
  const boom = join(dir, 'boom.mjs');
  writeFileSync(
    boom,
    'const t = setInterval(() => { if (process.listenerCount("uncaughtException") > 0) { clearInterval(t); throw new TypeError("boom"); } }, 10);\n',
  );

  it('end the run with one line and exit 1, no stack trace', async () => {
    const run = reckon(['subscribe', '--address', '127.0.0.1', '--port', '0', '--duration', '20'], {
      NODE_OPTIONS: `--import=${boom}`,
    });
    expect(await exitOf(run, 'subscribe to exit')).toBe(1);
    expect(run.stderr()).toMatch(
      /^reckon subscribe: boom \(TypeError: an internal error; run again with RECKON_DEBUG=1/m,
    );
    expect(run.stderr()).not.toMatch(STACK);
  });

  it('show the stack trace with RECKON_DEBUG=1', async () => {
    const run = reckon(['subscribe', '--address', '127.0.0.1', '--port', '0', '--duration', '20'], {
      NODE_OPTIONS: `--import=${boom}`,
      RECKON_DEBUG: '1',
    });
    expect(await exitOf(run, 'subscribe to exit')).toBe(1);
    expect(run.stderr()).toMatch(/^reckon subscribe: boom/m);
    expect(run.stderr()).toMatch(/TypeError: boom\n\s+at .*boom\.mjs/);
  });

  it('thrown inside a command are reported by runCli in one line, exit 1', async () => {
    const stdout = new PassThrough();
    stdout.write = () => {
      throw new TypeError('stdout is broken');
    };
    const stderr = new PassThrough();
    let err = '';
    stderr.on('data', (c) => (err += String(c)));
    const code = await runCli(['decode', CAPTURE], { stdout, stderr, signal: new AbortController().signal });
    expect(code).toBe(1);
    expect(err).toMatch(/^reckon decode: stdout is broken \(TypeError: an internal error/);
    expect(err).not.toMatch(STACK);
  });

  it('describeFailure adds the stack only when RECKON_DEBUG is set and not 0', () => {
    const error = new Error('socket failed\nsecond line');
    expect(describeFailure('reckon x', error, {})).toBe('reckon x: socket failed; second line\n');
    expect(describeFailure('reckon x', error, { RECKON_DEBUG: '0' })).toBe('reckon x: socket failed; second line\n');
    expect(describeFailure('reckon x', error, { RECKON_DEBUG: '1' })).toContain(error.stack!);
    expect(describeFailure('reckon x', 'a string', {})).toBe('reckon x: a string\n');
  });

  it('the main help says how to see a stack trace', async () => {
    const run = await cli('--help');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('RECKON_DEBUG=1');
  });
});
