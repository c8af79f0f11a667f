/**
 * The feed messages of one write to a client, built in order: PDU records packed into binary feed messages by a
 * `FeedWriter` (src/view/protocol.ts), text messages between them, then framed for the socket in one buffer
 * (src/view/ws-frames.ts). A tick's are built once for every client with the empty filter.
 */
import type { CompiledFilter } from './compiled-filter.js';
import type { EngagementTick } from './engagement-tick.js';
import { FeedWriter } from './protocol.js';
import type { TickBuffer } from './tick-buffer.js';
import { feedFrames, type TickFrames } from './ws-frames.js';

export class FeedMessages {
  private readonly writer = new FeedWriter();
  private messages: Buffer[] = [];
  /** 1 where `messages[i]` is a text message. */
  private text: number[] = [];

  /** Starts the messages of a write. */
  begin(): void {
    this.messages = [];
    this.text = [];
    this.writer.reset();
  }

  /** Adds one PDU record, received at `timeMs`. */
  record(timeMs: number, bytes: Uint8Array, offset: number, length: number): void {
    if (this.writer.add(timeMs, bytes, offset, length)) return;
    this.flush();
    this.writer.add(timeMs, bytes, offset, length);
  }

  /** Adds a text message (after the records before it). */
  textMessage(text: Buffer): void {
    this.flush();
    this.text[this.messages.length] = 1;
    this.messages.push(text);
  }

  /** The messages added since `begin`, framed. */
  end(): TickFrames {
    this.flush();
    const messages = this.messages;
    let bytes = 0;
    for (const message of messages) bytes += message.length;
    return { frames: feedFrames(messages, Uint8Array.from(this.text)), messages: messages.length, bytes };
  }

  /**
   * A tick's records that pass `filter` (all when undefined), with its engagement messages of `exercise` (all when
   * null) between them in arrival order.
   */
  tick(pending: TickBuffer, texts: EngagementTick, filter: CompiledFilter | undefined, exercise: number | null) {
    this.begin();
    let k = 0;
    for (let i = 0; i <= pending.count; i++) {
      for (; k < texts.count && texts.afterPdus[k]! <= i; k++) {
        if (texts.takes(k, exercise)) this.textMessage(texts.text[k]!);
      }
      if (i === pending.count || (filter !== undefined && !pending.matches(filter, i))) continue;
      this.record(pending.timeMs[i]!, pending.bytes, pending.start[i]!, pending.length[i]!);
    }
    return this.end();
  }

  /** Moves the binary message being written, if any, to the list: a copy, as ws may hold it in the socket's queue. */
  private flush(): void {
    if (this.writer.length === 0) return;
    this.messages.push(Buffer.from(this.writer.bytes()));
    this.writer.reset();
  }
}
