/**
 * One deterministic experiment run: truth trajectory sampled at the sample rate → emitter (algorithm,
 * thresholds, heartbeat, rate cap) → simulated network (seeded) → receiver with smoothing, read at the render
 * rate → metrics against the truth at the same instants. Time is simulated, so the same spec and seed give
 * the same result to the byte. The loop allocates nothing once the record pool has grown to the largest
 * number of PDUs in flight.
 */
import { DeadReckoningEmitter } from '../dr/emitter.js';
import { worldToBodyFromEuler } from '../math/euler.js';
import { rotationAngleBetween } from '../math/mat3.js';
import { ENTITY_STATE_BYTES } from '../pdu/constants.js';
import { EntityStateRecord } from '../pdu/entity-state-record.js';
import { SimulatedLink } from '../transport/simulated-network.js';
import { emitterOptionsFromSpec, networkProfileFromSpec, orbitsOf, trajectoryFromSpec } from './build.js';
import { MetricsAccumulator, type RunMetrics } from './metrics.js';
import { createDisplay, stampRecord } from './receiver.js';
import type { RunSpec } from './spec.js';
import { TraceRecorder, type RunTraces } from './traces.js';
import {
  createTruthWithAttitude,
  type StepSampler,
  type Trajectory,
  type TruthWithAttitude,
} from './trajectories/trajectory.js';

/** One run's outcome. */
export interface RunResult {
  readonly index: number;
  readonly name: string;
  /** The swept values that made this run (path → value as written). */
  readonly settings: Readonly<Record<string, unknown>>;
  readonly trajectory: string;
  readonly metrics: RunMetrics;
  /** Series for plots, when the spec asks for `traces`. */
  readonly traces?: RunTraces;
}

/** State reused from run to run in one thread: buffers grow once and are kept. */
export class RunContext {
  readonly metrics = new MetricsAccumulator(60 * 600);
  /** Free records for PDUs in flight (records are only reused after delivery). */
  readonly pool: EntityStateRecord[] = [];
  /** Folder that relative track files are resolved against. */
  constructor(readonly baseDirectory = process.cwd()) {}
}

/**
 * Runs one experiment.
 * @param spec - a validated run spec (see `planExperiment`).
 * @param index - position in the sweep, carried into the result. Defaults to 0.
 * @param settings - the swept values, carried into the result. Defaults to none.
 */
export async function runExperiment(
  spec: RunSpec,
  context = new RunContext(),
  index = 0,
  settings: Readonly<Record<string, unknown>> = {},
): Promise<RunResult> {
  const trajectory = await trajectoryFromSpec(spec.trajectory, context.baseDirectory);
  return simulate(spec, trajectory, context, index, settings);
}

/** The synchronous core of `runExperiment`, for a trajectory already built. */
export function simulate(
  spec: RunSpec,
  trajectory: Trajectory,
  context: RunContext,
  index = 0,
  settings: Readonly<Record<string, unknown>> = {},
): RunResult {
  const duration = spec.durationSeconds ?? trajectory.durationSeconds;
  const sampleRate = spec.sampleRateHz;
  const renderRate = spec.renderRateHz ?? sampleRate;
  const emitter = new DeadReckoningEmitter(emitterOptionsFromSpec(spec.emitter));
  const link = new SimulatedLink<EntityStateRecord>(networkProfileFromSpec(spec.network), spec.seed);
  const display = createDisplay(spec.smoothing);
  const metrics = context.metrics;
  const pool = context.pool;
  const traces = spec.traces ? new TraceRecorder(duration, renderRate) : undefined;

  // Matrices only: the emitter and the metrics compare orientations as R_wb, never as angles.
  const truth = createTruthWithAttitude(true);
  const renderTruth = createTruthWithAttitude(true);
  const outgoing = new EntityStateRecord(0);
  const shownLocation = new Float64Array(3);
  const shownWorldToBody = new Float64Array(9);
  const pduBytes = ENTITY_STATE_BYTES; // no articulation records: 144 bytes (IEEE 1278.1 §7.2.2)

  const deliver = (record: EntityStateRecord, arrivalSeconds: number): void => {
    display.apply(record, arrivalSeconds);
    pool.push(record);
  };

  // Samples at i / sampleRate: by the trajectory's recurrences where it has them (the same instants).
  const sampleStep: StepSampler =
    trajectory.stepSampler?.(sampleRate) ?? ((i, out) => sampleTruth(trajectory, i / sampleRate, out as TruthWithAttitude));
  const sampleCount = Math.floor(duration * sampleRate + 1e-9) + 1;
  const renderCount = Math.floor(duration * renderRate + 1e-9) + 1;
  metrics.reset(spec.emitter.positionThreshold, renderCount);
  let nextRender = 0;
  for (let i = 0; i < sampleCount; i++) {
    const t = i / sampleRate;
    // Render every frame due before this sample (the receiver runs on its own clock). Frames are passed by
    // number: a computed time passed to a function V8 does not inline would be boxed on the heap.
    while (nextRender < renderCount && nextRender / renderRate < t) render(nextRender++, false);
    sampleStep(i, truth);
    const reasons = emitter.update(truth, t, outgoing, 0, truth.worldToBody);
    if (reasons !== 0) {
      metrics.addPdu(reasons);
      const record = pool.pop() ?? new EntityStateRecord(0);
      copyKinematics(record, outgoing);
      stampRecord(record, t);
      link.send(t, record, pduBytes);
      traces?.addPdu(t, truth.location, reasons);
    }
    if (nextRender < renderCount && nextRender / renderRate === t) render(nextRender++, true);
  }
  while (nextRender < renderCount) render(nextRender++, false);

  function render(frame: number, sameInstantAsSample: boolean): void {
    const t = frame / renderRate;
    link.poll(t, deliver);
    if (!display.read(t, shownLocation, shownWorldToBody)) return; // nothing received yet
    const state = sameInstantAsSample ? truth : sampleTruth(trajectory, t, renderTruth);
    const p = state.location;
    const dx = p[0]! - shownLocation[0]!, dy = p[1]! - shownLocation[1]!, dz = p[2]! - shownLocation[2]!;
    const error = Math.sqrt(dx * dx + dy * dy + dz * dz); // not Math.hypot: several times slower in V8
    const angle = rotationAngleBetween(state.worldToBody, shownWorldToBody);
    metrics.addSample(t, shownLocation, error, angle);
    traces?.addSample(t, p, shownLocation, error);
  }

  const result: RunResult = {
    index,
    name: spec.name,
    settings,
    trajectory: trajectory.name,
    metrics: metrics.finish({
      durationSeconds: duration,
      pduBytes,
      includeEthernet: spec.metrics.includeEthernet,
      baselineRateHz: spec.metrics.baselineRateHz,
      orbits: orbitsOf(spec.trajectory, duration),
      delivered: link.stats.delivered,
      lost: link.stats.lost + link.stats.dropped,
    }),
  };
  // Records still in flight when the run ends go back to the pool for the next run.
  link.poll(Infinity, (record) => pool.push(record));
  return traces ? { ...result, traces: traces.finish() } : result;
}

/**
 * Samples truth with its world-to-body matrix (computed here if the trajectory did not fill it; a step sampler
 * always fills it).
 */
function sampleTruth(trajectory: Trajectory, t: number, out: TruthWithAttitude): TruthWithAttitude {
  out.worldToBody[0] = Number.NaN;
  trajectory.sample(t, out);
  if (Number.isNaN(out.worldToBody[0]!)) {
    const o = out.orientation;
    worldToBodyFromEuler(out.worldToBody, o[0]!, o[1]!, o[2]!);
  }
  return out;
}

function copyKinematics(to: EntityStateRecord, from: EntityStateRecord): void {
  to.location.set(from.location);
  to.linearVelocity.set(from.linearVelocity);
  to.orientation.set(from.orientation);
  to.linearAcceleration.set(from.linearAcceleration);
  to.angularVelocity.set(from.angularVelocity);
  to.drAlgorithm = from.drAlgorithm;
  to.appearance = from.appearance;
}
