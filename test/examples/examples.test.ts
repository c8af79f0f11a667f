// Every example runs and stops by itself (short durations, loopback, a free port): the publishers against a
// subscriber of the test, the subscribers against a publisher of the test. Each runs as esbuild bundles it (the
// transform tsx applies), with plain node: one module to load instead of every source file through tsx.
import { spawn } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { firstValueFrom, timeout } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { createTruthState } from '../../src/dr/owner/truth-state.js';
import { tankRoadCourse } from '../../src/truth/index.js';
import { createPublisher } from '../../src/stream/publisher.js';
import { createSubscriber } from '../../src/stream/subscriber.js';
import { ROOT, within } from '../support/binary.js';
import { bundled } from '../support/bundle.js';
import { freeUdpPort } from '../../scripts/support/nats-server.js';

async function example(name: string, args: string[]) {
  const child = spawn(process.execPath, [await bundled(`examples/${name}`), ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let listening: (port: string) => void = () => {};
  const port = new Promise<string>((resolve) => (listening = resolve));
  child.stdout.on('data', (c) => {
    out += String(c);
    const m = /listening on 127\.0\.0\.1:(\d+)/.exec(out);
    if (m) listening(m[1]!);
  });
  child.stderr.on('data', (c) => (out += String(c)));
  const exited = new Promise<number>((resolve) => child.once('exit', (code) => resolve(code ?? -1)));
  return { child, port, exited: within(exited, 30_000, `${name} to exit`, child), output: () => out };
}

describe.concurrent('examples', () => {
  it.each([
    ['publish-tank.ts', 'TANK 1', /\d+ PDUs sent in 1 s, instead of 15 at 15 Hz/],
    ['publish-ship-track.ts', 'AAVA', /\d+ PDUs \(\d+ bytes\) for 1 s of the track/],
  ])('%s publishes to a subscriber', async (name, marking, summary) => {
    const subscriber = createSubscriber({ network: { address: '127.0.0.1', port: 0 } });
    const markings: string[] = [];
    const events = subscriber.entityEvents$.subscribe((e) => markings.push(`${e.type} ${e.marking}`));
    try {
      const { port } = await firstValueFrom(subscriber.listening$.pipe(timeout(5000)));
      const run = await example(name, ['1', String(port)]);
      expect(await run.exited, run.output()).toBe(0);
      expect(run.output()).toMatch(summary);
      expect(markings[0]).toBe(`appeared ${marking}`);
      expect(markings[markings.length - 1]).toBe(`removed ${marking}`);
    } finally {
      events.unsubscribe();
    }
  });

  it('publish-fleet.ts publishes 1,000 ships from a simulation loop, and each leaves at the end', async () => {
    const subscriber = createSubscriber({
      network: { address: '127.0.0.1', port: 0 },
      receiver: { maxEntities: 2000 },
    });
    const appeared = new Set<string>(),
      removed = new Set<string>();
    const events = subscriber.events$.subscribe((e) => {
      if (e.type === 'appeared') appeared.add(e.marking);
      if (e.type === 'removed') removed.add(e.marking);
    });
    try {
      const { port } = await firstValueFrom(subscriber.listening$.pipe(timeout(5000)));
      const run = await example('publish-fleet.ts', ['1', String(port)]);
      expect(await run.exited, run.output()).toBe(0);
      expect(run.output()).toMatch(/\d+ PDUs for 1000 ships in 1 s, instead of \d+ at 10 Hz/);
      const all = Array.from({ length: 1000 }, (_, k) => `SHIP ${k + 1}`).sort();
      expect([...appeared].sort()).toEqual(all);
      await within(
        new Promise<void>((resolve) => {
          const check = setInterval(() => {
            if (removed.size !== 1000) return;
            clearInterval(check);
            resolve();
          }, 20);
        }),
        5_000,
        'every ship to leave',
      );
    } finally {
      events.unsubscribe();
    }
  });

  it.each([
    [
      'subscribe-table.ts',
      (port: number) => ['2', String(port)],
      /TANK 1 +(static|FPW|FVW|RPW|RVW) +36\.59\d+ -121\.87\d+/,
    ],
    [
      'render-frames.ts',
      (port: number) => ['2', String(port), '4'],
      /frame \d+ t=\d+\.\d+ TANK 1 +36\.59\d+ -121\.87\d+/,
    ],
    [
      'render-frames.ts',
      (port: number) => ['2', String(port), '4', 'interpolate'],
      /TANK 1 +36\.59\d+ -121\.87\d+ .*(interpolated|dead-reckoned|held)/,
    ],
  ])('%s shows what a publisher sends', async (name, args, line) => {
    const port = await freeUdpPort();
    const run = await example(name, args(port));
    if (name === 'subscribe-table.ts')
      expect(await within(run.port, 30_000, 'the example to listen')).toBe(String(port));
    const publisher = await createPublisher({ network: { port } });
    // A short heartbeat, so that an example that binds a little later still sees the tank within 0.2 s.
    publisher.define({ entity: 1, marking: 'TANK 1', emitter: { heartbeatSeconds: 0.2 } });
    const truth = tankRoadCourse().sample(0, createTruthState()); // at the start of the course, at rest
    // Publishes for as long as the example runs (it stops by itself).
    const timer = setInterval(() => publisher.update(1, truth, Date.now() / 1000), 50);
    try {
      expect(await run.exited, run.output()).toBe(0);
    } finally {
      clearInterval(timer);
      await publisher.close();
    }
    expect(run.output()).toMatch(line);
  });

  it('subscribe-table.ts on a port in use says so in one line and exits 1', async () => {
    const holder = createSocket('udp4');
    await new Promise<void>((resolve) => holder.bind(0, '127.0.0.1', resolve));
    try {
      const run = await example('subscribe-table.ts', ['2', String(holder.address().port)]);
      expect(await run.exited, run.output()).toBe(1);
      expect(run.output()).toMatch(
        /^subscribe-table: binding UDP 127\.0\.0\.1 port \d+ failed: .*EADDRINUSE.*--reuse-address/,
      );
      expect(run.output().trim().split('\n')).toHaveLength(1); // no stack trace, no table
    } finally {
      await new Promise<void>((resolve) => holder.close(() => resolve()));
    }
  });
});
