/**
 * Both ends of the redundant input stream. The sender keeps every input the peer has not acknowledged and sends
 * all of them in every packet, so one packet that gets through replaces any number that were lost. The receiver
 * holds the newest contiguous frame and acknowledges it; the sender then forgets everything up to it.
 */
import { INPUT_MASK } from './input.js';
import { toSequence, unwrapSequence } from './sequence.js';

/** Most un-acknowledged inputs a window may hold: keeps the worst-case packet (7 bits per input) under 1 KB. */
export const MAX_INPUT_WINDOW = 1024;

/** The sending side: a ring of un-acknowledged inputs, oldest first. */
export class InputSender {
  /** Oldest input not yet acknowledged. */
  oldestFrame = 0;
  /** Frame of the next input to be pushed. */
  nextFrame = 0;
  private readonly ring: Uint8Array;

  /**
   * @param capacity - most un-acknowledged inputs held (1 to 1024). When the window is full, `push` refuses the
   *   input and the caller holds its simulation: a peer that stays silent that long is timed out first (512 frames
   *   are 8.5 s at 60 Hz, the peer timeout 2 s). Defaults to 512.
   */
  constructor(readonly capacity = 512) {
    if (!Number.isInteger(capacity) || capacity < 1 || capacity > MAX_INPUT_WINDOW) {
      throw new RangeError(`input window must be an integer from 1 to ${MAX_INPUT_WINDOW}, got ${capacity}`);
    }
    this.ring = new Uint8Array(capacity);
  }

  /** Inputs waiting for acknowledgement. */
  get count(): number {
    return this.nextFrame - this.oldestFrame;
  }

  get isFull(): boolean {
    return this.count >= this.capacity;
  }

  /** Appends the input of frame `nextFrame`. Returns false (and keeps nothing) when the window is full. */
  push(input: number): boolean {
    if (this.isFull) return false;
    this.ring[this.nextFrame % this.capacity] = input & INPUT_MASK;
    this.nextFrame++;
    return true;
  }

  /** The held input of `frame` (oldestFrame ≤ frame < nextFrame). */
  inputAt(frame: number): number {
    return this.ring[frame % this.capacity]!;
  }

  /**
   * Forgets every input up to and including the acknowledged one.
   * @param ackSequence - 16-bit sequence number of the newest input the peer holds.
   * @returns how many inputs were released (0 for a stale or out-of-range acknowledgement).
   */
  acknowledge(ackSequence: number): number {
    const frame = unwrapSequence(ackSequence, this.nextFrame - 1);
    if (frame < this.oldestFrame || frame >= this.nextFrame) return 0;
    const released = frame + 1 - this.oldestFrame;
    this.oldestFrame = frame + 1;
    return released;
  }
}

/** Why `InputReceiver.receive` took nothing from a packet. */
export const ReceiveStatus = {
  OK: 0,
  /** Nothing newer than what is held. */
  STALE: 1,
  /** The packet starts after a frame that never arrived: the sender dropped inputs it must not have dropped. */
  GAP: 2,
} as const;
export type ReceiveStatus = (typeof ReceiveStatus)[keyof typeof ReceiveStatus];

/** The received inputs of one packet, oldest first. */
export interface InputRun {
  /** 16-bit sequence number of the newest input. */
  readonly newestSequence: number;
  readonly count: number;
  /** `inputs[0]` is the oldest. */
  readonly inputs: Uint8Array;
}

/** The receiving side: hands each new input to `onInput` exactly once, in frame order. */
export class InputReceiver {
  /** Newest frame held (every frame up to it has been handed on); −1 before the first. */
  newestFrame = -1;

  /**
   * Takes the inputs of a packet that are newer than what is held.
   * @param run - the decoded inputs.
   * @param onInput - called with (frame, input) for each new frame, in order.
   */
  receive(run: InputRun, onInput: (frame: number, input: number) => void): ReceiveStatus {
    if (run.count === 0) return ReceiveStatus.STALE;
    // Frames start at 0, so before the first packet the newest held is "−1".
    const newest = unwrapSequence(run.newestSequence, Math.max(0, this.newestFrame));
    const oldest = newest - run.count + 1;
    if (newest <= this.newestFrame) return ReceiveStatus.STALE;
    if (oldest > this.newestFrame + 1) return ReceiveStatus.GAP;
    for (let frame = this.newestFrame + 1; frame <= newest; frame++) onInput(frame, run.inputs[frame - oldest]!);
    this.newestFrame = newest;
    return ReceiveStatus.OK;
  }

  /** The acknowledgement to send: the 16-bit sequence of the newest held frame, or −1 before the first. */
  get ackSequence(): number {
    return this.newestFrame < 0 ? -1 : toSequence(this.newestFrame);
  }
}
