/**
 * A fixed open-addressing hash from a pair of 32-bit keys to a non-negative int: the lookup the names make per
 * value (an entity type is two 32-bit words; an enumeration value is its enumeration's number and the value).
 * Built once, read many times; a slot's two keys and value sit side by side, so a lookup is one multiply-xor hash
 * and, at the load kept here (≤ 1/2), one or two probes in one cache line. Nothing is allocated by `get`.
 */
export class PairIndex {
  /** Per slot: high key, low key, value + 1 (0: the slot is empty), and one word of padding. */
  private readonly slots: Int32Array;
  private readonly mask: number;

  /** @param capacity - most pairs that will be added. */
  constructor(capacity: number) {
    let size = 16;
    while (size < capacity * 2) size *= 2;
    this.slots = new Int32Array(size * 4);
    this.mask = size - 1;
  }

  /** Adds or replaces the value of (high, low). */
  set(high: number, low: number, value: number): void {
    const slots = this.slots;
    let at = this.slotOf(high | 0, low | 0) << 2;
    while (slots[at + 2] !== 0 && (slots[at] !== (high | 0) || slots[at + 1] !== (low | 0))) {
      at = (at + 4) & (this.mask << 2);
    }
    slots[at] = high;
    slots[at + 1] = low;
    slots[at + 2] = value + 1;
  }

  /** The value of (high, low), or -1 when absent. */
  get(high: number, low: number): number {
    const slots = this.slots;
    const h = high | 0;
    const l = low | 0;
    let at = this.slotOf(h, l) << 2;
    for (;;) {
      const v = slots[at + 2]!;
      if (v === 0) return -1;
      if (slots[at] === h && slots[at + 1] === l) return v - 1;
      at = (at + 4) & (this.mask << 2);
    }
  }

  private slotOf(high: number, low: number): number {
    const h = Math.imul(high ^ Math.imul(low ^ (low >>> 16), 0x45d9f3b), 0x9e3779b1);
    return (h ^ (h >>> 15)) & this.mask;
  }
}
