/**
 * Entity key → slot map with open addressing over typed arrays: lookups and inserts allocate nothing (a `Map`
 * keyed by 48-bit numbers boxes keys that do not fit a small integer). A bucket holds the slot, and in the bits the
 * slot leaves free a tag of the key's hash; the key itself is read from the owner's array of keys by slot only when
 * the tag matches. So the map costs 4 bytes per bucket (about 8–11 per entity at half load), where keys and slots
 * side by side cost 12, and a probe past another key seldom reads that key (a cache miss in a table of a million).
 */
export class EntityIndex {
  /** 0: empty; else (tag << slotBits) | (slot + 1). */
  private readonly buckets: Int32Array;
  private readonly mask: number;
  private readonly slotBits: number;
  private readonly slotMask: number;

  /**
   * @param capacity - most keys held at once; the table is sized to at most half full.
   * @param keys - each slot's key (the owner writes a slot's key before `set` and keeps it until `delete`).
   */
  constructor(
    capacity: number,
    private readonly keys: Float64Array,
  ) {
    let size = 16;
    while (size < 2 * capacity) size *= 2;
    this.buckets = new Int32Array(size);
    this.mask = size - 1;
    let bits = 1;
    while (2 ** bits <= capacity) bits++;
    this.slotBits = bits;
    this.slotMask = 2 ** bits - 1;
  }

  /** The hash of a key: the bucket it starts from is its low bits, its tag the bits above. */
  private hash(key: number): number {
    // Mix the high (site) and low (application, entity) parts; Math.imul keeps it in int32 arithmetic. `>>> 0`
    // takes the low 32 bits of the integer exactly, where `% 2³²` on a double is a slow floating-point remainder.
    const h = Math.imul((key >>> 0) ^ Math.imul((key / 0x1_0000_0000) >>> 0, 0x9e3779b1), 0x85ebca6b);
    return h ^ (h >>> 15);
  }

  /**
   * The tag of a hash: the top bits of its product with another odd constant (independent of the low bits that
   * choose the bucket), as many as 31 bits leave above the slot (none for a table of over 2³⁰ slots).
   */
  private tag(hash: number): number {
    return (Math.imul(hash, 0x9e3779b1) >>> 1) >>> this.slotBits;
  }

  /** The slot of a key, or −1. */
  get(key: number): number {
    const h = this.hash(key),
      tag = this.tag(h),
      bits = this.slotBits;
    for (let i = h & this.mask; ; i = (i + 1) & this.mask) {
      const bucket = this.buckets[i]!;
      if (bucket === 0) return -1;
      if (bucket >>> bits === tag) {
        const slot = (bucket & this.slotMask) - 1;
        if (this.keys[slot] === key) return slot;
      }
    }
  }

  /** Adds a key that is not present, held by `slot` (whose entry in `keys` is the key already). */
  set(key: number, slot: number): void {
    const h = this.hash(key);
    let i = h & this.mask;
    while (this.buckets[i] !== 0) i = (i + 1) & this.mask;
    this.buckets[i] = (this.tag(h) << this.slotBits) | (slot + 1);
  }

  /** Removes a key (backward-shift deletion keeps probe chains intact without tombstones). */
  delete(key: number): void {
    const h = this.hash(key),
      tag = this.tag(h),
      bits = this.slotBits,
      buckets = this.buckets;
    let i = h & this.mask;
    for (; buckets[i] !== 0; i = (i + 1) & this.mask) {
      const bucket = buckets[i]!;
      if (bucket >>> bits === tag && this.keys[(bucket & this.slotMask) - 1] === key) break;
    }
    if (buckets[i] === 0) return;
    let hole = i;
    for (let j = (i + 1) & this.mask; buckets[j] !== 0; j = (j + 1) & this.mask) {
      const home = this.hash(this.keys[(buckets[j]! & this.slotMask) - 1]!) & this.mask;
      // Move j into the hole unless its home lies cyclically in (hole, j].
      const between = hole <= j ? home > hole && home <= j : home > hole || home <= j;
      if (!between) {
        buckets[hole] = buckets[j]!;
        hole = j;
      }
    }
    buckets[hole] = 0;
  }
}
