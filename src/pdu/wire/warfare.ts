/**
 * The warfare family's Fire PDU (type 2, IEEE 1278.1-2012 §7.3.2) and Detonation PDU (type 3, §7.3.3): decoded into
 * reused records and encoded into a caller's buffer, as the Entity State codec does (one DataView per datagram,
 * adjacent fields read as words, every check before the first write, status codes, nothing allocated). The layouts
 * are the same in v5 (1278.1-1995 §5.3.4), v6 and v7; v7 names the 16-byte burst descriptor a munition descriptor
 * and says in the PDU status which kind of descriptor it is (fire type / detonation type indicator, §6.2.67).
 */
import { DataViewCache } from './bytes.js';
import { PARAMETER_RECORD_BYTES } from './constants.js';
import * as fields from './pdu-fields.js';
import { EntityIdFields, EventIdFields, PduHeaderFields } from './pdu-fields.js';
import * as status from './status.js';

// Module-level copies of imported bindings, as in entity-state-decoder.ts: TurboFan folds its own module's consts.
const {
  checkHeader,
  checkFixedSize,
  lengthOf,
  encodeRefusal,
  readHeader,
  readEntityId,
  readEventId,
  readEntityType,
  readVec3F32,
  readVec3F64,
} = fields;
const { writeHeader, writeEntityId, writeEventId, writeEntityType, writeVec3F32, writeVec3F64 } = fields;
const { CodecStatus } = status;
type CodecStatus = status.CodecStatus;
const PARAMETER_BYTES = PARAMETER_RECORD_BYTES;

/** Bytes of a Fire PDU. */
export const FIRE_PDU_BYTES = 96;
/** Detonation PDU without its 16-byte variable parameter records. */
export const DETONATION_PDU_BYTES = 104;
/** Most variable parameter records a Detonation record keeps by default: the wire maximum (an 8-bit count). */
export const MAX_DETONATION_PARAMETERS = 255;

/** Byte offsets from the start of the PDU. */
export const FireOffset = {
  FIRING_ENTITY_ID: 12,
  TARGET_ENTITY_ID: 18,
  MUNITION_ID: 24,
  EVENT_ID: 30,
  FIRE_MISSION_INDEX: 36,
  LOCATION: 40,
  DESCRIPTOR: 64,
  VELOCITY: 80,
  RANGE: 92,
} as const;

export const DetonationOffset = {
  FIRING_ENTITY_ID: 12,
  TARGET_ENTITY_ID: 18,
  MUNITION_ID: 24,
  EVENT_ID: 30,
  VELOCITY: 36,
  LOCATION: 48,
  DESCRIPTOR: 72,
  LOCATION_IN_ENTITY: 88,
  RESULT: 100,
  PARAMETER_COUNT: 101,
  PARAMETERS: 104,
} as const;

const F = FireOffset;
const D = DetonationOffset;

/** Burst (v5/v6) or munition (v7) descriptor, §6.2.19.2: what was fired, and how much of it. */
export class MunitionDescriptorFields {
  /** kind, domain, country, category, subcategory, specific, extra. */
  readonly munitionType = new Uint16Array(7);
  /** SISO-REF-010 UID 60. */
  warhead = 0;
  /** SISO-REF-010 UID 61. */
  fuse = 0;
  /** Rounds in the burst. */
  quantity = 0;
  /** Rounds per minute. */
  rate = 0;
}

/** A Fire PDU: a shot, with its shooter, target (when known), munition and where it left from. */
export class FireRecord extends PduHeaderFields {
  readonly firingEntityId = new EntityIdFields();
  /** 0:0:0 (TARGET_ID_UNKNOWN) when the shooter does not know the target. */
  readonly targetEntityId = new EntityIdFields();
  /** The munition as an entity when it is tracked as one, else 0:0:0. */
  readonly munitionId = new EntityIdFields();
  /** Pairs this shot with its Detonation PDU. */
  readonly eventId = new EventIdFields();
  fireMissionIndex = 0;
  /** Where the round left, ECEF metres. */
  readonly location = new Float64Array(3);
  readonly descriptor = new MunitionDescriptorFields();
  /** Of the round at launch, m/s, ECEF. */
  readonly velocity = new Float64Array(3);
  /** Range to the target the shooter used, metres (0 when none). */
  range = 0;

  constructor() {
    super(2, 2);
  }
}

/** A Detonation PDU: where a round, expendable or explosion went off, and what it did there. */
export class DetonationRecord extends PduHeaderFields {
  readonly firingEntityId = new EntityIdFields();
  readonly targetEntityId = new EntityIdFields();
  readonly munitionId = new EntityIdFields();
  readonly eventId = new EventIdFields();
  /** Of the round at detonation, m/s, ECEF. */
  readonly velocity = new Float64Array(3);
  /** ECEF metres. */
  readonly location = new Float64Array(3);
  readonly descriptor = new MunitionDescriptorFields();
  /** Relative to the target's centre, in its body coordinates, metres. */
  readonly locationInEntity = new Float64Array(3);
  /** Detonation result (SISO-REF-010 UID 62): 1 entity impact, 3 ground impact, 5 detonation, 6 none (dud) … */
  result = 0;
  variableParameterCount = 0;
  /** The records' raw bytes, 16 per record, `variableParameterCount` of them valid. */
  readonly variableParameters: Uint8Array;
  /** A view over `variableParameters`: the codecs copy the records through it in 32-bit words. */
  readonly variableParametersView: DataView;

  /** @param maxVariableParameters - records this instance can hold. Defaults to 255, the wire maximum. */
  constructor(maxVariableParameters = MAX_DETONATION_PARAMETERS) {
    super(3, 2);
    this.variableParameters = new Uint8Array(maxVariableParameters * PARAMETER_BYTES);
    this.variableParametersView = new DataView(this.variableParameters.buffer);
  }
}

const readViews = new DataViewCache();
const writeViews = new DataViewCache();

function readDescriptor(out: MunitionDescriptorFields, v: DataView, p: number): void {
  readEntityType(out.munitionType, v, p);
  let word = v.getUint32(p + 8);
  out.warhead = word >>> 16;
  out.fuse = word & 0xffff;
  word = v.getUint32(p + 12);
  out.quantity = word >>> 16;
  out.rate = word & 0xffff;
}

function writeDescriptor(v: DataView, p: number, d: MunitionDescriptorFields): void {
  writeEntityType(v, p, d.munitionType);
  v.setUint32(p + 8, ((d.warhead & 0xffff) << 16) | (d.fuse & 0xffff));
  v.setUint32(p + 12, ((d.quantity & 0xffff) << 16) | (d.rate & 0xffff));
}

/**
 * Decodes a Fire PDU into `out`. Every check happens before the first write: on a bad status `out` still holds the
 * previous PDU.
 * @param offset - where the PDU starts in `bytes`. Defaults to 0.
 * @param end - end of the datagram, exclusive. Defaults to `bytes.length`.
 * @returns OK, TRUNCATED, UNSUPPORTED_VERSION, WRONG_PDU_TYPE or BAD_LENGTH (the Length field is not 96).
 */
export function decodeFireInto(out: FireRecord, bytes: Uint8Array, offset = 0, end = bytes.length): CodecStatus {
  const check = checkFixedSize(bytes, offset, end, 2, FIRE_PDU_BYTES);
  if (check !== CodecStatus.OK) return check;
  const v = readViews.of(bytes);
  const p = offset;
  readHeader(out, v, p, FIRE_PDU_BYTES);
  readEntityId(out.firingEntityId, v, p + F.FIRING_ENTITY_ID);
  readEntityId(out.targetEntityId, v, p + F.TARGET_ENTITY_ID);
  readEntityId(out.munitionId, v, p + F.MUNITION_ID);
  readEventId(out.eventId, v, p + F.EVENT_ID);
  out.fireMissionIndex = v.getUint32(p + F.FIRE_MISSION_INDEX);
  readVec3F64(out.location, v, p + F.LOCATION);
  readDescriptor(out.descriptor, v, p + F.DESCRIPTOR);
  readVec3F32(out.velocity, v, p + F.VELOCITY);
  out.range = v.getFloat32(p + F.RANGE);
  return CodecStatus.OK;
}

/**
 * Decodes a Detonation PDU into `out`, its variable parameter records as bytes (16 each).
 * @returns OK, TRUNCATED, UNSUPPORTED_VERSION, WRONG_PDU_TYPE, BAD_LENGTH (Length is not 104 + 16 × records) or
 *   TOO_MANY_PARAMETERS (more records than `out` holds).
 */
export function decodeDetonationInto(
  out: DetonationRecord,
  bytes: Uint8Array,
  offset = 0,
  end = bytes.length,
): CodecStatus {
  const check = checkHeader(bytes, offset, end, 3, DETONATION_PDU_BYTES);
  if (check !== CodecStatus.OK) return check;
  const length = lengthOf(bytes, offset, end);
  const count = bytes[offset + D.PARAMETER_COUNT]!;
  if (length !== DETONATION_PDU_BYTES + count * PARAMETER_BYTES) return CodecStatus.BAD_LENGTH;
  if (count * PARAMETER_BYTES > out.variableParameters.length) return CodecStatus.TOO_MANY_PARAMETERS;
  const v = readViews.of(bytes);
  const p = offset;
  readHeader(out, v, p, length);
  readEntityId(out.firingEntityId, v, p + D.FIRING_ENTITY_ID);
  readEntityId(out.targetEntityId, v, p + D.TARGET_ENTITY_ID);
  readEntityId(out.munitionId, v, p + D.MUNITION_ID);
  readEventId(out.eventId, v, p + D.EVENT_ID);
  readVec3F32(out.velocity, v, p + D.VELOCITY);
  readVec3F64(out.location, v, p + D.LOCATION);
  readDescriptor(out.descriptor, v, p + D.DESCRIPTOR);
  readVec3F32(out.locationInEntity, v, p + D.LOCATION_IN_ENTITY);
  out.result = bytes[p + D.RESULT]!;
  out.variableParameterCount = count;
  const records = out.variableParametersView;
  const byteCount = count * PARAMETER_BYTES;
  const q = p + D.PARAMETERS;
  for (let i = 0; i < byteCount; i += 4) records.setUint32(i, v.getUint32(q + i));
  return CodecStatus.OK;
}

/**
 * Writes `record` as a Fire PDU at `offset` in `out`: 96 bytes, the Length computed, float32 fields rounded by the
 * wire, integers modulo their field width, zero padding where v5/v6 have no PDU status.
 * @returns the number of bytes written, or minus a status (nothing written): `-UNSUPPORTED_VERSION`,
 *   `-BUFFER_TOO_SMALL`.
 */
export function encodeFireInto(out: Uint8Array, record: FireRecord, offset = 0): number {
  const refusal = encodeRefusal(out, record, offset, FIRE_PDU_BYTES);
  if (refusal !== 0) return refusal;
  const v = writeViews.of(out);
  const p = offset;
  writeHeader(v, p, record, 2, FIRE_PDU_BYTES);
  writeEntityId(v, p + F.FIRING_ENTITY_ID, record.firingEntityId);
  writeEntityId(v, p + F.TARGET_ENTITY_ID, record.targetEntityId);
  writeEntityId(v, p + F.MUNITION_ID, record.munitionId);
  writeEventId(v, p + F.EVENT_ID, record.eventId);
  v.setUint32(p + F.FIRE_MISSION_INDEX, record.fireMissionIndex);
  writeVec3F64(v, p + F.LOCATION, record.location);
  writeDescriptor(v, p + F.DESCRIPTOR, record.descriptor);
  writeVec3F32(v, p + F.VELOCITY, record.velocity);
  v.setFloat32(p + F.RANGE, record.range);
  return FIRE_PDU_BYTES;
}

/** Bytes `record` encodes to: 104 + 16 per variable parameter record. */
export function encodedDetonationLength(record: DetonationRecord): number {
  return DETONATION_PDU_BYTES + record.variableParameterCount * PARAMETER_BYTES;
}

/**
 * Writes `record` as a Detonation PDU at `offset` in `out`.
 * @returns the number of bytes written, or minus a status: `-UNSUPPORTED_VERSION`, `-TOO_MANY_PARAMETERS` (count
 *   over 255 or over the record's capacity), `-BUFFER_TOO_SMALL`.
 */
export function encodeDetonationInto(out: Uint8Array, record: DetonationRecord, offset = 0): number {
  if (!fields.encodableVersion(record)) return -CodecStatus.UNSUPPORTED_VERSION;
  const count = record.variableParameterCount;
  const byteCount = count * PARAMETER_BYTES;
  if (!(count >= 0 && count <= 255 && byteCount <= record.variableParameters.length)) {
    return -CodecStatus.TOO_MANY_PARAMETERS;
  }
  const length = DETONATION_PDU_BYTES + byteCount;
  if (!(offset >= 0 && offset + length <= out.length)) return -CodecStatus.BUFFER_TOO_SMALL;
  const v = writeViews.of(out);
  const p = offset;
  writeHeader(v, p, record, 3, length);
  writeEntityId(v, p + D.FIRING_ENTITY_ID, record.firingEntityId);
  writeEntityId(v, p + D.TARGET_ENTITY_ID, record.targetEntityId);
  writeEntityId(v, p + D.MUNITION_ID, record.munitionId);
  writeEventId(v, p + D.EVENT_ID, record.eventId);
  writeVec3F32(v, p + D.VELOCITY, record.velocity);
  writeVec3F64(v, p + D.LOCATION, record.location);
  writeDescriptor(v, p + D.DESCRIPTOR, record.descriptor);
  writeVec3F32(v, p + D.LOCATION_IN_ENTITY, record.locationInEntity);
  v.setUint32(p + D.RESULT, ((record.result & 0xff) << 24) | (count << 16));
  const records = record.variableParametersView;
  const q = p + D.PARAMETERS;
  for (let i = 0; i < byteCount; i += 4) v.setUint32(q + i, records.getUint32(i));
  return length;
}
