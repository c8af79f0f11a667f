// docs/benchmarks.md's figures are those of the runs kept in bench/runs/ (`npm run bench -- --json`, written in by
// scripts/write-bench-doc.ts), and every benchmark the docs name is one the benchmark prints: a name of the kept
// runs, each of which the benchmark's sources still make.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BENCH_DOC_MARKERS, parseRun, renderBenchTable } from '../../scripts/bench-table.js';
import { CONFIG_LEAVES } from '../../src/config/leaves.js';
import { ROOT } from '../support/binary.js';

const runsDir = join(ROOT, 'bench', 'runs');
const runs = readdirSync(runsDir)
  .filter((f) => f.endsWith('.ndjson'))
  .sort()
  .map((f) => parseRun(readFileSync(join(runsDir, f), 'utf8')));
const printed = new Set(runs.flatMap((run) => run.map((line) => line.name)));

/** Source files of the benchmark. */
function benchSources(dir = join(ROOT, 'bench')): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() && e.name !== 'runs'
      ? benchSources(join(dir, e.name))
      : e.name.endsWith('.ts')
        ? [readFileSync(join(dir, e.name), 'utf8')]
        : [],
  );
}

/** The names the sources can print: string literals, and template literals with any text for `${…}`. */
const namePatterns = benchSources().flatMap((text) =>
  [...text.matchAll(/'([a-z][\w+-]*(?:\.[\w+-]+)+)'|`([a-z$][^`\s]*\.[^`\s]*)`/g)].map((m) => {
    const literal = m[1] ?? m[2]!;
    const parts = literal.split(/\$\{[^}]*\}/);
    return new RegExp(`^${parts.map((p) => p.replace(/[.*+?^()|[\]\\]/g, '\\$&')).join('.*')}$`);
  }),
);

/** The first parts of the printed names (`codec`, `view`, …): what makes a dotted name in the docs a benchmark's. */
const prefixes = new Set([...printed].map((name) => name.split('.')[0]!));

const settings = new Set(CONFIG_LEAVES.map((leaf) => leaf.path));

/**
 * Dotted names in backticks in a page that start as a benchmark's do: `view.frame.10k`, not `docs/view.md` or the
 * setting `nats.area`.
 */
function benchNamesIn(text: string): string[] {
  return [...text.matchAll(/`([a-z][\w+-]*(?:\.[\w+-]+)+)`/g)]
    .map((m) => m[1]!)
    .filter((name) => prefixes.has(name.split('.')[0]!) && !settings.has(name))
    .filter((name) => !/\.(md|ts|js|json|mjs|ndjson|html|png)$/.test(name));
}

/** A name printed, or the group of several (`nats.scale` for `nats.scale.p1` …). */
const isPrinted = (name: string) => printed.has(name) || [...printed].some((p) => p.startsWith(`${name}.`));

describe('docs/benchmarks.md', () => {
  const doc = readFileSync(join(ROOT, 'docs', 'benchmarks.md'), 'utf8');

  it('holds the figures table the kept runs give, with when, where and under what load', () => {
    expect(runs.length).toBeGreaterThan(0);
    const start = doc.indexOf(BENCH_DOC_MARKERS[0]);
    const end = doc.indexOf(BENCH_DOC_MARKERS[1]) + BENCH_DOC_MARKERS[1].length;
    // Out of date: npx tsx scripts/write-bench-doc.ts
    expect(doc.slice(start, end)).toBe(renderBenchTable(runs));
    for (const run of runs) {
      const first = run[0]!;
      expect(first.name).toBe('bench.run');
      expect(first).toMatchObject({ date: expect.any(String), cpuModel: expect.any(String), cpus: expect.any(Number) });
      expect(run.at(-1)!.name).toBe('bench.run.end');
    }
    expect(doc).toMatch(/- run 1: \d{4}-\d\d-\d\d \d\d:\d\d–\d\d:\d\d UTC, \d+ × .*; load average \(1 min\) [\d.]+ at/);
  });

  it('shows a range where runs differ', () => {
    const line = (name: string, opsPerSec: number) =>
      JSON.stringify({ name, opsPerSec, heapBytesPerOp: 0, ratioVsOpenDis: opsPerSec / 1e5 });
    const table = renderBenchTable([
      parseRun(`${line('codec.decode.reckon', 9e6)}\n${line('codec.decode.open-dis', 3e5)}`),
      parseRun(`${line('codec.decode.reckon', 1.5e7)}\n${line('codec.decode.open-dis', 4e5)}`),
    ]);
    expect(table).toContain('| 9–15 M PDUs/s, 0 B heap per PDU | `open-dis` 300–400 k/s');
    expect(table).toContain('(no `bench.run` line: date, machine and load unknown)');
  });

  it('shows the median and the range over three runs or more', () => {
    const line = (name: string, opsPerSec: number) =>
      JSON.stringify({ name, opsPerSec, heapBytesPerOp: 0, ratioVsOpenDis: opsPerSec / 1e5 });
    const run = (reckon: number, openDis: number) =>
      parseRun(`${line('codec.decode.reckon', reckon)}\n${line('codec.decode.open-dis', openDis)}`);
    const odd = renderBenchTable([run(9e6, 3e5), run(1.5e7, 4e5), run(1.1e7, 3e5)]);
    expect(odd).toContain('| 11 (9–15) M PDUs/s, 0 B heap per PDU | `open-dis` 300 (300–400) k/s');
    const even = renderBenchTable([run(9e6, 3e5), run(1.5e7, 4e5), run(1.1e7, 3e5), run(1.2e7, 3e5)]);
    expect(even).toContain('| 11.5 (9–15) M PDUs/s');
  });

  it('names only benchmarks that the benchmark prints', () => {
    const pages = [
      'README.md',
      ...readdirSync(join(ROOT, 'docs'))
        .filter((f) => f.endsWith('.md'))
        .map((f) => `docs/${f}`),
    ];
    const named = pages.flatMap((page) =>
      benchNamesIn(readFileSync(join(ROOT, page), 'utf8')).map((name) => ({ page, name })),
    );
    expect(named.filter((n) => n.page === 'docs/benchmarks.md').length).toBeGreaterThan(40);
    expect(
      named.filter(({ page, name }) => (page === 'docs/benchmarks.md' ? !printed.has(name) : !isPrinted(name))),
    ).toEqual([]);
    // Each name of the kept runs is one the sources still print.
    expect([...printed].filter((name) => !namePatterns.some((re) => re.test(name)))).toEqual([]);
  });
});
