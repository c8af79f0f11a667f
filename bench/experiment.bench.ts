/**
 * Experiment throughput: a sweep of 1,000 runs (quick: 20) of 10 simulated minutes each, sampled and rendered
 * at 60 Hz, across thresholds × algorithms × networks × trajectories × seeds, on worker threads (one per core).
 * Figure: simulated hours per wall-clock second (floor 20 on a 2-core machine), with the same figure for one
 * thread in this process as the baseline the threads are measured against. On a shared machine the wall clock
 * depends on the other processes, so the CPU time per simulation step (sample → emitter → link → render →
 * metrics, all threads, process.cpuUsage) is given too: it moves with the code, not with the load.
 */
import { availableParallelism } from 'node:os';
import { performance } from 'node:perf_hooks';
import { planExperiment } from '../src/experiment/sweep.js';
import { runSweep } from '../src/experiment/sweep-runner.js';
import { round, type BenchSuite } from './harness.js';

const SECONDS_PER_RUN = 600;

function sweepSpec(runs: number) {
  const axes = {
    'emitter.positionThreshold': ['0.5 m', '1 m', '2 m', '4 m', '8 m'],
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

const suite: BenchSuite = async ({ quick }) => {
  const plan = planExperiment(sweepSpec(quick ? 20 : 1000));
  const threads = availableParallelism();

  // Baseline: the first few runs in this thread.
  const single = planExperiment({ ...sweepSpec(20), sweep: { trajectory: sweepSpec(20).sweep.trajectory } });
  await runSweep(single, { parallel: 1 }); // warm up the JIT
  let start = performance.now();
  await runSweep(single, { parallel: 1 });
  const oneThread = (single.runs.length * SECONDS_PER_RUN) / 3600 / ((performance.now() - start) / 1000);

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
      floorSimHoursPerSecond: 20,
    },
  ];
};

export default suite;
