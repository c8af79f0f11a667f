/**
 * A set of table slots kept as a dense list, so that a pass over its members reads no other slot. Leaving costs a
 * mark, not a search: the list is compacted before the next pass (`compact`), so that a slot costs one byte of
 * state plus four in the list while it is a member, where an index of each member's place costs four for every
 * slot.
 */
const OUT = 0,
  MEMBER = 1,
  /** In the list, not a member any more: dropped by the next `compact`. */
  LEAVING = 2;

export class SlotList {
  /** The members, in `slots[0 … count)` after `compact`. */
  readonly slots: Int32Array;
  count = 0;
  private readonly state: Uint8Array;
  private leaving = 0;

  constructor(capacity: number) {
    this.slots = new Int32Array(capacity);
    this.state = new Uint8Array(capacity);
  }

  add(slot: number): void {
    const state = this.state[slot];
    if (state === MEMBER) return;
    this.state[slot] = MEMBER;
    if (state === LEAVING) this.leaving--;
    else this.slots[this.count++] = slot;
  }

  delete(slot: number): void {
    if (this.state[slot] !== MEMBER) return;
    this.state[slot] = LEAVING;
    this.leaving++;
  }

  has(slot: number): boolean {
    return this.state[slot] === MEMBER;
  }

  /** Drops the slots that left from the list (their order is kept). @returns the members. */
  compact(): number {
    if (this.leaving === 0) return this.count;
    const slots = this.slots,
      state = this.state;
    let kept = 0;
    for (let k = 0; k < this.count; k++) {
      const slot = slots[k]!;
      if (state[slot] === MEMBER) slots[kept++] = slot;
      else state[slot] = OUT;
    }
    this.count = kept;
    this.leaving = 0;
    return kept;
  }
}
