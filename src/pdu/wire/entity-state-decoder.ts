/**
 * The zero-allocation Entity State codec for hot paths: decode a datagram's bytes into a reusable
 * `EntityStateRecord`, encode a record into a caller's buffer. DataView reads at fixed offsets, big-endian
 * (IEEE 1278.1 §5.3.2 / §7.2.2; the layout is the same in v5, v6 and v7). Wire data never throws: a status comes back.
 * What keeps it fast, and the figures: docs/benchmarks.md, "Figures behind choices in the code".
 */
import { DataViewCache } from './bytes.js';
import * as constants from './constants.js';
import * as recordLayout from './entity-state-record.js';
import type { EntityStateRecord } from './entity-state-record.js';
import * as status from './status.js';

// Module-level copies of the imported constants: TurboFan folds a module's own `const`s, not imported bindings.
const {
  ENTITY_STATE_BYTES,
  ENTITY_STATE_UPDATE_BYTES,
  HEADER_BYTES,
  MAX_PROTOCOL_VERSION,
  MIN_PROTOCOL_VERSION,
  PARAMETER_RECORD_BYTES,
} = constants;
const { EntityStateOffset: ES, EntityStateUpdateOffset: ESU, HeaderOffset: H, PduType } = constants;
const {
  BYTE_FIELDS_DR_OTHER: DR_OTHER,
  BYTE_FIELDS_MARKING: MARKING,
  BYTE_FIELDS_PARAMETERS: PARAMETERS,
} = recordLayout;
const { CodecStatus } = status;
type CodecStatus = status.CodecStatus;

const views = new DataViewCache();

/**
 * Decodes an Entity State PDU (type 1) or an Entity State Update PDU (type 67) into `out`.
 * Every check happens before the first write, so on a bad status `out` still holds the previous PDU.
 * @param out - the reusable record; its capacity bounds the variable parameter records accepted.
 * @param bytes - the datagram (a Node Buffer is fine).
 * @param offset - where the PDU starts in `bytes` (for bundles). Defaults to 0.
 * @param end - end of the datagram, exclusive; at most `bytes.length`. Defaults to `bytes.length`.
 * @returns `CodecStatus.OK`, or why the PDU was rejected.
 */
export function decodeEntityStateOrUpdateInto(
  out: EntityStateRecord,
  bytes: Uint8Array,
  offset = 0,
  end = bytes.length,
): CodecStatus {
  if (!(offset >= 0) || Math.min(end, bytes.length) - offset < HEADER_BYTES) return CodecStatus.TRUNCATED;
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
export function decodeEntityStateInto(
  out: EntityStateRecord,
  bytes: Uint8Array,
  offset = 0,
  end = bytes.length,
): CodecStatus {
  const status = checkPdu(out, bytes, offset, end, PduType.ENTITY_STATE, ENTITY_STATE_BYTES, ES.PARAMETER_COUNT);
  if (status !== CodecStatus.OK) return status;
  const v = views.of(bytes);
  const p = offset;
  readHeader(out, v, p, Math.min(end, bytes.length) - p);
  // Entity id, force id, record count: two words.
  let word = v.getUint32(p + ES.ENTITY_ID);
  out.site = word >>> 16;
  out.application = word & 0xffff;
  word = v.getUint32(p + ES.ENTITY_ID + 4);
  out.entity = word >>> 16;
  out.forceId = (word >>> 8) & 0xff;
  readEntityType(out.entityType, v, p + ES.ENTITY_TYPE);
  readEntityType(out.alternativeEntityType, v, p + ES.ALTERNATIVE_ENTITY_TYPE);
  readMotion(out, v, p + ES.LINEAR_VELOCITY);
  out.drAlgorithm = v.getUint8(p + ES.DR_ALGORITHM);
  // 15 bytes as four words, the last overlapping the third: same bytes written twice, no padding touched.
  const fields = out.byteFieldsView;
  let q = p + ES.DR_OTHER_PARAMETERS;
  fields.setUint32(DR_OTHER, v.getUint32(q));
  fields.setUint32(DR_OTHER + 4, v.getUint32(q + 4));
  fields.setUint32(DR_OTHER + 8, v.getUint32(q + 8));
  fields.setUint32(DR_OTHER + 11, v.getUint32(q + 11));
  let f = out.linearAcceleration;
  q = p + ES.DR_LINEAR_ACCELERATION;
  f[0] = v.getFloat32(q);
  f[1] = v.getFloat32(q + 4);
  f[2] = v.getFloat32(q + 8);
  f = out.angularVelocity;
  q = p + ES.DR_ANGULAR_VELOCITY;
  f[0] = v.getFloat32(q);
  f[1] = v.getFloat32(q + 4);
  f[2] = v.getFloat32(q + 8);
  out.markingCharacterSet = v.getUint8(p + ES.MARKING_CHARACTER_SET);
  // 11 bytes as three words, the last overlapping the second.
  q = p + ES.MARKING;
  fields.setUint32(MARKING, v.getUint32(q));
  fields.setUint32(MARKING + 4, v.getUint32(q + 4));
  fields.setUint32(MARKING + 7, v.getUint32(q + 7));
  out.capabilities = v.getUint32(p + ES.CAPABILITIES);
  readParameters(out, v, p + ES.PARAMETERS, out.length - ENTITY_STATE_BYTES);
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
  const status = checkPdu(
    out,
    bytes,
    offset,
    end,
    PduType.ENTITY_STATE_UPDATE,
    ENTITY_STATE_UPDATE_BYTES,
    ESU.PARAMETER_COUNT,
  );
  if (status !== CodecStatus.OK) return status;
  const v = views.of(bytes);
  const p = offset;
  readHeader(out, v, p, Math.min(end, bytes.length) - p);
  out.site = v.getUint16(p + ESU.ENTITY_ID);
  out.application = v.getUint16(p + ESU.ENTITY_ID + 2);
  out.entity = v.getUint16(p + ESU.ENTITY_ID + 4);
  out.forceId = 0;
  out.entityType.fill(0);
  out.alternativeEntityType.fill(0);
  readMotion(out, v, p + ESU.LINEAR_VELOCITY);
  out.drAlgorithm = 0;
  out.drOtherParameters.fill(0);
  out.linearAcceleration.fill(0);
  out.angularVelocity.fill(0);
  out.markingCharacterSet = 0;
  out.markingBytes.fill(0);
  out.capabilities = 0;
  readParameters(out, v, p + ESU.PARAMETERS, out.length - ENTITY_STATE_UPDATE_BYTES);
  return CodecStatus.OK;
}

/**
 * Every check a decoder makes before it writes anything, in the order a reader would: size, version, type, Length.
 * Reads through `bytes` itself, so a rejected datagram never costs a DataView.
 */
function checkPdu(
  out: EntityStateRecord,
  bytes: Uint8Array,
  offset: number,
  end: number,
  type: number,
  fixedBytes: number,
  countOffset: number,
): CodecStatus {
  const remaining = Math.min(end, bytes.length) - offset;
  if (!(offset >= 0) || remaining < HEADER_BYTES) return CodecStatus.TRUNCATED;
  const version = bytes[offset + H.PROTOCOL_VERSION]!;
  if (version < MIN_PROTOCOL_VERSION || version > MAX_PROTOCOL_VERSION) return CodecStatus.UNSUPPORTED_VERSION;
  if (bytes[offset + H.PDU_TYPE] !== type) return CodecStatus.NOT_ENTITY_STATE;
  // Length 0: the rest of the datagram, as the framing reads it (pduLengthAt, src/pdu/wire/header.ts).
  const length = (bytes[offset + H.LENGTH]! << 8) | bytes[offset + H.LENGTH + 1]! || remaining;
  if (remaining < fixedBytes || length > remaining) return CodecStatus.TRUNCATED;
  const count = bytes[offset + countOffset]!;
  if (length !== fixedBytes + count * PARAMETER_RECORD_BYTES) return CodecStatus.BAD_LENGTH;
  if (count * PARAMETER_RECORD_BYTES > out.variableParameters.length) return CodecStatus.TOO_MANY_PARAMETERS;
  return CodecStatus.OK;
}

/** `remaining`: bytes from `p` to the end of the datagram, the Length a field of 0 stands for. */
function readHeader(out: EntityStateRecord, v: DataView, p: number, remaining: number): void {
  const word = v.getUint32(p + H.PROTOCOL_VERSION); // version, exercise, type, family
  const version = word >>> 24;
  out.protocolVersion = version;
  out.exerciseId = (word >>> 16) & 0xff;
  out.pduType = (word >>> 8) & 0xff;
  out.protocolFamily = word & 0xff;
  out.timestampRaw = v.getUint32(p + H.TIMESTAMP);
  out.length = v.getUint16(p + H.LENGTH) || remaining;
  // Byte 10 is the PDU status from v7 on; before that it is padding, reported as 0 whatever was sent.
  out.pduStatus = version >= 7 ? v.getUint8(p + H.PDU_STATUS) : 0;
}

/** kind, domain, country (16 bits), category, subcategory, specific, extra: two words. */
function readEntityType(out: Uint16Array, v: DataView, p: number): void {
  let word = v.getUint32(p);
  out[0] = word >>> 24;
  out[1] = (word >>> 16) & 0xff;
  out[2] = word & 0xffff;
  word = v.getUint32(p + 4);
  out[3] = word >>> 24;
  out[4] = (word >>> 16) & 0xff;
  out[5] = (word >>> 8) & 0xff;
  out[6] = word & 0xff;
}

/** Linear velocity, location, orientation, appearance: consecutive in both PDU types, from `p`. */
function readMotion(out: EntityStateRecord, v: DataView, p: number): void {
  let f = out.linearVelocity;
  f[0] = v.getFloat32(p);
  f[1] = v.getFloat32(p + 4);
  f[2] = v.getFloat32(p + 8);
  f = out.location;
  f[0] = v.getFloat64(p + 12);
  f[1] = v.getFloat64(p + 20);
  f[2] = v.getFloat64(p + 28);
  f = out.orientation;
  f[0] = v.getFloat32(p + 36);
  f[1] = v.getFloat32(p + 40);
  f[2] = v.getFloat32(p + 44);
  out.appearance = v.getUint32(p + 48);
}

/** The records' bytes in words (Length was checked: 16 per record); `subarray` + `set` would allocate a view. */
function readParameters(out: EntityStateRecord, v: DataView, p: number, byteCount: number): void {
  out.variableParameterCount = byteCount / PARAMETER_RECORD_BYTES;
  const fields = out.byteFieldsView;
  for (let i = 0; i < byteCount; i += 4) fields.setUint32(PARAMETERS + i, v.getUint32(p + i));
}
