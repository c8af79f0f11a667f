/**
 * Encoding an `EntityStateRecord` into bytes without allocating: into a caller's buffer at an offset, or through
 * an `EntityStateEncoder` that owns one buffer (returns a view valid until its next call).
 */
import {
  ENTITY_STATE_BYTES,
  ENTITY_STATE_UPDATE_BYTES,
  EntityStateOffset as ES,
  EntityStateUpdateOffset as ESU,
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
  MAX_VARIABLE_PARAMETERS,
  type EntityStateRecord,
} from './entity-state-record.js';
import { CodecStatus, codecStatusMessage } from './status.js';

/** Bytes of the largest Entity State PDU: 144 + 16 × 255. */
export const MAX_ENTITY_STATE_BYTES = ENTITY_STATE_BYTES + PARAMETER_RECORD_BYTES * MAX_VARIABLE_PARAMETERS;

/** Bytes the record encodes to: 144 + 16·n for an Entity State PDU, 72 + 16·n for an update (pduType 67). */
export function encodedEntityStateLength(record: EntityStateRecord): number {
  const fixed = record.pduType === PduType.ENTITY_STATE_UPDATE ? ENTITY_STATE_UPDATE_BYTES : ENTITY_STATE_BYTES;
  return fixed + record.variableParameterCount * PARAMETER_RECORD_BYTES;
}

/**
 * Writes `record` as an Entity State PDU (or, when `record.pduType` is 67, an Entity State Update PDU) at
 * `offset` in `out`. The Length field is the byte count written; float32 fields are rounded by the wire
 * (`Math.fround`); integers are written modulo their field width. v5/v6 get zero padding where v7 has PDU status.
 * @param record - what to send; `protocolVersion` must be 5, 6 or 7.
 * @param out - the destination, e.g. a datagram buffer being filled with a bundle.
 * @param offset - where to write. Defaults to 0.
 * @returns the number of bytes written, or minus a `CodecStatus` (nothing written): `-UNSUPPORTED_VERSION`,
 *   `-TOO_MANY_PARAMETERS` (count over 255 or over the record's capacity), `-BUFFER_TOO_SMALL`.
 */
export function encodeEntityStateInto(record: EntityStateRecord, out: Uint8Array, offset = 0): number {
  const version = record.protocolVersion;
  if (!(version >= MIN_PROTOCOL_VERSION && version <= MAX_PROTOCOL_VERSION)) return -CodecStatus.UNSUPPORTED_VERSION;
  const count = record.variableParameterCount;
  if (!(count >= 0 && count <= MAX_VARIABLE_PARAMETERS && count * PARAMETER_RECORD_BYTES <= record.variableParameters.length)) {
    return -CodecStatus.TOO_MANY_PARAMETERS;
  }
  const length = encodedEntityStateLength(record);
  if (offset < 0 || offset + length > out.length) return -CodecStatus.BUFFER_TOO_SMALL;

  const update = record.pduType === PduType.ENTITY_STATE_UPDATE;
  const view = dataViewOf(out);
  const p = out.byteOffset + offset;
  view.setUint8(p + H.PROTOCOL_VERSION, version);
  view.setUint8(p + H.EXERCISE_ID, record.exerciseId);
  view.setUint8(p + H.PDU_TYPE, update ? PduType.ENTITY_STATE_UPDATE : PduType.ENTITY_STATE);
  view.setUint8(p + H.PROTOCOL_FAMILY, record.protocolFamily);
  view.setUint32(p + H.TIMESTAMP, record.timestampRaw);
  view.setUint16(p + H.LENGTH, length);
  view.setUint8(p + H.PDU_STATUS, version >= 7 ? record.pduStatus : 0);
  view.setUint8(p + H.PDU_STATUS + 1, 0);
  view.setUint16(p + ES.ENTITY_ID, record.site);
  view.setUint16(p + ES.ENTITY_ID + 2, record.application);
  view.setUint16(p + ES.ENTITY_ID + 4, record.entity);
  view.setUint8(p + ES.PARAMETER_COUNT, count);
  if (update) {
    view.setUint8(p + ES.FORCE_ID, 0); // padding in the update PDU
    writeMotion(record, view, p + ESU.LINEAR_VELOCITY, p + ESU.LOCATION, p + ESU.ORIENTATION, p + ESU.APPEARANCE);
  } else {
    view.setUint8(p + ES.FORCE_ID, record.forceId);
    writeEntityType(record.entityType, view, p + ES.ENTITY_TYPE);
    writeEntityType(record.alternativeEntityType, view, p + ES.ALTERNATIVE_ENTITY_TYPE);
    writeMotion(record, view, p + ES.LINEAR_VELOCITY, p + ES.LOCATION, p + ES.ORIENTATION, p + ES.APPEARANCE);
    view.setUint8(p + ES.DR_ALGORITHM, record.drAlgorithm);
    copyView(view, p + ES.DR_OTHER_PARAMETERS, record.byteFieldsView, BYTE_FIELDS_DR_OTHER, record.drOtherParameters.length);
    writeFloat32x3(record.linearAcceleration, view, p + ES.DR_LINEAR_ACCELERATION);
    writeFloat32x3(record.angularVelocity, view, p + ES.DR_ANGULAR_VELOCITY);
    view.setUint8(p + ES.MARKING_CHARACTER_SET, record.markingCharacterSet);
    copyView(view, p + ES.MARKING, record.byteFieldsView, BYTE_FIELDS_MARKING, record.markingBytes.length);
    view.setUint32(p + ES.CAPABILITIES, record.capabilities);
  }
  const fixed = update ? ENTITY_STATE_UPDATE_BYTES : ENTITY_STATE_BYTES;
  copyView(view, p + fixed, record.byteFieldsView, BYTE_FIELDS_PARAMETERS, count * PARAMETER_RECORD_BYTES);
  return length;
}

function writeEntityType(type: Uint16Array, view: DataView, p: number): void {
  view.setUint8(p, type[0]!);
  view.setUint8(p + 1, type[1]!);
  view.setUint16(p + 2, type[2]!);
  view.setUint8(p + 4, type[3]!);
  view.setUint8(p + 5, type[4]!);
  view.setUint8(p + 6, type[5]!);
  view.setUint8(p + 7, type[6]!);
}

function writeFloat32x3(v: Float64Array, view: DataView, p: number): void {
  view.setFloat32(p, v[0]!);
  view.setFloat32(p + 4, v[1]!);
  view.setFloat32(p + 8, v[2]!);
}

function writeMotion(record: EntityStateRecord, view: DataView, velocity: number, location: number, orientation: number, appearance: number): void {
  writeFloat32x3(record.linearVelocity, view, velocity);
  view.setFloat64(location, record.location[0]!);
  view.setFloat64(location + 8, record.location[1]!);
  view.setFloat64(location + 16, record.location[2]!);
  writeFloat32x3(record.orientation, view, orientation);
  view.setUint32(appearance, record.appearance);
}

/**
 * Owns one buffer big enough for any Entity State PDU and encodes records into it (msgpack style).
 *
 * ## Example
 * ```ts
 * const encoder = new EntityStateEncoder();
 * socket.send(encoder.encode(record), 3000, '127.0.0.1'); // send copies before the next encode
 * ```
 */
export class EntityStateEncoder {
  private readonly buffer = new Uint8Array(MAX_ENTITY_STATE_BYTES);

  /**
   * Encodes `record` and returns a view of the bytes: no copy, valid until the next call.
   * @throws RangeError when the record cannot be encoded (protocol version not 5–7, too many parameter records);
   *   the encoder stays usable.
   */
  encode(record: EntityStateRecord): Uint8Array {
    const written = encodeEntityStateInto(record, this.buffer, 0);
    if (written < 0) throw new RangeError(`cannot encode Entity State PDU: ${codecStatusMessage(-written)}`);
    return this.buffer.subarray(0, written);
  }
}
