/**
 * Experiment throughput: a sweep of 1,000 runs (quick: 20) of 10 simulated minutes each, sampled and rendered
 * at 60 Hz, across thresholds × algorithms × networks × trajectories × seeds, on worker threads (one per core).
 * Figure: simulated hours per wall-clock second (floor 20 on a 2-core machine). Baselines in the same run, on one
 * thread in this process: a 200-run sweep of the same shape (one threshold), and the same runs each on a context
 * of its own, which samples its trajectory and runs its emitter instead of sharing them with the runs that fly
 * the same trajectory with the same emitter. On a shared machine the wall clock depends on the other processes,
 * so the CPU time per simulation step (all threads, process.cpuUsage) is given too: it moves with the code, not
 * with the load. The sweeps run from the build (`dist/`, made by `npm run build` before the benchmarks) as
 * `reckon experiment` does: loaded from TypeScript sources, each worker thread would first spend ~0.4 s compiling.
 */
import { availableParallelism } from 'node:os';
import { performance } from 'node:perf_hooks';
import { planExperiment } from '../src/experiment/sweep.js';
import { round, type BenchSuite } from './harness.js';

const SECONDS_PER_RUN = 600;

function sweepSpec(runs: number, thresholds = ['0.5 m', '1 m', '2 m', '4 m', '8 m']) {
  const axes = {
    'emitter.positionThreshold': thresholds,
    'emitter.algorithm': ['FPW', 'RPW', 'RVW', 'FVW'],
    network: ['perfect', 'lan', 'wan', 'lossy-wifi', 'satellite'],
    trajectory: [
      { type: 'aircraft-orbit' },
      { type: 'tank-road-course' },
      { type: 'ship-turning-circles' },
      { type: 'figure-8' },
      { type: 'straight-line' },
    ],
    seed: [1, 2],
  };
  // Quick mode keeps every trajectory and network but fewer thresholds, algorithms and seeds.
  const quick = runs < 1000;
  return {
    name: 'throughput',
    durationSeconds: SECONDS_PER_RUN,
    sampleRateHz: 60,
    renderRateHz: 60,
    sweep: quick
      ? { 'emitter.algorithm': ['FPW', 'RVW'], network: ['wan', 'lossy-wifi'], trajectory: axes.trajectory }
      : axes,
  };
}

const built = (path: string) => import(new URL(`../dist/experiment/${path}`, import.meta.url).href);

const suite: BenchSuite = async ({ quick }) => {
  const { runSweep } = (await built('sweep-runner.js')) as typeof import('../src/experiment/sweep-runner.js');
  const { RunContext, runExperiment } = (await built('runner.js')) as typeof import('../src/experiment/runner.js');
  const plan = planExperiment(sweepSpec(quick ? 20 : 1000));
  const threads = availableParallelism();

  // Baselines in this thread: a sweep of the same shape with one threshold (quick: the quick sweep), and its
  // runs each on a fresh context (nothing shared).
  const single = quick ? plan : planExperiment(sweepSpec(1000, ['1 m']));
  await runSweep(planExperiment({ ...sweepSpec(20), durationSeconds: 60 }), { parallel: 1 }); // warm up the JIT
  const simHours = (runs: number) => (runs * SECONDS_PER_RUN) / 3600;
  let start = performance.now();
  await runSweep(single, { parallel: 1 });
  const oneThread = simHours(single.runs.length) / ((performance.now() - start) / 1000);
  const unshared = single.runs.filter((_, i) => i % 10 === 0);
  start = performance.now();
  for (const run of unshared) await runExperiment(run.spec, new RunContext());
  const oneThreadUnshared = simHours(unshared.length) / ((performance.now() - start) / 1000);

  start = performance.now();
  const cpuBefore = process.cpuUsage();
  const results = await runSweep(plan, { parallel: threads });
  const wallSeconds = (performance.now() - start) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  const steps = results.length * SECONDS_PER_RUN * 60;
  const simHoursPerSecond = (results.length * SECONDS_PER_RUN) / 3600 / wallSeconds;
  return [
    {
      name: 'experiment.throughput',
      runs: results.length,
      threads,
      wallSeconds: round(wallSeconds),
      simHoursPerSecond: round(simHoursPerSecond),
      wallMicrosecondsPerStepPerThread: round((wallSeconds * 1e6 * threads) / steps),
      cpuMicrosecondsPerStep: round((cpu.user + cpu.system) / steps),
      baselineOneThreadSimHoursPerSecond: round(oneThread),
      ratioToOneThread: round(simHoursPerSecond / oneThread),
      baselineOneThreadUnsharedSimHoursPerSecond: round(oneThreadUnshared),
      ratioToUnshared: round(simHoursPerSecond / oneThreadUnshared),
      floorSimHoursPerSecond: 20,
    },
  ];
};

export default suite;
