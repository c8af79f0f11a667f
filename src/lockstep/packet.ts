/**
 * The lockstep datagram: acknowledgement, redundant inputs, an optional state checksum and an optional reliable
 * section. Layout (big-endian; 8 bytes of header):
 *
 * | offset | size | field |
 * |---|---|---|
 * | 0 | 1 | magic 0x4C ('L') |
 * | 1 | 1 | flags: bit 0 ack present, bit 1 checksum present, bit 2 reliable section present |
 * | 2 | 2 | ack: sequence of the newest peer input held (0 when absent) |
 * | 4 | 2 | sequence of the newest input in this packet |
 * | 6 | 2 | count of inputs in this packet |
 * | 8 | 6 | checksum: u16 frame sequence, u32 state checksum after that frame (if flagged) |
 * | … | n | reliable section (see reliable.ts, if flagged) |
 * | … | … | inputs, bit-packed, MSB first: the oldest in full (6 bits); then per following input one bit, 1 = same as the previous, 0 = changed and its 6 bits follow; zero-padded to a byte |
 *
 * With 120 inputs the input bits take at most 6 + 119 · 7 = 839 bits (105 bytes: 90 bytes of inputs and 15 of
 * flags), and an unchanged input costs one bit.
 */
import { BitReader, BitWriter } from '../compression/bit-io.js';
import { INPUT_BITS } from './input.js';
import { MAX_INPUT_WINDOW, type InputRun, type InputSender } from './input-window.js';
import { reliableSectionLength, type ReliableEndpoint } from './reliable.js';
import { toSequence } from './sequence.js';

export const PACKET_MAGIC = 0x4c;
export const PACKET_HEADER_BYTES = 8;
const HAS_ACK = 1;
const HAS_CHECKSUM = 2;
const HAS_RELIABLE = 4;

/** Decoder results. */
export const PacketStatus = {
  OK: 0,
  TRUNCATED: 1,
  BAD_MAGIC: 2,
  UNKNOWN_FLAGS: 3,
  /** More inputs than the receiver's window allows. */
  BAD_COUNT: 4,
  BAD_RELIABLE_SECTION: 5,
  /** Bytes left over after the inputs. */
  BAD_LENGTH: 6,
} as const;
export type PacketStatus = (typeof PacketStatus)[keyof typeof PacketStatus];
export const PACKET_STATUS_NAMES = Object.keys(PacketStatus) as (keyof typeof PacketStatus)[];

/** Bits the input section needs for the sender's current window. */
export function inputSectionBits(sender: InputSender): number {
  const count = sender.count;
  if (count === 0) return 0;
  let bits = INPUT_BITS;
  let previous = sender.inputAt(sender.oldestFrame);
  for (let frame = sender.oldestFrame + 1; frame < sender.nextFrame; frame++) {
    const input = sender.inputAt(frame);
    bits += input === previous ? 1 : 1 + INPUT_BITS;
    previous = input;
  }
  return bits;
}

/** Writes lockstep packets into one reusable buffer (msgpack style: the result is a view, valid until the next call). */
export class LockstepPacketEncoder {
  private readonly bytes: Uint8Array;
  private readonly writer: BitWriter;
  /** Bits of the input section of the last packet. */
  inputBits = 0;

  /** @param maxBytes - buffer size. Defaults to 1400 (the smallest MTU DIS assumes). */
  constructor(maxBytes = 1400) {
    this.bytes = new Uint8Array(maxBytes);
    this.writer = new BitWriter(this.bytes);
  }

  /**
   * Encodes one packet.
   * @param ackSequence - newest peer input held (16-bit), or −1 for none yet.
   * @param sender - the un-acknowledged inputs; all of them are sent.
   * @param checksumFrame - frame whose checksum is sent, or −1 for none.
   * @param checksum - the state checksum after `checksumFrame`.
   * @param reliable - the reliable channel riding on this stream, if any.
   * @returns the packet bytes, or `undefined` when it would not fit the buffer.
   */
  encode(
    ackSequence: number,
    sender: InputSender,
    checksumFrame = -1,
    checksum = 0,
    reliable?: ReliableEndpoint,
  ): Uint8Array | undefined {
    const b = this.bytes;
    b[0] = PACKET_MAGIC;
    b[1] = (ackSequence >= 0 ? HAS_ACK : 0) | (checksumFrame >= 0 ? HAS_CHECKSUM : 0) | (reliable ? HAS_RELIABLE : 0);
    const ack = ackSequence >= 0 ? ackSequence : 0;
    b[2] = ack >>> 8;
    b[3] = ack & 0xff;
    const newest = toSequence(sender.nextFrame - 1);
    b[4] = newest >>> 8;
    b[5] = newest & 0xff;
    b[6] = sender.count >>> 8;
    b[7] = sender.count & 0xff;
    let at = PACKET_HEADER_BYTES;
    if (checksumFrame >= 0) {
      const frame = toSequence(checksumFrame);
      b[at] = frame >>> 8;
      b[at + 1] = frame & 0xff;
      b[at + 2] = checksum >>> 24;
      b[at + 3] = (checksum >>> 16) & 0xff;
      b[at + 4] = (checksum >>> 8) & 0xff;
      b[at + 5] = checksum & 0xff;
      at += 6;
    }
    if (reliable) {
      at = reliable.writeSection(b, at);
      if (at < 0) return undefined;
    }
    const w = this.writer.reset(b.subarray(at));
    this.inputBits = 0;
    if (sender.count > 0) {
      let previous = sender.inputAt(sender.oldestFrame);
      w.write(previous, INPUT_BITS);
      for (let frame = sender.oldestFrame + 1; frame < sender.nextFrame; frame++) {
        const input = sender.inputAt(frame);
        if (input === previous) {
          w.writeBit(1);
        } else {
          w.writeBit(0);
          w.write(input, INPUT_BITS);
          previous = input;
        }
      }
      this.inputBits = w.bitLength;
      w.alignToByte();
    }
    if (w.overflowed) return undefined;
    return b.subarray(0, at + w.byteLength);
  }
}

/** A decoded packet; one instance is reused for every packet. */
export class DecodedLockstepPacket implements InputRun {
  ackSequence = -1;
  newestSequence = 0;
  count = 0;
  readonly inputs: Uint8Array;
  checksumSequence = -1;
  checksum = 0;
  /** Offset of the reliable section in the decoded bytes, or −1. */
  reliableOffset = -1;

  /** @param maxInputs - most inputs accepted in one packet. Defaults to 1024. */
  constructor(readonly maxInputs = MAX_INPUT_WINDOW) {
    this.inputs = new Uint8Array(maxInputs);
  }
}

const reader = new BitReader();

/**
 * Decodes a datagram into `out`. Never throws; on any status but OK the contents of `out` are unspecified.
 */
export function decodeLockstepPacket(bytes: Uint8Array, out: DecodedLockstepPacket): PacketStatus {
  if (bytes.length < PACKET_HEADER_BYTES) return PacketStatus.TRUNCATED;
  if (bytes[0] !== PACKET_MAGIC) return PacketStatus.BAD_MAGIC;
  const flags = bytes[1]!;
  if (flags & ~(HAS_ACK | HAS_CHECKSUM | HAS_RELIABLE)) return PacketStatus.UNKNOWN_FLAGS;
  out.ackSequence = flags & HAS_ACK ? (bytes[2]! << 8) | bytes[3]! : -1;
  out.newestSequence = (bytes[4]! << 8) | bytes[5]!;
  const count = (bytes[6]! << 8) | bytes[7]!;
  if (count > out.maxInputs) return PacketStatus.BAD_COUNT;
  out.count = count;
  let at = PACKET_HEADER_BYTES;
  out.checksumSequence = -1;
  if (flags & HAS_CHECKSUM) {
    if (at + 6 > bytes.length) return PacketStatus.TRUNCATED;
    out.checksumSequence = (bytes[at]! << 8) | bytes[at + 1]!;
    out.checksum = ((bytes[at + 2]! << 24) | (bytes[at + 3]! << 16) | (bytes[at + 4]! << 8) | bytes[at + 5]!) >>> 0;
    at += 6;
  }
  out.reliableOffset = -1;
  if (flags & HAS_RELIABLE) {
    const length = reliableSectionLength(bytes, at);
    if (length < 0) return PacketStatus.BAD_RELIABLE_SECTION;
    out.reliableOffset = at;
    at += length;
  }
  const r = reader.reset(bytes.subarray(at));
  if (count > 0) {
    let previous = r.read(INPUT_BITS);
    out.inputs[0] = previous;
    for (let i = 1; i < count; i++) {
      if (!r.readBit()) previous = r.read(INPUT_BITS);
      out.inputs[i] = previous;
    }
    if (r.overrun) return PacketStatus.TRUNCATED;
    r.alignToByte();
  }
  return r.remaining === 0 ? PacketStatus.OK : PacketStatus.BAD_LENGTH;
}
