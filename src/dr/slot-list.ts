/** A set of table slots kept as a dense list, so that a pass over its members reads no other slot. */
export class SlotList {
  /** The members, in `slots[0 … count)`. */
  readonly slots: Int32Array;
  count = 0;
  /** Each slot's place in `slots` (−1: not a member). */
  private readonly at: Int32Array;

  constructor(capacity: number) {
    this.slots = new Int32Array(capacity);
    this.at = new Int32Array(capacity).fill(-1);
  }

  add(slot: number): void {
    if (this.at[slot]! >= 0) return;
    this.at[slot] = this.count;
    this.slots[this.count++] = slot;
  }

  delete(slot: number): void {
    const at = this.at[slot]!;
    if (at < 0) return;
    const last = this.slots[--this.count]!;
    this.slots[at] = last;
    this.at[last] = at;
    this.at[slot] = -1;
  }
}
