/**
 * Reliable messages piggybacked on an unreliable stream. Each outgoing stream packet carries a small section:
 * the newest message id delivered from the peer (the acknowledgement), the newest id queued here (the "high
 * water"), and one queued message (taking turns among the un-acknowledged ones, so a burst drains at one message
 * per packet, not one per round trip). Messages are resent until acknowledged and delivered exactly once, in order.
 *
 * Ordering guarantee: a packet's unreliable payload may be used only when every reliable message queued before
 * that packet was sent has been delivered (`unreliableAllowed`), so a reliable message always arrives before the
 * first unreliable message sent after it. Payloads that arrive too early are dropped, as an unreliable stream may.
 *
 * Section layout (big-endian): u8 flags (bit 0 ack, bit 1 high water, bit 2 message), [u16 ack],
 * [u16 high water], [u16 id, u8 length, length bytes].
 */
import { toSequence, unwrapSequence } from './sequence.js';

const HAS_ACK = 1;
const HAS_HIGH_WATER = 2;
const HAS_MESSAGE = 4;

export const ReliableStatus = {
  /** The section ends early or has unknown flags. */
  MALFORMED: -1,
} as const;

/**
 * Bytes of the reliable section at `offset`, or `ReliableStatus.MALFORMED`. Never throws.
 */
export function reliableSectionLength(bytes: Uint8Array, offset: number): number {
  if (offset + 1 > bytes.length) return ReliableStatus.MALFORMED;
  const flags = bytes[offset]!;
  if (flags & ~(HAS_ACK | HAS_HIGH_WATER | HAS_MESSAGE)) return ReliableStatus.MALFORMED;
  let length = 1 + (flags & HAS_ACK ? 2 : 0) + (flags & HAS_HIGH_WATER ? 2 : 0);
  if (flags & HAS_MESSAGE) {
    if (offset + length + 3 > bytes.length) return ReliableStatus.MALFORMED;
    length += 3 + bytes[offset + length + 2]!;
  }
  return offset + length > bytes.length ? ReliableStatus.MALFORMED : length;
}

/** Options of a `ReliableEndpoint`. */
export interface ReliableOptions {
  /** Most messages queued and not yet acknowledged; `send` refuses more. Defaults to 64. */
  readonly maxQueued?: number;
  /** Most messages held for out-of-order delivery. Defaults to 64. */
  readonly maxPending?: number;
}

/** Counters of one endpoint. */
export interface ReliableStats {
  sent: number;
  resent: number;
  delivered: number;
  duplicates: number;
  /** Received too far ahead to hold; the peer resends them. */
  droppedAhead: number;
  /** Stream packets whose unreliable payload was withheld because an earlier reliable message was missing. */
  unreliableWithheld: number;
}

/** One end of the channel: sends, acknowledges and delivers. Time-free and socket-free. */
export class ReliableEndpoint {
  readonly stats: ReliableStats = {
    sent: 0,
    resent: 0,
    delivered: 0,
    duplicates: 0,
    droppedAhead: 0,
    unreliableWithheld: 0,
  };
  /** After `readSection`: whether that packet's unreliable payload may be used. */
  unreliableAllowed = true;

  private readonly maxQueued: number;
  private readonly maxPending: number;
  private readonly outgoing: (Uint8Array | undefined)[];
  private readonly attempts: Uint16Array;
  private nextId = 0;
  private oldestUnacked = 0;
  private cursor = 0;
  private readonly pending: (Uint8Array | undefined)[];
  private deliveredThrough = -1;

  constructor(options: ReliableOptions = {}) {
    this.maxQueued = options.maxQueued ?? 64;
    this.maxPending = options.maxPending ?? 64;
    this.outgoing = new Array<Uint8Array | undefined>(this.maxQueued).fill(undefined);
    this.attempts = new Uint16Array(this.maxQueued);
    this.pending = new Array<Uint8Array | undefined>(this.maxPending).fill(undefined);
  }

  /** Messages queued and not yet acknowledged. */
  get queued(): number {
    return this.nextId - this.oldestUnacked;
  }

  /**
   * Queues a message (copied). Returns false when the queue is full or the message exceeds 255 bytes.
   */
  send(message: Uint8Array): boolean {
    if (this.queued >= this.maxQueued || message.length > 255) return false;
    const slot = this.nextId % this.maxQueued;
    this.outgoing[slot] = message.slice();
    this.attempts[slot] = 0;
    this.nextId++;
    return true;
  }

  /** Bytes the next `writeSection` needs at most. */
  sectionBytes(): number {
    return 5 + (this.queued > 0 ? 3 + this.outgoing[this.pickNext() % this.maxQueued]!.length : 0);
  }

  /**
   * Writes this endpoint's section for the next outgoing stream packet.
   * @returns the offset after the section, or −1 (nothing written) when `bytes` is too short.
   */
  writeSection(bytes: Uint8Array, offset: number): number {
    if (offset + this.sectionBytes() > bytes.length) return -1;
    let flags = 0;
    let at = offset + 1;
    if (this.deliveredThrough >= 0) {
      flags |= HAS_ACK;
      at = writeU16(bytes, at, toSequence(this.deliveredThrough));
    }
    if (this.nextId > 0) {
      flags |= HAS_HIGH_WATER;
      at = writeU16(bytes, at, toSequence(this.nextId - 1));
    }
    if (this.queued > 0) {
      const id = this.pickNext();
      this.cursor = id + 1;
      const slot = id % this.maxQueued;
      const message = this.outgoing[slot]!;
      if (this.attempts[slot] === 0) this.stats.sent++;
      else this.stats.resent++;
      this.attempts[slot] = Math.min(0xffff, this.attempts[slot]! + 1);
      flags |= HAS_MESSAGE;
      at = writeU16(bytes, at, toSequence(id));
      bytes[at++] = message.length;
      bytes.set(message, at);
      at += message.length;
    }
    bytes[offset] = flags;
    return at;
  }

  /**
   * Reads the peer's section (validate it first with `reliableSectionLength`): releases acknowledged messages,
   * delivers newly completed ones in order, and sets `unreliableAllowed` for this packet's unreliable payload.
   * @param deliver - called once per message, in send order; the array is valid during the call only.
   */
  readSection(bytes: Uint8Array, offset: number, deliver: (message: Uint8Array) => void): void {
    const flags = bytes[offset]!;
    let at = offset + 1;
    if (flags & HAS_ACK) {
      const acked = unwrapSequence(readU16(bytes, at), this.nextId - 1);
      at += 2;
      if (acked >= this.oldestUnacked && acked < this.nextId) {
        for (let id = this.oldestUnacked; id <= acked; id++) this.outgoing[id % this.maxQueued] = undefined;
        this.oldestUnacked = acked + 1;
      }
    }
    let highWater = -1;
    if (flags & HAS_HIGH_WATER) {
      highWater = unwrapSequence(readU16(bytes, at), this.deliveredThrough + 1);
      at += 2;
    }
    if (flags & HAS_MESSAGE) {
      const id = unwrapSequence(readU16(bytes, at), this.deliveredThrough + 1);
      const length = bytes[at + 2]!;
      this.accept(id, bytes.subarray(at + 3, at + 3 + length), deliver);
    }
    this.unreliableAllowed = highWater <= this.deliveredThrough;
    if (!this.unreliableAllowed) this.stats.unreliableWithheld++;
  }

  private accept(id: number, message: Uint8Array, deliver: (message: Uint8Array) => void): void {
    if (id <= this.deliveredThrough) {
      this.stats.duplicates++;
      return;
    }
    if (id > this.deliveredThrough + 1) {
      if (id - this.deliveredThrough - 1 >= this.maxPending) this.stats.droppedAhead++;
      else if (this.pending[id % this.maxPending] === undefined) this.pending[id % this.maxPending] = message.slice();
      else this.stats.duplicates++;
      return;
    }
    this.deliveredThrough = id;
    this.stats.delivered++;
    deliver(message);
    for (;;) {
      const slot = (this.deliveredThrough + 1) % this.maxPending;
      const next = this.pending[slot];
      if (next === undefined) break;
      this.pending[slot] = undefined;
      this.deliveredThrough++;
      this.stats.delivered++;
      deliver(next);
    }
  }

  /** The next message to attach: round robin over the un-acknowledged ones. */
  private pickNext(): number {
    return this.cursor >= this.oldestUnacked && this.cursor < this.nextId ? this.cursor : this.oldestUnacked;
  }
}

function writeU16(bytes: Uint8Array, at: number, value: number): number {
  bytes[at] = value >>> 8;
  bytes[at + 1] = value & 0xff;
  return at + 2;
}

function readU16(bytes: Uint8Array, at: number): number {
  return (bytes[at]! << 8) | bytes[at + 1]!;
}
