/**
 * Encoding an `EntityStateRecord` into bytes without allocating: into a caller's buffer at an offset, or through
 * an `EntityStateEncoder` that owns one buffer (returns a view valid until its next call).
 */
import { DataViewCache } from './bytes.js';
import * as constants from './constants.js';
import * as recordLayout from './entity-state-record.js';
import type { EntityStateRecord } from './entity-state-record.js';
import { CodecStatus as Status, codecStatusMessage } from './status.js';

// Module-level copies of the imported constants, as in entity-state-decoder.ts: TurboFan folds them into the code.
const {
  ENTITY_STATE_BYTES,
  ENTITY_STATE_UPDATE_BYTES,
  MAX_PROTOCOL_VERSION,
  MIN_PROTOCOL_VERSION,
  PARAMETER_RECORD_BYTES,
} = constants;
const { EntityStateOffset: ES, EntityStateUpdateOffset: ESU, HeaderOffset: H, PduType } = constants;
const {
  BYTE_FIELDS_DR_OTHER: DR_OTHER,
  BYTE_FIELDS_MARKING: MARKING,
  BYTE_FIELDS_PARAMETERS: PARAMETERS,
  MAX_VARIABLE_PARAMETERS,
} = recordLayout;
const CodecStatus = Status;

/** The encoder's own cache: encoding into one send buffer while decoding datagrams keeps both views. */
const views = new DataViewCache();

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
 * The destination comes first, as in every `…Into` function and the math module (the gl-matrix convention).
 * @param out - the destination, e.g. a datagram buffer being filled with a bundle.
 * @param record - what to send; `protocolVersion` must be 5, 6 or 7.
 * @param offset - where to write. Defaults to 0.
 * @returns the number of bytes written, or minus a `CodecStatus` (nothing written): `-UNSUPPORTED_VERSION`,
 *   `-TOO_MANY_PARAMETERS` (count over 255 or over the record's capacity), `-BUFFER_TOO_SMALL`.
 */
export function encodeEntityStateInto(out: Uint8Array, record: EntityStateRecord, offset = 0): number {
  const version = record.protocolVersion;
  if (!(version >= MIN_PROTOCOL_VERSION && version <= MAX_PROTOCOL_VERSION)) return -CodecStatus.UNSUPPORTED_VERSION;
  const count = record.variableParameterCount;
  if (
    !(
      count >= 0 &&
      count <= MAX_VARIABLE_PARAMETERS &&
      count * PARAMETER_RECORD_BYTES <= record.variableParameters.length
    )
  ) {
    return -CodecStatus.TOO_MANY_PARAMETERS;
  }
  const update = record.pduType === PduType.ENTITY_STATE_UPDATE;
  const length = (update ? ENTITY_STATE_UPDATE_BYTES : ENTITY_STATE_BYTES) + count * PARAMETER_RECORD_BYTES;
  if (!(offset >= 0 && offset + length <= out.length)) return -CodecStatus.BUFFER_TOO_SMALL;
  const v = views.of(out);
  if (update) {
    // No entity type, force (padding), DR block, marking or capabilities in the update PDU.
    v.setUint32(offset + H.PROTOCOL_VERSION, headerWord(record, PduType.ENTITY_STATE_UPDATE));
    v.setUint32(offset + H.TIMESTAMP, record.timestampRaw);
    v.setUint32(offset + H.LENGTH, lengthWord(record, length));
    v.setUint32(offset + ESU.ENTITY_ID, siteApplicationWord(record));
    v.setUint32(offset + ESU.ENTITY_ID + 4, entityCountWord(record, 0, count));
    writeMotion(record, v, offset + ESU.LINEAR_VELOCITY);
    writeParameters(record.byteFieldsView, v, offset + ESU.PARAMETERS, count * PARAMETER_RECORD_BYTES);
  } else {
    writeEntityState(record, v, offset, length, count);
  }
  return length;
}

// The writers below read what they need before their first store: after a DataView store TurboFan re-checks the
// map, bounds and buffer of every array read next, so read-then-write pays that once per group, not per field.
// Adjacent byte fields go out as one 32-bit word; `& 0xff` / `& 0xffff` keep "modulo the field width".
// writeEntityState is one function on purpose: split into helpers, it exceeds TurboFan's inlining budget.

function writeEntityState(record: EntityStateRecord, v: DataView, p: number, length: number, count: number): void {
  const header = headerWord(record, PduType.ENTITY_STATE);
  const timestamp = record.timestampRaw;
  const lengthStatus = lengthWord(record, length);
  const siteApplication = siteApplicationWord(record);
  const entityCount = entityCountWord(record, record.forceId, count);
  // Entity type and alternative: kind, domain, country (16 bits), category, subcategory, specific, extra.
  let t = record.entityType;
  const type0 = ((t[0]! & 0xff) << 24) | ((t[1]! & 0xff) << 16) | t[2]!;
  const type1 = ((t[3]! & 0xff) << 24) | ((t[4]! & 0xff) << 16) | ((t[5]! & 0xff) << 8) | (t[6]! & 0xff);
  t = record.alternativeEntityType;
  const alternative0 = ((t[0]! & 0xff) << 24) | ((t[1]! & 0xff) << 16) | t[2]!;
  const alternative1 = ((t[3]! & 0xff) << 24) | ((t[4]! & 0xff) << 16) | ((t[5]! & 0xff) << 8) | (t[6]! & 0xff);
  // The DR algorithm byte and the 15 other-parameter bytes as four words.
  const fields = record.byteFieldsView;
  const dr0 = ((record.drAlgorithm & 0xff) << 24) | (fields.getUint32(DR_OTHER) >>> 8);
  const dr1 = fields.getUint32(DR_OTHER + 3);
  const dr2 = fields.getUint32(DR_OTHER + 7);
  const dr3 = fields.getUint32(DR_OTHER + 11);
  let f = record.linearAcceleration;
  const ax = f[0]!,
    ay = f[1]!,
    az = f[2]!;
  f = record.angularVelocity;
  const wx = f[0]!,
    wy = f[1]!,
    wz = f[2]!;
  // The marking character set byte and the 11 marking bytes as three words.
  const marking0 = ((record.markingCharacterSet & 0xff) << 24) | (fields.getUint32(MARKING) >>> 8);
  const marking1 = fields.getUint32(MARKING + 3);
  const marking2 = fields.getUint32(MARKING + 7);
  const capabilities = record.capabilities;
  v.setUint32(p + H.PROTOCOL_VERSION, header);
  v.setUint32(p + H.TIMESTAMP, timestamp);
  v.setUint32(p + H.LENGTH, lengthStatus);
  v.setUint32(p + ES.ENTITY_ID, siteApplication);
  v.setUint32(p + ES.ENTITY_ID + 4, entityCount);
  v.setUint32(p + ES.ENTITY_TYPE, type0);
  v.setUint32(p + ES.ENTITY_TYPE + 4, type1);
  v.setUint32(p + ES.ALTERNATIVE_ENTITY_TYPE, alternative0);
  v.setUint32(p + ES.ALTERNATIVE_ENTITY_TYPE + 4, alternative1);

  writeMotion(record, v, p + ES.LINEAR_VELOCITY);
  let q = p + ES.DR_ALGORITHM;
  v.setUint32(q, dr0);
  v.setUint32(q + 4, dr1);
  v.setUint32(q + 8, dr2);
  v.setUint32(q + 12, dr3);
  q = p + ES.DR_LINEAR_ACCELERATION;
  v.setFloat32(q, ax);
  v.setFloat32(q + 4, ay);
  v.setFloat32(q + 8, az);
  q = p + ES.DR_ANGULAR_VELOCITY;
  v.setFloat32(q, wx);
  v.setFloat32(q + 4, wy);
  v.setFloat32(q + 8, wz);
  q = p + ES.MARKING_CHARACTER_SET;
  v.setUint32(q, marking0);
  v.setUint32(q + 4, marking1);
  v.setUint32(q + 8, marking2);
  v.setUint32(p + ES.CAPABILITIES, capabilities);

  writeParameters(fields, v, p + ES.PARAMETERS, count * PARAMETER_RECORD_BYTES);
}

/** Bytes 0–3: protocol version, exercise id, PDU type, protocol family. */
function headerWord(record: EntityStateRecord, type: number): number {
  return (
    (record.protocolVersion << 24) | ((record.exerciseId & 0xff) << 16) | (type << 8) | (record.protocolFamily & 0xff)
  );
}

/** Bytes 8–11: Length, the v7 PDU status (padding before v7), a padding byte. */
function lengthWord(record: EntityStateRecord, length: number): number {
  return (length << 16) | ((record.protocolVersion >= 7 ? record.pduStatus & 0xff : 0) << 8);
}

/** Bytes 12–15: site, application. */
function siteApplicationWord(record: EntityStateRecord): number {
  return ((record.site & 0xffff) << 16) | (record.application & 0xffff);
}

/** Bytes 16–19: entity, force id (padding in the update PDU), record count. */
function entityCountWord(record: EntityStateRecord, force: number, count: number): number {
  return ((record.entity & 0xffff) << 16) | ((force & 0xff) << 8) | count;
}

/** Linear velocity, location, orientation, appearance: consecutive in both PDU types, from `p`. */
function writeMotion(record: EntityStateRecord, v: DataView, p: number): void {
  let f = record.linearVelocity;
  const vx = f[0]!,
    vy = f[1]!,
    vz = f[2]!;
  f = record.location;
  const x = f[0]!,
    y = f[1]!,
    z = f[2]!;
  f = record.orientation;
  const psi = f[0]!,
    theta = f[1]!,
    phi = f[2]!;
  const appearance = record.appearance;
  v.setFloat32(p, vx);
  v.setFloat32(p + 4, vy);
  v.setFloat32(p + 8, vz);
  v.setFloat64(p + 12, x);
  v.setFloat64(p + 20, y);
  v.setFloat64(p + 28, z);
  v.setFloat32(p + 36, psi);
  v.setFloat32(p + 40, theta);
  v.setFloat32(p + 44, phi);
  v.setUint32(p + 48, appearance);
}

function writeParameters(fields: DataView, v: DataView, p: number, byteCount: number): void {
  for (let i = 0; i < byteCount; i += 4) v.setUint32(p + i, fields.getUint32(PARAMETERS + i));
}

/**
 * Owns one buffer big enough for any Entity State PDU and encodes records into it (msgpack style).
 *
 * ## Example
 * ```ts
 * import { createSocket } from 'node:dgram';
 * import { EntityStateEncoder, EntityStateRecord } from 'reckon';
 *
 * const socket = createSocket('udp4');
 * const encoder = new EntityStateEncoder();
 * const record = new EntityStateRecord();
 * record.entity = 1;
 * socket.send(encoder.encode(record), 3000, '127.0.0.1', () => socket.close()); // send copies the bytes
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
    const written = encodeEntityStateInto(this.buffer, record, 0);
    if (written < 0) throw new RangeError(`cannot encode Entity State PDU: ${codecStatusMessage(-written)}`);
    return this.buffer.subarray(0, written);
  }
}
