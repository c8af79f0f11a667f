/**
 * Entity key → slot map with open addressing over typed arrays: lookups and inserts allocate nothing (a `Map`
 * keyed by 48-bit numbers boxes keys that do not fit a small integer). The table holds slots only: a slot's key is
 * read from the owner's array of keys by slot, so the map costs 4 bytes per bucket (about 8–11 per entity at half
 * load) where keys and slots side by side cost 12.
 */
export class EntityIndex {
  private readonly slots: Int32Array;
  private readonly mask: number;

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
    this.slots = new Int32Array(size).fill(-1);
    this.mask = size - 1;
  }

  private home(key: number): number {
    // Mix the high (site) and low (application, entity) parts; Math.imul keeps it in int32 arithmetic. `>>> 0`
    // takes the low 32 bits of the integer exactly, where `% 2³²` on a double is a slow floating-point remainder.
    const h = Math.imul((key >>> 0) ^ Math.imul((key / 0x1_0000_0000) >>> 0, 0x9e3779b1), 0x85ebca6b);
    return (h ^ (h >>> 15)) & this.mask;
  }

  /** The slot of a key, or −1. */
  get(key: number): number {
    for (let i = this.home(key); ; i = (i + 1) & this.mask) {
      const slot = this.slots[i]!;
      if (slot < 0 || this.keys[slot] === key) return slot;
    }
  }

  /** Adds a key that is not present, held by `slot` (whose entry in `keys` is the key already). */
  set(key: number, slot: number): void {
    let i = this.home(key);
    while (this.slots[i]! >= 0) i = (i + 1) & this.mask;
    this.slots[i] = slot;
  }

  /** Removes a key (backward-shift deletion keeps probe chains intact without tombstones). */
  delete(key: number): void {
    let i = this.home(key);
    while (this.slots[i]! >= 0 && this.keys[this.slots[i]!] !== key) i = (i + 1) & this.mask;
    if (this.slots[i]! < 0) return;
    let hole = i;
    for (let j = (i + 1) & this.mask; this.slots[j]! >= 0; j = (j + 1) & this.mask) {
      const h = this.home(this.keys[this.slots[j]!]!);
      // Move j into the hole unless its home lies cyclically in (hole, j].
      const between = hole <= j ? h > hole && h <= j : h > hole || h <= j;
      if (!between) {
        this.slots[hole] = this.slots[j]!;
        hole = j;
      }
    }
    this.slots[hole] = -1;
  }
}
