// Ctrl-C and SIGTERM stop an experiment in the middle of a run, in this thread and on worker threads: the runs
// already finished are written, marked partial, and the exit code is 128 + the signal. Real process, real signals.
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reckon, within } from '../support/binary.js';

const dir = mkdtempSync(join(tmpdir(), 'reckon-signals-'));

describe('reckon experiment stopped by a signal', () => {
  it.each([
    { parallel: '1', signal: 'SIGINT', code: 130 },
    { parallel: '2', signal: 'SIGTERM', code: 143 },
  ] as const)(
    '--parallel $parallel, $signal: exits $code with the finished run written, marked partial',
    async ({ parallel, signal, code }) => {
      const out = join(dir, `sweep-${parallel}`);
      // A short run, then one of 1000 orbits (3.8 million steps, many seconds): the signal comes in the long one.
      const run = reckon([
        'experiment',
        '--preset',
        'circle',
        '--set',
        'sweep={"trajectory.orbits":[0.5,1000]}',
        '--parallel',
        parallel,
        '--out',
        out,
      ]);
      await run.waitFor(/1\/2 runs/, 60_000);
      run.child.kill(signal);
      expect(await within(run.exited, 30_000, `experiment to exit on ${signal}`, run.child)).toBe(code);
      expect(run.stderr()).toContain(`partial: 1 of 2 runs finished (interrupted by ${signal})`);
      const json = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as {
        partial: unknown;
        runs: Array<{ settings: unknown }>;
      };
      expect(json.partial).toEqual({ runsPlanned: 2, runsFinished: 1, reason: `interrupted by ${signal}` });
      expect(json.runs.map((r) => r.settings)).toEqual([{ 'trajectory.orbits': 0.5 }]);
      const csv = readFileSync(join(out, 'results.csv'), 'utf8').split('\n');
      expect(csv[0]).toBe(`# partial: 1 of 2 runs finished (interrupted by ${signal})`);
      expect(csv.filter((line) => line !== '' && !line.startsWith('#'))).toHaveLength(2); // header + the finished run
      expect(readFileSync(join(out, 'report.html'), 'utf8')).toContain(
        `Partial results: the experiment stopped (interrupted by ${signal}) after 1 of 2 runs`,
      );
    },
  );

  it('a signal before any run finished writes nothing and still exits 130', async () => {
    const out = join(dir, 'none');
    const run = reckon([
      'experiment',
      '--preset',
      'circle',
      '--set',
      'trajectory.orbits=1000',
      '--parallel',
      '1',
      '--out',
      out,
    ]);
    // The results folder is made before the runs start: once it exists, the run is under way.
    await within(
      new Promise<void>((resolve) => {
        const poll = setInterval(() => {
          if (!existsSync(out)) return;
          clearInterval(poll);
          resolve();
        }, 20);
      }),
      60_000,
      'the results folder',
      run.child,
    );
    run.child.kill('SIGINT');
    expect(await within(run.exited, 30_000, 'experiment to exit on SIGINT', run.child)).toBe(130);
    expect(run.stderr()).toContain('partial: 0 of 1 runs finished (interrupted by SIGINT); nothing written');
    expect(existsSync(join(out, 'results.json'))).toBe(false);
  });
});
