/**
 * Start-up time of the binary: median wall time of `node dist/cli/main.js --help` (and of `record --help`, which
 * loads a command module, zod and the config schema) over 15 runs, beside `node -e 0` measured in the same run.
 * Needs a build (`npm run build`).
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { round, type BenchResult, type BenchSuite } from './harness.js';

const BIN = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));

function medianMs(args: string[], runs: number): number {
  const times: number[] = [];
  for (let i = 0; i < runs + 1; i++) {
    const start = performance.now();
    const result = spawnSync(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    const ms = performance.now() - start;
    if (result.status !== 0)
      throw new Error(`node ${args.join(' ')} exited ${result.status}: ${String(result.stderr)}`);
    if (i > 0) times.push(ms); // the first run warms the file cache
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

const suite: BenchSuite = async ({ quick }): Promise<BenchResult[]> => {
  if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run \`npm run build\` first`);
  const runs = quick ? 5 : 15;
  const nodeMs = medianMs(['-e', '0'], runs);
  const helpMs = medianMs([BIN, '--help'], runs);
  const recordHelpMs = medianMs([BIN, 'record', '--help'], runs);
  return [
    {
      name: 'cli.startup.help',
      ms: round(helpMs),
      nodeBaselineMs: round(nodeMs),
      overNodeMs: round(helpMs - nodeMs),
      runs,
    },
    {
      name: 'cli.startup.record-help',
      ms: round(recordHelpMs),
      nodeBaselineMs: round(nodeMs),
      overNodeMs: round(recordHelpMs - nodeMs),
      runs,
    },
  ];
};

export default suite;
