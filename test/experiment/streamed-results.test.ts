// results.csv and results.json are written as the runs finish, in run order, and a stopped sweep keeps them: a
// 100 000-run sweep ran in 27 s and then wrote for 517 s (3.2 GB), and Ctrl-C, heard only after the runs, took 66 s
// to act. Here the files of a sweep whose last run is long hold the first runs before it ends; Ctrl-C then keeps
// them. The streamed files are the same bytes as the whole-array writers, and the terminal table of a large sweep
// holds the Pareto-optimal runs only.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MAX_TABLE_ROWS } from '../../src/experiment/report.js';
import { ResultsFiles, resultsJson } from '../../src/experiment/results-files.js';
import { toCsv } from '../../src/experiment/results-table.js';
import { runSweep } from '../../src/experiment/sweep-runner.js';
import { planExperiment } from '../../src/experiment/sweep.js';
import { within } from '../support/binary.js';
import { cli, startCli } from '../support/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'reckon-streamed-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('results files written run by run', () => {
  it('are the bytes of toCsv and of JSON.stringify(…, null, 2), whatever order the runs finish in', async () => {
    const spec = { name: 'order', durationSeconds: 1, sweep: { 'emitter.positionThreshold': [1, 2, 3, 4] } };
    const plan = planExperiment(spec);
    const results = await runSweep(plan, { parallel: 1 });
    const out = join(dir, 'order');
    mkdirSync(out);
    const files = await ResultsFiles.open(out, 'order', spec, ['emitter.positionThreshold']);
    for (const i of [2, 0, 3, 1]) files.add(results[i]!);
    expect(files.runsWritten).toBe(4);
    await files.finish();
    expect(readFileSync(join(out, 'results.csv'), 'utf8')).toBe(toCsv(results));
    const json = readFileSync(join(out, 'results.json'), 'utf8');
    expect(json).toBe(resultsJson('order', spec, results));
    const runs = results.map(({ index, settings, trajectory, truth, metrics }) => ({
      index,
      settings,
      trajectory,
      truth,
      metrics,
    }));
    expect(json).toBe(`${JSON.stringify({ name: 'order', spec, runs }, null, 2)}\n`);
    expect(readdirSync(out).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('reach the disk while the sweep runs; Ctrl-C then keeps the finished runs, marked partial', async () => {
    const out = join(dir, 'stopped');
    // Three short runs, then one of 1000 orbits (several seconds): Ctrl-C comes in the long one.
    const run = startCli([
      'experiment',
      '--preset',
      'circle',
      '--set',
      'sweep={"trajectory.orbits":[0.2,0.3,0.4,1000]}',
      '--parallel',
      '1',
      '--out',
      out,
    ]);
    const rowsOnDisk = () => {
      if (!existsSync(out)) return 0;
      const temporary = readdirSync(out).find((f) => f.startsWith('.results.csv.') && f.endsWith('.tmp'));
      if (temporary === undefined) return 0;
      return readFileSync(join(out, temporary), 'utf8').split('\n').length - 2; // the header, the last line's end
    };
    await within(
      new Promise<void>((resolve) => {
        const poll = setInterval(() => {
          if (rowsOnDisk() < 3) return;
          clearInterval(poll);
          resolve();
        }, 20);
      }),
      60_000,
      'three runs in the temporary results.csv',
    );
    expect(existsSync(join(out, 'results.csv'))).toBe(false); // the target is written only when the sweep ends
    run.interrupt();
    expect(await within(run.exited, 30_000, 'experiment to exit on Ctrl-C')).toBe(130);
    expect(run.stderr()).toContain('experiment: stopping: writing the finished runs (Ctrl-C again to stop at once)');
    const csv = readFileSync(join(out, 'results.csv'), 'utf8').trimEnd().split('\n');
    expect(csv[0]).toBe('# partial: 3 of 4 runs finished (interrupted by SIGINT)');
    expect(csv).toHaveLength(5);
    const json = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as { partial: unknown; runs: unknown[] };
    expect(json.partial).toEqual({ runsPlanned: 4, runsFinished: 3, reason: 'interrupted by SIGINT' });
    expect(json.runs).toHaveLength(3);
    expect(readdirSync(out).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it(`show the terminal the Pareto-optimal runs past ${MAX_TABLE_ROWS}, and say so`, async () => {
    const thresholds = Array.from({ length: MAX_TABLE_ROWS + 100 }, (_, i) => (i + 1) / 100);
    const sweep = JSON.stringify({ 'emitter.positionThreshold': thresholds });
    const out = join(dir, 'table');
    const run = await cli(
      'experiment',
      '--preset',
      'circle',
      '--set',
      'durationSeconds=1',
      '--set',
      `sweep=${sweep}`,
      '--out',
      out,
    );
    expect(run.code).toBe(0);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines.length).toBeLessThan(MAX_TABLE_ROWS);
    expect(run.stderr).toMatch(
      new RegExp(
        `the table shows the \\d+ Pareto-optimal of ${MAX_TABLE_ROWS + 100} runs .*; results\\.csv has every run`,
      ),
    );
    expect(readFileSync(join(out, 'results.csv'), 'utf8').trimEnd().split('\n')).toHaveLength(MAX_TABLE_ROWS + 101);
  }, 60_000);
});
