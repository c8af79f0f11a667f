/**
 * Which entities' newest PDUs one feed client still has to get, as one mark per slot of the gateway's entity table:
 * all of them after connecting or changing its filter (the snapshot), or those it missed while its socket was full.
 * The marks are walked from a cursor a bounded number of slots at a time, so a snapshot of 100 000 entities goes out
 * over several ticks within the client's buffer bound instead of all at once; their memory is one byte per slot,
 * whatever the client does.
 */
export class SlotMarks {
  /** Marked slots. */
  count = 0;
  private readonly marks: Uint8Array;
  private cursor = 0;

  constructor(readonly capacity: number) {
    this.marks = new Uint8Array(capacity);
  }

  /**
   * Marks exactly the slots below `highWater` whose `occupied` byte is 1 (the store's `active`), and walks from the
   * first: a snapshot. A copy and a count, not a call per slot: a million slots take a millisecond.
   */
  markWhere(occupied: Uint8Array, highWater: number): void {
    const marks = this.marks;
    marks.set(occupied.subarray(0, highWater));
    marks.fill(0, highWater);
    let count = 0;
    for (let slot = 0; slot < highWater; slot++) count += marks[slot]!;
    this.count = count;
    this.cursor = 0;
  }

  /** Unmarks one slot (its newest PDU went out some other way). */
  unmark(slot: number): void {
    if (this.marks[slot] === 0) return;
    this.marks[slot] = 0;
    this.count--;
  }

  /** Marks one slot. @returns false when it was marked already. */
  mark(slot: number): boolean {
    if (this.marks[slot] === 1) return false;
    this.marks[slot] = 1;
    this.count++;
    return true;
  }

  /**
   * Walks at most `maxSlots` slots from the cursor (wrapping around), unmarking each marked one it hands to `visit`;
   * stops early, leaving that slot marked, when `visit` returns false (its budget is spent).
   */
  drain(maxSlots: number, visit: (slot: number) => boolean): void {
    const marks = this.marks;
    let cursor = this.cursor;
    for (let scanned = 0; scanned < maxSlots && this.count > 0; scanned++) {
      if (marks[cursor] === 1) {
        if (!visit(cursor)) break;
        marks[cursor] = 0;
        this.count--;
      }
      cursor = cursor + 1 === this.capacity ? 0 : cursor + 1;
    }
    this.cursor = cursor;
  }
}
