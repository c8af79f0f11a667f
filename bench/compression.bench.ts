/**
 * Zero-run compression against raw deflate (node:zlib, level 6) on the XOR deltas of the recorded Entity State
 * PDUs (each PDU against the previous one of the same entity), one PDU at a time as a sender would compress
 * each datagram. `bytesIn`/`bytesOut` sum over every ESPDU of both captures; `opsPerSec` counts PDUs.
 */
import { deflateRawSync, constants } from 'node:zlib';
import { xorDelta } from '../src/compression/xor-delta.js';
import { encodeZeroRuns, zeroRunMaxEncodedBytes } from '../src/compression/zero-run.js';
import { CAPTURES, entityStateDeltas, readEntityStatePdus } from '../test/compression/capture.js';
import { consume, opsPerSecond, round, type BenchResult, type BenchSuite } from './harness.js';

const suite: BenchSuite = async ({ quick }): Promise<BenchResult[]> => {
  const deltas = CAPTURES.flatMap((name) => entityStateDeltas(readEntityStatePdus(name), xorDelta));
  const bytesIn = deltas.reduce((sum, d) => sum + d.length, 0);
  const out = new Uint8Array(zeroRunMaxEncodedBytes(Math.max(...deltas.map((d) => d.length)) * 8));
  const timing = quick ? { minMillis: 50, rounds: 3 } : {};

  let zeroRunBytes = 0;
  for (const d of deltas) zeroRunBytes += Math.ceil(encodeZeroRuns(d, out) / 8);
  const zeroRunOps = opsPerSecond(() => {
    for (const d of deltas) consume(encodeZeroRuns(d, out));
  }, deltas.length, timing);

  const level = { level: 6, strategy: constants.Z_DEFAULT_STRATEGY };
  let deflateBytes = 0;
  for (const d of deltas) deflateBytes += deflateRawSync(d, level).length;
  const deflateOps = opsPerSecond(() => {
    for (const d of deltas) consume(deflateRawSync(d, level).length);
  }, deltas.length, timing);

  return [
    { name: 'compression.zero-run', pdus: deltas.length, bytesIn, bytesOut: zeroRunBytes, ratio: round(zeroRunBytes / bytesIn), opsPerSec: round(zeroRunOps), speedupVsDeflate: round(zeroRunOps / deflateOps) },
    { name: 'compression.deflate', pdus: deltas.length, bytesIn, bytesOut: deflateBytes, ratio: round(deflateBytes / bytesIn), opsPerSec: round(deflateOps), level: 6 },
  ];
};

export default suite;
