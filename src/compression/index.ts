/** `reckon/compression`: zero-run coding of XOR deltas over bit-granular I/O. */
export { encodeZeroRuns, decodeZeroRuns, zeroRunMaxEncodedBytes, ZeroRunStatus } from './zero-run.js';
export { xorDelta } from './xor-delta.js';
export { BitReader, BitWriter } from './bit-io.js';
