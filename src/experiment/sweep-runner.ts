/**
 * Runs every run of a plan, on worker threads when there is more than one run and more than one core, in
 * this thread otherwise. Runs that send the same PDUs (same trajectory and emitter) go to one thread one after
 * another, which records the PDUs once and replays them (see `runner.ts`). Results come back in run order
 * whatever the scheduling, so output files are byte-identical from run to run.
 */
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { trajectoryFromSpec } from './build.js';
import { RunAbortedError, RunContext, runDuration, runExperiment, runSizeProblem, type RunResult } from './runner.js';
import type { ExperimentPlan, PlannedRun, SpecProblem } from './sweep.js';
import { senderKey } from './transmission.js';
import { truthKey } from './sampled-truth.js';
import type { WorkerRequest } from './worker.js';

/** Options of `runSweep`. */
export interface SweepOptions {
  /** Worker threads. Defaults to the plan's `parallel`, else the machine's cores. */
  readonly parallel?: number;
  /** Folder that relative track files are resolved against. Defaults to the working directory. */
  readonly baseDirectory?: string;
  /** Called after each finished run with the count done. */
  readonly onProgress?: (done: number, total: number) => void;
  /** Called with each run's result as it finishes (in the order runs finish), before `onProgress`. */
  readonly onResult?: (result: RunResult) => void;
  /**
   * Stops the sweep, also in the middle of a run (within a few tens of milliseconds): the promise then rejects
   * with a SweepAbortedError that holds the runs already finished.
   */
  readonly signal?: AbortSignal;
}

/** A sweep stopped by its signal: the runs that finished before, in run order, and how many were planned. */
export class SweepAbortedError extends Error {
  constructor(
    readonly finished: readonly RunResult[],
    readonly planned: number,
    /** The signal's reason, e.g. "SIGINT". */
    readonly reason: unknown,
  ) {
    super(`sweep aborted after ${finished.length} of ${planned} runs`);
    this.name = 'SweepAbortedError';
  }
}

/** Runs a plan; rejects with the first run's error (naming the run), or a SweepAbortedError when aborted. */
export async function runSweep(plan: ExperimentPlan, options: SweepOptions = {}): Promise<RunResult[]> {
  const runs = plan.runs;
  const threads = Math.min(options.parallel ?? plan.spec.parallel ?? availableParallelism(), runs.length);
  const baseDirectory = options.baseDirectory ?? process.cwd();
  const batches = senderBatches(runs, threads);
  const signal = options.signal;
  if (threads <= 1) {
    const context = new RunContext(baseDirectory);
    const results = new Array<RunResult>(runs.length);
    let done = 0;
    try {
      for (const run of batches.flat()) {
        if (signal?.aborted) throw new RunAbortedError();
        const result = await runExperiment(run.spec, context, run.index, run.settings, signal);
        results[run.index] = result;
        options.onResult?.(result);
        options.onProgress?.(++done, runs.length);
      }
    } catch (error) {
      if (!(error instanceof RunAbortedError)) throw error;
      throw new SweepAbortedError(finishedRuns(results), runs.length, signal?.reason);
    }
    return results;
  }
  return runOnWorkers(runs.length, batches, threads, baseDirectory, options);
}

function finishedRuns(results: ReadonlyArray<RunResult | undefined>): RunResult[] {
  return results.filter((r): r is RunResult => r !== undefined);
}

/**
 * The runs of a plan too large to simulate (see MAX_RUN_STEPS), found before any runs: one problem per trajectory
 * and rate, at the path that sets the duration. A trajectory that cannot be built is left for its run to report.
 * @param baseDirectory - folder that relative track files are resolved against. Defaults to the working directory.
 */
export async function runSizeProblems(plan: ExperimentPlan, baseDirectory = process.cwd()): Promise<SpecProblem[]> {
  const problems: SpecProblem[] = [];
  const seen = new Set<string>();
  for (const run of plan.runs) {
    const key = truthKey(run.spec);
    if (seen.has(key)) continue;
    seen.add(key);
    const spec = run.spec;
    let durationSeconds: number;
    try {
      durationSeconds = runDuration(spec, await trajectoryFromSpec(spec.trajectory, baseDirectory)).durationSeconds;
    } catch {
      continue;
    }
    const problem = runSizeProblem(spec, durationSeconds);
    if (problem === undefined) continue;
    const path =
      spec.durationSeconds !== undefined
        ? 'durationSeconds'
        : spec.trajectory.type === 'circle' || spec.trajectory.type === 'aircraft-orbit'
          ? 'trajectory.orbits'
          : 'trajectory';
    const swept = Object.entries(run.settings).map(([k, v]) => `${k}=${JSON.stringify(v)}`);
    problems.push({ path, message: problem + (swept.length > 0 ? ` (in the run with ${swept.join(', ')})` : '') });
  }
  return problems;
}

/**
 * Runs in batches that share a sender; batches of one trajectory come one after another, so the threads read the
 * same truth tables at the same time (and share them in the cache). On several threads a batch is cut to at most
 * a quarter of a thread's share of the runs, so that a sweep over receiving conditions alone still keeps every
 * thread busy. Otherwise in the plan's order of first appearance.
 */
export function senderBatches(runs: readonly PlannedRun[], threads: number): PlannedRun[][] {
  const byTruth = new Map<string, Map<string, PlannedRun[]>>();
  for (const run of runs) {
    const truth = truthKey(run.spec),
      sender = senderKey(run.spec);
    let senders = byTruth.get(truth);
    if (!senders) byTruth.set(truth, (senders = new Map()));
    const batch = senders.get(sender);
    if (batch) batch.push(run);
    else senders.set(sender, [run]);
  }
  const most = threads > 1 ? Math.max(1, Math.ceil(runs.length / (4 * threads))) : runs.length;
  const batches: PlannedRun[][] = [];
  for (const senders of byTruth.values()) {
    for (const batch of senders.values())
      for (let i = 0; i < batch.length; i += most) batches.push(batch.slice(i, i + most));
  }
  return batches;
}

function runOnWorkers(
  total: number,
  batches: readonly PlannedRun[][],
  threads: number,
  baseDirectory: string,
  options: SweepOptions,
): Promise<RunResult[]> {
  const results = new Array<RunResult>(total);
  // Under tsx (tests, `npm run bench`) this module is TypeScript and so is the worker: register tsx's loader
  // inside the worker before importing it (`execArgv: ['--import', 'tsx']` does not reach Node 20 workers).
  const typescript = import.meta.url.endsWith('.ts');
  const workerUrl = new URL(typescript ? './worker.ts' : './worker.js', import.meta.url);
  const bootstrap = typescript
    ? new URL(
        `data:text/javascript,const { register } = await import(${JSON.stringify(tsxApiUrl())}); register(); await import(${JSON.stringify(workerUrl.href)});`,
      )
    : workerUrl;
  return new Promise<RunResult[]>((resolve, reject) => {
    let next = 0;
    let done = 0;
    let failed = false;
    const workers: Worker[] = [];
    const signal = options.signal;
    const stopAll = (error: Error) => {
      if (failed) return;
      failed = true;
      signal?.removeEventListener('abort', onAbort);
      // Terminating stops a worker at once, also in the middle of a run.
      for (const w of workers) void w.terminate();
      reject(error);
    };
    const onAbort = () => stopAll(new SweepAbortedError(finishedRuns(results), total, signal?.reason));
    if (signal?.aborted) return onAbort();
    signal?.addEventListener('abort', onAbort, { once: true });
    // Runs each worker has been handed and not yet returned.
    const pending = new Map<Worker, number>();
    const feed = (worker: Worker) => {
      if (failed || next >= batches.length) return;
      const batch = batches[next++]!;
      pending.set(worker, batch.length);
      worker.postMessage(
        batch.map((run) => ({
          index: run.index,
          spec: run.spec,
          settings: { ...run.settings },
        })) satisfies WorkerRequest,
      );
    };
    for (let i = 0; i < threads; i++) {
      const worker = new Worker(bootstrap, { workerData: { baseDirectory } });
      workers.push(worker);
      worker.on(
        'message',
        (message: { ok: true; result: RunResult } | { ok: false; index: number; message: string }) => {
          if (failed) return;
          if (!message.ok) return stopAll(new Error(`run ${message.index}: ${message.message}`));
          results[message.result.index] = message.result;
          options.onResult?.(message.result);
          done++;
          options.onProgress?.(done, total);
          if (done === total) {
            signal?.removeEventListener('abort', onAbort);
            for (const w of workers) w.postMessage(null);
            resolve(results);
          } else {
            const left = pending.get(worker)! - 1;
            pending.set(worker, left);
            if (left === 0) feed(worker);
          }
        },
      );
      worker.on('error', (error) => stopAll(error));
      feed(worker);
    }
  });
}

/** URL of tsx's ESM API, resolved from here (a data: URL module cannot resolve bare specifiers). */
function tsxApiUrl(): string {
  const cjs = createRequire(import.meta.url).resolve('tsx/esm/api');
  return pathToFileURL(cjs.replace(/\.cjs$/, '.mjs')).href;
}
