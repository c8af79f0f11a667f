/**
 * One deterministic experiment run: truth trajectory sampled at the sample rate → emitter (algorithm,
 * thresholds, heartbeat, rate cap) → simulated network (seeded) → receiver with smoothing, read at the render
 * rate → metrics against the truth at the same instants. Time is simulated, so the same spec and seed give
 * the same result to the byte. The loop allocates nothing once the record pool has grown to the largest
 * number of PDUs in flight.
 *
 * A sweep repeats a few trajectories and senders under many receiving conditions, so the context keeps the sampled
 * truth (`sampled-truth.ts`) and the PDUs each sender sent (`transmission.ts`) for the runs that share them.
 */
import { DeadReckoningEmitter } from '../dr/owner/emitter.js';
import { ENTITY_STATE_BYTES } from '../pdu/wire/constants.js';
import { EntityStateRecord } from '../pdu/wire/entity-state-record.js';
import { SimulatedLink } from './simulated-network.js';
import { emitterOptionsFromSpec, networkProfileFromSpec, orbitsOf, trajectoryFromSpec } from './build.js';
import { MetricsAccumulator, type RunMetrics } from './metrics.js';
import { createDisplay, stampRecord } from './receiver.js';
import type { RunSpec } from './spec.js';
import { TraceRecorder, type RunTraces } from './traces.js';
import { ByteBoundedCache } from './byte-cache.js';
import { Transmission, senderKey } from './transmission.js';
import { createTruthWithAttitude, type Trajectory } from '../truth/trajectory.js';
import { formatSeconds } from '../truth/track-checks.js';
import { implausibleTruth, type TruthQuality } from '../truth/truth-quality.js';
import {
  DEFAULT_MAX_TABLE_STEPS,
  TRUTH_WORLD_TO_BODY,
  sampleRunTruth,
  truthKey,
  type RunTruth,
} from './sampled-truth.js';

/**
 * Most sample steps, and most render frames, in one run: 2²² (19.4 h at 60 Hz). A run keeps two doubles of error
 * per frame for its percentiles (64 MB at the limit) and up to 141 bytes per PDU sent, in every worker thread.
 */
export const MAX_RUN_STEPS = 2 ** 22;

/**
 * Why a run of `durationSeconds` is too large to simulate, or undefined when it fits: the steps at its sample and
 * render rates against MAX_RUN_STEPS.
 */
export function runSizeProblem(spec: RunSpec, durationSeconds: number): string | undefined {
  for (const [field, rateHz] of [
    ['sampleRateHz', spec.sampleRateHz],
    ['renderRateHz', spec.renderRateHz],
  ] as const) {
    if (rateHz === undefined) continue;
    const steps = Math.floor(durationSeconds * rateHz + 1e-9) + 1;
    if (!(steps > MAX_RUN_STEPS)) continue;
    const hours = MAX_RUN_STEPS / rateHz / 3600;
    return (
      `${durationSeconds.toPrecision(4)} s of simulated time at ${rateHz} Hz (${field}) ` +
      `is ${steps.toPrecision(4)} steps; ` +
      `a run holds at most ${MAX_RUN_STEPS} (${hours.toPrecision(3)} h at ${rateHz} Hz): shorten it or lower the rate`
    );
  }
  return undefined;
}

/** One run's outcome. */
export interface RunResult {
  readonly index: number;
  readonly name: string;
  /** The swept values that made this run (path → value as written). */
  readonly settings: Readonly<Record<string, unknown>>;
  readonly trajectory: string;
  /** The truth the run used, measured: its largest speed, acceleration and turn rate, what a recording lost. */
  readonly truth: TruthQuality;
  readonly metrics: RunMetrics;
  /** What to know about the run besides its numbers (a run cut short at its trajectory's end, fixes dropped). */
  readonly notes?: readonly string[];
  /** Series for plots, when the spec asks for `traces`. */
  readonly traces?: RunTraces;
}

/** State reused from run to run in one thread: buffers grow once and are kept. */
export class RunContext {
  readonly metrics = new MetricsAccumulator(60 * 600);
  /** Free records for PDUs in flight (records are only reused after delivery). */
  readonly pool: EntityStateRecord[] = [];
  /** Sampled trajectories by `truthKey`, shared by the runs that fly them. */
  readonly truths = new ByteBoundedCache<RunTruth>(128 * 2 ** 20);
  /** What the owner sent, by `senderKey`, replayed by the runs that differ only on the receiving side. */
  readonly transmissions = new ByteBoundedCache<Transmission>(64 * 2 ** 20);
  /**
   * @param baseDirectory - folder that relative track files are resolved against. Defaults to the working directory.
   * @param maxTruthSteps - most steps of truth held per table; longer runs read it through a moving window.
   *   Defaults to DEFAULT_MAX_TABLE_STEPS.
   */
  constructor(
    readonly baseDirectory = process.cwd(),
    readonly maxTruthSteps = DEFAULT_MAX_TABLE_STEPS,
  ) {}
}

/**
 * Runs one experiment, reading the trajectory's truth and the owner's PDUs from the context when an earlier run
 * with the same settings left them there (the results are the same to the byte either way).
 * @param index - position in the sweep, carried into the result. Defaults to 0.
 * @param settings - the swept values, carried into the result. Defaults to none.
 * @param signal - aborts the run between two stretches of STEPS_PER_TURN steps (the run then gives the event loop a
 *   turn after each); it rejects with a RunAbortedError. Without it the run goes through without pausing.
 */
export async function runExperiment(
  spec: RunSpec,
  context = new RunContext(),
  index = 0,
  settings: Readonly<Record<string, unknown>> = {},
  signal?: AbortSignal,
): Promise<RunResult> {
  const key = truthKey(spec);
  let truth = context.truths.get(key);
  if (truth === undefined) {
    const trajectory = await trajectoryFromSpec(spec.trajectory, context.baseDirectory);
    truth = sampleRun(spec, trajectory, context);
    context.truths.set(key, truth);
  }
  const steps = simulateTruth(spec, truth, context, index, settings, senderKey(spec));
  if (signal === undefined) return finish(steps);
  // The run gives the event loop a turn every STEPS_PER_TURN steps, so that a signal handler can abort it.
  for (;;) {
    if (signal.aborted) throw new RunAbortedError();
    const next = steps.next();
    if (next.done) return next.value;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

/** A run stopped by its abort signal before it finished. */
export class RunAbortedError extends Error {
  constructor() {
    super('run aborted');
    this.name = 'RunAbortedError';
  }
}

/** Runs a simulation to its end without pausing. */
function finish(steps: Generator<void, RunResult>): RunResult {
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
  }
}

/**
 * The synchronous core of `runExperiment`, for a trajectory already built (nothing is shared with other runs); it
 * cannot be aborted (use `runExperiment` with a signal for that).
 */
export function simulate(
  spec: RunSpec,
  trajectory: Trajectory,
  context: RunContext,
  index = 0,
  settings: Readonly<Record<string, unknown>> = {},
): RunResult {
  const truth = sampleRun(spec, trajectory, context);
  return finish(simulateTruth(spec, truth, context, index, settings, null));
}

/**
 * The simulated time of a run: the spec's `durationSeconds` (else the trajectory's), but not past the end of a
 * trajectory that is over there (not `endless`: a course that ends at rest, a recording); then with a note saying
 * so. The trajectory's own notes come first.
 */
export function runDuration(spec: RunSpec, trajectory: Trajectory): { durationSeconds: number; notes: string[] } {
  const notes = [...(trajectory.notes ?? [])];
  const asked = spec.durationSeconds;
  const end = trajectory.durationSeconds;
  if (asked === undefined) return { durationSeconds: end, notes };
  if (asked <= end * (1 + 1e-12) || trajectory.endless === true) return { durationSeconds: asked, notes };
  notes.push(
    `stopped at the end of the trajectory ${trajectory.name} (${formatSeconds(end)}), not after the ` +
      `${formatSeconds(asked)} durationSeconds asks for: past its end it does not move, so a longer run ` +
      'would measure an entity at rest',
  );
  return { durationSeconds: end, notes };
}

/**
 * The truth tables of a run, for its duration (`runDuration`).
 * @throws RangeError when the run is larger than MAX_RUN_STEPS (before anything is allocated).
 */
function sampleRun(spec: RunSpec, trajectory: Trajectory, context: RunContext): RunTruth {
  const { durationSeconds, notes } = runDuration(spec, trajectory);
  const problem = runSizeProblem(spec, durationSeconds);
  if (problem !== undefined) throw new RangeError(`run too large: ${problem}`);
  const truth = sampleRunTruth(
    trajectory,
    spec.sampleRateHz,
    durationSeconds,
    spec.renderRateHz,
    context.maxTruthSteps,
  );
  return { ...truth, notes, ...(trajectory.recording ? { recording: trajectory.recording } : {}) };
}

/** Sample steps between the pauses of a run that can be aborted (a few tens of milliseconds). */
const STEPS_PER_TURN = 8192;

/**
 * One run on sampled truth, pausing (yielding) every STEPS_PER_TURN steps so that a caller can abort it between
 * them; the result is the generator's return value. With a sender key, the owner's PDUs are replayed from the
 * context when recorded there, and recorded there when not.
 */
function* simulateTruth(
  spec: RunSpec,
  runTruth: RunTruth,
  context: RunContext,
  index: number,
  settings: Readonly<Record<string, unknown>>,
  sender: string | null,
): Generator<void, RunResult> {
  const duration = runTruth.durationSeconds;
  const sampleRate = spec.sampleRateHz;
  const renderRate = spec.renderRateHz ?? sampleRate;
  const recorded = sender === null ? undefined : context.transmissions.get(sender);
  const transmission = recorded ?? new Transmission();
  // Only a run that records what it sends needs the owner.
  const emitter = recorded === undefined ? new DeadReckoningEmitter(emitterOptionsFromSpec(spec.emitter)) : null;
  const link = new SimulatedLink<EntityStateRecord>(networkProfileFromSpec(spec.network), spec.seed);
  const display = createDisplay(spec.smoothing, spec.latencyCompensation);
  const absoluteTimestamps = spec.latencyCompensation === 'timestamp';
  const metrics = context.metrics;
  const pool = context.pool;
  const traces = spec.traces ? new TraceRecorder(duration, renderRate) : undefined;
  // With traces, a second receiver takes each PDU the moment it is sent, on a perfect network and without
  // smoothing: its error is the dead-reckoning error alone, which the report sets against the displayed error.
  const ideal = traces ? createDisplay({ method: 'snap', time: 0, teleportDistance: Infinity }) : undefined;
  const idealLocation = new Float64Array(3);
  const idealWorldToBody = new Float64Array(9);
  const samples = runTruth.samples,
    frames = runTruth.frames;

  // Matrices only: the emitter compares orientations as R_wb, never as angles.
  const truth = createTruthWithAttitude(true);
  const outgoing = new EntityStateRecord(0);
  const shownLocation = new Float64Array(3);
  const trueLocation = new Float64Array(3);
  const shownWorldToBody = new Float64Array(9);
  const pduBytes = ENTITY_STATE_BYTES; // no articulation records: 144 bytes (IEEE 1278.1 §7.2.2)

  const deliver = (record: EntityStateRecord, arrivalSeconds: number): void => {
    display.apply(record, arrivalSeconds);
    pool.push(record);
  };

  const sampleCount = samples.steps;
  const renderCount = frames?.steps ?? sampleCount;
  metrics.reset(spec.emitter.positionThreshold, renderCount);
  let nextRender = 0;
  let nextPdu = 0;
  for (let i = 0; i < sampleCount; i++) {
    if (i % STEPS_PER_TURN === STEPS_PER_TURN - 1) yield;
    const t = i / sampleRate;
    // Render every frame due before this sample (the receiver runs on its own clock). Frames are passed by
    // number: a computed time passed to a function V8 does not inline would be boxed on the heap.
    while (nextRender < renderCount && nextRender / renderRate < t) render(nextRender++, -1);
    if (emitter !== null) {
      const reasons = emitter.update(samples.read(i, truth), t, outgoing, 0, truth.worldToBody);
      if (reasons !== 0) transmission.add(i, reasons, outgoing);
    }
    for (; nextPdu < transmission.count && transmission.steps[nextPdu] === i; nextPdu++) {
      const reasons = transmission.reasons[nextPdu]!;
      metrics.addPdu(reasons);
      const record = transmission.read(nextPdu, pool.pop() ?? new EntityStateRecord(0));
      stampRecord(record, t, absoluteTimestamps);
      ideal?.apply(record, t);
      link.send(t, record, pduBytes);
      traces?.addPdu(t, record.location, reasons);
    }
    if (nextRender < renderCount && nextRender / renderRate === t) render(nextRender++, i);
  }
  while (nextRender < renderCount) render(nextRender++, -1);
  if (sender !== null && recorded === undefined) context.transmissions.set(sender, transmission);

  /** Reads the receiver at a frame and measures it against truth: the sample at `step`, or the frame's own (−1). */
  function render(frame: number, step: number): void {
    const t = frame / renderRate;
    link.poll(t, deliver);
    if (!display.read(t, shownLocation, shownWorldToBody)) return; // nothing received yet
    // Truth is read in place from its table.
    const table = step >= 0 || frames === null ? samples : frames;
    const d = table.pose,
      b = table.offset(step >= 0 ? step : frame);
    metrics.addFrame(frame, renderRate, d, b, b + TRUTH_WORLD_TO_BODY, shownLocation, shownWorldToBody);
    if (traces !== undefined) {
      trueLocation.set(d.subarray(b, b + 3));
      let drError = NaN;
      if (traces.wantsErrors(t) && ideal!.read(t, idealLocation, idealWorldToBody)) {
        drError = Math.hypot(idealLocation[0]! - d[b]!, idealLocation[1]! - d[b + 1]!, idealLocation[2]! - d[b + 2]!);
      }
      traces.addSample(t, trueLocation, shownLocation, metrics.lastPositionErrorMeters, drError);
    }
  }

  // The truth the run flew, measured (every step was sampled on the way; a replayed run samples what it skipped).
  const recording = runTruth.recording;
  const truthQuality: TruthQuality = {
    ...runTruth.samples.quality(),
    fixesDropped: recording?.fixesDropped ?? 0,
    fixesRepaired: recording?.fixesRepaired ?? 0,
  };
  const implausible = recording === undefined ? undefined : implausibleTruth(recording.kind, truthQuality);
  const notes = implausible === undefined ? runTruth.notes : [...runTruth.notes, implausible];
  const result: RunResult = {
    index,
    name: spec.name,
    settings,
    trajectory: runTruth.trajectoryName,
    truth: truthQuality,
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
  const noted = notes.length > 0 ? { ...result, notes } : result;
  return traces ? { ...noted, traces: traces.finish() } : noted;
}
