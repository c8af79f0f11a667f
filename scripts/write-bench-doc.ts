// Writes the figures table of docs/benchmarks.md from the runs in bench/runs/ (scripts/bench-table.ts). Keep a run
// with `npm run bench -- --json > bench/runs/DATE-N.ndjson` (on a quiet machine), then run this.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { BENCH_DOC_MARKERS, parseRun, renderBenchTable } from './bench-table.js';

const runsDir = new URL('../bench/runs/', import.meta.url);
const runs = readdirSync(runsDir)
  .filter((f) => f.endsWith('.ndjson'))
  .sort()
  .map((f) => parseRun(readFileSync(new URL(f, runsDir), 'utf8')));
const file = new URL('../docs/benchmarks.md', import.meta.url);
const doc = readFileSync(file, 'utf8');
const start = doc.indexOf(BENCH_DOC_MARKERS[0]);
const end = doc.indexOf(BENCH_DOC_MARKERS[1]);
if (start < 0 || end < start) throw new Error(`docs/benchmarks.md has no ${BENCH_DOC_MARKERS.join(' … ')}`);
writeFileSync(file, doc.slice(0, start) + renderBenchTable(runs) + doc.slice(end + BENCH_DOC_MARKERS[1].length));
console.log(`wrote the figures of ${runs.length} run(s) into docs/benchmarks.md`);
