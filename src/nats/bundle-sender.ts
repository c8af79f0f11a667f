/**
 * The send side of the NATS transport (docs/nats.md): each PDU copied into the message of its subject, in chunks
 * reused once the client has written them out, and every message published at the end of the tick; a copy of an
 * Entity State PDU also goes to the cell its entity left.
 */
import { headers as natsHeaders, type MsgHdrs, type NatsConnection } from '@nats-io/transport-node';
import { HeaderOffset, PduType } from '../pdu/wire/constants.js';
import type { TransportStats } from '../transport/transport.js';
import { SLOT_STATE_INTS, createRoute, type SubjectSlot } from './route.js';
import { LEFT_CELL_HEADER, NEW_CELL_HEADER } from './subject-names.js';
import { SubjectRouter } from './subjects.js';
import type { NatsStats } from './stats.js';

/**
 * A subject's bundle, the PDUs waiting to be published together to it, in its slot's state
 * (`SubjectRouter.slotState`): while `BUNDLE_TICK` is the transport's tick, they are the transport's message
 * `BUNDLE_MESSAGE` of this tick (`BundleSender.messageBytes`…); `BUNDLE_LAST_BYTES` is the bytes of the subject's
 * message so far, or of its last: the room reserved for its next one.
 */
const BUNDLE_TICK = 0,
  BUNDLE_MESSAGE = 1,
  BUNDLE_LAST_BYTES = 2;
/** The last tick before they start again from 1 (`BundleSender.nextTick`). */
const MAX_TICK = 0x7fffffff;

/** A subject's slot (made by `BundlingRouter`). */
interface Bundle extends SubjectSlot {
  /**
   * The publish options of a left-cell copy whose entity is now in this slot's cell (`leftCopyOptions`), made at
   * the first such copy. The client encodes the headers when it is called and never changes them, so one object
   * serves every copy: making and filling a header object is the dearest step of a copy.
   */
  leftCopyOptions: { headers: MsgHdrs } | undefined;
  /** The subjects of the left-cell copies of this slot's entities, by the cell left (made at the first one). */
  leftSubjects: Map<string, string> | undefined;
}

/** A router whose subject slots are bundles. */
export class BundlingRouter extends SubjectRouter {
  protected override newSlot(subject: string, cell: string | undefined): Bundle {
    return { subject, cell, leftCopyOptions: undefined, leftSubjects: undefined };
  }
}

/** A copy bound for the cell its entity left. */
interface LeftCopy {
  subject: string;
  options: { headers: MsgHdrs };
  /** Where its bytes lie: the chunk (its place in the tick's chunks), start and length. */
  chunk: number;
  start: number;
  length: number;
}

/** Left-cell subjects a bundle keeps at most (`Bundle.leftSubjects`): a cell has six neighbours. */
const MAX_LEFT_SUBJECTS = 16;

/** Publish options of a copy sent to the cell its entity left for `newCell` (docs/nats.md). */
function leftCopyOptions(newCell: string): { headers: MsgHdrs } {
  const headers = natsHeaders();
  headers.set(LEFT_CELL_HEADER, '1');
  headers.set(NEW_CELL_HEADER, newCell);
  return { headers };
}

/** Bytes of a PDU header. */
export const HEADER_BYTES = 12;
/** First length of the per-message lists of a tick; they grow as a tick needs. */
const FIRST_MESSAGES = 1024;
/**
 * Size of the buffers PDUs are copied into. The client holds each payload until it writes it out, so a buffer
 * whose bytes were handed out is not written over until the server has answered a flush (PING) sent after them:
 * the client writes in order, so by then it has written them out. Below the size the C library serves from its
 * heap rather than from fresh pages of the system, which would fault on first touch.
 */
const CHUNK_BYTES = 64 * 1024;
/**
 * Full chunks are reused in groups of this many: one flush (a round trip to the server) per 512 KiB of PDUs.
 * Reusing them spares the allocation of a chunk, its first touch and the work of collecting it.
 */
const CHUNKS_PER_FLUSH = 8;
/**
 * Chunks kept for reuse at most (32 MiB), enough for a burst of 100 000 Entity State PDUs, which frees none of its
 * chunks before it ends; beyond, full ones are left to the garbage collector (docs/nats.md, "Cost per PDU").
 */
const MAX_FREE_CHUNKS = 512;

/** A chunk of `size` bytes, not zeroed (every byte published is written first), as a plain Uint8Array. */
function newChunk(size: number): Uint8Array {
  return new Uint8Array(Buffer.allocUnsafeSlow(size).buffer, 0, size);
}

/**
 * Copies `length` bytes from `source[from…]` to `target[to…]` (`target` starts its ArrayBuffer). Four bytes at a
 * time through Int32Array views of the whole buffers when both ends are 4-aligned (a quarter of the steps of a
 * byte loop, and unlike `set(subarray(…))` no view is made per copy), else byte by byte.
 * @param source32 - an Int32Array over the start of `source.buffer`.
 */
function copyBytes(
  source: Uint8Array,
  source32: Int32Array<ArrayBufferLike>,
  from: number,
  target: Uint8Array,
  target32: Int32Array<ArrayBufferLike>,
  to: number,
  length: number,
): void {
  let k = 0;
  const absolute = source.byteOffset + from;
  if (((absolute | to) & 3) === 0 && absolute + length <= source32.length * 4) {
    const words = length >> 2,
      s = absolute >> 2,
      t = to >> 2;
    let w = 0;
    // Four words a step: fewer loop checks per PDU (docs/benchmarks.md).
    for (; w + 4 <= words; w += 4) {
      target32[t + w] = source32[s + w]!;
      target32[t + w + 1] = source32[s + w + 1]!;
      target32[t + w + 2] = source32[s + w + 2]!;
      target32[t + w + 3] = source32[s + w + 3]!;
    }
    for (; w < words; w++) target32[t + w] = source32[s + w]!;
    k = words << 2;
  }
  for (; k < length; k++) target[to + k] = source[from + k]!;
}

/** Bundles the PDUs sent in a tick by subject and publishes them (`NatsTransport.send`). */
export class BundleSender {
  /**
   * Where PDUs are copied as they are sent (the caller may reuse its buffer once `send` returns), each into the room
   * its bundle reserved: `chunk[chunkUsed…]` is free; the bytes before may be payloads the client holds.
   */
  private chunk = newChunk(CHUNK_BYTES);
  /** Full chunks not yet flushed, and chunks free again (`CHUNKS_PER_FLUSH`). */
  private readonly fullChunks: Uint8Array[] = [];
  private readonly freeChunks: Uint8Array[] = [];
  private readonly freeChunks32: Int32Array[] = [];
  private chunk32 = new Int32Array(this.chunk.buffer, 0, CHUNK_BYTES >> 2);
  private chunkUsed = 0;
  /**
   * The chunks PDUs of this tick were copied into (the current one last), an Int32Array over each (`copyBytes`)
   * and the buffer of each (a message's payload is a view of it, `publishMessage`). A message names its chunk by
   * its place here.
   */
  private readonly tickChunks: Uint8Array[] = [this.chunk];
  private readonly tickChunks32: Int32Array[] = [this.chunk32];
  private readonly tickBuffers: ArrayBufferLike[] = [this.chunk.buffer];
  /**
   * The caller's last buffer, and an Int32Array over it for `copyBytes` (made again when the buffer changes; asked
   * once per datagram: reading `.buffer` of a typed array is a call).
   */
  private sourceBuffer: ArrayBufferLike | undefined;
  private source32: Int32Array<ArrayBufferLike> = new Int32Array(0);
  /**
   * The messages of this tick, one per subject in the order of its first PDU: subject, chunk, start, bytes and room
   * reserved (its PDUs lie next to each other at `start`). Lists rather than fields of the bundles, so publishing
   * them reads memory in order.
   */
  private tick = 1;
  private messageCount = 0;
  private readonly messageSubjects: string[] = [];
  private messageChunk = new Int32Array(FIRST_MESSAGES);
  private messageStart = new Int32Array(FIRST_MESSAGES);
  private messageBytes = new Int32Array(FIRST_MESSAGES);
  private messageRoom = new Int32Array(FIRST_MESSAGES);
  private readonly leftCopies: LeftCopy[] = [];
  private flushQueued = false;
  private readonly route = createRoute();

  constructor(
    private readonly connection: NatsConnection,
    private readonly router: BundlingRouter,
    private readonly maxMessageBytes: number,
    private readonly stats: TransportStats,
    private readonly natsStats: NatsStats,
  ) {}

  /** Splits a datagram into its PDUs and copies each into its subject's message, published at the end of the tick. */
  send(datagram: Uint8Array, length = datagram.length): void {
    const route = this.route;
    if (datagram.buffer !== this.sourceBuffer) {
      this.sourceBuffer = datagram.buffer;
      this.source32 = new Int32Array(datagram.buffer, 0, datagram.buffer.byteLength >> 2);
    }
    let offset = 0;
    while (offset < length) {
      const remaining = length - offset;
      const pduLength = remaining >= HEADER_BYTES ? (datagram[offset + 8]! << 8) | datagram[offset + 9]! : 0;
      if (pduLength < HEADER_BYTES || pduLength > remaining) {
        // Not a whole PDU (the caller's bug, not wire data): counted, and the rest of the datagram is not sent.
        this.stats.sendErrors++;
        this.stats.sendFailure ??= 'a datagram to send holds a PDU whose Length field does not fit the datagram';
        return;
      }
      const slot = this.router.routeSlot(datagram, offset, pduLength, route);
      if (route.cell === undefined) {
        const type = datagram[offset + HeaderOffset.PDU_TYPE];
        if (type === PduType.ENTITY_STATE || type === PduType.ENTITY_STATE_UPDATE) this.natsStats.unroutable++;
      } else if (route.leftCell !== undefined) {
        this.queueLeftCopy(datagram, offset, pduLength, slot, route.cell, route.leftCell);
      }
      this.stage(slot, datagram, offset, pduLength);
      offset += pduLength;
    }
    if (!this.flushQueued) {
      this.flushQueued = true;
      queueMicrotask(this.flush);
    }
  }

  /** Queues a copy of the PDU for the cell its entity left (sent after the bundles, docs/nats.md). */
  private queueLeftCopy(
    bytes: Uint8Array,
    offset: number,
    length: number,
    slot: number,
    cell: string,
    leftCell: string,
  ): void {
    // The router is a BundlingRouter: its slots are bundles.
    const bundle = this.router.slot(slot) as Bundle;
    const subjects = (bundle.leftSubjects ??= new Map());
    let oldSubject = subjects.get(leftCell);
    if (oldSubject === undefined) {
      // The old cell's subject differs from the new one only in its CELL token.
      const subject = bundle.subject;
      const prefixEnd = this.router.prefix.length + 1;
      const exerciseEnd = subject.indexOf('.', prefixEnd);
      const rest = subject.slice(exerciseEnd + 1 + cell.length);
      oldSubject = `${subject.slice(0, exerciseEnd + 1)}${leftCell}${rest}`;
      if (subjects.size >= MAX_LEFT_SUBJECTS) subjects.clear();
      subjects.set(leftCell, oldSubject);
    }
    // Copied into the chunk as the bundles' PDUs (`send` made `source32` for this datagram's buffer).
    const start = this.reserve(length);
    copyBytes(bytes, this.source32, offset, this.chunk, this.chunk32, start, length);
    bundle.leftCopyOptions ??= leftCopyOptions(cell);
    this.leftCopies.push({
      subject: oldSubject,
      options: bundle.leftCopyOptions,
      chunk: this.tickChunks.length - 1,
      start,
      length,
    });
  }

  /**
   * Copies a PDU to the end of its subject's message. A message's first PDU reserves room for as many bytes as the
   * subject's last message had (mostly the same number of PDUs each tick); a message that outgrows its room moves
   * to room twice as large.
   */
  private stage(slot: number, bytes: Uint8Array, offset: number, length: number): void {
    const state = this.router.slotState,
      k = slot * SLOT_STATE_INTS;
    let m = state[k + BUNDLE_MESSAGE]!,
      used = 0;
    if (state[k + BUNDLE_TICK] !== this.tick) {
      m = this.messageCount++;
      if (m === this.messageStart.length) this.growMessages();
      state[k + BUNDLE_TICK] = this.tick;
      state[k + BUNDLE_MESSAGE] = m;
      this.messageSubjects[m] = this.router.subjectOf(slot);
      this.messageBytes[m] = 0;
      this.messageRoom[m] = 0;
    } else {
      used = this.messageBytes[m]!;
      // A full message goes out now; the subject's next PDUs start another in its place.
      if (used > 0 && used + length > this.maxMessageBytes) {
        this.publishMessage(m);
        used = 0;
      }
    }
    let chunk: number, start: number;
    if (used + length > this.messageRoom[m]!) {
      const room = used === 0 ? Math.max(length, state[k + BUNDLE_LAST_BYTES]!) : Math.max(used + length, 2 * used);
      start = this.reserve(room);
      chunk = this.tickChunks.length - 1;
      if (used > 0) {
        const from = this.messageChunk[m]!;
        copyBytes(
          this.tickChunks[from]!,
          this.tickChunks32[from]!,
          this.messageStart[m]!,
          this.chunk,
          this.chunk32,
          start,
          used,
        );
      }
      this.messageChunk[m] = chunk;
      this.messageStart[m] = start;
      this.messageRoom[m] = room;
    } else {
      chunk = this.messageChunk[m]!;
      start = this.messageStart[m]!;
    }
    // `send` made `source32` for this datagram's buffer.
    copyBytes(bytes, this.source32, offset, this.tickChunks[chunk]!, this.tickChunks32[chunk]!, start + used, length);
    this.messageBytes[m] = used + length;
    state[k + BUNDLE_LAST_BYTES] = used + length;
  }

  /**
   * Starts the next tick. Ticks are 32-bit integers in the slots' state: at the last one, every bundle's tick is
   * cleared and they start again from 1 (a slot made since is at 0, so not in any tick).
   */
  private nextTick(): void {
    if (this.tick < MAX_TICK) {
      this.tick++;
      return;
    }
    this.tick = 1;
    const state = this.router.slotState;
    for (let k = 0; k < state.length; k += SLOT_STATE_INTS) state[k + BUNDLE_TICK] = 0;
  }

  private growMessages(): void {
    const size = this.messageStart.length * 2;
    const grow = (from: Int32Array) => {
      const to = new Int32Array(size);
      to.set(from);
      return to;
    };
    this.messageChunk = grow(this.messageChunk);
    this.messageStart = grow(this.messageStart);
    this.messageBytes = grow(this.messageBytes);
    this.messageRoom = grow(this.messageRoom);
  }

  /** Where in the chunk `length` bytes go (4-aligned, for `copyBytes`); takes a new chunk when it is full. */
  private reserve(length: number): number {
    const at = (this.chunkUsed + 3) & ~3;
    if (at + length <= this.chunk.length) {
      this.chunkUsed = at + length;
      return at;
    }
    const size = Math.max(CHUNK_BYTES, (length + 3) & ~3);
    const free = size === CHUNK_BYTES ? this.freeChunks.pop() : undefined;
    if (free !== undefined) {
      this.chunk = free;
      this.chunk32 = this.freeChunks32.pop()!;
    } else {
      this.chunk = newChunk(size);
      this.chunk32 = new Int32Array(this.chunk.buffer, 0, size >> 2);
    }
    this.tickChunks.push(this.chunk);
    this.tickChunks32.push(this.chunk32);
    this.tickBuffers.push(this.chunk.buffer);
    this.chunkUsed = length;
    return 0;
  }

  /**
   * Keeps a full chunk, all of whose payloads the client has been handed, for reuse: each `CHUNKS_PER_FLUSH` of
   * them are free again once the server has answered a flush asked after that (the client writes in order, so it
   * has written them out). A flush that fails (the connection closed) leaves them to the garbage collector.
   */
  private retire(chunk: Uint8Array): void {
    const full = this.fullChunks;
    full.push(chunk);
    if (full.length < CHUNKS_PER_FLUSH) return;
    const group = full.splice(0);
    let flushed: Promise<void>;
    try {
      flushed = this.connection.flush();
    } catch {
      return;
    }
    flushed.then(
      () => {
        for (const c of group) {
          if (this.freeChunks.length >= MAX_FREE_CHUNKS) break;
          this.freeChunks.push(c);
          this.freeChunks32.push(new Int32Array(c.buffer, 0, CHUNK_BYTES >> 2));
        }
      },
      () => {},
    );
  }

  /** Publishes message `m` of this tick, a view of its chunk, and empties it. */
  private publishMessage(m: number): void {
    const bytes = this.messageBytes[m]!;
    const start = this.messageStart[m]!;
    // Made by the constructor rather than `subarray`, which looks up the constructor of the species first (half
    // the cost of a view per message). A chunk starts its ArrayBuffer (`newChunk`).
    const payload = new Uint8Array(this.tickBuffers[this.messageChunk[m]!]!, start, bytes);
    this.messageBytes[m] = 0;
    this.messageRoom[m] = 0;
    this.publish(this.messageSubjects[m]!, payload);
  }

  private publish(subject: string, payload: Uint8Array, options?: Parameters<NatsConnection['publish']>[2]): void {
    try {
      this.connection.publish(subject, payload, options);
      this.natsStats.messagesOut++;
      this.stats.datagramsOut++;
      this.stats.bytesOut += payload.length;
    } catch (error) {
      // The connection is closed or draining: counted, never thrown.
      this.failed(error instanceof Error ? error.message : String(error));
    }
  }

  /**
   * Publishes what waits in the bundles, then the left-cell copies. Called at the end of each tick.
   * Each message is a view of a chunk (`CHUNK_BYTES`): nothing is allocated per PDU.
   */
  readonly flush = (): void => {
    this.flushQueued = false;
    const count = this.messageCount;
    for (let m = 0; m < count; m++) if (this.messageBytes[m]! > 0) this.publishMessage(m);
    this.messageCount = 0;
    this.nextTick();
    for (const copy of this.leftCopies) {
      this.publish(copy.subject, new Uint8Array(this.tickBuffers[copy.chunk]!, copy.start, copy.length), copy.options);
      this.natsStats.leftCellCopiesOut++;
    }
    this.leftCopies.length = 0;
    // The chunks of the tick but the current one are full, and every payload in them has been handed to the client.
    const chunks = this.tickChunks;
    for (let k = 0; k < chunks.length - 1; k++) if (chunks[k]!.length === CHUNK_BYTES) this.retire(chunks[k]!);
    this.tickChunks.length = 0;
    this.tickChunks.push(this.chunk);
    this.tickChunks32.length = 0;
    this.tickChunks32.push(this.chunk32);
    this.tickBuffers.length = 0;
    this.tickBuffers.push(this.chunk.buffer);
  };

  /** Counts a send that failed, keeping the first reason. */
  failed(reason: string): void {
    this.stats.sendErrors++;
    this.stats.sendFailure ??= reason;
  }
}
