/**
 * Zero-run compression of bit strings in 3-bit groups. A group with any bit set is copied; a run of k all-zero
 * groups (1 ≤ k ≤ 7) becomes `000` followed by k in 3 bits. It suits XOR deltas of fixed-layout records such as
 * Entity State PDUs, where most of a record is unchanged and the changes are sparse.
 *
 * Bits are numbered most significant first within each byte. A trailing partial group (bit length not a multiple
 * of 3) is padded with zero bits to a whole group before encoding, so decoding yields `ceil(bitLength / 3) · 3`
 * bits: the original bits followed by up to two zero bits. The caller keeps the original bit length if it needs
 * it; whole-byte inputs that are a multiple of 3 bytes (an ESPDU is 144) round-trip exactly.
 *
 * Functions return a bit count (≥ 0) or a negative status, and never throw on any input.
 */

/** Status codes (negative return values). */
export const ZeroRunStatus = {
  /** The output buffer is too small. */
  OVERFLOW: -1,
  /** The encoded stream ends inside a group or right after a run marker. */
  TRUNCATED: -2,
  /** A run marker with a count of 0, which the encoder never writes. */
  BAD_RUN: -3,
} as const;
export type ZeroRunStatus = (typeof ZeroRunStatus)[keyof typeof ZeroRunStatus];

const MAX_RUN = 7;

/** Bytes that always suffice for encoding `bitLength` bits: each group costs at most 6 bits (a lone zero group). */
export function zeroRunMaxEncodedBytes(bitLength: number): number {
  return Math.ceil((Math.ceil(bitLength / 3) * 6) / 8);
}

/** Reads the 3-bit group starting at `bit`, with bits at or past `endBit` read as zero. */
function readGroup(bytes: Uint8Array, bit: number, endBit: number): number {
  const i = bit >>> 3;
  const hi = bytes[i]!;
  const lo = i + 1 < bytes.length ? bytes[i + 1]! : 0;
  let group = (((hi << 8) | lo) >>> (13 - (bit & 7))) & 7;
  const past = bit + 3 - endBit;
  // Mask bits past the declared length: they may hold anything in the caller's buffer.
  if (past > 0) group &= (7 << past) & 7;
  return group;
}

/**
 * A tiny MSB-first bit sink over `out`. Module-level scratch keeps the encoder and decoder allocation-free;
 * neither is re-entrant, which is fine because neither calls out.
 */
const EMPTY = new Uint8Array(0);
let sinkOut: Uint8Array = EMPTY;
let sinkAcc = 0;
let sinkBits = 0;
let sinkByte = 0;
let sinkFull = false;

function sinkStart(out: Uint8Array): void {
  sinkOut = out;
  sinkAcc = 0;
  sinkBits = 0;
  sinkByte = 0;
  sinkFull = false;
}

function sinkWrite(value: number, count: number): void {
  sinkAcc = (sinkAcc << count) | value;
  sinkBits += count;
  while (sinkBits >= 8) {
    sinkBits -= 8;
    if (sinkByte >= sinkOut.length) sinkFull = true;
    else sinkOut[sinkByte++] = sinkAcc >>> sinkBits;
    sinkAcc &= (1 << sinkBits) - 1;
  }
}

/** Flushes the partial last byte (zero-padded) and returns the bits written, or OVERFLOW. */
function sinkFinish(): number {
  const total = sinkByte * 8 + sinkBits;
  if (sinkBits > 0) {
    if (sinkByte >= sinkOut.length) sinkFull = true;
    else sinkOut[sinkByte] = sinkAcc << (8 - sinkBits);
  }
  sinkOut = EMPTY; // drop the reference to the caller's buffer
  return sinkFull ? ZeroRunStatus.OVERFLOW : total;
}

/**
 * Encodes the first `bitLength` bits of `input` into `out`.
 * @param input - the bit string, most significant bit of byte 0 first.
 * @param bitLength - bits to encode. Defaults to all of `input`.
 * @param out - receives the encoded bits; `zeroRunMaxEncodedBytes(bitLength)` bytes always suffice.
 * @returns the encoded length in bits, or `ZeroRunStatus.OVERFLOW` when `out` is too small.
 */
export function encodeZeroRuns(input: Uint8Array, out: Uint8Array, bitLength: number = input.length * 8): number {
  const endBit = Math.min(Math.max(0, Math.floor(bitLength)), input.length * 8);
  sinkStart(out);
  let run = 0;
  for (let bit = 0; bit < endBit; bit += 3) {
    const group = readGroup(input, bit, endBit);
    if (group === 0) {
      if (++run === MAX_RUN) {
        sinkWrite(MAX_RUN, 6); // 000 111
        run = 0;
      }
      continue;
    }
    if (run > 0) {
      sinkWrite(run, 6);
      run = 0;
    }
    sinkWrite(group, 3);
    if (sinkFull) break;
  }
  if (run > 0) sinkWrite(run, 6);
  return sinkFinish();
}

/**
 * Decodes `bitLength` encoded bits of `encoded` into `out`.
 * @param encoded - output of `encodeZeroRuns`.
 * @param bitLength - encoded length in bits (what `encodeZeroRuns` returned).
 * @param out - receives the decoded bits.
 * @returns the decoded length in bits (a multiple of 3), or `TRUNCATED`, `BAD_RUN` or `OVERFLOW`.
 */
export function decodeZeroRuns(encoded: Uint8Array, out: Uint8Array, bitLength: number = encoded.length * 8): number {
  const endBit = Math.min(Math.max(0, Math.floor(bitLength)), encoded.length * 8);
  if (endBit % 3 !== 0) return ZeroRunStatus.TRUNCATED;
  sinkStart(out);
  let bit = 0;
  while (bit < endBit) {
    const group = readGroup(encoded, bit, endBit);
    bit += 3;
    if (group !== 0) {
      sinkWrite(group, 3);
    } else {
      if (bit >= endBit) return finishWith(ZeroRunStatus.TRUNCATED);
      const run = readGroup(encoded, bit, endBit);
      bit += 3;
      if (run === 0) return finishWith(ZeroRunStatus.BAD_RUN);
      sinkWrite(0, run * 3); // at most 21 bits + 7 pending: the accumulator stays within 32 bits
    }
    if (sinkFull) return finishWith(ZeroRunStatus.OVERFLOW);
  }
  return sinkFinish();
}

function finishWith(status: ZeroRunStatus): number {
  sinkFinish();
  return status;
}
