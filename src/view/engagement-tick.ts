/**
 * The engagement messages of one gateway tick (shots, entity control, radios: src/view/engagement-messages.ts),
 * each encoded once and sent to every client in the tick's one write, in arrival order among the tick's PDUs, and
 * like them held back from a client over its high-water mark. What such a client misses is counted; a missed
 * message that changes what a page holds (entity control, a radio) makes the gateway greet the client again once it
 * drains (hello, radios and freezes in force, snapshot), so its page starts over from the truth.
 */
import type { EngagementMessage } from './engagement-messages.js';
import { encodeMessage } from './protocol.js';

/** Engagement messages a tick holds before it is sent early. */
export const TICK_MESSAGES = 4096;

export class EngagementTick {
  count = 0;
  /** Bytes of the messages held (their UTF-8 text). */
  byteLength = 0;
  /** Message `k` as UTF-8 JSON text. */
  readonly text: Buffer[] = [];
  /** Its exercise (a filter by exercise takes or leaves it). */
  readonly exercise = new Int32Array(TICK_MESSAGES);
  /** 1 when missing it would leave a page wrong (entity control, radios), 0 for a shot, burst or collision. */
  readonly changesState = new Uint8Array(TICK_MESSAGES);
  /** How many of the tick's PDUs came before it. */
  readonly afterPdus = new Int32Array(TICK_MESSAGES);
  /** Whether one of the messages `missed` last counted changes what a page holds. */
  missedChangesState = false;

  /** Whether a message of `bytes` more does not fit beside `pduBytes` of PDUs (the tick is then sent early). */
  isFull(bytes: number, pduBytes: number, maxBytes: number): boolean {
    return this.count === TICK_MESSAGES || pduBytes + this.byteLength + bytes > maxBytes;
  }

  /** Encodes a message as the text to send. */
  static encode(message: EngagementMessage): Buffer {
    return Buffer.from(encodeMessage(message));
  }

  /** Adds an encoded message that came after `afterPdus` of the tick's PDUs; the caller has checked `isFull` first. */
  add(message: EngagementMessage, text: Buffer, afterPdus: number): void {
    const k = this.count++;
    this.text[k] = text;
    this.exercise[k] = message.exercise;
    this.changesState[k] = message.type === 'entity-control' || message.type === 'radio' ? 1 : 0;
    this.afterPdus[k] = afterPdus;
    this.byteLength += text.length;
  }

  /** Whether message `k` goes to a client whose filter takes `exercise` (null: every exercise). */
  takes(k: number, exercise: number | null): boolean {
    return exercise === null || this.exercise[k] === exercise;
  }

  /** How many messages of this tick a client whose filter takes `exercise` does not get (it is congested). */
  missed(exercise: number | null): number {
    let n = 0;
    this.missedChangesState = false;
    for (let k = 0; k < this.count; k++) {
      if (!this.takes(k, exercise)) continue;
      n++;
      if (this.changesState[k] === 1) this.missedChangesState = true;
    }
    return n;
  }

  /** Empties it after a tick. */
  clear(): void {
    this.text.length = 0;
    this.count = 0;
    this.byteLength = 0;
  }
}
