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

/**
 * What encoding four groups (12 input bits) emits, for each number of zero groups carried in (0–6): the bits (at
 * most 18), their count and the zero groups carried out. One lookup per four groups replaces a hard-to-predict
 * branch per group. Built on first use: 7 × 4096 entries, 140 kB.
 */
let chunkBits: Uint32Array | undefined;
let chunkMeta: Uint8Array | undefined; // bit count << 3 | zero groups carried out

function buildChunkTables(): void {
  chunkBits = new Uint32Array(MAX_RUN * 4096);
  chunkMeta = new Uint8Array(MAX_RUN * 4096);
  for (let runIn = 0; runIn < MAX_RUN; runIn++) {
    for (let chunk = 0; chunk < 4096; chunk++) {
      let bits = 0;
      let count = 0;
      let run = runIn;
      for (let shift = 9; shift >= 0; shift -= 3) {
        const group = (chunk >>> shift) & 7;
        if (group === 0) {
          if (++run < MAX_RUN) continue;
          bits = (bits << 6) | MAX_RUN; // 000 111
          count += 6;
          run = 0;
          continue;
        }
        if (run > 0) {
          bits = (bits << 6) | run; // 000, then the run length
          count += 6;
          run = 0;
        }
        bits = (bits << 3) | group;
        count += 3;
      }
      chunkBits[runIn * 4096 + chunk] = bits;
      chunkMeta[runIn * 4096 + chunk] = (count << 3) | run;
    }
  }
}

/**
 * Encodes the first `bitLength` bits of `input` into `out`.
 * @param input - the bit string, most significant bit of byte 0 first.
 * @param bitLength - bits to encode. Defaults to all of `input`.
 * @param out - receives the encoded bits; `zeroRunMaxEncodedBytes(bitLength)` bytes always suffice.
 * @returns the encoded length in bits, or `ZeroRunStatus.OVERFLOW` when `out` is too small.
 */
export function encodeZeroRuns(input: Uint8Array, out: Uint8Array, bitLength: number = input.length * 8): number {
  if (chunkBits === undefined) buildChunkTables();
  const tableBits = chunkBits!;
  const tableMeta = chunkMeta!;
  const endBit = Math.min(Math.max(0, Math.floor(bitLength)), input.length * 8);
  const capacity = out.length;
  // The bit sink lives in locals (not module or object state) so that TurboFan keeps it in registers.
  let acc = 0; // the last `pending` bits, not yet written
  let pending = 0;
  let written = 0; // bytes emitted, counting those that did not fit
  let run = 0; // zero groups seen and not yet emitted
  // Whole 3-byte words first: two chunks of four groups each, all bits inside the length.
  const wordEnd = Math.floor(endBit / 24) * 3;
  for (let i = 0; i < wordEnd; i += 3) {
    const word = (input[i]! << 16) | (input[i + 1]! << 8) | input[i + 2]!;
    for (let half = 0; half < 2; half++) {
      const entry = run * 4096 + (half === 0 ? word >>> 12 : word & 0xfff);
      const meta = tableMeta[entry]!;
      const count = meta >>> 3;
      run = meta & 7;
      acc = (acc << count) | tableBits[entry]!; // at most 7 + 18 bits
      pending += count;
      while (pending >= 8) {
        pending -= 8;
        if (written < capacity) out[written] = acc >>> pending;
        written++;
      }
      acc &= (1 << pending) - 1;
    }
    if (written > capacity) return ZeroRunStatus.OVERFLOW;
  }
  // The last groups (fewer than eight) one at a time; a partial last group is padded with zero bits.
  for (let bit = wordEnd * 8; bit < endBit; bit += 3) {
    const i = bit >>> 3;
    let group = (((input[i]! << 8) | (i + 1 < input.length ? input[i + 1]! : 0)) >>> (13 - (bit & 7))) & 7;
    const past = bit + 3 - endBit;
    // Mask bits past the declared length: they may hold anything in the caller's buffer.
    if (past > 0) group &= (7 << past) & 7;
    if (group === 0) {
      if (++run < MAX_RUN) continue;
      acc = (acc << 6) | MAX_RUN;
      pending += 6;
      run = 0;
    } else {
      acc = run > 0 ? (acc << 9) | (run << 3) | group : (acc << 3) | group;
      pending += run > 0 ? 9 : 3;
      run = 0;
    }
    while (pending >= 8) {
      pending -= 8;
      if (written < capacity) out[written] = acc >>> pending;
      written++;
    }
    acc &= (1 << pending) - 1;
  }
  if (run > 0) {
    acc = (acc << 6) | run;
    pending += 6;
  }
  return finish(out, acc, pending, written);
}

/** Writes the pending bits (fewer than 14) zero-padded to whole bytes; the bit count, or OVERFLOW. */
function finish(out: Uint8Array, acc: number, pending: number, written: number): number {
  const total = written * 8 + pending;
  if (pending >= 8) {
    pending -= 8;
    if (written < out.length) out[written] = acc >>> pending;
    written++;
    acc &= (1 << pending) - 1;
  }
  if (pending > 0) {
    if (written < out.length) out[written] = acc << (8 - pending);
    written++;
  }
  return written > out.length ? ZeroRunStatus.OVERFLOW : total;
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
  const capacity = out.length;
  let inAcc = 0; // input bits not yet consumed: the low `inBits` bits
  let inBits = 0;
  let inByte = 0;
  let acc = 0;
  let pending = 0;
  let written = 0;
  for (let bit = 0; bit < endBit; bit += 3) {
    if (inBits < 3) {
      inAcc = ((inAcc & 3) << 8) | encoded[inByte++]!;
      inBits += 8;
    }
    inBits -= 3;
    const group = (inAcc >>> inBits) & 7;
    if (group !== 0) {
      acc = (acc << 3) | group;
      pending += 3;
    } else {
      bit += 3;
      if (bit >= endBit) return ZeroRunStatus.TRUNCATED;
      if (inBits < 3) {
        inAcc = ((inAcc & 3) << 8) | encoded[inByte++]!;
        inBits += 8;
      }
      inBits -= 3;
      const run = (inAcc >>> inBits) & 7;
      if (run === 0) return ZeroRunStatus.BAD_RUN;
      acc <<= run * 3; // at most 21 zero bits + 7 pending: the accumulator stays within 32 bits
      pending += run * 3;
    }
    while (pending >= 8) {
      pending -= 8;
      if (written >= capacity) return ZeroRunStatus.OVERFLOW;
      out[written++] = acc >>> pending;
      acc &= (1 << pending) - 1;
    }
  }
  return finish(out, acc, pending, written);
}
