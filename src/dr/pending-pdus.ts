/**
 * The last PDU of each remote entity not yet loaded into its model: `RemoteEntityTable.apply` only copies a PDU
 * here and lists its slot, and the model reset runs once per listed slot when model state is next read, since an
 * entity may send many PDUs between two frames and only the last is displayed.
 */
import type { EntityStateRecord } from '../pdu/entity-state-record.js';
import type { DrStore } from './store.js';

/** A slot's pending PDU: none (not listed), a PDU to load, a new entity's PDU (snaps), released while listed. */
export const PENDING_NONE = 0;
export const PENDING_UPDATE = 1;
export const PENDING_NEW = 2;
export const PENDING_DROPPED = 3;
/** Doubles per slot in `values`, and where the reference time sits among them. */
export const PENDING_STRIDE = 16;
export const PENDING_REFERENCE = 15;

/** The pending PDUs of a table's slots, and the list of slots that have one. */
export class PendingPdus {
  /**
   * PENDING_STRIDE per slot: location, velocity, ψθφ, acceleration, rates, and the time the model will be valid at.
   * Interleaved, so that `apply` writes two cache lines rather than six.
   */
  readonly values: Float64Array;
  readonly algorithm: Uint8Array;
  /** PENDING_* per slot. */
  readonly state: Uint8Array;
  /** The listed slots, densely. */
  readonly slots: Int32Array;
  count = 0;

  constructor(capacity: number) {
    this.values = new Float64Array(PENDING_STRIDE * capacity);
    this.algorithm = new Uint8Array(capacity);
    this.state = new Uint8Array(capacity);
    this.slots = new Int32Array(capacity);
  }

  /**
   * Lists the slot (once) for a PDU valid at `referenceSeconds`, with its location, velocity and ψθφ.
   * @returns the slot's offset in `values`.
   */
  mark(slot: number, appeared: boolean, referenceSeconds: number, record: EntityStateRecord): number {
    const values = this.values,
      o = PENDING_STRIDE * slot;
    values[o + PENDING_REFERENCE] = referenceSeconds;
    const state = this.state[slot];
    if (state === PENDING_NONE) this.slots[this.count++] = slot;
    // A new entity snaps to its first state, however many PDUs follow before the next frame.
    this.state[slot] = appeared || state === PENDING_NEW || state === PENDING_DROPPED ? PENDING_NEW : PENDING_UPDATE;
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

  /** The DR parameters of a full PDU: algorithm, acceleration and rates. */
  writeParameters(slot: number, record: EntityStateRecord): void {
    const values = this.values,
      o = PENDING_STRIDE * slot;
    this.algorithm[slot] = record.drAlgorithm;
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
    const values = this.values,
      o = PENDING_STRIDE * slot,
      s3 = 3 * slot;
    this.algorithm[slot] = store.algorithm[slot]!;
    for (let k = 0; k < 3; k++) {
      values[o + 9 + k] = store.acceleration[s3 + k]!;
      values[o + 12 + k] = store.angularVelocity[s3 + k]!;
    }
  }

  /**
   * The location (out[o…o+2]), ψθφ (out[o+3…o+5]) and reference time (out[o+6]) of the slot's pending PDU.
   * @returns false when the slot has none.
   */
  receivedInto(slot: number, out: Float64Array, o: number): boolean {
    if (this.state[slot] === PENDING_NONE) return false;
    const values = this.values,
      p = PENDING_STRIDE * slot;
    for (let k = 0; k < 3; k++) {
      out[o + k] = values[p + k]!;
      out[o + 3 + k] = values[p + 6 + k]!;
    }
    out[o + 6] = values[p + PENDING_REFERENCE]!;
    return true;
  }

  /** The slot was released: still listed, its PDU is skipped when resolved, or taken over by the slot's next entity. */
  drop(slot: number): void {
    if (this.state[slot] !== PENDING_NONE) this.state[slot] = PENDING_DROPPED;
  }
}
