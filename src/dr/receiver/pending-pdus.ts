/**
 * The last PDU of each remote entity not yet loaded into its model: `RemoteEntityTable.apply` only copies a PDU
 * here and lists its slot, and the model reset runs once per listed slot when model state is next read, since an
 * entity may send many PDUs between two frames and only the last is displayed. The PDUs wait in a pool of entries
 * of its own, bounded (`limit`), not in an entry per slot: a table of a million entities holds 2 bytes per slot
 * here, not 136. When the pool is full the table loads what waits (`isFull`) before listing another slot.
 */
import type { EntityStateRecord } from '../../pdu/wire/entity-state-record.js';
import type { DrStore } from '../models/store.js';

/** An entry's pending PDU: a PDU to load, a new entity's PDU (snaps), or its slot released while listed. */
export const PENDING_UPDATE = 1;
export const PENDING_NEW = 2;
export const PENDING_DROPPED = 3;
/** Doubles per entry in `values`, and where the reference time sits among them. */
export const PENDING_STRIDE = 16;
export const PENDING_REFERENCE = 15;

/** Most entries a pool grows to: 16 384 PDUs of 136 bytes, 2.2 MB, whatever the table's capacity. */
const MAX_ENTRIES = 16_384;
/** `entryOf` of a slot without an entry (entries fit in 16 bits). */
const NONE = 0xffff;

/** The pending PDUs of a table's slots: entry k belongs to `slots[k]`, for k < `count`. */
export class PendingPdus {
  /**
   * PENDING_STRIDE per entry: location, velocity, ψθφ, acceleration, rates, and the time the model will be valid
   * at. Interleaved, so that `apply` writes two cache lines rather than six. Replaced as the pool grows.
   */
  values: Float64Array;
  /** Per entry: the DR algorithm, and PENDING_* (UPDATE, NEW, DROPPED). */
  algorithm: Uint8Array;
  state: Uint8Array;
  /** Per entry: its slot. */
  slots: Int32Array;
  count = 0;
  /** Most entries at once. */
  readonly limit: number;
  /** Per slot: its entry, or NONE. */
  private readonly entryOf: Uint16Array;

  constructor(capacity: number) {
    this.limit = Math.max(1, Math.min(capacity, MAX_ENTRIES));
    this.entryOf = new Uint16Array(capacity).fill(NONE);
    const size = Math.min(this.limit, 64);
    this.values = new Float64Array(PENDING_STRIDE * size);
    this.algorithm = new Uint8Array(size);
    this.state = new Uint8Array(size);
    this.slots = new Int32Array(size);
  }

  /** The slot's entry, or −1 when no PDU of its waits. */
  entry(slot: number): number {
    const k = this.entryOf[slot]!;
    return k === NONE ? -1 : k;
  }

  /** Whether a slot without an entry can be listed only after the pool is emptied (loaded). */
  get isFull(): boolean {
    return this.count === this.limit;
  }

  /**
   * Lists the slot (once; the caller has checked `isFull` for one not listed) for a PDU valid at
   * `referenceSeconds`, with its location, velocity and ψθφ. @returns the slot's offset in `values`.
   */
  mark(slot: number, appeared: boolean, referenceSeconds: number, record: EntityStateRecord): number {
    let k = this.entryOf[slot]!,
      state = 0;
    if (k === NONE) k = this.list(slot);
    else state = this.state[k]!;
    // A new entity snaps to its first state, however many PDUs follow before the next frame.
    this.state[k] = appeared || state === PENDING_NEW || state === PENDING_DROPPED ? PENDING_NEW : PENDING_UPDATE;
    const values = this.values,
      o = PENDING_STRIDE * k;
    values[o + PENDING_REFERENCE] = referenceSeconds;
    const location = record.location,
      velocity = record.linearVelocity,
      orientation = record.orientation;
    values[o] = location[0]!;
    values[o + 1] = location[1]!;
    values[o + 2] = location[2]!;
    values[o + 3] = velocity[0]!;
    values[o + 4] = velocity[1]!;
    values[o + 5] = velocity[2]!;
    values[o + 6] = orientation[0]!;
    values[o + 7] = orientation[1]!;
    values[o + 8] = orientation[2]!;
    return o;
  }

  /** The DR parameters of a full PDU: algorithm, acceleration and rates (the slot is listed). */
  writeParameters(slot: number, record: EntityStateRecord): void {
    const k = this.entryOf[slot]!,
      values = this.values,
      o = PENDING_STRIDE * k;
    this.algorithm[k] = record.drAlgorithm;
    const acceleration = record.linearAcceleration,
      rates = record.angularVelocity;
    values[o + 9] = acceleration[0]!;
    values[o + 10] = acceleration[1]!;
    values[o + 11] = acceleration[2]!;
    values[o + 12] = rates[0]!;
    values[o + 13] = rates[1]!;
    values[o + 14] = rates[2]!;
  }

  /** An update carries no DR parameters: those of the slot's model (its last full PDU) are kept. */
  keepParameters(slot: number, store: DrStore): void {
    const k = this.entryOf[slot]!,
      values = this.values,
      o = PENDING_STRIDE * k,
      s3 = 3 * slot;
    this.algorithm[k] = store.algorithm[slot]!;
    for (let c = 0; c < 3; c++) {
      values[o + 9 + c] = store.acceleration[s3 + c]!;
      values[o + 12 + c] = store.angularVelocity[s3 + c]!;
    }
  }

  /**
   * The location (out[o…o+2]), ψθφ (out[o+3…o+5], rounded to float32 as the table's models hold them) and reference
   * time (out[o+6]) of the slot's pending PDU.
   * @returns false when the slot has none.
   */
  receivedInto(slot: number, out: Float64Array, o: number): boolean {
    const k = this.entryOf[slot]!;
    if (k === NONE) return false;
    const values = this.values,
      p = PENDING_STRIDE * k;
    for (let c = 0; c < 3; c++) {
      out[o + c] = values[p + c]!;
      out[o + 3 + c] = Math.fround(values[p + 6 + c]!);
    }
    out[o + 6] = values[p + PENDING_REFERENCE]!;
    return true;
  }

  /** The slot was released: its entry is skipped when loaded, or taken over by the slot's next entity. */
  drop(slot: number): void {
    const k = this.entryOf[slot]!;
    if (k !== NONE) this.state[k] = PENDING_DROPPED;
  }

  /** Empties the pool once every entry is loaded. */
  clear(): void {
    for (let k = 0; k < this.count; k++) this.entryOf[this.slots[k]!] = NONE;
    this.count = 0;
  }

  /** A new entry for the slot (apart from `mark`, which then fits where V8 inlines it). */
  private list(slot: number): number {
    if (this.count === this.slots.length) this.grow();
    const k = this.count++;
    this.entryOf[slot] = k;
    this.slots[k] = slot;
    return k;
  }

  private grow(): void {
    const size = Math.min(this.limit, 2 * this.slots.length);
    const values = new Float64Array(PENDING_STRIDE * size);
    values.set(this.values);
    this.values = values;
    const algorithm = new Uint8Array(size);
    algorithm.set(this.algorithm);
    this.algorithm = algorithm;
    const state = new Uint8Array(size);
    state.set(this.state);
    this.state = state;
    const slots = new Int32Array(size);
    slots.set(this.slots);
    this.slots = slots;
  }
}
