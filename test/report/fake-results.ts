// Synthetic experiment results for the report tests: metrics and traces with the shapes the runner produces,
// made cheaply (no simulation), so a 1,000-run report can be built in a test.
import type { RunMetrics } from '../../src/experiment/metrics.js';
import type { RunResult } from '../../src/experiment/runner.js';
import type { RunTraces } from '../../src/experiment/traces.js';
import type { ExperimentPlan } from '../../src/experiment/sweep.js';

/** Metrics of a run: rate and error from the index so runs differ; orientation PDUs outnumber position ones. */
export function fakeMetrics(i: number, durationSeconds = 600): RunMetrics {
  const pdus = 100 + ((i * 37) % 400);
  const rms = 0.2 + ((i * 13) % 50) / 25;
  return {
    durationSeconds,
    samples: durationSeconds * 60,
    pdus,
    pdusByReason: {
      first: 1,
      position: Math.floor(pdus * 0.2),
      orientation: Math.floor(pdus * 0.6),
      heartbeat: Math.floor(pdus * 0.2),
      change: 0,
    },
    pdusPerSecond: pdus / durationSeconds,
    pdusPerOrbit: null,
    bytesPerPdu: 172,
    bytesPerSecond: (pdus * 172) / durationSeconds,
    wireIncludesEthernet: false,
    delivered: pdus,
    lost: 0,
    positionError: { mean: rms * 0.8, rms, p95: rms * 1.8, max: rms * 3 },
    orientationErrorDeg: { mean: 1, rms: 1.2, p95: 2, max: 3 },
    shareAboveThreshold: 0.01,
    maxVelocityJump: 2 + (i % 7),
    baselineRateHz: 15,
    baselinePdus: durationSeconds * 15 + 1,
    reductionPercent: 100 * (1 - pdus / (durationSeconds * 15 + 1)),
  };
}

const tracesByVariant = new Map<number, RunTraces>();

/**
 * Traces as long as the runner keeps them: 60 s of 60 Hz errors, 2,000 track points, 2,000 PDU markers. They vary
 * with `i % 5` only, so runs share (frozen) copies: a 1,000-run report is built without making 25 M numbers.
 */
export function fakeTraces(i: number): RunTraces {
  const variant = i % 5;
  let traces = tracesByVariant.get(variant);
  if (!traces) {
    traces = makeTraces(variant);
    for (const values of Object.values(traces)) Object.freeze(values);
    tracesByVariant.set(variant, Object.freeze(traces));
  }
  return traces;
}

function makeTraces(i: number): RunTraces {
  const frames = 3600;
  const errorTime = Array.from({ length: frames }, (_, k) => k / 60);
  const deadReckoningError = errorTime.map((t) => ((t * (1 + (i % 5))) % 1) * 0.9);
  const positionError = deadReckoningError.map((e, k) => e + 0.3 + 0.05 * Math.sin(k / 9));
  const time = Array.from({ length: 2000 }, (_, k) => (k * 600) / 2000);
  const angle = time.map((t) => t / 60);
  const trueEast = angle.map((a) => 1000 * Math.sin(a));
  const trueNorth = angle.map((a) => 1000 * (1 - Math.cos(a)));
  return {
    errorTime,
    positionError,
    deadReckoningError,
    time,
    trueEast,
    trueNorth,
    shownEast: trueEast.map((e, k) => e + 0.5 * Math.sin(k)),
    shownNorth: trueNorth.map((n, k) => n + 0.5 * Math.cos(k)),
    pduTime: time,
    pduEast: trueEast,
    pduNorth: trueNorth,
    pduReasons: time.map((_, k) => 1 << (k % 4)),
  };
}

/** Results for each run of a plan (settings from the plan), with traces when asked. */
export function fakeResults(plan: ExperimentPlan, traces = true, trajectory = () => 'circle'): RunResult[] {
  return plan.runs.map((run) => ({
    index: run.index,
    name: plan.spec.name,
    settings: run.settings,
    trajectory: trajectory(),
    truth: { maxSpeedMps: 100, maxAccelerationMps2: 10, maxTurnRateDegPerS: 5.7, fixesDropped: 0, fixesRepaired: 0 },
    metrics: fakeMetrics(run.index),
    ...(traces ? { traces: fakeTraces(run.index) } : {}),
  }));
}
