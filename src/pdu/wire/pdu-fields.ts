/**
 * What every PDU codec beyond Entity State shares: the header every record carries, the small records PDUs are made
 * of (Entity Identifier, Event Identifier, Entity Type, Clock Time, vectors) and their big-endian readers and
 * writers, and the checks a decoder makes before it writes anything. IEEE 1278.1-2012 §6.2 (records), §6.2.66
 * (header); the same bytes in v5 (1278.1-1995 §5.2) and v6. Nothing here allocates.
 */
import * as constants from './constants.js';
import * as status from './status.js';

const { HEADER_BYTES, MAX_PROTOCOL_VERSION, MIN_PROTOCOL_VERSION } = constants;
const { CodecStatus } = status;
type CodecStatus = status.CodecStatus;

/** The 12-byte PDU header (§6.2.66) as every record holds it. */
export class PduHeaderFields {
  /** 5, 6 or 7. Defaults to 7 (IEEE 1278.1-2012). */
  protocolVersion = 7;
  exerciseId = 0;
  pduType = 0;
  protocolFamily = 0;
  /** Raw 32-bit timestamp field: units since the hour × 2 + absolute flag. */
  timestampRaw = 0;
  /** The Length field as decoded; the encoders compute their own. */
  length = 0;
  /** v7 PDU status byte (§6.2.67); 0 for v5/v6, whose byte 10 is padding. */
  pduStatus = 0;

  constructor(pduType: number, protocolFamily: number) {
    this.pduType = pduType;
    this.protocolFamily = protocolFamily;
  }
}

/** Entity Identifier record (§6.2.28): 6 bytes. Also the Object, Munition and Radio Reference identifiers. */
export class EntityIdFields {
  site = 0;
  application = 0;
  entity = 0;
}

/** Event Identifier record (§6.2.34): 6 bytes. */
export class EventIdFields {
  site = 0;
  application = 0;
  eventNumber = 0;
}

/** Clock Time record (§6.2.14): hours since 1970-01-01 (or of the exercise) and a DIS timestamp past that hour. */
export class ClockTimeFields {
  /** Signed 32-bit hour. */
  hour = 0;
  /** Raw timestamp: time units past the hour × 2 + absolute flag (§6.2.88). */
  timePastHour = 0;
}

/** Every check a decoder makes before it writes, as the Entity State decoder does: size, version, type, Length. */
export function checkHeader(
  bytes: Uint8Array,
  offset: number,
  end: number,
  type: number,
  minBytes: number,
): CodecStatus {
  const remaining = Math.min(end, bytes.length) - offset;
  if (!(offset >= 0) || remaining < HEADER_BYTES) return CodecStatus.TRUNCATED;
  const version = bytes[offset]!;
  if (version < MIN_PROTOCOL_VERSION || version > MAX_PROTOCOL_VERSION) return CodecStatus.UNSUPPORTED_VERSION;
  if (bytes[offset + 2] !== type) return CodecStatus.WRONG_PDU_TYPE;
  const length = lengthOf(bytes, offset, end);
  if (length > remaining) return CodecStatus.TRUNCATED;
  if (length < minBytes) return CodecStatus.BAD_LENGTH;
  return CodecStatus.OK;
}

/**
 * The Length of the PDU at `offset`: its Length field, or for a field of 0 the rest of the datagram, as the
 * framing reads it (`pduLengthAt`, src/pdu/wire/header.ts).
 */
export function lengthOf(bytes: Uint8Array, offset: number, end: number): number {
  return (bytes[offset + 8]! << 8) | bytes[offset + 9]! || Math.min(end, bytes.length) - offset;
}

/**
 * Reads the header at `p`, with `length` from `lengthOf`. Byte 10 is the PDU status from v7 on; before that it is
 * padding, read as 0.
 */
export function readHeader(out: PduHeaderFields, v: DataView, p: number, length: number): void {
  const word = v.getUint32(p);
  const version = word >>> 24;
  out.protocolVersion = version;
  out.exerciseId = (word >>> 16) & 0xff;
  out.pduType = (word >>> 8) & 0xff;
  out.protocolFamily = word & 0xff;
  out.timestampRaw = v.getUint32(p + 4);
  out.length = length;
  out.pduStatus = version >= 7 ? v.getUint8(p + 10) : 0;
}

/**
 * Writes the header at `p` with the given type and Length; v5/v6 get zero padding where v7 has the PDU status.
 * Integers are written modulo their field width.
 */
export function writeHeader(v: DataView, p: number, record: PduHeaderFields, type: number, length: number): void {
  const version = record.protocolVersion;
  v.setUint32(p, (version << 24) | ((record.exerciseId & 0xff) << 16) | (type << 8) | (record.protocolFamily & 0xff));
  v.setUint32(p + 4, record.timestampRaw);
  v.setUint32(p + 8, (length << 16) | ((version >= 7 ? record.pduStatus & 0xff : 0) << 8));
}

/** Whether a record's version can be encoded (5, 6 or 7). */
export function encodableVersion(record: PduHeaderFields): boolean {
  const version = record.protocolVersion;
  return version >= MIN_PROTOCOL_VERSION && version <= MAX_PROTOCOL_VERSION;
}

export function readEntityId(out: EntityIdFields, v: DataView, p: number): void {
  const word = v.getUint32(p);
  out.site = word >>> 16;
  out.application = word & 0xffff;
  out.entity = v.getUint16(p + 4);
}

export function writeEntityId(v: DataView, p: number, id: EntityIdFields): void {
  v.setUint32(p, ((id.site & 0xffff) << 16) | (id.application & 0xffff));
  v.setUint16(p + 4, id.entity);
}

export function readEventId(out: EventIdFields, v: DataView, p: number): void {
  const word = v.getUint32(p);
  out.site = word >>> 16;
  out.application = word & 0xffff;
  out.eventNumber = v.getUint16(p + 4);
}

export function writeEventId(v: DataView, p: number, id: EventIdFields): void {
  v.setUint32(p, ((id.site & 0xffff) << 16) | (id.application & 0xffff));
  v.setUint16(p + 4, id.eventNumber);
}

/** Entity Type record (§6.2.30), 8 bytes: kind, domain, country (16 bits), category, subcategory, specific, extra. */
export function readEntityType(out: Uint16Array, v: DataView, p: number): void {
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

export function writeEntityType(v: DataView, p: number, t: Uint16Array): void {
  v.setUint32(p, ((t[0]! & 0xff) << 24) | ((t[1]! & 0xff) << 16) | t[2]!);
  v.setUint32(p + 4, ((t[3]! & 0xff) << 24) | ((t[4]! & 0xff) << 16) | ((t[5]! & 0xff) << 8) | (t[6]! & 0xff));
}

/** Three float32 (a velocity, an offset in entity coordinates). */
export function readVec3F32(out: Float64Array, v: DataView, p: number): void {
  out[0] = v.getFloat32(p);
  out[1] = v.getFloat32(p + 4);
  out[2] = v.getFloat32(p + 8);
}

export function writeVec3F32(v: DataView, p: number, vec: Float64Array): void {
  const x = vec[0]!,
    y = vec[1]!,
    z = vec[2]!;
  v.setFloat32(p, x);
  v.setFloat32(p + 4, y);
  v.setFloat32(p + 8, z);
}

/** Three float64 (a world location, ECEF metres). */
export function readVec3F64(out: Float64Array, v: DataView, p: number): void {
  out[0] = v.getFloat64(p);
  out[1] = v.getFloat64(p + 8);
  out[2] = v.getFloat64(p + 16);
}

export function writeVec3F64(v: DataView, p: number, vec: Float64Array): void {
  const x = vec[0]!,
    y = vec[1]!,
    z = vec[2]!;
  v.setFloat64(p, x);
  v.setFloat64(p + 8, y);
  v.setFloat64(p + 16, z);
}

export function readClockTime(out: ClockTimeFields, v: DataView, p: number): void {
  out.hour = v.getInt32(p);
  out.timePastHour = v.getUint32(p + 4);
}

export function writeClockTime(v: DataView, p: number, time: ClockTimeFields): void {
  v.setInt32(p, time.hour);
  v.setUint32(p + 4, time.timePastHour);
}

/** Copies `count` bytes one by one: `set(subarray(…))` would allocate a view per call. */
export function copyBytes(to: Uint8Array, toOffset: number, from: Uint8Array, fromOffset: number, count: number): void {
  for (let i = 0; i < count; i++) to[toOffset + i] = from[fromOffset + i]!;
}

/** The checks of a fixed-size PDU: the header's, then a Length of exactly `size`. */
export function checkFixedSize(
  bytes: Uint8Array,
  offset: number,
  end: number,
  type: number,
  size: number,
): CodecStatus {
  const check = checkHeader(bytes, offset, end, type, size);
  if (check !== CodecStatus.OK) return check;
  return lengthOf(bytes, offset, end) === size ? CodecStatus.OK : CodecStatus.BAD_LENGTH;
}

/**
 * Why `record` cannot be written in `size` bytes at `offset` of `out`: 0 when it can, else minus the status
 * (`-UNSUPPORTED_VERSION`, `-BUFFER_TOO_SMALL`), as the encoders return it.
 */
export function encodeRefusal(out: Uint8Array, record: PduHeaderFields, offset: number, size: number): number {
  if (!encodableVersion(record)) return -CodecStatus.UNSUPPORTED_VERSION;
  return offset >= 0 && offset + size <= out.length ? 0 : -CodecStatus.BUFFER_TOO_SMALL;
}
