/** The gateway's entities: each one's newest PDUs and what its filters read, held by key within a bound. */
import { EntityIndex } from '../dr/entity-index.js';

/** One entity's newest PDUs, for snapshots and for clients that fell behind. */
export class EntityEntry {
  exercise = 0;
  force = 0;
  kind = 0;
  domain = 0;
  /** Location of the newest PDU, ECEF metres; geodetic degrees are derived on demand (see `entryMatches`). */
  x = 0;
  y = 0;
  z = 0;
  latDeg = 0;
  lonDeg = 0;
  geodeticValid = false;
  /** Newest full Entity State PDU. */
  full = new Uint8Array(160);
  fullLength = 0;
  fullTimeMs = 0;
  /** Newest Entity State Update PDU received after `full`, else length 0. */
  partial = new Uint8Array(80);
  partialLength = 0;
  partialTimeMs = 0;
  lastSeenMs = 0;
  timeoutMs = 0;
  /** Dropped for silence: nothing more is sent for it (the page times it out itself). */
  timedOut = false;
  /** Its place in `EntityEntries`, or −1 once removed. */
  slot = -1;
  constructor(readonly key: number) {}
}

/**
 * The gateway's entities by key, bounded: an `EntityIndex` (open addressing over typed arrays) maps the 48-bit key
 * to a slot without boxing it, where a `Map` lookup would allocate a heap number per PDU.
 */
export class EntityEntries {
  size = 0;
  private readonly index: EntityIndex;
  private readonly bySlot: Array<EntityEntry | undefined>;
  private readonly free: Int32Array;
  private freeCount: number;

  private readonly keys: Float64Array;

  constructor(readonly capacity: number) {
    this.keys = new Float64Array(capacity);
    this.index = new EntityIndex(capacity, this.keys);
    this.bySlot = new Array<EntityEntry | undefined>(capacity).fill(undefined);
    this.free = new Int32Array(capacity);
    for (let i = 0; i < capacity; i++) this.free[i] = capacity - 1 - i;
    this.freeCount = capacity;
  }

  /** The entry in a slot, if any. */
  at(slot: number): EntityEntry | undefined {
    return this.bySlot[slot];
  }

  get(key: number): EntityEntry | undefined {
    const slot = this.index.get(key);
    return slot < 0 ? undefined : this.bySlot[slot];
  }

  /** Adds an entry whose key is not present. @returns false when full. */
  add(entry: EntityEntry): boolean {
    if (this.freeCount === 0) return false;
    const slot = this.free[--this.freeCount]!;
    entry.slot = slot;
    this.bySlot[slot] = entry;
    this.keys[slot] = entry.key;
    this.index.set(entry.key, slot);
    this.size++;
    return true;
  }

  delete(entry: EntityEntry): void {
    if (entry.slot < 0) return;
    this.index.delete(entry.key);
    this.bySlot[entry.slot] = undefined;
    this.free[this.freeCount++] = entry.slot;
    entry.slot = -1;
    this.size--;
  }

  *values(): IterableIterator<EntityEntry> {
    for (const entry of this.bySlot) if (entry !== undefined) yield entry;
  }
}
