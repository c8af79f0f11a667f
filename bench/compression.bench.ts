/**
 * Zero-run compression against raw deflate (node:zlib, level 6) on the XOR deltas of the recorded Entity State
 * PDUs (each PDU against the previous one of the same entity), one PDU at a time as a sender would compress
 * each datagram. `bytesIn`/`bytesOut` sum over every ESPDU of both captures; `opsPerSec` counts PDUs.
 */
import { constants, deflateRawSync } from 'node:zlib';
import { xorDelta } from '../src/compression/xor-delta.js';
import { decodeZeroRuns, encodeZeroRuns, zeroRunMaxEncodedBytes } from '../src/compression/zero-run.js';
import { CAPTURES, entityStateDeltas, readEntityStatePdus } from '../test/fixtures/dis/entity-state-pdus.js';
import { consume, opsPerSecond, round, type BenchResult, type BenchSuite } from './harness.js';

const suite: BenchSuite = async ({ quick }): Promise<BenchResult[]> => {
  const deltas = CAPTURES.flatMap((name) => entityStateDeltas(readEntityStatePdus(name), xorDelta));
  const bytesIn = deltas.reduce((sum, d) => sum + d.length, 0);
  const largest = Math.max(...deltas.map((d) => d.length));
  const out = new Uint8Array(zeroRunMaxEncodedBytes(largest * 8));
  const decoded = new Uint8Array(largest + 1);
  const timing = quick ? { minMillis: 50, rounds: 3 } : { minMillis: 100, rounds: 5 };

  const encoded = deltas.map((d) => {
    const bits = encodeZeroRuns(d, out);
    return { bytes: out.slice(0, Math.ceil(bits / 8)), bits };
  });
  const zeroRunBytes = encoded.reduce((sum, e) => sum + e.bytes.length, 0);
  const level = { level: 6, strategy: constants.Z_DEFAULT_STRATEGY };
  const deflateBytes = deltas.reduce((sum, d) => sum + deflateRawSync(d, level).length, 0);

  const batches = {
    encode: () => {
      for (const d of deltas) consume(encodeZeroRuns(d, out));
    },
    decode: () => {
      for (const e of encoded) consume(decodeZeroRuns(e.bytes, decoded, e.bits));
    },
    deflate: () => {
      for (const d of deltas) consume(deflateRawSync(d, level).length);
    },
  };
  // Interleaved passes, best of each, as in codec.bench.ts: the ratio is not skewed by load drifting between them.
  const rate = { encode: 0, decode: 0, deflate: 0 };
  for (let pass = 0; pass < (quick ? 1 : 3); pass++) {
    for (const [name, batch] of Object.entries(batches) as [keyof typeof batches, () => void][]) {
      rate[name] = Math.max(rate[name], opsPerSecond(batch, deltas.length, timing));
    }
  }

  return [
    {
      name: 'compression.zero-run',
      pdus: deltas.length,
      bytesIn,
      bytesOut: zeroRunBytes,
      ratio: round(zeroRunBytes / bytesIn),
      opsPerSec: round(rate.encode),
      decodeOpsPerSec: round(rate.decode),
      speedupVsDeflate: round(rate.encode / rate.deflate),
    },
    {
      name: 'compression.deflate',
      pdus: deltas.length,
      bytesIn,
      bytesOut: deflateBytes,
      ratio: round(deflateBytes / bytesIn),
      opsPerSec: round(rate.deflate),
      level: 6,
    },
  ];
};

export default suite;
