/**
 * A 32-bit integer hash (the murmur3 finalizer applied over the words). The simulation draws its randomness from
 * it keyed by seed and frame, so every instance gets bit-identical numbers without sharing generator state.
 */

function mix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Hashes up to three 32-bit integers to an unsigned 32-bit integer. */
export function hash32(a: number, b: number, c = 0): number {
  let h = mix((a ^ 0x9e3779b9) >>> 0);
  h = mix((h ^ Math.imul(b | 0, 0x27d4eb2f)) >>> 0);
  return mix((h ^ Math.imul(c | 0, 0x165667b1)) >>> 0);
}

/** FNV-1a over 32-bit words, continuing from `hash` (start with `FNV_OFFSET`). */
export function fnv1aWord(hash: number, word: number): number {
  for (let shift = 0; shift < 32; shift += 8) hash = Math.imul(hash ^ ((word >>> shift) & 0xff), 0x01000193);
  return hash >>> 0;
}

export const FNV_OFFSET = 0x811c9dc5;
