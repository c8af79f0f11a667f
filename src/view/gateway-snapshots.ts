/**
 * What the gateway sends a client from its store rather than from the tick: the newest PDUs of the entities marked
 * for it (its snapshot after connecting or changing its filter, or what it missed while congested), filtered
 * server-side by its filter and area, written as feed messages framed in one buffer per batch and one write. A batch
 * fills what the client's socket may take under the gateway's high-water mark; when the socket has taken it (its
 * `drain`), the next batch follows at once instead of at the next tick, so a snapshot of a million entities streams
 * as fast as the client reads (bench/view.bench.ts `view.snapshot1m`). The walk over the marks is bounded per batch,
 * so a client whose filter matches few entities cannot hold the event loop either.
 */
import type { Duplex } from 'node:stream';
import { ecefToGeodeticDegrees } from '../math/geodesy.js';
import { inBbox, matchesAttributes, type CompiledFilter } from './compiled-filter.js';
import type { GatewayEntities, StoredPdu } from './gateway-entities.js';
import { FEED_RECORD_HEADER_BYTES } from './protocol.js';
import type { ViewClient } from './view-client.js';

/** Entity slots one batch walks at most. */
const SLOTS_PER_BATCH = 65_536;
/** The largest feed message of a batch: its frame header is then always 4 bytes (RFC 6455 §5.2, 16-bit length). */
const MESSAGE_BYTES = 65_535;
const FRAME_HEADER_BYTES = 4;

/** Writes a batch's frames to a client (and counts them): the gateway's `writeFrames`. */
export type FrameWriter = (client: ViewClient, frames: Buffer, messages: number, bytes: number) => void;

export class SnapshotSender {
  /** Clients with a batch to come when their socket drains (or at the next turn of the event loop). */
  private readonly waiting = new Set<ViewClient>();
  private readonly pdu: StoredPdu = { bytes: Buffer.alloc(0), offset: 0, length: 0, timeMs: 0 };
  private readonly ecef = new Float64Array(3);
  private readonly geodetic = new Float64Array(3);

  constructor(
    private readonly entities: GatewayEntities,
    /** Unsent bytes on a client's socket above which nothing more is written to it. */
    private readonly highWaterBytes: number,
    private readonly writeFrames: FrameWriter,
    /** Whether the client is still served (open, not closed). */
    private readonly serving: (client: ViewClient) => boolean,
  ) {}

  /** Marks every entity held now for `client`: its snapshot, sent from the next `send`. */
  markAll(client: ViewClient): void {
    client.marks.markWhere(this.entities.active, this.entities.highWater);
  }

  /** Whether an entity's newest state passes a filter; its area by the newest location its PDUs carry. */
  matches(f: CompiledFilter, slot: number): boolean {
    if (f.all) return true;
    const e = this.entities;
    if (!matchesAttributes(f, e.exercise[slot]!, e.force[slot]!, e.kind[slot]!, e.domain[slot]!)) return false;
    if (f.bbox === null) return true;
    const l = e.locationInto(slot, this.ecef, this.pdu);
    ecefToGeodeticDegrees(this.geodetic, l[0]!, l[1]!, l[2]!);
    return inBbox(f.bbox, this.geodetic[0]!, this.geodetic[1]!);
  }

  /**
   * Sends the newest PDUs of the entities marked for `client` that pass its filter, as many as its socket may
   * take; the rest follow when it drains. Unmarks what it sends and what its filter leaves out.
   */
  send(client: ViewClient): void {
    const marks = client.marks;
    if (marks.count === 0 || this.waiting.has(client) || !this.serving(client)) return;
    const budget = this.highWaterBytes - client.socket.bufferedAmount;
    if (budget <= 0) return this.waitForDrain(client, client.connection);
    const frames = Buffer.allocUnsafe(budget + MESSAGE_BYTES + FRAME_HEADER_BYTES);
    const entities = this.entities,
      pdu = this.pdu,
      filter = client.compiled;
    let at = 0,
      message = -1,
      messages = 0,
      payload = 0;
    // Closes the message begun at `message`: its frame header (FIN, binary, 16-bit length).
    const close = (): void => {
      if (message < 0) return;
      const length = at - message - FRAME_HEADER_BYTES;
      frames[message] = 0x82;
      frames[message + 1] = 126;
      frames.writeUInt16BE(length, message + 2);
      payload += length;
      messages++;
      message = -1;
    };
    const record = (): void => {
      const size = FEED_RECORD_HEADER_BYTES + pdu.length;
      if (message >= 0 && at + size - message - FRAME_HEADER_BYTES > MESSAGE_BYTES) close();
      if (message < 0) {
        message = at;
        at += FRAME_HEADER_BYTES;
      }
      frames.writeDoubleBE(pdu.timeMs, at);
      frames.writeUInt16BE(pdu.length, at + 8);
      pdu.bytes.copy(frames, at + FEED_RECORD_HEADER_BYTES, pdu.offset, pdu.offset + pdu.length);
      at += size;
    };
    marks.drain(SLOTS_PER_BATCH, (slot) => {
      if (at >= budget) return false;
      if (!entities.hasFull(slot) || !this.matches(filter, slot)) return true;
      entities.fullPdu(slot, pdu);
      record();
      if (entities.updatePdu(slot, pdu)) record();
      return true;
    });
    close();
    if (messages > 0) this.writeFrames(client, frames.subarray(0, at), messages, payload);
    if (marks.count === 0) return;
    // More to send: when the socket has taken this batch, or (nothing written: a filter that left the walk's slots
    // out) at the next turn of the event loop.
    if (messages > 0) this.waitForDrain(client, client.connection);
    else this.next(client);
  }

  private waitForDrain(client: ViewClient, connection: Duplex): void {
    if (!connection.writableNeedDrain) return this.next(client);
    this.waiting.add(client);
    connection.once('drain', () => {
      this.waiting.delete(client);
      this.send(client);
    });
  }

  private next(client: ViewClient): void {
    this.waiting.add(client);
    setImmediate(() => {
      this.waiting.delete(client);
      this.send(client);
    });
  }
}
