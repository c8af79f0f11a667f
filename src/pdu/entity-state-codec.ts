/**
 * The zero-allocation Entity State codec for hot paths: decode a datagram's bytes into a reusable
 * `EntityStateRecord`, encode a record into a caller's buffer. DataView reads at fixed offsets, big-endian
 * (IEEE 1278.1 §5.3.2 / §7.2.2; the layout is the same in v5, v6 and v7). Wire data never throws: a status comes back.
 */
import {
  ENTITY_STATE_BYTES,
  ENTITY_STATE_UPDATE_BYTES,
  EntityStateOffset as ES,
  EntityStateUpdateOffset as ESU,
  HEADER_BYTES,
  HeaderOffset as H,
  MAX_PROTOCOL_VERSION,
  MIN_PROTOCOL_VERSION,
  PARAMETER_RECORD_BYTES,
  PduType,
} from './constants.js';
import { copyView, dataViewOf } from './bytes.js';
import {
  BYTE_FIELDS_DR_OTHER,
  BYTE_FIELDS_MARKING,
  BYTE_FIELDS_PARAMETERS,
  type EntityStateRecord,
} from './entity-state-record.js';
import { CodecStatus } from './status.js';

/**
 * Decodes an Entity State PDU (type 1) or an Entity State Update PDU (type 67) into `out`.
 * Every check happens before the first write, so on a bad status `out` still holds the previous PDU.
 * @param out - the reusable record; its capacity bounds the variable parameter records accepted.
 * @param bytes - the datagram (a Node Buffer is fine).
 * @param offset - where the PDU starts in `bytes` (for bundles). Defaults to 0.
 * @param end - end of the datagram, exclusive. Defaults to `bytes.length`.
 * @returns `CodecStatus.OK`, or why the PDU was rejected.
 */
export function decodeEntityStateOrUpdateInto(
  out: EntityStateRecord,
  bytes: Uint8Array,
  offset = 0,
  end = bytes.length,
): CodecStatus {
  if (end - offset < HEADER_BYTES) return CodecStatus.TRUNCATED;
  const type = bytes[offset + H.PDU_TYPE];
  if (type === PduType.ENTITY_STATE) return decodeEntityStateInto(out, bytes, offset, end);
  if (type === PduType.ENTITY_STATE_UPDATE) return decodeEntityStateUpdateInto(out, bytes, offset, end);
  const version = bytes[offset + H.PROTOCOL_VERSION]!;
  return version < MIN_PROTOCOL_VERSION || version > MAX_PROTOCOL_VERSION
    ? CodecStatus.UNSUPPORTED_VERSION
    : CodecStatus.NOT_ENTITY_STATE;
}

/**
 * Decodes an Entity State PDU (type 1) into `out`. Parameters and result as `decodeEntityStateOrUpdateInto`.
 */
export function decodeEntityStateInto(out: EntityStateRecord, bytes: Uint8Array, offset = 0, end = bytes.length): CodecStatus {
  const status = checkPdu(out, bytes, offset, end, PduType.ENTITY_STATE, ENTITY_STATE_BYTES, ES.PARAMETER_COUNT);
  if (status !== CodecStatus.OK) return status;
  const view = dataViewOf(bytes);
  const p = bytes.byteOffset + offset;
  readHeaderAndId(out, view, p);
  out.forceId = view.getUint8(p + ES.FORCE_ID);
  readEntityType(out.entityType, view, p + ES.ENTITY_TYPE);
  readEntityType(out.alternativeEntityType, view, p + ES.ALTERNATIVE_ENTITY_TYPE);
  readMotion(out, view, p + ES.LINEAR_VELOCITY, p + ES.LOCATION, p + ES.ORIENTATION, p + ES.APPEARANCE);
  out.drAlgorithm = view.getUint8(p + ES.DR_ALGORITHM);
  copyView(out.byteFieldsView, BYTE_FIELDS_DR_OTHER, view, p + ES.DR_OTHER_PARAMETERS, out.drOtherParameters.length);
  readFloat32x3(out.linearAcceleration, view, p + ES.DR_LINEAR_ACCELERATION);
  readFloat32x3(out.angularVelocity, view, p + ES.DR_ANGULAR_VELOCITY);
  out.markingCharacterSet = view.getUint8(p + ES.MARKING_CHARACTER_SET);
  copyView(out.byteFieldsView, BYTE_FIELDS_MARKING, view, p + ES.MARKING, out.markingBytes.length);
  out.capabilities = view.getUint32(p + ES.CAPABILITIES);
  readParameters(out, view, p, ES.PARAMETERS);
  return CodecStatus.OK;
}

/**
 * Decodes an Entity State Update PDU (type 67) into `out` (pduType = 67). The update carries no entity type,
 * force, DR parameters, marking or capabilities: those fields are zeroed, and a receiver keeps its own copy from
 * the last full Entity State PDU. Parameters and result as `decodeEntityStateOrUpdateInto`.
 */
export function decodeEntityStateUpdateInto(
  out: EntityStateRecord,
  bytes: Uint8Array,
  offset = 0,
  end = bytes.length,
): CodecStatus {
  const status = checkPdu(out, bytes, offset, end, PduType.ENTITY_STATE_UPDATE, ENTITY_STATE_UPDATE_BYTES, ESU.PARAMETER_COUNT);
  if (status !== CodecStatus.OK) return status;
  const view = dataViewOf(bytes);
  const p = bytes.byteOffset + offset;
  readHeaderAndId(out, view, p);
  out.forceId = 0;
  out.entityType.fill(0);
  out.alternativeEntityType.fill(0);
  readMotion(out, view, p + ESU.LINEAR_VELOCITY, p + ESU.LOCATION, p + ESU.ORIENTATION, p + ESU.APPEARANCE);
  out.drAlgorithm = 0;
  out.drOtherParameters.fill(0);
  out.linearAcceleration.fill(0);
  out.angularVelocity.fill(0);
  out.markingCharacterSet = 0;
  out.markingBytes.fill(0);
  out.capabilities = 0;
  readParameters(out, view, p, ESU.PARAMETERS);
  return CodecStatus.OK;
}

/** Every check a decoder makes before it writes anything, in the order a reader would: size, version, type, Length. */
function checkPdu(
  out: EntityStateRecord,
  bytes: Uint8Array,
  offset: number,
  end: number,
  type: number,
  fixedBytes: number,
  countOffset: number,
): CodecStatus {
  const remaining = end - offset;
  if (remaining < HEADER_BYTES) return CodecStatus.TRUNCATED;
  const version = bytes[offset + H.PROTOCOL_VERSION]!;
  if (version < MIN_PROTOCOL_VERSION || version > MAX_PROTOCOL_VERSION) return CodecStatus.UNSUPPORTED_VERSION;
  if (bytes[offset + H.PDU_TYPE] !== type) return CodecStatus.NOT_ENTITY_STATE;
  const length = (bytes[offset + H.LENGTH]! << 8) | bytes[offset + H.LENGTH + 1]!;
  if (remaining < fixedBytes || length > remaining) return CodecStatus.TRUNCATED;
  const count = bytes[offset + countOffset]!;
  if (length !== fixedBytes + count * PARAMETER_RECORD_BYTES) return CodecStatus.BAD_LENGTH;
  if (count * PARAMETER_RECORD_BYTES > out.variableParameters.length) return CodecStatus.TOO_MANY_PARAMETERS;
  return CodecStatus.OK;
}

function readHeaderAndId(out: EntityStateRecord, view: DataView, p: number): void {
  out.protocolVersion = view.getUint8(p + H.PROTOCOL_VERSION);
  out.exerciseId = view.getUint8(p + H.EXERCISE_ID);
  out.pduType = view.getUint8(p + H.PDU_TYPE);
  out.protocolFamily = view.getUint8(p + H.PROTOCOL_FAMILY);
  out.timestampRaw = view.getUint32(p + H.TIMESTAMP);
  out.length = view.getUint16(p + H.LENGTH);
  // Byte 10 is the PDU status from v7 on; before that it is padding, reported as 0 whatever was sent.
  out.pduStatus = out.protocolVersion >= 7 ? view.getUint8(p + H.PDU_STATUS) : 0;
  out.site = view.getUint16(p + ES.ENTITY_ID);
  out.application = view.getUint16(p + ES.ENTITY_ID + 2);
  out.entity = view.getUint16(p + ES.ENTITY_ID + 4);
}

function readEntityType(out: Uint16Array, view: DataView, p: number): void {
  out[0] = view.getUint8(p);
  out[1] = view.getUint8(p + 1);
  out[2] = view.getUint16(p + 2);
  out[3] = view.getUint8(p + 4);
  out[4] = view.getUint8(p + 5);
  out[5] = view.getUint8(p + 6);
  out[6] = view.getUint8(p + 7);
}

function readFloat32x3(out: Float64Array, view: DataView, p: number): void {
  out[0] = view.getFloat32(p);
  out[1] = view.getFloat32(p + 4);
  out[2] = view.getFloat32(p + 8);
}

function readMotion(out: EntityStateRecord, view: DataView, velocity: number, location: number, orientation: number, appearance: number): void {
  readFloat32x3(out.linearVelocity, view, velocity);
  out.location[0] = view.getFloat64(location);
  out.location[1] = view.getFloat64(location + 8);
  out.location[2] = view.getFloat64(location + 16);
  readFloat32x3(out.orientation, view, orientation);
  out.appearance = view.getUint32(appearance);
}

// Word copies through DataViews and not `set(bytes.subarray(…))`: subarray allocates a view object per call.
function readParameters(out: EntityStateRecord, view: DataView, p: number, fixedBytes: number): void {
  const byteCount = out.length - fixedBytes;
  out.variableParameterCount = byteCount / PARAMETER_RECORD_BYTES;
  copyView(out.byteFieldsView, BYTE_FIELDS_PARAMETERS, view, p + fixedBytes, byteCount);
}
