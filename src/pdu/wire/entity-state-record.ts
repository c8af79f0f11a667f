/**
 * The zero-allocation form of an Entity State PDU (types 1 and 67): one instance is allocated up front and
 * decoded into again and again on the hot path (decode → table update). Vectors are Float64Arrays so that
 * float32 wire values widen exactly and ECEF locations keep full float64 precision.
 */

/** Most variable-parameter records a record keeps; the wire allows 255. Defaults to the wire maximum. */
export const MAX_VARIABLE_PARAMETERS = 255;
export const VARIABLE_PARAMETER_BYTES = 16;
/** Offsets of the byte fields in `EntityStateRecord.byteFieldsView`. */
export const BYTE_FIELDS_DR_OTHER = 0;
export const BYTE_FIELDS_MARKING = 16;
export const BYTE_FIELDS_PARAMETERS = 32;

/** One Entity State PDU as reusable flat fields: what the decoder fills and the encoder reads, allocation-free. */
export class EntityStateRecord {
  /** 5, 6 or 7. Defaults to 7 (IEEE 1278.1-2012), so a fresh record encodes as a valid PDU. */
  protocolVersion = 7;
  exerciseId = 0;
  /** 1 = Entity State, 67 = Entity State Update (which carries no type, force, DR, marking or capabilities). Defaults to 1. */
  pduType = 1;
  /** Defaults to 1 (entity information / interaction). */
  protocolFamily = 1;
  /** Raw 32-bit timestamp field: units since the hour × 2 + absolute flag. */
  timestampRaw = 0;
  length = 0;
  pduStatus = 0;
  site = 0;
  application = 0;
  entity = 0;
  forceId = 0;
  /** kind, domain, country, category, subcategory, specific, extra. */
  readonly entityType = new Uint16Array(7);
  readonly alternativeEntityType = new Uint16Array(7);
  /** m/s, world or body frame depending on the DR algorithm. */
  readonly linearVelocity = new Float64Array(3);
  /** ECEF metres. */
  readonly location = new Float64Array(3);
  /** psi, theta, phi radians. */
  readonly orientation = new Float64Array(3);
  appearance = 0;
  drAlgorithm = 0;
  readonly drOtherParameters: Uint8Array;
  /** m/s², world or body frame depending on the DR algorithm. */
  readonly linearAcceleration = new Float64Array(3);
  /** rad/s about body axes. */
  readonly angularVelocity = new Float64Array(3);
  markingCharacterSet = 0;
  /** Marking characters, zero-filled (see `setMarkingText` / `markingText`). */
  readonly markingBytes: Uint8Array;
  capabilities = 0;
  variableParameterCount = 0;
  /** The records' raw bytes, 16 per record, `variableParameterCount` of them valid. */
  readonly variableParameters: Uint8Array;
  /**
   * A view over the one ArrayBuffer behind `drOtherParameters` (bytes 0–14), `markingBytes` (16–26) and
   * `variableParameters` (from 32): the codecs copy them in 32-bit words, ~4× fewer element accesses than bytes.
   */
  readonly byteFieldsView: DataView;

  /** @param maxVariableParameters - records this instance can hold. Defaults to 255, the wire maximum. */
  constructor(maxVariableParameters = MAX_VARIABLE_PARAMETERS) {
    const buffer = new ArrayBuffer(BYTE_FIELDS_PARAMETERS + maxVariableParameters * VARIABLE_PARAMETER_BYTES);
    this.drOtherParameters = new Uint8Array(buffer, BYTE_FIELDS_DR_OTHER, 15);
    this.markingBytes = new Uint8Array(buffer, BYTE_FIELDS_MARKING, 11);
    this.variableParameters = new Uint8Array(
      buffer,
      BYTE_FIELDS_PARAMETERS,
      maxVariableParameters * VARIABLE_PARAMETER_BYTES,
    );
    this.byteFieldsView = new DataView(buffer);
  }
}

/**
 * Numeric key of an entity id: site · 2^32 + application · 2^16 + entity. Exact in a double (48 bits), and a
 * number key avoids building strings per packet.
 */
export function entityKey(site: number, application: number, entity: number): number {
  return site * 0x1_0000_0000 + application * 0x1_0000 + entity;
}

/** Splits an entity key back into its three ids, written into `out`. */
export function entityIdFromKey(out: Uint16Array | number[], key: number): Uint16Array | number[] {
  out[0] = Math.floor(key / 0x1_0000_0000);
  out[1] = Math.floor(key / 0x1_0000) % 0x1_0000;
  out[2] = key % 0x1_0000;
  return out;
}

/**
 * Writes `text` into the record's 11 marking bytes, zero-filling the rest; characters beyond 11 are cut off and
 * each character is stored as its low 8 bits (ASCII expected). Sets the character set to 1 (ASCII).
 * @returns the record.
 */
export function setMarkingText(record: EntityStateRecord, text: string): EntityStateRecord {
  const bytes = record.markingBytes;
  const n = Math.min(text.length, bytes.length);
  for (let i = 0; i < n; i++) bytes[i] = text.charCodeAt(i) & 0xff;
  bytes.fill(0, n);
  record.markingCharacterSet = 1;
  return record;
}

/** The marking as text: the bytes up to the first zero, one character per byte (Latin-1). */
export function markingText(record: EntityStateRecord): string {
  return latin1UpToZero(record.markingBytes, 0, record.markingBytes.length);
}

/** Latin-1 text of `bytes[start, end)`, stopping at the first zero byte. */
export function latin1UpToZero(bytes: Uint8Array, start: number, end: number): string {
  let text = '';
  for (let i = start; i < end && bytes[i] !== 0; i++) text += String.fromCharCode(bytes[i]!);
  return text;
}
