/**
 * XOR delta of two fixed-layout records: unchanged bytes become zero, which zero-run compression then removes.
 * XOR is its own inverse, so the same function restores a record from its delta and the previous record.
 */

/**
 * Writes `current XOR previous` into `out`; bytes of `current` past the end of `previous` are copied unchanged.
 * @param out - receives `current.length` bytes (may be `current` itself).
 * @param current - this record.
 * @param previous - the previous record of the same entity, or an empty array for the first one.
 * @returns `out`.
 */
export function xorDelta(out: Uint8Array, current: Uint8Array, previous: Uint8Array): Uint8Array {
  const n = current.length;
  const shared = Math.min(n, previous.length);
  for (let i = 0; i < shared; i++) out[i] = current[i]! ^ previous[i]!;
  for (let i = shared; i < n; i++) out[i] = current[i]!;
  return out;
}
