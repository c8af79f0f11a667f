// `reckon subscribe` on an 80×24 terminal (a terminal model as its stdout) and on a pipe, with the VR-Forces Hind
// engagement replayed into it: every marking in full, and the shot and its detonation shown as they happen, not only
// in the summary after Ctrl-C.
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run.js';
import { visibleWidth } from '../../src/cli/terminal/fit.js';
import { cli } from '../support/cli.js';
import { repeatUntil, within } from '../support/binary.js';
import { Screen } from './terminal/screen.js';

const HIND = 'test/fixtures/dis/dis5_kdis_vrforces_hind_vs_m1a2.pcap';

interface Run {
  readonly exited: Promise<number>;
  readonly stop: () => void;
  readonly stderr: () => string;
}

const runs: Run[] = [];
afterEach(async () => {
  for (const run of runs.splice(0)) {
    run.stop();
    await run.exited;
  }
});

/** `reckon subscribe` in process, writing to `stdout`, on a free port: resolves once it listens, with the port. */
async function subscribe(stdout: NodeJS.WritableStream): Promise<Run & { port: number }> {
  const stderr = new PassThrough();
  let err = '';
  stderr.on('data', (c) => (err += String(c)));
  const controller = new AbortController();
  const exited = runCli(['subscribe', '--address', '127.0.0.1', '--port', '0'], {
    stdout,
    stderr,
    signal: controller.signal,
  });
  const run = { exited, stop: () => controller.abort('SIGINT'), stderr: () => err };
  runs.push(run);
  await within(
    new Promise<void>((resolve) =>
      repeatUntil(
        () => /port \d+/.test(err),
        () => {},
        20,
      ).then(resolve),
    ),
    10_000,
    'subscribe to listen',
  );
  return { ...run, port: Number(/port (\d+)/.exec(err)![1]) };
}

/** Resolves once `done()` holds, checked every 50 ms; bounded. */
function until(done: () => boolean, what: string): Promise<void> {
  return within(
    repeatUntil(done, () => {}, 50),
    15_000,
    what,
  );
}

describe('subscribe as it happens', () => {
  it('on an 80×24 terminal: markings whole, the shot and its detonation listed under the table', async () => {
    const screen = new Screen(80, 24);
    const run = await subscribe(screen);
    const replay = await cli('replay', HIND, '--to', `127.0.0.1:${run.port}`, '--speed', '0');
    expect(replay.code).toBe(0);
    await until(() => screen.lines().some((l) => l.startsWith('detonation:')), 'the detonation on screen');
    const lines = screen.lines();
    const text = lines.join('\n');
    for (const line of lines) expect(visibleWidth(line), line).toBeLessThanOrEqual(80);
    expect(text).toMatch(/^1:3001:18 +CISARW 1 +Mi-24/m);
    expect(text).toMatch(/^1:3001:15 +M1A2 1 +M1A2 · Tank · USA/m);
    expect(text).toMatch(/^fire: CISARW 1 → AT-6 Spiral → M1A2 1, 1\.8 km · \d+ s ago$/m);
    expect(text).toMatch(/^detonation: AT-6 Spiral of CISARW 1 on M1A2 1: entity impact · \d+ s ago$/m);
    expect(lines[0]).toMatch(/remote entities .*· 1 fire, 1 detonation$/);
    run.stop();
    expect(await run.exited).toBe(0);
  });

  it('on a pipe: a line for each engagement as it comes, before the summary', async () => {
    const stdout = new PassThrough();
    let out = '';
    stdout.on('data', (c) => (out += String(c)));
    const run = await subscribe(stdout);
    await cli('replay', HIND, '--to', `127.0.0.1:${run.port}`, '--speed', '0');
    await until(() => out.includes('subscribe: detonation:'), 'the detonation line');
    expect(out).toContain('subscribe: fire: CISARW 1 → AT-6 Spiral → M1A2 1, 1.8 km\n');
    expect(out).toContain('subscribe: detonation: AT-6 Spiral of CISARW 1 on M1A2 1: entity impact\n');
    expect(run.stderr()).not.toMatch(/stopped/); // still running: these came as they happened
  });
});
