/**
 * The owner side at 100 000 entities (10 000 with --quick), as `reckon publish --entities N` runs it: each tick
 * the load generator's truth (shared courses moved rigidly) is written into typed arrays, then every entity's
 * decision is made and the PDUs it needs are encoded into a datagram buffer — everything but the socket.
 *
 * - `publish.entities100k`: the emitter bank (`OwnedEntityTable.tick`: decisions and encoding) on that truth;
 *   figures in decisions per second of CPU, PDUs per decision, garbage per decision, and the memory the generator
 *   holds per entity (heap and the typed arrays' and WebAssembly memory outside it).
 * - `publish.entities100k.per-object-emitter`, the baseline: one `DeadReckoningEmitter` per entity fed the same
 *   truth at the same ticks (copied into one `TruthState` per decision), its PDUs encoded through one record.
 * - `publish.entities100k.with-truth`: the bank with the truth sampling counted, what a tick of the CLI costs.
 *
 * - `publish.entities1m`: a million entities in a process of their own (`RECKON_BENCH_ROLE=publish1m`), truth
 *   sampling, decisions and encoding per CPU-second (`opsPerSec`; the bank alone as `bankOpsPerSec`), and the
 *   memory the generator holds per entity: heap plus typed arrays and WebAssembly memory (`bytesPerEntity`) and
 *   the resident set it adds (`rssBytesPerEntity`). Skipped with --quick.
 *
 * All run 6 simulated seconds first (the first PDUs, the first heartbeat), then 2 s at 10 Hz in slices of 2000
 * entities as the CLI runs them, tick by tick in turn; rates are medians over five rounds of four ticks (CPU time).
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { defaultConfig } from '../src/config/schema.js';
import { DeadReckoningEmitter } from '../src/dr/owner/emitter.js';
import { createTruthState } from '../src/dr/owner/truth-state.js';
import { ENTITY_STATE_BYTES } from '../src/pdu/wire/constants.js';
import { encodeEntityStateInto } from '../src/pdu/wire/entity-state-encoder.js';
import { EntityStateRecord } from '../src/pdu/wire/entity-state-record.js';
import { timestampFromSeconds } from '../src/pdu/wire/timestamp.js';
import { LoadGenerator, type PduSink } from '../src/stream/load-generator.js';
import { cpuSeconds, heapBytesPerOp, round, type BenchResult, type BenchSuite } from './harness.js';

const SLICE = 2000;

/** Heap plus the memory outside it (typed arrays' stores, WebAssembly memory), after a full collection. */
function memoryInUse(): number {
  (globalThis as { gc?: () => void }).gc?.();
  const m = process.memoryUsage();
  return m.heapUsed + m.external;
}

/** A datagram-sized buffer written over and over: the bundler's claim without the socket. */
function sink(): PduSink {
  const buffer = new Uint8Array(1472);
  let used = 0;
  return {
    buffer,
    claim(length) {
      if (used + length > buffer.length) used = 0;
      const at = used;
      used += length;
      return at;
    },
  };
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const range = (values: number[]) => `${round(Math.min(...values))}–${round(Math.max(...values))}`;

/** The child of `publish.entities1m`: a million entities, measured as the parent's bank with its truth. */
async function million(): Promise<void> {
  const n = 1_000_000;
  (globalThis as { gc?: () => void }).gc?.();
  const rssBefore = process.memoryUsage().rss,
    before = memoryInUse();
  const generator = new LoadGenerator(defaultConfig(), { entities: n, rampSeconds: 0 });
  const table = generator.table;
  const out = sink();
  const tick = (t: number, timed: { truth: number; bank: number } | null): void => {
    for (let from = 0; from < n; from += SLICE) {
      const to = Math.min(n, from + SLICE);
      const t0 = cpuSeconds();
      generator.sampleTruth(t, from, to);
      const t1 = cpuSeconds();
      table.tick(t, out, from, to);
      if (timed) {
        timed.truth += t1 - t0;
        timed.bank += cpuSeconds() - t1;
      }
    }
  };
  let t = 0;
  for (; t < 6; t += 0.1) tick(t, null);
  const withTruth: number[] = [],
    bank: number[] = [];
  for (let r = 0; r < 5; r++) {
    const timed = { truth: 0, bank: 0 };
    for (let k = 0; k < 4; k++) tick((t += 0.1), timed);
    withTruth.push((4 * n) / (timed.truth + timed.bank));
    bank.push((4 * n) / timed.bank);
  }
  const bytes = (memoryInUse() - before) / n;
  const rss = (process.memoryUsage().rss - rssBefore) / n;
  process.send!({ withTruth, bank, bytes, rss, entities: table.capacity });
  process.disconnect();
}

if (process.env.RECKON_BENCH_ROLE === 'publish1m') await million();

/** `publish.entities1m`, from a child process (the 100 000-entity runs' memory would count in its own). */
async function millionLine(): Promise<BenchResult> {
  const proc = fork(fileURLToPath(import.meta.url), [], {
    env: { ...process.env, RECKON_BENCH_ROLE: 'publish1m' },
    execArgv: ['--expose-gc', '--import', 'tsx'],
  });
  const m = await new Promise<{ withTruth: number[]; bank: number[]; bytes: number; rss: number; entities: number }>(
    (resolve, reject) => {
      proc.once('message', (message) => resolve(message as never));
      proc.once('exit', (code) => reject(new Error(`the publish.entities1m child exited with ${code}`)));
    },
  );
  return {
    name: 'publish.entities1m',
    entities: m.entities,
    opsPerSec: round(median(m.withTruth)),
    opsPerSecRange: range(m.withTruth),
    bankOpsPerSec: round(median(m.bank)),
    bytesPerEntity: round(m.bytes),
    rssBytesPerEntity: round(m.rss),
    goal: 'opsPerSec ≥ 5 M with truth, ≤ 600 B per entity',
  };
}

const suite: BenchSuite = async ({ quick }) => {
  const n = quick ? 10_000 : 100_000;
  const config = defaultConfig();

  let before = memoryInUse();
  const generator = new LoadGenerator(config, { entities: n, rampSeconds: 0 });
  const heapPerEntity = (memoryInUse() - before) / n;
  const table = generator.table;

  // The baseline: an emitter per entity with its kind's settings, and one record for identities and encoding.
  before = memoryInUse();
  const emitters = Array.from(
    { length: n },
    (_, i) => new DeadReckoningEmitter(generator.emitterOptions[generator.kinds[i]!]),
  );
  const baselineHeapPerEntity = (memoryInUse() - before) / n;
  const truth = createTruthState();
  const worldToBody = new Float64Array(9);
  const record = new EntityStateRecord(0);
  record.exerciseId = config.dis.exercise;
  record.length = ENTITY_STATE_BYTES;
  record.forceId = 1;
  record.markingCharacterSet = 1;
  const baselinePdus = { pdus: 0 };
  const baselineTick = (t: number, from: number, to: number, out: PduSink): void => {
    const bank = table.truth;
    for (let i = from; i < to; i++) {
      const i3 = 3 * i,
        i9 = 9 * i;
      for (let k = 0; k < 3; k++) {
        truth.location[k] = bank.location[i3 + k]!;
        truth.linearVelocity[k] = bank.linearVelocity[i3 + k]!;
        truth.linearAcceleration[k] = bank.linearAcceleration[i3 + k]!;
        truth.angularVelocity[k] = bank.angularVelocity[i3 + k]!;
      }
      for (let k = 0; k < 9; k++) worldToBody[k] = bank.worldToBody[i9 + k]!;
      if (emitters[i]!.update(truth, t, record, 0, worldToBody) === 0) continue;
      // The identity, as the generator wrote it per PDU before the bank.
      record.site = table.entityId[3 * i]!;
      record.application = table.entityId[3 * i + 1]!;
      record.entity = table.entityId[3 * i + 2]!;
      for (let k = 0; k < 7; k++) record.entityType[k] = table.entityType[7 * i + k]!;
      for (let k = 0; k < 11; k++) record.markingBytes[k] = table.marking[12 * i + 1 + k]!;
      record.timestampRaw = timestampFromSeconds(t, false);
      encodeEntityStateInto(out.buffer, record, out.claim(ENTITY_STATE_BYTES));
      baselinePdus.pdus++;
    }
  };

  const ours = sink(),
    theirs = sink();
  // A tick of each in turn, each slice's truth written just before its decisions (as the CLI does): the bank's
  // tick, then the baseline's on the same truth (sampled again: the courses give the same doubles at the same t).
  const tick = (t: number, timed: { truth: number; bank: number; baseline: number } | null): void => {
    for (let from = 0; from < n; from += SLICE) {
      const to = Math.min(n, from + SLICE);
      const t0 = cpuSeconds();
      generator.sampleTruth(t, from, to);
      const t1 = cpuSeconds();
      table.tick(t, ours, from, to);
      if (timed) {
        timed.truth += t1 - t0;
        timed.bank += cpuSeconds() - t1;
      }
    }
    for (let from = 0; from < n; from += SLICE) {
      const to = Math.min(n, from + SLICE);
      generator.sampleTruth(t, from, to);
      const t0 = cpuSeconds();
      baselineTick(t, from, to, theirs);
      if (timed) timed.baseline += cpuSeconds() - t0;
    }
  };
  let t = 0;
  for (; t < 6; t += 0.1) tick(t, null);
  const pdusBefore = table.stats.pdus,
    baselineBefore = baselinePdus.pdus;
  const rates = { bank: [] as number[], withTruth: [] as number[], baseline: [] as number[] };
  for (let round = 0; round < 5; round++) {
    const timed = { truth: 0, bank: 0, baseline: 0 };
    for (let k = 0; k < 4; k++) tick((t += 0.1), timed);
    rates.bank.push((4 * n) / timed.bank);
    rates.withTruth.push((4 * n) / (timed.bank + timed.truth));
    rates.baseline.push((4 * n) / timed.baseline);
  }
  const decisions = 20 * n;
  const pdusPerDecision = (table.stats.pdus - pdusBefore) / decisions;
  const baselinePdusPerDecision = (baselinePdus.pdus - baselineBefore) / decisions;
  // Garbage per decision of a slice's decisions and encoding (the truth written once, outside).
  generator.sampleTruth(t + 0.05, 0, SLICE);
  const heap = heapBytesPerOp(() => table.tick(t + 0.05, ours, 0, SLICE), 50) / SLICE;
  const bank = median(rates.bank),
    baseline = median(rates.baseline);
  const name = `publish.entities${n / 1000}k`;
  const results: BenchResult[] = [
    {
      name,
      opsPerSec: round(bank),
      opsPerSecRange: range(rates.bank),
      ratioVsPerObject: round(bank / baseline),
      pdusPerDecision: round(pdusPerDecision),
      heapBytesPerOp: round(heap),
      heapBytesPerEntity: round(heapPerEntity),
    },
    {
      name: `${name}.per-object-emitter`,
      opsPerSec: round(baseline),
      opsPerSecRange: range(rates.baseline),
      pdusPerDecision: round(baselinePdusPerDecision),
      heapBytesPerEntity: round(baselineHeapPerEntity),
    },
    {
      name: `${name}.with-truth`,
      opsPerSec: round(median(rates.withTruth)),
      opsPerSecRange: range(rates.withTruth),
    },
  ];
  if (!quick) results.push(await millionLine());
  return results;
};

export default suite;
