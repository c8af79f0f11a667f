/**
 * Every DIS PDU in a capture: frames → UDP datagrams → PDUs (bundles split by Length) → records (Entity State, and
 * every other type, src/pdu/wire/any-pdu.ts).
 * Malformed frames and PDUs are counted and reported, never fatal.
 */
import { type AnyPduRecord, PduRecords } from '../pdu/wire/any-pdu.js';
import { HeaderOffset, PduType } from '../pdu/wire/constants.js';
import { decodeEntityStateOrUpdateInto } from '../pdu/wire/entity-state-decoder.js';
import { EntityStateRecord } from '../pdu/wire/entity-state-record.js';
import { forEachPdu, lengthFieldIsZero, looksLikeDis, type PduVisitor } from '../pdu/wire/header.js';
import { CodecStatus, codecStatusName, isValidationStatus } from '../pdu/wire/status.js';
import { validateEntityState } from '../pdu/checks/validate.js';
import { udpFromFrame, type SkipReason } from './packet.js';
import type { Capture, CaptureFrame } from './reader.js';

/** Options of `disCapturePdus`. */
export interface DisCaptureOptions {
  /** Only datagrams from or to this UDP port, every one of them decoded as DIS. Defaults to any port, where a
   * datagram counts as DIS when its first bytes look like a DIS header (version 1–7, Length 0 or ≥ 12). */
  readonly port?: number;
}

/** One PDU, or one rejected piece of a datagram. */
export interface DisPduEvent {
  readonly frame: number;
  /** Capture time, seconds since the Unix epoch. */
  readonly timeSeconds: number;
  /** Where the PDU starts in the UDP payload. */
  readonly offset: number;
  /** From the header; -1 when not even the type byte was there. */
  readonly pduType: number;
  /** The Length field (for a field of 0, the rest of the datagram); -1 when the header was cut short. */
  readonly length: number;
  /**
   * OK, or why this PDU (and for a bad header, the rest of the datagram) was rejected: the same codes, in the same
   * order, as a subscriber's (decode, then `validateEntityState`).
   */
  readonly status: CodecStatus;
  /** For an Entity State (1) or Update (67) PDU decoded and valid: the record, reused for the next event. */
  readonly record: EntityStateRecord | undefined;
  /**
   * For a PDU of any other type that decoded (src/pdu/wire/any-pdu.ts; an unknown type as an `OtherPduRecord`): its
   * record, reused for the next PDU of the type. Undefined otherwise.
   */
  readonly other?: AnyPduRecord | undefined;
  /**
   * For an Entity State or Update PDU that decoded but failed validation: the record exactly as on the wire (NaN
   * and all), for diagnostics; reused for the next event. Undefined otherwise.
   */
  readonly rejectedRecord?: EntityStateRecord | undefined;
}

/** Counters over a capture: frames, datagrams, PDUs and what was skipped. */
export interface DisCaptureTotals {
  frames: number;
  /** Frames without a readable UDP datagram, by reason. */
  skipped: Partial<Record<SkipReason, number>>;
  udpDatagrams: number;
  /** UDP datagrams not taken as DIS (other port, or not DIS-looking). */
  otherDatagrams: number;
  disDatagrams: number;
  pdus: number;
  pdusByType: Record<number, number>;
  /** Rejections by status name. */
  rejected: Record<string, number>;
  /** PDUs read in spite of a fault, by the transport's warning names (`WARNING_REASONS`, src/transport/transport.ts). */
  warnings: { lengthZero: number };
}

export function emptyTotals(): DisCaptureTotals {
  return {
    frames: 0,
    skipped: {},
    udpDatagrams: 0,
    otherDatagrams: 0,
    disDatagrams: 0,
    pdus: 0,
    pdusByType: {},
    rejected: {},
    warnings: { lengthZero: 0 },
  };
}

/**
 * Walks a capture and yields each DIS PDU in order, counting everything into `totals`.
 * @param capture - from `readCapture`, or frames (a piece of a capture read by `CaptureParser`).
 * @param totals - counters to add to. Defaults to new ones (read the PDUs only).
 */
export function* disCapturePdus(
  capture: Capture | Iterable<CaptureFrame>,
  totals: DisCaptureTotals = emptyTotals(),
  options: DisCaptureOptions = {},
): Generator<DisPduEvent> {
  const record = new EntityStateRecord();
  const records = new PduRecords();
  // Where each PDU of the datagram at hand starts and how long it is, as pairs; refilled per datagram.
  const spans: number[] = [];
  const collect: PduVisitor = (bytes, offset, length) => {
    if (lengthFieldIsZero(bytes, offset)) totals.warnings.lengthZero++;
    spans.push(offset, length);
  };
  for (const frame of 'frames' in capture ? capture.frames : capture) {
    totals.frames++;
    const udp = udpFromFrame(frame.linkType, frame.data);
    if (udp.kind === 'skip') {
      totals.skipped[udp.reason] = (totals.skipped[udp.reason] ?? 0) + 1;
      continue;
    }
    totals.udpDatagrams++;
    const payload = udp.payload;
    const wanted =
      options.port === undefined
        ? looksLikeDis(payload)
        : udp.sourcePort === options.port || udp.destinationPort === options.port;
    if (!wanted) {
      totals.otherDatagrams++;
      continue;
    }
    totals.disDatagrams++;
    spans.length = 0;
    const framing = forEachPdu(payload, collect);
    for (let i = 0; i < spans.length; i += 2) {
      const offset = spans[i]!,
        length = spans[i + 1]!;
      const pduType = payload[offset + HeaderOffset.PDU_TYPE]!;
      totals.pdus++;
      totals.pdusByType[pduType] = (totals.pdusByType[pduType] ?? 0) + 1;
      let status: CodecStatus = CodecStatus.OK;
      let decoded: EntityStateRecord | undefined;
      let rejectedRecord: EntityStateRecord | undefined;
      let other: AnyPduRecord | undefined;
      if (pduType === PduType.ENTITY_STATE || pduType === PduType.ENTITY_STATE_UPDATE) {
        status = decodeEntityStateOrUpdateInto(record, payload, offset, offset + length);
        // As a subscriber does (src/stream/subscriber-receiver.ts): what decodes is then checked for values no entity
        // has.
        if (status === CodecStatus.OK) status = validateEntityState(record);
        if (status === CodecStatus.OK) decoded = record;
        else totals.rejected[codecStatusName(status)] = (totals.rejected[codecStatusName(status)] ?? 0) + 1;
        if (isValidationStatus(status)) rejectedRecord = record;
      } else {
        status = records.decode(payload, offset, offset + length);
        if (status === CodecStatus.OK) other = records.record;
        else totals.rejected[codecStatusName(status)] = (totals.rejected[codecStatusName(status)] ?? 0) + 1;
      }
      const at = { frame: frame.number, timeSeconds: frame.timeSeconds, offset, pduType };
      yield { ...at, length, status, record: decoded, rejectedRecord, other };
    }
    if (framing !== CodecStatus.OK) {
      // A header we cannot trust, right after the last PDU found: nothing after it in the datagram can be located.
      const offset = spans.length === 0 ? 0 : spans[spans.length - 2]! + spans[spans.length - 1]!;
      const pduType = offset + HeaderOffset.PDU_TYPE < payload.length ? payload[offset + HeaderOffset.PDU_TYPE]! : -1;
      const lengthEnd = offset + HeaderOffset.LENGTH + 2;
      const length = lengthEnd <= payload.length ? (payload[lengthEnd - 2]! << 8) | payload[lengthEnd - 1]! : -1;
      totals.rejected[codecStatusName(framing)] = (totals.rejected[codecStatusName(framing)] ?? 0) + 1;
      const at = { frame: frame.number, timeSeconds: frame.timeSeconds, offset, pduType };
      yield { ...at, length, status: framing, record: undefined };
    }
  }
}
