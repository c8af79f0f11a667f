/**
 * The simulation management PDUs that carry datum records (IEEE 1278.1-2012 §7.5.7–§7.5.13; 1278.1-1995 §5.3.6.7–
 * §5.3.6.13, the same bytes): Action Request (16), Action Response (17), Data Query (18), Set Data (19), Data (20),
 * Event Report (21) and Comment (22). After the two ids and up to two 32-bit fields come the counts of fixed and
 * variable datum records (32 bits each), then the records:
 *
 * - fixed datum (§6.2.37): datum id, 32-bit value;
 * - variable datum (§6.2.93): datum id, value length **in bits**, the value, zero padding to a 64-bit boundary;
 * - Data Query lists datum ids only, 32 bits each.
 *
 * One record class holds all seven; its per-type fields are 0 where a type has none. Values are copied into the
 * record's own buffer (a datum PDU is rare next to Entity State), so a decoded record stays valid after the
 * datagram's buffer is reused. Decoding allocates nothing.
 */
import { PduType } from './constants.js';
import { DataViewCache } from './bytes.js';
import * as fields from './pdu-fields.js';
import { SimulationManagementFields } from './simulation-management.js';
import * as status from './status.js';

const { checkHeader, encodeRefusal, lengthOf, readHeader, readEntityId, writeHeader, writeEntityId } = fields;
const { CodecStatus } = status;
type CodecStatus = status.CodecStatus;

/** The PDU types this module reads. */
export const DATUM_PDU_TYPES: readonly number[] = [16, 17, 18, 19, 20, 21, 22];
/** Bytes before the datum records: 40, and 32 for a Comment PDU. */
export function datumPduFixedBytes(pduType: number): number {
  return pduType === PduType.COMMENT ? 32 : 40;
}
export const FIXED_DATUM_BYTES = 8;
/** Id and bit length before a variable datum's value. */
export const VARIABLE_DATUM_HEADER_BYTES = 8;
/** Datum records a record holds by default: as many as the largest PDU (65535 bytes) could carry. */
export const MAX_DATUM_RECORDS = 8192;
/** Bytes of variable datum values a record holds by default: the largest PDU's. */
export const MAX_DATUM_VALUE_BYTES = 65536;

/** The bytes of a variable datum value of `bits` bits (the last byte partly used when `bits` is not a multiple of 8). */
export function variableDatumValueBytes(bits: number): number {
  return Math.ceil(bits / 8);
}

/** The value's bytes padded to the next 64-bit boundary, as on the wire. */
export function paddedTo64Bits(bytes: number): number {
  return Math.ceil(bytes / 8) * 8;
}

/** Any of the seven datum PDUs. */
export class DatumPduRecord extends SimulationManagementFields {
  /** Action Request, Action Response, Data Query, Set Data, Data; 0 for the others. */
  requestId = 0;
  /** Action Request: SISO-REF-010 UID 71 (what is asked for). */
  actionId = 0;
  /** Action Response: SISO-REF-010 UID 72 (0 other, 1 pending, 2 executing, …). */
  requestStatus = 0;
  /** Data Query: how often to answer, a DIS timestamp (0 = once). */
  timeInterval = 0;
  /** Event Report: SISO-REF-010 UID 73 (2 ran out of ammunition, 3 killed in action, …). */
  eventType = 0;
  fixedDatumCount = 0;
  /** Datum ids (SISO-REF-010 UID 66), `fixedDatumCount` of them valid. */
  readonly fixedDatumIds: Uint32Array;
  /** Their 32-bit values as sent (an integer or a float32's bits, as the datum id says); unused in a Data Query. */
  readonly fixedDatumValues: Uint32Array;
  variableDatumCount = 0;
  readonly variableDatumIds: Uint32Array;
  /** Each value's length in bits, as on the wire; unused in a Data Query. */
  readonly variableDatumBits: Uint32Array;
  /** Where each value starts in `variableDatumValues`. */
  readonly variableDatumOffsets: Uint32Array;
  /** The values one after the other, each `ceil(bits / 8)` bytes, without the wire's padding. */
  readonly variableDatumValues: Uint8Array;

  /**
   * @param pduType - 16 to 22. Defaults to 20 (Data).
   * @param maxRecords - fixed and variable records each this instance can hold. Defaults to 8192.
   * @param maxValueBytes - bytes of variable datum values it can hold. Defaults to 65536.
   */
  constructor(pduType = 20, maxRecords = MAX_DATUM_RECORDS, maxValueBytes = MAX_DATUM_VALUE_BYTES) {
    super(pduType, 5);
    this.fixedDatumIds = new Uint32Array(maxRecords);
    this.fixedDatumValues = new Uint32Array(maxRecords);
    this.variableDatumIds = new Uint32Array(maxRecords);
    this.variableDatumBits = new Uint32Array(maxRecords);
    this.variableDatumOffsets = new Uint32Array(maxRecords);
    this.variableDatumValues = new Uint8Array(maxValueBytes);
  }
}

/** Bytes of variable datum values held: where the next value would go. */
export function variableDatumValueEnd(record: DatumPduRecord): number {
  const n = record.variableDatumCount;
  if (n === 0) return 0;
  return record.variableDatumOffsets[n - 1]! + variableDatumValueBytes(record.variableDatumBits[n - 1]!);
}

/**
 * Appends a variable datum to `record` (copying `value`), for building PDUs in code.
 * @param bits - the value's length in bits. Defaults to 8 per byte of `value`.
 * @throws RangeError when the record has no room or `bits` needs more bytes than `value` has.
 */
export function addVariableDatum(record: DatumPduRecord, id: number, value: Uint8Array, bits = value.length * 8): void {
  const n = record.variableDatumCount;
  const bytes = variableDatumValueBytes(bits);
  const at = variableDatumValueEnd(record);
  if (bytes > value.length) throw new RangeError(`${bits} bits need ${bytes} bytes, the value has ${value.length}`);
  if (n >= record.variableDatumIds.length || at + bytes > record.variableDatumValues.length) {
    throw new RangeError('the record has no room for another variable datum (raise its capacity)');
  }
  record.variableDatumIds[n] = id;
  record.variableDatumBits[n] = bits;
  record.variableDatumOffsets[n] = at;
  record.variableDatumValues.set(value.subarray(0, bytes), at);
  record.variableDatumCount = n + 1;
}

/** Variable datum `i`'s value: a view of the record's buffer (allocates the view; valid until the next decode). */
export function variableDatumValue(record: DatumPduRecord, i: number): Uint8Array {
  const start = record.variableDatumOffsets[i]!;
  return record.variableDatumValues.subarray(start, start + variableDatumValueBytes(record.variableDatumBits[i]!));
}

const readViews = new DataViewCache();
const writeViews = new DataViewCache();

/** Offset of the fixed-record count: 32, and 24 for a Comment PDU. */
const countsAt = (type: number): number => (type === PduType.COMMENT ? 24 : 32);

/**
 * Decodes any of the seven datum PDUs into `out` (its `pduType` says which). Every check happens before the first
 * write.
 * @returns OK, TRUNCATED, UNSUPPORTED_VERSION, WRONG_PDU_TYPE (not 16–22), BAD_LENGTH (shorter than its fixed
 *   part), TOO_MANY_PARAMETERS (more records or value bytes than `out` holds) or BAD_RECORD_LENGTH (the records do
 *   not fill the Length field: a count, or a variable datum's bit length, that runs past it or stops short).
 */
export function decodeDatumPduInto(
  out: DatumPduRecord,
  bytes: Uint8Array,
  offset = 0,
  end = bytes.length,
): CodecStatus {
  const type = offset >= 0 && offset + 2 < bytes.length ? bytes[offset + 2]! : -1;
  if (type < 16 || type > 22) {
    const check = checkHeader(bytes, offset, end, 16, 40);
    return check === CodecStatus.OK ? CodecStatus.WRONG_PDU_TYPE : check;
  }
  const fixedBytes = datumPduFixedBytes(type);
  const check = checkHeader(bytes, offset, end, type, fixedBytes);
  if (check !== CodecStatus.OK) return check;
  const v = readViews.of(bytes);
  const pduEnd = offset + lengthOf(bytes, offset, end);
  const fixedCount = v.getUint32(offset + countsAt(type));
  const variableCount = v.getUint32(offset + countsAt(type) + 4);
  if (fixedCount > out.fixedDatumIds.length || variableCount > out.variableDatumIds.length) {
    return CodecStatus.TOO_MANY_PARAMETERS;
  }
  const recordsAt = offset + fixedBytes;
  let variableAt = 0;
  let valueBytes = 0;
  if (type === PduType.DATA_QUERY) {
    // Datum ids only; up to 7 bytes of padding to a 64-bit boundary are let through.
    const used = recordsAt + 4 * (fixedCount + variableCount);
    if (used > pduEnd || pduEnd - used >= 8) return CodecStatus.BAD_RECORD_LENGTH;
  } else {
    variableAt = recordsAt + FIXED_DATUM_BYTES * fixedCount;
    if (variableAt > pduEnd) return CodecStatus.BAD_RECORD_LENGTH;
    const walked = walkVariableData(v, variableAt, pduEnd, variableCount);
    if (walked < 0) return CodecStatus.BAD_RECORD_LENGTH;
    valueBytes = walked;
    if (valueBytes > out.variableDatumValues.length) return CodecStatus.TOO_MANY_PARAMETERS;
  }
  readHeader(out, v, offset, lengthOf(bytes, offset, end));
  readEntityId(out.originatingId, v, offset + 12);
  readEntityId(out.receivingId, v, offset + 18);
  const first = type === PduType.COMMENT ? 0 : v.getUint32(offset + 24);
  const second = type === PduType.COMMENT ? 0 : v.getUint32(offset + 28);
  out.requestId = type <= 20 ? first : 0;
  out.eventType = type === PduType.EVENT_REPORT ? first : 0;
  out.actionId = type === PduType.ACTION_REQUEST ? second : 0;
  out.requestStatus = type === PduType.ACTION_RESPONSE ? second : 0;
  out.timeInterval = type === PduType.DATA_QUERY ? second : 0;
  out.fixedDatumCount = fixedCount;
  out.variableDatumCount = variableCount;
  if (type === PduType.DATA_QUERY) {
    for (let i = 0; i < fixedCount; i++) out.fixedDatumIds[i] = v.getUint32(recordsAt + 4 * i);
    const variableIdsAt = recordsAt + 4 * fixedCount;
    for (let i = 0; i < variableCount; i++) {
      out.variableDatumIds[i] = v.getUint32(variableIdsAt + 4 * i);
      out.variableDatumBits[i] = 0;
      out.variableDatumOffsets[i] = 0;
    }
    return CodecStatus.OK;
  }
  for (let i = 0; i < fixedCount; i++) {
    out.fixedDatumIds[i] = v.getUint32(recordsAt + FIXED_DATUM_BYTES * i);
    out.fixedDatumValues[i] = v.getUint32(recordsAt + FIXED_DATUM_BYTES * i + 4);
  }
  let q = variableAt;
  let at = 0;
  const values = out.variableDatumValues;
  for (let i = 0; i < variableCount; i++) {
    const bits = v.getUint32(q + 4);
    const n = variableDatumValueBytes(bits);
    out.variableDatumIds[i] = v.getUint32(q);
    out.variableDatumBits[i] = bits;
    out.variableDatumOffsets[i] = at;
    fields.copyBytes(values, at, bytes, q + VARIABLE_DATUM_HEADER_BYTES, n);
    at += n;
    q += VARIABLE_DATUM_HEADER_BYTES + paddedTo64Bits(n);
  }
  return CodecStatus.OK;
}

/**
 * Checks `count` variable datum records from `q` against the PDU's end: each value must fit, each record's padding
 * is taken up to the end of the PDU (the last one's may be cut short there), and nothing but that padding may be
 * left after the last.
 * @returns the bytes of their values, or -1.
 */
function walkVariableData(v: DataView, q: number, pduEnd: number, count: number): number {
  let valueBytes = 0;
  for (let i = 0; i < count; i++) {
    if (q + VARIABLE_DATUM_HEADER_BYTES > pduEnd) return -1;
    const n = variableDatumValueBytes(v.getUint32(q + 4));
    if (n > pduEnd - q - VARIABLE_DATUM_HEADER_BYTES) return -1;
    valueBytes += n;
    q += VARIABLE_DATUM_HEADER_BYTES + paddedTo64Bits(n);
  }
  return pduEnd - q >= 0 && pduEnd - q < 8 ? valueBytes : q > pduEnd && q - pduEnd < 8 ? valueBytes : -1;
}

/** Bytes `record` encodes to. */
export function encodedDatumPduLength(record: DatumPduRecord): number {
  const base = datumPduFixedBytes(record.pduType);
  if (record.pduType === PduType.DATA_QUERY) return base + 4 * (record.fixedDatumCount + record.variableDatumCount);
  let length = base + FIXED_DATUM_BYTES * record.fixedDatumCount;
  for (let i = 0; i < record.variableDatumCount; i++) {
    length += VARIABLE_DATUM_HEADER_BYTES + paddedTo64Bits(variableDatumValueBytes(record.variableDatumBits[i]!));
  }
  return length;
}

/**
 * Writes `record` as the datum PDU its `pduType` (16–22) names, at `offset` in `out`: variable datum values zero
 * padded to 64 bits, their lengths in bits as the record holds them.
 * @returns the bytes written, or minus a status: `-UNSUPPORTED_VERSION`, `-BUFFER_TOO_SMALL`, `-WRONG_PDU_TYPE`
 *   (`pduType` not 16–22), `-TOO_MANY_PARAMETERS` (counts beyond the record's arrays, a length over 65535 bytes).
 */
export function encodeDatumPduInto(out: Uint8Array, record: DatumPduRecord, offset = 0): number {
  const type = record.pduType;
  if (!(type >= 16 && type <= 22)) return -CodecStatus.WRONG_PDU_TYPE;
  const fixedCount = record.fixedDatumCount;
  const variableCount = record.variableDatumCount;
  if (
    !(fixedCount >= 0 && fixedCount <= record.fixedDatumIds.length) ||
    !(variableCount >= 0 && variableCount <= record.variableDatumIds.length)
  ) {
    return -CodecStatus.TOO_MANY_PARAMETERS;
  }
  const length = encodedDatumPduLength(record);
  if (length > 0xffff) return -CodecStatus.TOO_MANY_PARAMETERS;
  const refusal = encodeRefusal(out, record, offset, length);
  if (refusal !== 0) return refusal;
  const v = writeViews.of(out);
  writeHeader(v, offset, record, type, length);
  writeEntityId(v, offset + 12, record.originatingId);
  writeEntityId(v, offset + 18, record.receivingId);
  if (type !== PduType.COMMENT) {
    const first = type === PduType.EVENT_REPORT ? record.eventType : record.requestId;
    const second =
      type === PduType.ACTION_REQUEST
        ? record.actionId
        : type === PduType.ACTION_RESPONSE
          ? record.requestStatus
          : type === PduType.DATA_QUERY
            ? record.timeInterval
            : 0;
    v.setUint32(offset + 24, first);
    v.setUint32(offset + 28, second);
  }
  v.setUint32(offset + countsAt(type), fixedCount);
  v.setUint32(offset + countsAt(type) + 4, variableCount);
  let q = offset + datumPduFixedBytes(type);
  if (type === PduType.DATA_QUERY) {
    for (let i = 0; i < fixedCount; i++, q += 4) v.setUint32(q, record.fixedDatumIds[i]!);
    for (let i = 0; i < variableCount; i++, q += 4) v.setUint32(q, record.variableDatumIds[i]!);
    return length;
  }
  for (let i = 0; i < fixedCount; i++, q += FIXED_DATUM_BYTES) {
    v.setUint32(q, record.fixedDatumIds[i]!);
    v.setUint32(q + 4, record.fixedDatumValues[i]!);
  }
  for (let i = 0; i < variableCount; i++) {
    const bits = record.variableDatumBits[i]!;
    const n = variableDatumValueBytes(bits);
    v.setUint32(q, record.variableDatumIds[i]!);
    v.setUint32(q + 4, bits);
    fields.copyBytes(
      out,
      q + VARIABLE_DATUM_HEADER_BYTES,
      record.variableDatumValues,
      record.variableDatumOffsets[i]!,
      n,
    );
    const padded = paddedTo64Bits(n);
    out.fill(0, q + VARIABLE_DATUM_HEADER_BYTES + n, q + VARIABLE_DATUM_HEADER_BYTES + padded);
    q += VARIABLE_DATUM_HEADER_BYTES + padded;
  }
  return length;
}
