/**
 * Benchmark helpers shared by every `bench/*.bench.ts`. Timing is by wall clock over repeated batches
 * (median reported); heap per op is the heapUsed growth over a batch run with a young generation large
 * enough that no scavenge happens inside it (`--max-semi-space-size` in `npm run bench`).
 */
import { performance } from 'node:perf_hooks';

/** One result line: `name` plus figures such as `opsPerSec`, `heapBytesPerOp`, `ratio`. */
export interface BenchResult {
  readonly name: string;
  readonly [figure: string]: number | string | boolean;
}

/** What a bench module exports. `quick` asks for a shorter run (CI smoke checks). */
export type BenchSuite = (options: { quick: boolean }) => Promise<BenchResult[]>;

/** Prevents the JIT from removing work whose result is otherwise unused. */
export let blackhole = 0;
export function consume(value: number): void {
  blackhole = (blackhole + value) | 0;
}

/** Seconds of CPU this process has used (all its threads: the garbage collector's work counts too). */
export function cpuSeconds(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
}

/**
 * Runs `batch(n)` (which performs n operations) repeatedly and returns the median operations per second.
 * By default the time is the process's CPU time, not the wall clock: on a shared machine the wall clock mostly
 * measures the other tenants, while CPU time measures the work (including garbage collection on helper threads).
 * @param batch - performs exactly `opsPerBatch` operations per call.
 * @param options.clock - 'cpu' or 'wall'. Defaults to 'cpu'.
 */
export function opsPerSecond(
  batch: () => void,
  opsPerBatch: number,
  options: { minMillis?: number; rounds?: number; clock?: 'cpu' | 'wall' } = {},
): number {
  const minMillis = options.minMillis ?? 300;
  const rounds = options.rounds ?? 7;
  const now = options.clock === 'wall' ? () => performance.now() / 1000 : cpuSeconds;
  // Warm up so that the optimising compiler has settled before we measure.
  const warmUntil = performance.now() + minMillis;
  let batchesPerRound = 0;
  while (performance.now() < warmUntil) {
    batch();
    batchesPerRound++;
  }
  const rates: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const start = now();
    for (let b = 0; b < batchesPerRound; b++) batch();
    const seconds = now() - start;
    rates.push((batchesPerRound * opsPerBatch) / seconds);
  }
  rates.sort((a, b) => a - b);
  return rates[Math.floor(rates.length / 2)]!;
}

/**
 * Heap bytes allocated per operation over `ops` operations of `op(i)`: the smallest of three measured passes, so a
 * one-off allocation (a deoptimisation, an inline cache growing) is not charged to every operation. Needs
 * `--expose-gc`; `npm run bench` starts with a 64 MB young generation so that no scavenge runs inside a short pass.
 */
export function heapBytesPerOp(op: (i: number) => void, ops: number): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  for (let i = 0; i < Math.min(ops, 10_000); i++) op(i); // warm up
  let best = Number.POSITIVE_INFINITY;
  for (let pass = 0; pass < 3; pass++) {
    gc?.();
    const before = process.memoryUsage().heapUsed;
    for (let i = 0; i < ops; i++) op(i);
    const after = process.memoryUsage().heapUsed;
    best = Math.min(best, Math.max(0, (after - before) / ops));
  }
  return best;
}

/** Rounds a figure for display and JSON (3 significant digits, integers kept whole). */
export function round(value: number): number {
  if (!Number.isFinite(value) || Math.abs(value) >= 1000) return Math.round(value);
  return Number(value.toPrecision(3));
}
