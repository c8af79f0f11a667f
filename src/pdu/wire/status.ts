/**
 * Codec status codes. Decoders never throw on wire data: they return one of these, and a socket handler counts
 * it (`rejected[code]++`). Each code has a name (stable, printed in JSON) and a human message (for the CLI).
 * Codes 1–6, 17 and 18 come from the codecs (the bytes cannot be read as the PDU); codes 7–16 from
 * `validateEntityState` (the PDU reads, but its values cannot describe an entity: docs/pdu-validation.md).
 * Codes never change meaning; new ones are appended.
 */

export const CodecStatus = {
  OK: 0,
  /** Fewer bytes than the header or the Length field needs. */
  TRUNCATED: 1,
  /** The Length field disagrees with the PDU's own structure (e.g. 144 + 16·n for an Entity State PDU). */
  BAD_LENGTH: 2,
  UNSUPPORTED_VERSION: 3,
  /** A valid header of another PDU type. */
  NOT_ENTITY_STATE: 4,
  /** More variable parameter records than the destination record holds. */
  TOO_MANY_PARAMETERS: 5,
  /** Encoding: the destination buffer has no room for the PDU. */
  BUFFER_TOO_SMALL: 6,
  /** Site, application or entity number 0: NO_SITE / NO_APPLIC / NO_ENTITY (IEEE 1278.1 Entity Identifier record). */
  ENTITY_ID_NONE: 7,
  /** Site, application or entity number 65535: ALL_SITES / ALL_APPLIC / ALL_ENTITIES, an address, not an entity. */
  ENTITY_ID_ALL: 8,
  /** A location coordinate is NaN or ±Infinity. */
  LOCATION_NOT_FINITE: 9,
  /** A location coordinate is beyond ±1e9 m (24 times the geostationary orbit's radius). */
  LOCATION_OUT_OF_RANGE: 10,
  /** A linear velocity component is NaN or ±Infinity. */
  VELOCITY_NOT_FINITE: 11,
  /** Linear speed above 1e5 m/s (nine times Earth's escape velocity). */
  VELOCITY_OUT_OF_RANGE: 12,
  /** An orientation angle is NaN or ±Infinity. */
  ORIENTATION_NOT_FINITE: 13,
  /** DR algorithm outside 0–9 (SISO-REF-010 UID 44: 0 Other, 1 Static, 2–9 the DRM models). */
  DR_ALGORITHM_INVALID: 14,
  /** A DR linear acceleration component is NaN or ±Infinity. */
  ACCELERATION_NOT_FINITE: 15,
  /** A DR angular velocity component is NaN or ±Infinity. */
  ANGULAR_VELOCITY_NOT_FINITE: 16,
  /** A valid header of another PDU type than the decoder called reads (the decoders of the other PDU types). */
  WRONG_PDU_TYPE: 17,
  /**
   * A record inside the PDU whose own count or length disagrees with the PDU: a variable datum, an emission system
   * or beam, a transmitter's parameters, a signal's data length running past the Length field or short of it.
   */
  BAD_RECORD_LENGTH: 18,
} as const;
export type CodecStatus = (typeof CodecStatus)[keyof typeof CodecStatus];

/** The name of a `CodecStatus` code, e.g. `TRUNCATED`. */
export type CodecStatusName = keyof typeof CodecStatus;

/** Code → name, e.g. `CODEC_STATUS_NAMES[1] === 'TRUNCATED'`. */
export const CODEC_STATUS_NAMES: readonly CodecStatusName[] = Object.keys(CodecStatus) as CodecStatusName[];

/** Code → a sentence for people: what is wrong and, where it helps, what to check. */
export const CODEC_STATUS_MESSAGES: Readonly<Record<CodecStatusName, string>> = {
  OK: 'decoded',
  TRUNCATED: 'the datagram ends before the PDU does (a header needs 12 bytes, then as many as its Length field says)',
  BAD_LENGTH:
    'the Length field disagrees with the layout of its PDU type (each type has sizes of its own; every PDU holds at least its 12-byte header)',
  UNSUPPORTED_VERSION: 'protocol version not supported: reckon reads DIS 5 (1995), 6 (1998) and 7 (2012)',
  NOT_ENTITY_STATE: 'not an Entity State PDU (type 1) or Entity State Update PDU (type 67)',
  TOO_MANY_PARAMETERS: 'too many variable parameter or datum records for the destination record (raise its capacity)',
  BUFFER_TOO_SMALL: 'the destination buffer is too small for the encoded PDU',
  ENTITY_ID_NONE: 'site, application or entity number is 0 (NO_SITE / NO_APPLIC / NO_ENTITY): not an entity',
  ENTITY_ID_ALL: 'site, application or entity number is 65535 (ALL_SITES / ALL_APPLIC / ALL_ENTITIES): not an entity',
  LOCATION_NOT_FINITE: 'a location coordinate is NaN or infinite',
  LOCATION_OUT_OF_RANGE: 'a location coordinate is beyond ±1e9 m from the centre of the Earth',
  VELOCITY_NOT_FINITE: 'a linear velocity component is NaN or infinite',
  VELOCITY_OUT_OF_RANGE: 'linear speed above 1e5 m/s',
  ORIENTATION_NOT_FINITE: 'an orientation angle is NaN or infinite',
  DR_ALGORITHM_INVALID: 'dead-reckoning algorithm outside 0–9',
  ACCELERATION_NOT_FINITE: 'a dead-reckoning linear acceleration component is NaN or infinite',
  ANGULAR_VELOCITY_NOT_FINITE: 'a dead-reckoning angular velocity component is NaN or infinite',
  WRONG_PDU_TYPE: 'a PDU of another type than the decoder reads',
  BAD_RECORD_LENGTH:
    'a record inside the PDU (variable datum, emission system or beam, modulation parameters, signal data) disagrees with the Length field',
};

/**
 * Whether a status comes from `validateEntityState` (the PDU decoded, but its values cannot describe an entity)
 * rather than from the codec (the bytes do not read as an Entity State PDU).
 */
export function isValidationStatus(code: number): boolean {
  return code >= CodecStatus.ENTITY_ID_NONE && code <= CodecStatus.ANGULAR_VELOCITY_NOT_FINITE;
}

/** The name of a status code, or `UNKNOWN_<n>` for a number that is not one. */
export function codecStatusName(code: number): string {
  return CODEC_STATUS_NAMES[code] ?? `UNKNOWN_${code}`;
}

/** The human message of a status code. */
export function codecStatusMessage(code: number): string {
  const name = CODEC_STATUS_NAMES[code];
  return name === undefined ? `unknown status ${code}` : CODEC_STATUS_MESSAGES[name];
}

/** Thrown by the plain-object API (`decodeEntityState`) when a PDU cannot be decoded. */
export class PduDecodeError extends Error {
  /** Status name, e.g. `TRUNCATED`. */
  readonly code: CodecStatusName;
  /** Byte offset in the PDU of the field found wrong (for `TRUNCATED`, where the bytes ran out). */
  readonly offset: number;
  /** @param message - what is wrong, when the status's own message is not precise enough (`pduStatusMessage`). */
  constructor(status: CodecStatus, offset: number, message?: string) {
    const code = CODEC_STATUS_NAMES[status]!;
    super(`${message ?? CODEC_STATUS_MESSAGES[code]} (at byte ${offset})`);
    this.name = 'PduDecodeError';
    this.code = code;
    this.offset = offset;
  }
}
