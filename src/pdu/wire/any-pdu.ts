/**
 * Every PDU, whatever its type: one reused record per type (made on first use), a decoder that picks the record by
 * the header's PDU type, and an encoder that picks the writer by the record. A PDU of a type reckon does not read
 * passes through as an `OtherPduRecord`: its header decoded, its body as bytes (a view, not a copy).
 */
import {
  CollisionElasticRecord,
  CollisionRecord,
  decodeCollisionElasticInto,
  decodeCollisionInto,
  encodeCollisionElasticInto,
  encodeCollisionInto,
} from './collision.js';
import { PduType } from './constants.js';
import { DatumPduRecord, decodeDatumPduInto, encodeDatumPduInto } from './datum-pdus.js';
import {
  decodeDesignatorInto,
  decodeElectromagneticEmissionInto,
  decodeIffInto,
  DesignatorRecord,
  ElectromagneticEmissionRecord,
  encodeDesignatorInto,
  encodeElectromagneticEmissionInto,
  encodeIffInto,
  IffRecord,
} from './emission.js';
import { decodeEntityStateOrUpdateInto } from './entity-state-decoder.js';
import { encodeEntityStateInto } from './entity-state-encoder.js';
import { EntityStateRecord } from './entity-state-record.js';
import {
  decodeEnvironmentalProcessInto,
  EnvironmentalProcessRecord,
  encodeEnvironmentalProcessInto,
} from './environmental-process.js';
import { DataViewCache } from './bytes.js';
import { encodeRefusal, lengthOf, PduHeaderFields, readHeader, writeHeader } from './pdu-fields.js';
import {
  decodeReceiverInto,
  decodeSignalInto,
  decodeTransmitterInto,
  encodeReceiverInto,
  encodeSignalInto,
  encodeTransmitterInto,
  ReceiverRecord,
  SignalRecord,
  TransmitterRecord,
} from './radio.js';
import {
  AcknowledgeRecord,
  decodeAcknowledgeInto,
  decodeEntityManagementInto,
  decodeStartResumeInto,
  decodeStopFreezeInto,
  encodeAcknowledgeInto,
  encodeEntityManagementInto,
  encodeStartResumeInto,
  encodeStopFreezeInto,
  EntityManagementRecord,
  StartResumeRecord,
  StopFreezeRecord,
} from './simulation-management.js';
import { CodecStatus } from './status.js';
import {
  DetonationRecord,
  decodeDetonationInto,
  decodeFireInto,
  encodeDetonationInto,
  encodeFireInto,
  FireRecord,
} from './warfare.js';

/** A PDU of a type reckon does not decode: its header, and the body as a view of the decoded bytes. */
export class OtherPduRecord extends PduHeaderFields {
  /** The bytes the body is in: the decoded datagram (valid while it is), or a buffer of the caller's own. */
  body: Uint8Array = new Uint8Array(0);
  /** Where the body (what follows the 12-byte header) starts in `body`. */
  bodyOffset = 0;
  bodyLength = 0;

  constructor() {
    super(0, 0);
  }
}

/** The record of any decoded PDU type (`PduRecords`), told apart by `pduType`. */
export type AnyPduRecord =
  | EntityStateRecord
  | FireRecord
  | DetonationRecord
  | CollisionRecord
  | CollisionElasticRecord
  | EntityManagementRecord
  | StartResumeRecord
  | StopFreezeRecord
  | AcknowledgeRecord
  | DatumPduRecord
  | ElectromagneticEmissionRecord
  | DesignatorRecord
  | TransmitterRecord
  | SignalRecord
  | ReceiverRecord
  | IffRecord
  | EnvironmentalProcessRecord
  | OtherPduRecord;

/** The PDU types reckon decodes field by field; any other passes through as an `OtherPduRecord`. */
export const DECODED_PDU_TYPES: readonly number[] = [
  1, 2, 3, 4, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 41, 66, 67,
];
const DECODED = new Uint8Array(256);
for (const type of DECODED_PDU_TYPES) DECODED[type] = 1;

/** Whether reckon decodes PDUs of this type field by field. */
export function isDecodedPduType(pduType: number): boolean {
  return pduType >= 0 && pduType <= 0xff && DECODED[pduType] === 1;
}

const otherViews = new DataViewCache();

/**
 * Decodes any PDU's header into `out`, its body left in `bytes` (`out.body = bytes`). Any protocol version 1–7 is
 * taken: nothing of the body is read.
 * @returns OK, TRUNCATED (fewer than 12 bytes, or a Length past the end), UNSUPPORTED_VERSION (not 1–7) or
 *   BAD_LENGTH (a Length under 12).
 */
export function decodeOtherPduInto(
  out: OtherPduRecord,
  bytes: Uint8Array,
  offset = 0,
  end = bytes.length,
): CodecStatus {
  const remaining = Math.min(end, bytes.length) - offset;
  if (!(offset >= 0) || remaining < 12) return CodecStatus.TRUNCATED;
  const version = bytes[offset]!;
  if (version < 1 || version > 7) return CodecStatus.UNSUPPORTED_VERSION;
  const length = lengthOf(bytes, offset, end);
  if (length > remaining) return CodecStatus.TRUNCATED;
  if (length < 12) return CodecStatus.BAD_LENGTH;
  readHeader(out, otherViews.of(bytes), offset, length);
  out.body = bytes;
  out.bodyOffset = offset + 12;
  out.bodyLength = length - 12;
  return CodecStatus.OK;
}

/** Writes an `OtherPduRecord`: its header (type as held), then its body. @returns the bytes written, or minus a status. */
export function encodeOtherPduInto(out: Uint8Array, record: OtherPduRecord, offset = 0): number {
  const n = record.bodyLength;
  if (!(n >= 0 && n + 12 <= 0xffff && record.bodyOffset >= 0 && record.bodyOffset + n <= record.body.length)) {
    return -CodecStatus.BAD_RECORD_LENGTH;
  }
  const refusal = encodeRefusal(out, record, offset, 12 + n);
  if (refusal !== 0) return refusal;
  writeHeader(otherViews.of(out), offset, record, record.pduType & 0xff, 12 + n);
  for (let i = 0; i < n; i++) out[offset + 12 + i] = record.body[record.bodyOffset + i]!;
  return 12 + n;
}

/**
 * One reused record per PDU type, made on first use, and the decoder that fills the right one. Hot paths keep one
 * instance for their lifetime: decoding then allocates nothing.
 *
 * ## Example
 * ```ts
 * import { createSocket } from 'node:dgram';
 * import { CodecStatus, PduRecords } from 'reckon';
 * import { FireRecord } from 'reckon/pdu';
 *
 * const pdus = new PduRecords();
 * createSocket('udp4')
 *   .on('message', (datagram) => {
 *     if (pdus.decode(datagram) === CodecStatus.OK && pdus.record instanceof FireRecord)
 *       console.log('fire from entity', pdus.record.firingEntityId.entity, 'range', pdus.record.range);
 *   })
 *   .bind(3000);
 * ```
 */
export class PduRecords {
  /** The record the last successful `decode` filled; undefined before one. */
  record: AnyPduRecord | undefined;
  private entityStateRecord: EntityStateRecord | undefined;
  private fireRecord: FireRecord | undefined;
  private detonationRecord: DetonationRecord | undefined;
  private collisionRecord: CollisionRecord | undefined;
  private collisionElasticRecord: CollisionElasticRecord | undefined;
  private entityManagementRecord: EntityManagementRecord | undefined;
  private startResumeRecord: StartResumeRecord | undefined;
  private stopFreezeRecord: StopFreezeRecord | undefined;
  private acknowledgeRecord: AcknowledgeRecord | undefined;
  private datumRecord: DatumPduRecord | undefined;
  private emissionRecord: ElectromagneticEmissionRecord | undefined;
  private designatorRecord: DesignatorRecord | undefined;
  private transmitterRecord: TransmitterRecord | undefined;
  private signalRecord: SignalRecord | undefined;
  private receiverRecord: ReceiverRecord | undefined;
  private iffRecord: IffRecord | undefined;
  private environmentalRecord: EnvironmentalProcessRecord | undefined;
  private otherRecord: OtherPduRecord | undefined;

  get entityState(): EntityStateRecord {
    return (this.entityStateRecord ??= new EntityStateRecord());
  }
  get fire(): FireRecord {
    return (this.fireRecord ??= new FireRecord());
  }
  get detonation(): DetonationRecord {
    return (this.detonationRecord ??= new DetonationRecord());
  }
  get collision(): CollisionRecord {
    return (this.collisionRecord ??= new CollisionRecord());
  }
  get collisionElastic(): CollisionElasticRecord {
    return (this.collisionElasticRecord ??= new CollisionElasticRecord());
  }
  get entityManagement(): EntityManagementRecord {
    return (this.entityManagementRecord ??= new EntityManagementRecord());
  }
  get startResume(): StartResumeRecord {
    return (this.startResumeRecord ??= new StartResumeRecord());
  }
  get stopFreeze(): StopFreezeRecord {
    return (this.stopFreezeRecord ??= new StopFreezeRecord());
  }
  get acknowledge(): AcknowledgeRecord {
    return (this.acknowledgeRecord ??= new AcknowledgeRecord());
  }
  get datum(): DatumPduRecord {
    return (this.datumRecord ??= new DatumPduRecord());
  }
  get electromagneticEmission(): ElectromagneticEmissionRecord {
    return (this.emissionRecord ??= new ElectromagneticEmissionRecord());
  }
  get designator(): DesignatorRecord {
    return (this.designatorRecord ??= new DesignatorRecord());
  }
  get transmitter(): TransmitterRecord {
    return (this.transmitterRecord ??= new TransmitterRecord());
  }
  get signal(): SignalRecord {
    return (this.signalRecord ??= new SignalRecord());
  }
  get receiver(): ReceiverRecord {
    return (this.receiverRecord ??= new ReceiverRecord());
  }
  get iff(): IffRecord {
    return (this.iffRecord ??= new IffRecord());
  }
  get environmentalProcess(): EnvironmentalProcessRecord {
    return (this.environmentalRecord ??= new EnvironmentalProcessRecord());
  }
  get other(): OtherPduRecord {
    return (this.otherRecord ??= new OtherPduRecord());
  }

  /**
   * Decodes the PDU at `offset` into the record of its type and points `record` at it. Never throws.
   * @returns OK, or why it cannot be read (the record keeps its previous PDU, `record` is unchanged).
   */
  decode(bytes: Uint8Array, offset = 0, end = bytes.length): CodecStatus {
    const type = offset >= 0 && offset + 2 < bytes.length ? bytes[offset + 2]! : -1;
    let record: AnyPduRecord;
    let status: CodecStatus;
    switch (type) {
      case PduType.ENTITY_STATE:
      case PduType.ENTITY_STATE_UPDATE:
        status = decodeEntityStateOrUpdateInto((record = this.entityState), bytes, offset, end);
        break;
      case PduType.FIRE:
        status = decodeFireInto((record = this.fire), bytes, offset, end);
        break;
      case PduType.DETONATION:
        status = decodeDetonationInto((record = this.detonation), bytes, offset, end);
        break;
      case PduType.COLLISION:
        status = decodeCollisionInto((record = this.collision), bytes, offset, end);
        break;
      case PduType.COLLISION_ELASTIC:
        status = decodeCollisionElasticInto((record = this.collisionElastic), bytes, offset, end);
        break;
      case PduType.CREATE_ENTITY:
      case PduType.REMOVE_ENTITY:
        status = decodeEntityManagementInto((record = this.entityManagement), bytes, offset, end);
        break;
      case PduType.START_RESUME:
        status = decodeStartResumeInto((record = this.startResume), bytes, offset, end);
        break;
      case PduType.STOP_FREEZE:
        status = decodeStopFreezeInto((record = this.stopFreeze), bytes, offset, end);
        break;
      case PduType.ACKNOWLEDGE:
        status = decodeAcknowledgeInto((record = this.acknowledge), bytes, offset, end);
        break;
      case PduType.ACTION_REQUEST:
      case PduType.ACTION_RESPONSE:
      case PduType.DATA_QUERY:
      case PduType.SET_DATA:
      case PduType.DATA:
      case PduType.EVENT_REPORT:
      case PduType.COMMENT:
        status = decodeDatumPduInto((record = this.datum), bytes, offset, end);
        break;
      case PduType.ELECTROMAGNETIC_EMISSION:
        status = decodeElectromagneticEmissionInto((record = this.electromagneticEmission), bytes, offset, end);
        break;
      case PduType.DESIGNATOR:
        status = decodeDesignatorInto((record = this.designator), bytes, offset, end);
        break;
      case PduType.TRANSMITTER:
        status = decodeTransmitterInto((record = this.transmitter), bytes, offset, end);
        break;
      case PduType.SIGNAL:
        status = decodeSignalInto((record = this.signal), bytes, offset, end);
        break;
      case PduType.RECEIVER:
        status = decodeReceiverInto((record = this.receiver), bytes, offset, end);
        break;
      case PduType.IFF:
        status = decodeIffInto((record = this.iff), bytes, offset, end);
        break;
      case PduType.ENVIRONMENTAL_PROCESS:
        status = decodeEnvironmentalProcessInto((record = this.environmentalProcess), bytes, offset, end);
        break;
      default:
        status = decodeOtherPduInto((record = this.other), bytes, offset, end);
    }
    if (status === CodecStatus.OK) this.record = record;
    return status;
  }
}

/**
 * Writes any record as its PDU at `offset` in `out` (an `OtherPduRecord` with its header and body as held).
 * @returns the bytes written, or minus a `CodecStatus`.
 */
export function encodeAnyPduInto(out: Uint8Array, record: AnyPduRecord, offset = 0): number {
  if (record instanceof EntityStateRecord) return encodeEntityStateInto(out, record, offset);
  if (record instanceof FireRecord) return encodeFireInto(out, record, offset);
  if (record instanceof DetonationRecord) return encodeDetonationInto(out, record, offset);
  if (record instanceof CollisionRecord) return encodeCollisionInto(out, record, offset);
  if (record instanceof CollisionElasticRecord) return encodeCollisionElasticInto(out, record, offset);
  if (record instanceof EntityManagementRecord) return encodeEntityManagementInto(out, record, offset);
  if (record instanceof StartResumeRecord) return encodeStartResumeInto(out, record, offset);
  if (record instanceof StopFreezeRecord) return encodeStopFreezeInto(out, record, offset);
  if (record instanceof AcknowledgeRecord) return encodeAcknowledgeInto(out, record, offset);
  if (record instanceof DatumPduRecord) return encodeDatumPduInto(out, record, offset);
  if (record instanceof ElectromagneticEmissionRecord) return encodeElectromagneticEmissionInto(out, record, offset);
  if (record instanceof DesignatorRecord) return encodeDesignatorInto(out, record, offset);
  if (record instanceof TransmitterRecord) return encodeTransmitterInto(out, record, offset);
  if (record instanceof SignalRecord) return encodeSignalInto(out, record, offset);
  if (record instanceof ReceiverRecord) return encodeReceiverInto(out, record, offset);
  if (record instanceof IffRecord) return encodeIffInto(out, record, offset);
  if (record instanceof EnvironmentalProcessRecord) return encodeEnvironmentalProcessInto(out, record, offset);
  return encodeOtherPduInto(out, record, offset);
}
