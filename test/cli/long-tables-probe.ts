// Run by test/cli/large-captures.test.ts as `node --stack-size=100 <this, bundled> ROWS DIR`: a stack a tenth of
// the default, where spreading more than about 12,000 values into one call overflows. Lays out every long table
// reckon prints (the terminal tables, a sweep's text table) and reads a track file whose every fix is wrong, each
// with ROWS rows, and prints one JSON object: what each one gave, "ok" or the error's message.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { formatFittedTable } from '../../src/cli/terminal/fit.js';
import { formatTable } from '../../src/cli/terminal/format.js';
import { toTextTable } from '../../src/experiment/results-table.js';
import type { RunResult } from '../../src/experiment/runner.js';
import { loadTracks } from '../../src/truth/loaders.js';
import { TrackError } from '../../src/truth/track-checks.js';

const rows = Number(process.argv[2]);
const dir = process.argv[3]!;
const results: Record<string, string> = {};

async function attempt(name: string, run: () => unknown): Promise<void> {
  try {
    await run();
    results[name] = 'ok';
  } catch (error) {
    results[name] = (error as Error).message;
  }
}

const cells = Array.from({ length: rows }, (_, i) => [`row ${i}`, String(i * 7)]);
await attempt('formatTable', () => formatTable([{ title: 'name' }, { title: 'n', align: 'right' }], cells));
await attempt('formatFittedTable', () => formatFittedTable([{ title: 'name' }, { title: 'n' }], cells, 80));

// A sweep's results, as many runs as rows: only what the text table reads.
const metrics = {
  durationSeconds: 60,
  pdus: 100,
  pdusByReason: { first: 1, position: 20, orientation: 60, heartbeat: 19, change: 0 },
  pdusPerSecond: 1.7,
  pdusPerOrbit: null,
  bytesPerSecond: 280,
  positionError: { mean: 0.5, rms: 0.6, p95: 1, max: 2 },
  orientationErrorDeg: { mean: 1, rms: 1.2, p95: 2, max: 3 },
  shareAboveThreshold: 0.01,
  maxVelocityJump: 2,
  lost: 0,
  reductionPercent: 80,
};
const runs = Array.from({ length: rows }, (_, i) => ({
  index: i,
  settings: { threshold: i },
  trajectory: 'circle',
  metrics,
}));
await attempt('toTextTable', () => toTextTable(runs as unknown as RunResult[]));

// A CSV track whose every fix goes back in time: one problem per fix, listed (capped) in the error.
const csv = join(dir, 'backwards.csv');
const lines = ['time_s,lat_deg,lon_deg'];
for (let i = 0; i < rows; i++) lines.push(`${rows - i},59.7,${(24.7 + i * 1e-5).toFixed(6)}`);
writeFileSync(csv, `${lines.join('\n')}\n`);
await attempt('loadTracks', async () => {
  try {
    await loadTracks(csv, { kind: 'surface' });
  } catch (error) {
    // Refusing the track is the answer expected; overflowing the stack on the way is not.
    if (!(error instanceof TrackError)) throw error;
  }
});

process.stdout.write(`${JSON.stringify(results)}\n`);
