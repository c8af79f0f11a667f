/**
 * The pieces every PDU's JSON form is built from and read back into: the header, ids, vectors, entity types, hex.
 * The plain-object side of the codecs: it allocates, and is meant for tools, tests and events, not hot paths.
 */
import { bytesToHex, hexInto } from '../wire/bytes.js';
import type { ClockTimeFields, EntityIdFields, EventIdFields, PduHeaderFields } from '../wire/pdu-fields.js';
import type { ClockTime, EventId, PduStatusBitsJson } from '../schema/pdu-schemas.js';
import { pduStatusBits } from '../wire/pdu-status.js';
import type { DisTimestamp, EntityId, EntityType, Vec3Tuple } from '../schema/schema.js';
import { isAbsoluteTimestamp, secondsPastHourFromTimestamp } from '../wire/timestamp.js';

/** The header fields of every JSON form. */
export interface HeaderJson {
  protocolVersion: number;
  exerciseId: number;
  pduType: number;
  protocolFamily: number;
  timestamp: DisTimestamp;
  length: number;
  pduStatus: number;
  statusBits?: PduStatusBitsJson | undefined;
}

export function timestampJson(raw: number): DisTimestamp {
  return { raw, absolute: isAbsoluteTimestamp(raw), secondsPastHour: secondsPastHourFromTimestamp(raw) };
}

export function headerToJson(record: PduHeaderFields): HeaderJson {
  const header: HeaderJson = {
    protocolVersion: record.protocolVersion,
    exerciseId: record.exerciseId,
    pduType: record.pduType,
    protocolFamily: record.protocolFamily,
    timestamp: timestampJson(record.timestampRaw),
    length: record.length,
    pduStatus: record.pduStatus,
  };
  const bits = pduStatusBits(record.pduType, record.protocolVersion, record.pduStatus);
  if (bits !== undefined) header.statusBits = bits;
  return header;
}

/** Fills the header of `out` from the JSON form (the Length is the encoder's to compute). */
export function headerFromJson(out: PduHeaderFields, pdu: HeaderJson): void {
  out.protocolVersion = pdu.protocolVersion;
  out.exerciseId = pdu.exerciseId;
  out.pduType = pdu.pduType;
  out.protocolFamily = pdu.protocolFamily;
  out.timestampRaw = pdu.timestamp.raw;
  out.pduStatus = pdu.pduStatus;
}

export function entityIdJson(id: EntityIdFields): EntityId {
  return { site: id.site, application: id.application, entity: id.entity };
}

export function entityIdInto(out: EntityIdFields, id: EntityId): void {
  out.site = id.site;
  out.application = id.application;
  out.entity = id.entity;
}

export function eventIdJson(id: EventIdFields): EventId {
  return { site: id.site, application: id.application, eventNumber: id.eventNumber };
}

export function eventIdInto(out: EventIdFields, id: EventId): void {
  out.site = id.site;
  out.application = id.application;
  out.eventNumber = id.eventNumber;
}

export function clockTimeJson(time: ClockTimeFields): ClockTime {
  return {
    hour: time.hour,
    timePastHour: time.timePastHour,
    secondsPastHour: secondsPastHourFromTimestamp(time.timePastHour),
  };
}

export function clockTimeInto(out: ClockTimeFields, time: ClockTime): void {
  out.hour = time.hour;
  out.timePastHour = time.timePastHour;
}

export function vec3Json(v: Float64Array, at = 0): Vec3Tuple {
  return [v[at]!, v[at + 1]!, v[at + 2]!];
}

export function vec3Into(out: Float64Array, v: readonly number[], at = 0): void {
  out[at] = v[0]!;
  out[at + 1] = v[1]!;
  out[at + 2] = v[2]!;
}

export function entityTypeJson(t: Uint16Array): EntityType {
  return {
    kind: t[0]!,
    domain: t[1]!,
    country: t[2]!,
    category: t[3]!,
    subcategory: t[4]!,
    specific: t[5]!,
    extra: t[6]!,
  };
}

export function entityTypeInto(out: Uint16Array, t: EntityType): void {
  out[0] = t.kind;
  out[1] = t.domain;
  out[2] = t.country;
  out[3] = t.category;
  out[4] = t.subcategory;
  out[5] = t.specific;
  out[6] = t.extra;
}

/** Hex of `count` bytes of `bytes` from `start`. */
export function hexOf(bytes: Uint8Array, start: number, count: number): string {
  return bytesToHex(bytes, start, start + count);
}

/**
 * Writes hex text into `out` at `offset`.
 * @returns the number of bytes.
 * @throws RangeError when `out` has no room for them.
 */
export function hexIntoChecked(out: Uint8Array, offset: number, hex: string, what: string): number {
  const n = hex.length >>> 1;
  if (offset + n > out.length)
    throw new RangeError(`${what}: ${n} bytes do not fit the record's ${out.length - offset}`);
  return hexInto(out, offset, hex, n);
}

/** The bytes as text when every one is printable ASCII (trailing zeros ignored), else undefined. */
export function printableText(bytes: Uint8Array, start: number, count: number): string | undefined {
  let end = start + count;
  while (end > start && bytes[end - 1] === 0) end--;
  if (end === start) return undefined;
  let text = '';
  for (let i = start; i < end; i++) {
    const c = bytes[i]!;
    if (c < 0x20 || c > 0x7e) return undefined;
    text += String.fromCharCode(c);
  }
  return text;
}
