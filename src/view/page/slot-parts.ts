/**
 * The variable parameter records (articulated and attached parts) of each entity's last PDU, by table slot, so
 * that the details of a selected entity show its parts live (a turret turning). A slot's buffer is made when its
 * entity first sends parts and reused after; entities without parts cost nothing.
 */
import type { EntityStateRecord } from '../../pdu/wire/entity-state-record.js';
import { VARIABLE_PARAMETER_BYTES } from '../../pdu/wire/entity-state-record.js';

export class SlotParts {
  private readonly bytes: (Uint8Array | undefined)[];
  private readonly counts: Uint8Array;

  constructor(capacity: number) {
    this.bytes = new Array(capacity).fill(undefined);
    this.counts = new Uint8Array(capacity);
  }

  /** Keeps the records of the PDU just applied to `slot`. */
  keep(slot: number, record: EntityStateRecord): void {
    const n = record.variableParameterCount;
    this.counts[slot] = n;
    if (n === 0) return;
    const length = n * VARIABLE_PARAMETER_BYTES;
    let buffer = this.bytes[slot];
    if (buffer === undefined || buffer.length < length) buffer = this.bytes[slot] = new Uint8Array(length);
    const source = record.variableParameters;
    for (let i = 0; i < length; i++) buffer[i] = source[i]!;
  }

  /** The records' bytes of `slot` (16 per record), `count(slot)` of them valid. */
  recordsOf(slot: number): Uint8Array | undefined {
    return this.counts[slot] === 0 ? undefined : this.bytes[slot];
  }

  count(slot: number): number {
    return this.counts[slot]!;
  }
}
