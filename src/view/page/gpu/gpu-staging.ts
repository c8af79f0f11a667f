/**
 * What the GPU state must learn this frame: the slots whose record changed (a PDU was loaded, the entity came,
 * left, was frozen or resumed) and, once packed, their records. Free of WebGL: `PageEntities` fills it, `GpuState`
 * uploads it (src/view/page/gpu/gpu-state.ts). A slot is listed once however often it changed; at most
 * `maxRecords` are packed a frame, the rest the frames after (a snapshot of a million entities fills in over a few
 * dozen frames instead of stalling one).
 */
import type { RemoteEntityTable } from '../../../dr/receiver/remote-entity-table.js';
import { RECORD_FLOATS, RECORD_TEXELS, packRecord } from './gpu-record.js';

/** Texels per staged record: the record and one holding its slot. */
export const STAGED_TEXELS = RECORD_TEXELS + 1;
const STAGED_FLOATS = 4 * STAGED_TEXELS;

/** Records packed and uploaded a frame at most. */
export const MAX_STAGED_RECORDS = 32_768;

export class GpuStaging {
  /** Packed records, each followed by its slot (`STAGED_TEXELS` RGBA texels), as floats and as their bits. */
  readonly values: Float32Array;
  readonly bits: Uint32Array;
  /** Records packed and not yet uploaded. */
  count = 0;
  /** Slots waiting to be packed, and 1 for each slot in that list. */
  private readonly waiting: Int32Array;
  private readonly listed: Uint8Array;
  private head = 0;
  private tail = 0;
  private pendingCount = 0;
  /** Records packed and uploaded a frame at most. */
  readonly maxRecords: number;

  constructor(capacity: number, maxRecords = MAX_STAGED_RECORDS) {
    this.maxRecords = Math.min(capacity, maxRecords);
    // Whole rows of the staging texture (at most 4096 texels wide): an upload writes rows.
    this.values = new Float32Array(Math.ceil((STAGED_FLOATS * this.maxRecords) / 16_384) * 16_384);
    this.bits = new Uint32Array(this.values.buffer);
    // A ring one longer than the slots: a slot is in it at most once.
    this.waiting = new Int32Array(capacity + 1);
    this.listed = new Uint8Array(capacity);
  }

  /** Slots waiting to be packed. */
  get pending(): number {
    return this.pendingCount;
  }

  /** The slot's record changed. */
  mark(slot: number): void {
    if (this.listed[slot] === 1) return;
    this.listed[slot] = 1;
    this.waiting[this.tail] = slot;
    this.tail = this.tail + 1 === this.waiting.length ? 0 : this.tail + 1;
    this.pendingCount++;
  }

  /** Every slot below `highWater` changed (a GPU state created afresh holds none of them). */
  markAll(highWater: number): void {
    for (let slot = 0; slot < highWater; slot++) this.mark(slot);
  }

  /**
   * Packs waiting records from the table's current state, up to `maxRecords` in the staging.
   * @param iconOf - the icon index of a slot.
   * @returns records packed.
   */
  pack(table: RemoteEntityTable, timeBaseSeconds: number, iconOf: (slot: number) => number): number {
    const values = this.values,
      bits = this.bits,
      waiting = this.waiting;
    let packed = 0;
    while (this.pendingCount > 0 && this.count < this.maxRecords) {
      const slot = waiting[this.head]!;
      this.head = this.head + 1 === waiting.length ? 0 : this.head + 1;
      this.pendingCount--;
      this.listed[slot] = 0;
      const o = STAGED_FLOATS * this.count++;
      packRecord(table, slot, timeBaseSeconds, iconOf(slot), values, bits, o);
      bits[o + RECORD_FLOATS] = slot;
      packed++;
    }
    return packed;
  }

  /** The slot of the k-th record packed. */
  slotAt(k: number): number {
    return this.bits[STAGED_FLOATS * k + RECORD_FLOATS]!;
  }
}
