/**
 * The load generator of `reckon publish --entities N` (`LoadGenerator.tick`): per entity and tick, the truth
 * (a shared course moved rigidly), the entity's own emitter decision, and the PDUs it needs encoded into a
 * datagram buffer — everything a tick does but the socket. `publish.entities100k` holds 100 000 entities
 * (10 000 with --quick); figures are entity decisions per second of CPU, with the PDUs written per decision and
 * the heap the generator holds per entity (its emitter, mostly). A tick at 10 Hz for N entities needs
 * N × 10 / opsPerSec of a core.
 */
import { defaultConfig } from '../src/config/schema.js';
import { LoadGenerator, type PduSink } from '../src/stream/load-generator.js';
import { heapBytesPerOp, opsPerSecond, round, type BenchResult, type BenchSuite } from './harness.js';

const suite: BenchSuite = async ({ quick }) => {
  const n = quick ? 10_000 : 100_000;
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const heapBefore = process.memoryUsage().heapUsed;
  const generator = new LoadGenerator(defaultConfig(), { entities: n, rampSeconds: 0 });
  gc?.();
  const heapPerEntity = (process.memoryUsage().heapUsed - heapBefore) / n;
  // A datagram-sized buffer written over and over: the bundler's claim without the socket.
  const buffer = new Uint8Array(1472);
  let used = 0;
  const sink: PduSink = {
    buffer,
    claim(length) {
      if (used + length > buffer.length) used = 0;
      const at = used;
      used += length;
      return at;
    },
  };
  const slice = 1000;
  let t = 0;
  // Six simulated seconds first (the first PDUs, then threshold crossings settle in), then ticks at 10 Hz in
  // slices as the CLI runs them.
  for (; t < 6; t += 0.1) generator.tick(t, sink);
  const batch = (): void => {
    t += slice / n / 10;
    generator.tick(t, sink, slice);
  };
  const decisionsBefore = generator.stats.decisions,
    pdusBefore = generator.stats.pdus;
  const rate = opsPerSecond(batch, slice, quick ? { minMillis: 200, rounds: 3 } : { minMillis: 1000, rounds: 7 });
  const pdusPerDecision = (generator.stats.pdus - pdusBefore) / (generator.stats.decisions - decisionsBefore);
  const heap = heapBytesPerOp(batch, 20) / slice;
  const result: BenchResult = {
    name: `publish.entities${n / 1000}k`,
    opsPerSec: round(rate),
    pdusPerDecision: round(pdusPerDecision),
    heapBytesPerOp: round(heap),
    heapBytesPerEntity: round(heapPerEntity),
  };
  return [result];
};

export default suite;
