/**
 * The fields of each remote entity's last PDU that are not its dead-reckoning model (id, type, force, marking,
 * appearance, capabilities, timestamp, header), struct-of-arrays by slot, as `RemoteEntityTable` shows them, and the
 * copy of a PDU into them (unrolled: loops over the 7 type and 11 marking fields cost more than all the other
 * copies of a PDU together).
 */
import {
  BYTE_FIELDS_MARKING as BYTE_FIELDS_MARKING_IMPORTED,
  type EntityStateRecord,
} from '../pdu/entity-state-record.js';

// An imported constant copied to a module const, so that TurboFan folds it (a transpiled import is a getter).
const BYTE_FIELDS_MARKING = BYTE_FIELDS_MARKING_IMPORTED;

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
  private readonly markingView: DataView;

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

  /** What only a full Entity State PDU carries: force, type, marking and capabilities. */
  writeFull(slot: number, record: EntityStateRecord): void {
    this.forceId[slot] = record.forceId;
    const s7 = 7 * slot,
      type = this.entityType,
      entityType = record.entityType;
    type[s7] = entityType[0]!;
    type[s7 + 1] = entityType[1]!;
    type[s7 + 2] = entityType[2]!;
    type[s7 + 3] = entityType[3]!;
    type[s7 + 4] = entityType[4]!;
    type[s7 + 5] = entityType[5]!;
    type[s7 + 6] = entityType[6]!;
    this.markingCharacterSet[slot] = record.markingCharacterSet;
    // 11 bytes as 4 + 4 + 2 + 1 through DataViews (the record keeps its marking at BYTE_FIELDS_MARKING).
    const s11 = 11 * slot,
      to = this.markingView,
      from = record.byteFieldsView;
    to.setUint32(s11, from.getUint32(BYTE_FIELDS_MARKING));
    to.setUint32(s11 + 4, from.getUint32(BYTE_FIELDS_MARKING + 4));
    to.setUint16(s11 + 8, from.getUint16(BYTE_FIELDS_MARKING + 8));
    to.setUint8(s11 + 10, from.getUint8(BYTE_FIELDS_MARKING + 10));
    this.capabilities[slot] = record.capabilities >>> 0;
  }
}
