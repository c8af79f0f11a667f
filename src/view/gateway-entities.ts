/**
 * The gateway's entities: each one's newest PDUs, for snapshots and for clients that fell behind, and what its
 * filters read (exercise, force, kind, domain), held by key within a bound as struct-of-arrays, so that a million
 * entities cost about 200 bytes each (an object and two buffers per entity cost about 800). A full Entity State PDU
 * is kept in a slot of 144 bytes (its size without variable parameters; longer ones apart); an Entity State Update
 * received after it, in a pool of 72-byte entries that only entities sending updates use. A slot given up during a
 * tick is taken again only after it (`endTick`): the tick's records name slots.
 */
import { EntitySlots } from '../dr/receiver/entity-slots.js';
import {
  ENTITY_STATE_BYTES,
  ENTITY_STATE_UPDATE_BYTES,
  EntityStateOffset,
  EntityStateUpdateOffset,
} from '../pdu/wire/constants.js';
import { copyBytes } from './protocol.js';

/** A PDU kept, and when it arrived. */
export interface StoredPdu {
  /** The bytes, the PDU at [offset, offset + length). */
  bytes: Buffer;
  offset: number;
  length: number;
  timeMs: number;
}

export class GatewayEntities {
  /** 1 per slot holding an entity; each slot's key. */
  readonly active: Uint8Array;
  readonly key: Float64Array;
  /** What the filters read, per slot. */
  readonly exercise: Uint8Array;
  readonly force: Uint8Array;
  readonly kind: Uint8Array;
  readonly domain: Uint8Array;
  /** When the newest PDU arrived, ms since the Unix epoch; silence after which the entity is dropped, ms. */
  readonly lastSeenMs: Float64Array;
  readonly timeoutMs: Float64Array;
  private readonly slots: EntitySlots;
  /** The newest full PDU of each slot (144 bytes a slot; longer ones in `longFull`), its length and arrival. */
  private readonly full: Buffer;
  private readonly fullLength: Uint16Array;
  private readonly fullTimeMs: Float64Array;
  private readonly longFull = new Map<number, Buffer>();
  /** Per slot: its update entry, or −1. Entries: the PDU (72 bytes; longer in `longUpdate`), length, arrival. */
  private readonly updateOf: Int32Array;
  private updates: Buffer = Buffer.alloc(0);
  private updateLength = new Uint16Array(0);
  private updateTimeMs = new Float64Array(0);
  private readonly longUpdate = new Map<number, Buffer>();
  private freeUpdates: number[] = [];
  private updateCount = 0;
  /** Slots given up this tick, taken again after it. */
  private readonly retired: Int32Array;
  private retiredCount = 0;

  constructor(readonly capacity: number) {
    const n = capacity;
    this.slots = new EntitySlots(n);
    this.active = this.slots.active;
    this.key = this.slots.key;
    this.exercise = new Uint8Array(n);
    this.force = new Uint8Array(n);
    this.kind = new Uint8Array(n);
    this.domain = new Uint8Array(n);
    this.lastSeenMs = new Float64Array(n);
    this.timeoutMs = new Float64Array(n);
    this.full = Buffer.alloc(ENTITY_STATE_BYTES * n);
    this.fullLength = new Uint16Array(n);
    this.fullTimeMs = new Float64Array(n);
    this.updateOf = new Int32Array(n).fill(-1);
    this.retired = new Int32Array(n);
  }

  /** Entities held. */
  get size(): number {
    return this.slots.size;
  }

  /** Slots in use are all below this. */
  get highWater(): number {
    return this.slots.highWater;
  }

  /** The slot of a key, or −1. */
  slotOf(key: number): number {
    return this.slots.slotOf(key);
  }

  /** A slot for a new entity. @returns −1 when full. */
  add(key: number): number {
    const slot = this.slots.take(key);
    if (slot < 0) return -1;
    this.fullLength[slot] = 0;
    this.timeoutMs[slot] = 0;
    return slot;
  }

  /** Drops an entity (its slot is taken again after the tick). */
  delete(slot: number): void {
    if (this.active[slot] !== 1) return;
    this.slots.retire(slot);
    this.dropUpdate(slot);
    this.longFull.delete(slot);
    this.fullLength[slot] = 0;
    this.retired[this.retiredCount++] = slot;
  }

  /** The tick is sent: the slots given up during it may be taken again. */
  endTick(): void {
    for (let k = 0; k < this.retiredCount; k++) this.slots.recycle(this.retired[k]!);
    this.retiredCount = 0;
  }

  /** Keeps a full Entity State PDU as the slot's newest (an update kept before it is dropped). */
  storeFull(slot: number, bytes: Uint8Array, offset: number, length: number, timeMs: number): void {
    if (length <= ENTITY_STATE_BYTES) {
      copyBytes(bytes, offset, this.full, ENTITY_STATE_BYTES * slot, length);
      this.longFull.delete(slot);
    } else {
      let long = this.longFull.get(slot);
      if (long === undefined || long.length < length) this.longFull.set(slot, (long = Buffer.alloc(length)));
      copyBytes(bytes, offset, long, 0, length);
    }
    this.fullLength[slot] = length;
    this.fullTimeMs[slot] = timeMs;
    this.dropUpdate(slot);
  }

  /** Keeps an Entity State Update PDU received after the slot's full PDU. */
  storeUpdate(slot: number, bytes: Uint8Array, offset: number, length: number, timeMs: number): void {
    let k = this.updateOf[slot]!;
    if (k < 0) k = this.updateOf[slot] = this.takeUpdate();
    if (length <= ENTITY_STATE_UPDATE_BYTES) {
      copyBytes(bytes, offset, this.updates, ENTITY_STATE_UPDATE_BYTES * k, length);
      this.longUpdate.delete(k);
    } else {
      let long = this.longUpdate.get(k);
      if (long === undefined || long.length < length) this.longUpdate.set(k, (long = Buffer.alloc(length)));
      copyBytes(bytes, offset, long, 0, length);
    }
    this.updateLength[k] = length;
    this.updateTimeMs[k] = timeMs;
  }

  /** Whether the slot holds an entity whose full PDU is kept (what a snapshot sends). */
  hasFull(slot: number): boolean {
    return this.active[slot] === 1 && this.fullLength[slot]! > 0;
  }

  /** The slot's newest full PDU into `out`. */
  fullPdu(slot: number, out: StoredPdu): StoredPdu {
    const length = this.fullLength[slot]!;
    const long = length > ENTITY_STATE_BYTES ? this.longFull.get(slot) : undefined;
    out.bytes = long ?? this.full;
    out.offset = long === undefined ? ENTITY_STATE_BYTES * slot : 0;
    out.length = length;
    out.timeMs = this.fullTimeMs[slot]!;
    return out;
  }

  /** The slot's update received after its full PDU into `out`. @returns false when there is none. */
  updatePdu(slot: number, out: StoredPdu): boolean {
    const k = this.updateOf[slot]!;
    if (k < 0) return false;
    const length = this.updateLength[k]!;
    const long = length > ENTITY_STATE_UPDATE_BYTES ? this.longUpdate.get(k) : undefined;
    out.bytes = long ?? this.updates;
    out.offset = long === undefined ? ENTITY_STATE_UPDATE_BYTES * k : 0;
    out.length = length;
    out.timeMs = this.updateTimeMs[k]!;
    return true;
  }

  /** The newest location the slot's PDUs carry, ECEF metres, into out[0…2] (an update's, when newer). */
  locationInto(slot: number, out: Float64Array, pdu: StoredPdu): Float64Array {
    const update = this.updatePdu(slot, pdu);
    if (!update) this.fullPdu(slot, pdu);
    const at = pdu.offset + (update ? EntityStateUpdateOffset.LOCATION : EntityStateOffset.LOCATION);
    const bytes = pdu.bytes;
    out[0] = bytes.readDoubleBE(at);
    out[1] = bytes.readDoubleBE(at + 8);
    out[2] = bytes.readDoubleBE(at + 16);
    return out;
  }

  private takeUpdate(): number {
    const free = this.freeUpdates.pop();
    if (free !== undefined) return free;
    if (this.updateCount === this.updateLength.length) {
      // Grown by half again (at least 64 entries): only entities that send updates hold one.
      const size = Math.min(this.capacity, Math.max(64, Math.ceil(1.5 * this.updateCount)));
      const bytes = Buffer.alloc(ENTITY_STATE_UPDATE_BYTES * size);
      this.updates.copy(bytes);
      this.updates = bytes;
      const length = new Uint16Array(size);
      length.set(this.updateLength);
      this.updateLength = length;
      const time = new Float64Array(size);
      time.set(this.updateTimeMs);
      this.updateTimeMs = time;
    }
    return this.updateCount++;
  }

  private dropUpdate(slot: number): void {
    const k = this.updateOf[slot]!;
    if (k < 0) return;
    this.updateOf[slot] = -1;
    this.longUpdate.delete(k);
    this.freeUpdates.push(k);
  }
}
