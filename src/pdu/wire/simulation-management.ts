/**
 * The fixed-size simulation management PDUs (IEEE 1278.1-2012 §7.5; 1278.1-1995 §5.3.6, the same bytes): Create
 * Entity (11), Remove Entity (12), Start/Resume (13), Stop/Freeze (14) and Acknowledge (15). Each names the
 * simulation that sends it and the one addressed (an Entity Identifier whose entity number is 0 for a simulation,
 * 65535 for "all"). Decoded into reused records, encoded into a caller's buffer, nothing allocated.
 */
import { PduType } from './constants.js';
import { DataViewCache } from './bytes.js';
import * as fields from './pdu-fields.js';
import { ClockTimeFields, EntityIdFields, PduHeaderFields } from './pdu-fields.js';
import * as status from './status.js';

const { checkFixedSize, encodeRefusal, readHeader, readEntityId, readClockTime } = fields;
const { writeHeader, writeEntityId, writeClockTime } = fields;
const { CodecStatus } = status;
type CodecStatus = status.CodecStatus;

/** Create Entity and Remove Entity. */
export const ENTITY_MANAGEMENT_PDU_BYTES = 28;
export const START_RESUME_PDU_BYTES = 44;
export const STOP_FREEZE_PDU_BYTES = 40;
export const ACKNOWLEDGE_PDU_BYTES = 32;

/** The two ids every simulation management PDU starts with (bytes 12–23). */
export class SimulationManagementFields extends PduHeaderFields {
  /** The simulation (or entity) that sends the PDU. */
  readonly originatingId = new EntityIdFields();
  /** The one addressed: a simulation (entity 0), an entity, or all (65535 in any part). */
  readonly receivingId = new EntityIdFields();
}

/**
 * Create Entity (11) or Remove Entity (12): the simulation manager asks for an entity to be created, or removed.
 * For Remove Entity the receiving id is the entity to remove.
 */
export class EntityManagementRecord extends SimulationManagementFields {
  requestId = 0;

  /** @param pduType - 11 (Create Entity) or 12 (Remove Entity). Defaults to 12. */
  constructor(pduType: 11 | 12 = 12) {
    super(pduType, 5);
  }
}

/** Start/Resume (13): start or resume the entities addressed at a real-world time. */
export class StartResumeRecord extends SimulationManagementFields {
  /** When to start, real-world time (UTC hours since 1970 and the time past that hour). */
  readonly realWorldTime = new ClockTimeFields();
  /** The simulation time to start from. */
  readonly simulationTime = new ClockTimeFields();
  requestId = 0;

  constructor() {
    super(13, 5);
  }
}

/** Frozen-behaviour bits of a Stop/Freeze PDU (SISO-REF-010 UID 68). */
export const FrozenBehavior = {
  RUN_SIMULATION_CLOCK: 1,
  TRANSMIT_UPDATES: 2,
  PROCESS_UPDATES: 4,
} as const;

/** Stop/Freeze (14): stop or freeze the entities addressed at a real-world time. */
export class StopFreezeRecord extends SimulationManagementFields {
  readonly realWorldTime = new ClockTimeFields();
  /** SISO-REF-010 UID 67: 0 other, 1 recess, 2 termination, 3 system failure, 4 security violation, … */
  reason = 0;
  /** Bits of `FrozenBehavior`: what the frozen entities still do. */
  frozenBehavior = 0;
  requestId = 0;

  constructor() {
    super(14, 5);
  }
}

/** Acknowledge (15): the answer to a Create/Remove Entity, Start/Resume or Stop/Freeze request. */
export class AcknowledgeRecord extends SimulationManagementFields {
  /** SISO-REF-010 UID 69: 1 create entity, 2 remove entity, 3 start/resume, 4 stop/freeze, 5 transfer ownership. */
  acknowledgeFlag = 0;
  /** SISO-REF-010 UID 70: 0 other, 1 able to comply, 2 unable to comply, 3 pending operator action. */
  responseFlag = 0;
  requestId = 0;

  constructor() {
    super(15, 5);
  }
}

const readViews = new DataViewCache();
const writeViews = new DataViewCache();

function readIds(out: SimulationManagementFields, v: DataView, p: number, length: number): void {
  readHeader(out, v, p, length);
  readEntityId(out.originatingId, v, p + 12);
  readEntityId(out.receivingId, v, p + 18);
}

function writeIds(v: DataView, p: number, record: SimulationManagementFields, type: number, length: number): void {
  writeHeader(v, p, record, type, length);
  writeEntityId(v, p + 12, record.originatingId);
  writeEntityId(v, p + 18, record.receivingId);
}

/**
 * Decodes a Create Entity (11) or Remove Entity (12) PDU, whichever `bytes` holds.
 * @returns OK, TRUNCATED, UNSUPPORTED_VERSION, WRONG_PDU_TYPE or BAD_LENGTH (the Length field is not 28).
 */
export function decodeEntityManagementInto(
  out: EntityManagementRecord,
  bytes: Uint8Array,
  offset = 0,
  end = bytes.length,
): CodecStatus {
  const type = offset >= 0 && offset + 2 < bytes.length && bytes[offset + 2] === 11 ? 11 : 12;
  const check = checkFixedSize(bytes, offset, end, type, ENTITY_MANAGEMENT_PDU_BYTES);
  if (check !== CodecStatus.OK) return check;
  const v = readViews.of(bytes);
  readIds(out, v, offset, ENTITY_MANAGEMENT_PDU_BYTES);
  out.requestId = v.getUint32(offset + 24);
  return CodecStatus.OK;
}

/** Writes a Create Entity or Remove Entity PDU (`record.pduType` 11 or 12). @returns 28, or minus a status. */
export function encodeEntityManagementInto(out: Uint8Array, record: EntityManagementRecord, offset = 0): number {
  const refusal = encodeRefusal(out, record, offset, ENTITY_MANAGEMENT_PDU_BYTES);
  if (refusal !== 0) return refusal;
  const v = writeViews.of(out);
  writeIds(
    v,
    offset,
    record,
    record.pduType === PduType.CREATE_ENTITY ? PduType.CREATE_ENTITY : PduType.REMOVE_ENTITY,
    ENTITY_MANAGEMENT_PDU_BYTES,
  );
  v.setUint32(offset + 24, record.requestId);
  return ENTITY_MANAGEMENT_PDU_BYTES;
}

/** @returns OK, TRUNCATED, UNSUPPORTED_VERSION, WRONG_PDU_TYPE or BAD_LENGTH (the Length field is not 44). */
export function decodeStartResumeInto(
  out: StartResumeRecord,
  bytes: Uint8Array,
  offset = 0,
  end = bytes.length,
): CodecStatus {
  const check = checkFixedSize(bytes, offset, end, 13, START_RESUME_PDU_BYTES);
  if (check !== CodecStatus.OK) return check;
  const v = readViews.of(bytes);
  readIds(out, v, offset, START_RESUME_PDU_BYTES);
  readClockTime(out.realWorldTime, v, offset + 24);
  readClockTime(out.simulationTime, v, offset + 32);
  out.requestId = v.getUint32(offset + 40);
  return CodecStatus.OK;
}

/** @returns 44, or minus a status (`-UNSUPPORTED_VERSION`, `-BUFFER_TOO_SMALL`). */
export function encodeStartResumeInto(out: Uint8Array, record: StartResumeRecord, offset = 0): number {
  const refusal = encodeRefusal(out, record, offset, START_RESUME_PDU_BYTES);
  if (refusal !== 0) return refusal;
  const v = writeViews.of(out);
  writeIds(v, offset, record, 13, START_RESUME_PDU_BYTES);
  writeClockTime(v, offset + 24, record.realWorldTime);
  writeClockTime(v, offset + 32, record.simulationTime);
  v.setUint32(offset + 40, record.requestId);
  return START_RESUME_PDU_BYTES;
}

/** @returns OK, TRUNCATED, UNSUPPORTED_VERSION, WRONG_PDU_TYPE or BAD_LENGTH (the Length field is not 40). */
export function decodeStopFreezeInto(
  out: StopFreezeRecord,
  bytes: Uint8Array,
  offset = 0,
  end = bytes.length,
): CodecStatus {
  const check = checkFixedSize(bytes, offset, end, 14, STOP_FREEZE_PDU_BYTES);
  if (check !== CodecStatus.OK) return check;
  const v = readViews.of(bytes);
  readIds(out, v, offset, STOP_FREEZE_PDU_BYTES);
  readClockTime(out.realWorldTime, v, offset + 24);
  out.reason = bytes[offset + 32]!;
  out.frozenBehavior = bytes[offset + 33]!;
  out.requestId = v.getUint32(offset + 36);
  return CodecStatus.OK;
}

/** @returns 40, or minus a status (`-UNSUPPORTED_VERSION`, `-BUFFER_TOO_SMALL`). */
export function encodeStopFreezeInto(out: Uint8Array, record: StopFreezeRecord, offset = 0): number {
  const refusal = encodeRefusal(out, record, offset, STOP_FREEZE_PDU_BYTES);
  if (refusal !== 0) return refusal;
  const v = writeViews.of(out);
  writeIds(v, offset, record, 14, STOP_FREEZE_PDU_BYTES);
  writeClockTime(v, offset + 24, record.realWorldTime);
  v.setUint32(offset + 32, ((record.reason & 0xff) << 24) | ((record.frozenBehavior & 0xff) << 16));
  v.setUint32(offset + 36, record.requestId);
  return STOP_FREEZE_PDU_BYTES;
}

/** @returns OK, TRUNCATED, UNSUPPORTED_VERSION, WRONG_PDU_TYPE or BAD_LENGTH (the Length field is not 32). */
export function decodeAcknowledgeInto(
  out: AcknowledgeRecord,
  bytes: Uint8Array,
  offset = 0,
  end = bytes.length,
): CodecStatus {
  const check = checkFixedSize(bytes, offset, end, 15, ACKNOWLEDGE_PDU_BYTES);
  if (check !== CodecStatus.OK) return check;
  const v = readViews.of(bytes);
  readIds(out, v, offset, ACKNOWLEDGE_PDU_BYTES);
  out.acknowledgeFlag = v.getUint16(offset + 24);
  out.responseFlag = v.getUint16(offset + 26);
  out.requestId = v.getUint32(offset + 28);
  return CodecStatus.OK;
}

/** @returns 32, or minus a status (`-UNSUPPORTED_VERSION`, `-BUFFER_TOO_SMALL`). */
export function encodeAcknowledgeInto(out: Uint8Array, record: AcknowledgeRecord, offset = 0): number {
  const refusal = encodeRefusal(out, record, offset, ACKNOWLEDGE_PDU_BYTES);
  if (refusal !== 0) return refusal;
  const v = writeViews.of(out);
  writeIds(v, offset, record, 15, ACKNOWLEDGE_PDU_BYTES);
  v.setUint32(offset + 24, ((record.acknowledgeFlag & 0xffff) << 16) | (record.responseFlag & 0xffff));
  v.setUint32(offset + 28, record.requestId);
  return ACKNOWLEDGE_PDU_BYTES;
}
