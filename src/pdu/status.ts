/**
 * Codec status codes. Decoders never throw on wire data: they return one of these, and a socket handler counts
 * it (`rejected[code]++`). Each code has a name (stable, printed in JSON) and a human message (for the CLI).
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
} as const;
export type CodecStatus = (typeof CodecStatus)[keyof typeof CodecStatus];

export type CodecStatusName = keyof typeof CodecStatus;

/** Code → name, e.g. `CODEC_STATUS_NAMES[1] === 'TRUNCATED'`. */
export const CODEC_STATUS_NAMES: readonly CodecStatusName[] = Object.keys(CodecStatus) as CodecStatusName[];

/** Code → a sentence for people: what is wrong and, where it helps, what to check. */
export const CODEC_STATUS_MESSAGES: Readonly<Record<CodecStatusName, string>> = {
  OK: 'decoded',
  TRUNCATED: 'the datagram ends before the PDU does (a header needs 12 bytes, then as many as its Length field says)',
  BAD_LENGTH: 'the Length field disagrees with the PDU layout (Entity State: 144 + 16 × records; at least 12)',
  UNSUPPORTED_VERSION: 'protocol version not supported: reckon reads DIS 5 (1995), 6 (1998) and 7 (2012)',
  NOT_ENTITY_STATE: 'not an Entity State PDU (type 1) or Entity State Update PDU (type 67)',
  TOO_MANY_PARAMETERS: 'too many variable parameter records for the destination record (raise its capacity)',
  BUFFER_TOO_SMALL: 'the destination buffer is too small for the encoded PDU',
};

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
  constructor(status: CodecStatus, offset: number) {
    const code = CODEC_STATUS_NAMES[status]!;
    super(`${CODEC_STATUS_MESSAGES[code]} (at byte ${offset})`);
    this.name = 'PduDecodeError';
    this.code = code;
    this.offset = offset;
  }
}
