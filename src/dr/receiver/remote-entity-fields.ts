/**
 * The fields of each remote entity's last PDU that are not its dead-reckoning model (id, type, force, marking,
 * appearance, capabilities, timestamp, header), struct-of-arrays by slot, as `RemoteEntityTable` shows them, and the
 * copy of what every PDU carries into them (the table copies a full PDU's type and marking itself, unrolled).
 */
import type { EntityStateRecord } from '../../pdu/wire/entity-state-record.js';

export class RemoteEntityFields {
  /** site, application, entity (3 per slot). */
  readonly entityId: Uint16Array;
  /** kind, domain, country, category, subcategory, specific, extra (7 per slot). */
  readonly entityType: Uint16Array;
  readonly forceId: Uint8Array;
  readonly markingCharacterSet: Uint8Array;
  /** 11 marking bytes per slot. */
  readonly marking: Uint8Array;
  readonly appearance: Uint32Array;
  readonly capabilities: Uint32Array;
  readonly timestampRaw: Uint32Array;
  readonly protocolVersion: Uint8Array;
  readonly exerciseId: Uint8Array;
  /** When each slot's last PDU arrived, seconds on the table's time axis. */
  readonly arrivalSeconds: Float64Array;
  /** `marking` as a DataView, for copying a PDU's 11 bytes in four steps. */
  readonly markingView: DataView;

  constructor(capacity: number) {
    const n = capacity;
    this.entityId = new Uint16Array(3 * n);
    this.entityType = new Uint16Array(7 * n);
    this.forceId = new Uint8Array(n);
    this.markingCharacterSet = new Uint8Array(n);
    this.marking = new Uint8Array(11 * n);
    this.markingView = new DataView(this.marking.buffer);
    this.appearance = new Uint32Array(n);
    this.capabilities = new Uint32Array(n);
    this.timestampRaw = new Uint32Array(n);
    this.protocolVersion = new Uint8Array(n);
    this.exerciseId = new Uint8Array(n);
    this.arrivalSeconds = new Float64Array(n);
  }

  /** The id of a slot's new entity (the key is the id: it never changes for a slot until the slot is released). */
  writeId(slot: number, record: EntityStateRecord): void {
    const s3 = 3 * slot;
    this.entityId[s3] = record.site;
    this.entityId[s3 + 1] = record.application;
    this.entityId[s3 + 2] = record.entity;
  }

  /** What every Entity State and Update PDU carries besides the model, arrived at `nowSeconds`. */
  writeCommon(slot: number, record: EntityStateRecord, timestampRaw: number, nowSeconds: number): void {
    this.appearance[slot] = record.appearance >>> 0;
    this.timestampRaw[slot] = timestampRaw;
    this.protocolVersion[slot] = record.protocolVersion;
    this.exerciseId[slot] = record.exerciseId;
    this.arrivalSeconds[slot] = nowSeconds;
  }
}
