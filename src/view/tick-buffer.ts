/**
 * The gateway's tick buffer: the PDUs received since the last tick, copied (the receiver's buffer is reused), with
 * what the clients' filters need (attributes, position; the geodetic position computed only when an area asks).
 */
import { ecefToGeodeticDegrees } from '../math/geodesy.js';
import { HeaderOffset, PduType } from '../pdu/wire/constants.js';
import { inBbox, matchesAttributes, type CompiledFilter } from './compiled-filter.js';
import { copyBytes } from './protocol.js';

/** PDUs held for one tick before it is sent early: 4096 Entity State PDUs of 144 bytes fill 0.6 MB. */
export const TICK_RECORDS = 4096;
export const TICK_BYTES = 1 << 20;

/** What the filters read of an entity, by slot: the gateway's store. */
export interface EntityAttributes {
  readonly exercise: Uint8Array;
  readonly force: Uint8Array;
  readonly kind: Uint8Array;
  readonly domain: Uint8Array;
}

/** The PDUs of one tick, in arrival order; record `i` is `bytes[start[i] .. start[i] + length[i]]`. */
export class TickBuffer {
  readonly bytes = new Uint8Array(TICK_BYTES);
  byteLength = 0;
  count = 0;
  readonly start = new Int32Array(TICK_RECORDS);
  readonly length = new Int32Array(TICK_RECORDS);
  readonly timeMs = new Float64Array(TICK_RECORDS);
  private readonly ecef = new Float64Array(3 * TICK_RECORDS);
  private readonly latDeg = new Float64Array(TICK_RECORDS);
  private readonly lonDeg = new Float64Array(TICK_RECORDS);
  private readonly geodeticValid = new Uint8Array(TICK_RECORDS);
  /** 1 for a full Entity State PDU, 0 for an Entity State Update. */
  readonly full = new Uint8Array(TICK_RECORDS);
  private readonly attributes = new Uint8Array(4 * TICK_RECORDS); // exercise, force, kind, domain
  /** Each record's entity slot in the gateway's store, or −1 when its entity was dropped (a leave notice). */
  readonly slots = new Int32Array(TICK_RECORDS);
  private readonly geodetic = new Float64Array(3);

  /** Whether a PDU of `length` bytes does not fit any more (the tick is then sent early). */
  isFull(length: number): boolean {
    return this.count === TICK_RECORDS || this.byteLength + length > TICK_BYTES;
  }

  /**
   * Copies one PDU of the entity in `slot` of `entities` (−1: dropped with this PDU), at `location` (ECEF metres),
   * received at `timeMs`, in; the caller has checked `isFull` first.
   */
  add(
    slot: number,
    entities: EntityAttributes,
    attributesOf: number,
    location: Float64Array,
    bytes: Uint8Array,
    offset: number,
    length: number,
    timeMs: number,
  ): void {
    const i = this.count++;
    copyBytes(bytes, offset, this.bytes, this.byteLength, length);
    this.start[i] = this.byteLength;
    this.length[i] = length;
    this.byteLength += length;
    this.timeMs[i] = timeMs;
    this.ecef[3 * i] = location[0]!;
    this.ecef[3 * i + 1] = location[1]!;
    this.ecef[3 * i + 2] = location[2]!;
    this.geodeticValid[i] = 0;
    this.full[i] = bytes[offset + HeaderOffset.PDU_TYPE] === PduType.ENTITY_STATE ? 1 : 0;
    this.attributes[4 * i] = entities.exercise[attributesOf]!;
    this.attributes[4 * i + 1] = entities.force[attributesOf]!;
    this.attributes[4 * i + 2] = entities.kind[attributesOf]!;
    this.attributes[4 * i + 3] = entities.domain[attributesOf]!;
    this.slots[i] = slot;
  }

  /**
   * Whether record `i` passes a filter. Its geodetic position is computed the first time an area filter asks
   * (once per PDU, however many clients ask; never when no client filters by area).
   */
  matches(f: CompiledFilter, i: number): boolean {
    if (f.all) return true;
    const a = this.attributes;
    if (!matchesAttributes(f, a[4 * i]!, a[4 * i + 1]!, a[4 * i + 2]!, a[4 * i + 3]!)) return false;
    if (f.bbox === null) return true;
    if (this.geodeticValid[i] === 0) {
      const e = this.ecef;
      ecefToGeodeticDegrees(this.geodetic, e[3 * i]!, e[3 * i + 1]!, e[3 * i + 2]!);
      this.latDeg[i] = this.geodetic[0]!;
      this.lonDeg[i] = this.geodetic[1]!;
      this.geodeticValid[i] = 1;
    }
    return inBbox(f.bbox, this.latDeg[i]!, this.lonDeg[i]!);
  }

  /** Empties the buffer after a tick. */
  clear(): void {
    this.count = 0;
    this.byteLength = 0;
  }
}
