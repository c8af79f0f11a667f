/**
 * Framing: the 12-byte PDU header, the walk over a datagram that bundles several PDUs (each header's Length says
 * where the next begins) and the test for whether a datagram is DIS at all. The one place that reads a datagram's
 * layout: the transport's receiver and the capture reader both call it. Nothing here allocates.
 */
import { HEADER_BYTES, HeaderOffset } from './constants.js';
import { CodecStatus } from './status.js';

/**
 * Checks the header framing of the PDU starting at `offset`. A Length of 0 in a header that is otherwise DIS
 * (version 1–7, a PDU type) is read as the rest of the datagram (`lengthFieldIsZero` tells it apart): senders that
 * leave the field unset (Python opendis's `serialize` writes the 0 its PDUs are built with) send one PDU per
 * datagram, and Wireshark's DIS dissector reads them so. Zero bytes after a PDU remain a bad Length.
 * @param bytes - the datagram.
 * @param offset - where the PDU starts. Defaults to 0.
 * @param end - end of the datagram (exclusive). Defaults to `bytes.length`.
 * @returns the PDU's Length (≥ 12, ≤ what remains), or minus a `CodecStatus`: `-TRUNCATED` when fewer than 12
 *   bytes remain or the Length runs past `end`, `-BAD_LENGTH` when 0 < Length < 12.
 */
export function pduLengthAt(bytes: Uint8Array, offset = 0, end = bytes.length): number {
  const remaining = end - offset;
  if (remaining < HEADER_BYTES) return -CodecStatus.TRUNCATED;
  const length = (bytes[offset + HeaderOffset.LENGTH]! << 8) | bytes[offset + HeaderOffset.LENGTH + 1]!;
  if (length === 0 && headerLooksLikeDis(bytes, offset)) return remaining;
  if (length < HEADER_BYTES) return -CodecStatus.BAD_LENGTH;
  if (length > remaining) return -CodecStatus.TRUNCATED;
  return length;
}

/** Whether the PDU at `offset` has a Length field of 0, read as the rest of the datagram (caller checked the header). */
export function lengthFieldIsZero(bytes: Uint8Array, offset = 0): boolean {
  return bytes[offset + HeaderOffset.LENGTH] === 0 && bytes[offset + HeaderOffset.LENGTH + 1] === 0;
}

/** Protocol version byte of the PDU at `offset` (caller has checked the header is there). */
export function pduProtocolVersionAt(bytes: Uint8Array, offset = 0): number {
  return bytes[offset + HeaderOffset.PROTOCOL_VERSION]!;
}

/** PDU type byte of the PDU at `offset` (caller has checked the header is there). */
export function pduTypeAt(bytes: Uint8Array, offset = 0): number {
  return bytes[offset + HeaderOffset.PDU_TYPE]!;
}

/**
 * Called once per PDU found in a datagram.
 * @param bytes - the datagram.
 * @param offset - where this PDU starts.
 * @param length - its Length field, already checked against the datagram (for a Length of 0, the rest of it).
 * @param pduType - its PDU type byte.
 */
export type PduVisitor = (bytes: Uint8Array, offset: number, length: number, pduType: number) => void;

/**
 * Visits each PDU of a datagram in order, split by the headers' Length fields (IEEE 1278.1 bundling). Stops at the
 * first header that is cut short or whose Length is impossible: nothing after it can be located.
 * Build the visitor once, not per datagram, and the walk allocates nothing.
 * @returns `CodecStatus.OK` when the PDUs fill the datagram exactly, else the status of the bad header (the PDUs
 *   before it have been visited).
 */
export function forEachPdu(bytes: Uint8Array, visit: PduVisitor, offset = 0, end = bytes.length): CodecStatus {
  while (offset < end) {
    const length = pduLengthAt(bytes, offset, end);
    if (length < 0) return -length as CodecStatus;
    visit(bytes, offset, length, bytes[offset + HeaderOffset.PDU_TYPE]!);
    offset += length;
  }
  return CodecStatus.OK;
}

/** Protocol version 1–7 and a non-zero PDU type at `offset` (caller has checked the header is there). */
function headerLooksLikeDis(bytes: Uint8Array, offset: number): boolean {
  const version = bytes[offset + HeaderOffset.PROTOCOL_VERSION]!;
  return version >= 1 && version <= 7 && bytes[offset + HeaderOffset.PDU_TYPE] !== 0;
}

/**
 * Whether a datagram starts like DIS: protocol version 1–7, a non-zero PDU type and a Length of 0 (the rest of the
 * datagram, see `pduLengthAt`) or at least 12. For telling DIS from other traffic on a shared port or in a capture;
 * it says nothing about the rest of the datagram.
 */
export function looksLikeDis(datagram: Uint8Array): boolean {
  if (datagram.length < HEADER_BYTES) return false;
  const length = (datagram[HeaderOffset.LENGTH]! << 8) | datagram[HeaderOffset.LENGTH + 1]!;
  return headerLooksLikeDis(datagram, 0) && (length === 0 || length >= HEADER_BYTES);
}
