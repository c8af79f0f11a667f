/**
 * `npm run bench [-- --json] [-- --quick] [-- FILTER…]`: runs every `bench/*.bench.ts`, baseline and reckon in
 * the same process and run, and prints a table (or one JSON object per line with `--json`).
 */
import { readdirSync } from 'node:fs';
import { cpus, loadavg, platform, release } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { BenchResult, BenchSuite } from './harness.js';

const args = process.argv.slice(2);
const json = args.includes('--json');
const quick = args.includes('--quick');
const filters = args.filter((a) => !a.startsWith('--'));

const here = dirname(fileURLToPath(import.meta.url));
const files = readdirSync(here)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
  .sort();

if (!(globalThis as { gc?: unknown }).gc) {
  process.stderr.write('note: run through `npm run bench` (node --expose-gc) for heap figures\n');
}

/** The run itself, for the figures' context (docs/benchmarks.md is written from these lines): when, where, load. */
const started = Date.now();
const run = (phase: 'start' | 'end'): BenchResult => ({
  name: phase === 'start' ? 'bench.run' : 'bench.run.end',
  date: new Date().toISOString(),
  node: process.version,
  os: `${platform()} ${release()}`,
  cpus: cpus().length,
  cpuModel: cpus()[0]?.model.trim() ?? 'unknown',
  loadAverage1m: Number(loadavg()[0]!.toFixed(2)),
  ...(phase === 'end' ? { seconds: Math.round((Date.now() - started) / 1000) } : {}),
  filters: filters.join(' '),
  quick,
});
if (json) process.stdout.write(JSON.stringify(run('start')) + '\n');

const all: BenchResult[] = [];
for (const file of files) {
  if (!json) process.stderr.write(`running ${file} …\n`);
  const mod = (await import(pathToFileURL(join(here, file)).href)) as { default: BenchSuite };
  const results = await mod.default({ quick });
  for (const r of results) {
    all.push(r);
    if (json) process.stdout.write(JSON.stringify(r) + '\n');
  }
}

if (json) process.stdout.write(JSON.stringify(run('end')) + '\n');

if (!json) {
  const columns = [...new Set(all.flatMap((r) => Object.keys(r).filter((k) => k !== 'name')))];
  const rows = all.map((r) => [r.name, ...columns.map((c) => (r[c] === undefined ? '' : String(r[c])))]);
  const header = ['name', ...columns];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  process.stdout.write(line(header) + '\n' + widths.map((w) => '-'.repeat(w)).join('  ') + '\n');
  for (const row of rows) process.stdout.write(line(row) + '\n');
}
