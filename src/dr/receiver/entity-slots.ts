/**
 * Which slots of a table hold which entities: a slot per entity key, taken from the released ones first (else the
 * next above `highWater`), found by key through an `EntityIndex`. Shared by the remote-entity table and the view
 * gateway's store of PDUs; nothing is allocated after construction.
 */
import { EntityIndex } from './entity-index.js';

export class EntitySlots {
  /** Slots in use are all below this; loops over slots run to it. */
  highWater = 0;
  /** Slots in use. */
  size = 0;
  /** 1 per slot in use. */
  readonly active: Uint8Array;
  /** Each slot's entity key (kept after release, until the slot is taken again). */
  readonly key: Float64Array;
  private readonly index: EntityIndex;
  private readonly free: Int32Array;
  private freeCount = 0;

  constructor(readonly capacity: number) {
    this.active = new Uint8Array(capacity);
    this.key = new Float64Array(capacity);
    this.index = new EntityIndex(capacity, this.key);
    this.free = new Int32Array(capacity);
  }

  /** The slot of an entity key, or −1. */
  slotOf(key: number): number {
    return this.index.get(key);
  }

  /** A slot for a key not held. @returns −1 when every slot is in use (or given up and not yet recycled). */
  take(key: number): number {
    if (this.freeCount === 0 && this.highWater === this.capacity) return -1;
    const slot = this.freeCount > 0 ? this.free[--this.freeCount]! : this.highWater++;
    this.key[slot] = key;
    this.index.set(key, slot);
    this.active[slot] = 1;
    this.size++;
    return slot;
  }

  /** Gives a slot in use back (its key stays readable until the slot is taken again). */
  release(slot: number): void {
    this.retire(slot);
    this.recycle(slot);
  }

  /**
   * The first half of `release`: the slot's entity is gone (not found by key, not active), but the slot is not
   * taken again until `recycle`, for an owner whose records still name it.
   */
  retire(slot: number): void {
    this.index.delete(this.key[slot]!);
    this.active[slot] = 0;
    this.size--;
  }

  /** A retired slot may be taken again. */
  recycle(slot: number): void {
    this.free[this.freeCount++] = slot;
  }
}
