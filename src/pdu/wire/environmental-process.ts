/**
 * Environmental Process PDU (type 41, IEEE 1278.1-2012 §7.10.2; 1278.1A-1998 §5.3.11.1): the header of an
 * environmental process (weather, smoke, obscurants) and its environment records kept as bytes. Decoded into a
 * reused record, encoded into a caller's buffer; decoding allocates nothing.
 */
import { DataViewCache } from './bytes.js';
import * as fields from './pdu-fields.js';
import { EntityIdFields, PduHeaderFields } from './pdu-fields.js';
import * as status from './status.js';

const { checkHeader, encodeRefusal, lengthOf, readHeader, readEntityId, readEntityType } = fields;
const { writeHeader, writeEntityId, writeEntityType, copyBytes } = fields;
const { CodecStatus } = status;
type CodecStatus = status.CodecStatus;

/** Environmental Process PDU before its environment records. */
export const ENVIRONMENTAL_PROCESS_PDU_BYTES = 32;

/** An Environmental Process PDU as reusable fields, its environment records kept as bytes. */
export class EnvironmentalProcessRecord extends PduHeaderFields {
  readonly processId = new EntityIdFields();
  /** Environment type: kind, domain, class, category, subcategory, specific, extra (an Entity Type record). */
  readonly environmentType = new Uint16Array(7);
  /** SISO-REF-010 UID 248. */
  modelType = 0;
  /** Bit 0: this is the last PDU of the process; bit 1: the process is active. */
  environmentStatus = 0;
  recordCount = 0;
  sequenceNumber = 0;
  recordBytes = 0;
  /** The environment records as on the wire. */
  readonly records: Uint8Array;

  /** @param maxRecordBytes - bytes of records this instance holds. Defaults to all a PDU can carry. */
  constructor(maxRecordBytes = 0xffff - ENVIRONMENTAL_PROCESS_PDU_BYTES) {
    super(41, 9);
    this.records = new Uint8Array(maxRecordBytes);
  }
}

const readViews = new DataViewCache();
const writeViews = new DataViewCache();

/**
 * Decodes an Environmental Process PDU into `out`; everything after the first 32 bytes is its records.
 * @returns OK, TRUNCATED, UNSUPPORTED_VERSION, WRONG_PDU_TYPE, BAD_LENGTH (under 32 bytes) or TOO_MANY_PARAMETERS.
 */
export function decodeEnvironmentalProcessInto(
  out: EnvironmentalProcessRecord,
  bytes: Uint8Array,
  offset = 0,
  end = bytes.length,
): CodecStatus {
  const check = checkHeader(bytes, offset, end, 41, ENVIRONMENTAL_PROCESS_PDU_BYTES);
  if (check !== CodecStatus.OK) return check;
  const held = lengthOf(bytes, offset, end) - ENVIRONMENTAL_PROCESS_PDU_BYTES;
  if (held > out.records.length) return CodecStatus.TOO_MANY_PARAMETERS;
  const v = readViews.of(bytes);
  const p = offset;
  readHeader(out, v, p, lengthOf(bytes, p, end));
  readEntityId(out.processId, v, p + 12);
  readEntityType(out.environmentType, v, p + 18);
  out.modelType = bytes[p + 26]!;
  out.environmentStatus = bytes[p + 27]!;
  out.recordCount = v.getUint16(p + 28);
  out.sequenceNumber = v.getUint16(p + 30);
  out.recordBytes = held;
  copyBytes(out.records, 0, bytes, p + ENVIRONMENTAL_PROCESS_PDU_BYTES, held);
  return CodecStatus.OK;
}

/**
 * Writes `record` as an Environmental Process PDU at `offset` in `out`, its records as held.
 * @returns the bytes written, or minus a status: `-UNSUPPORTED_VERSION`, `-BUFFER_TOO_SMALL`, `-BAD_RECORD_LENGTH`.
 */
export function encodeEnvironmentalProcessInto(
  out: Uint8Array,
  record: EnvironmentalProcessRecord,
  offset = 0,
): number {
  const held = record.recordBytes;
  if (!(held >= 0 && held <= record.records.length && held + ENVIRONMENTAL_PROCESS_PDU_BYTES <= 0xffff)) {
    return -CodecStatus.BAD_RECORD_LENGTH;
  }
  const length = ENVIRONMENTAL_PROCESS_PDU_BYTES + held;
  const refusal = encodeRefusal(out, record, offset, length);
  if (refusal !== 0) return refusal;
  const v = writeViews.of(out);
  const p = offset;
  writeHeader(v, p, record, 41, length);
  writeEntityId(v, p + 12, record.processId);
  writeEntityType(v, p + 18, record.environmentType);
  v.setUint16(p + 26, ((record.modelType & 0xff) << 8) | (record.environmentStatus & 0xff));
  v.setUint32(p + 28, ((record.recordCount & 0xffff) << 16) | (record.sequenceNumber & 0xffff));
  copyBytes(out, p + ENVIRONMENTAL_PROCESS_PDU_BYTES, record.records, 0, held);
  return length;
}
