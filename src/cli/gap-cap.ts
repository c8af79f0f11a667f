/**
 * The replay schedule of recorded traffic (a capture, a JetStream window): each datagram is due its recorded gap
 * after the one before, except that a gap longer than the cap (a capture stopped and resumed, a damaged timestamp
 * 136 years off) is shortened to the cap, and a step back in time (clock adjusted, frames out of order) counts as no
 * gap. The schedule is therefore never longer than the cap times the datagrams, and says what it shortened.
 */
import { formatSeconds } from '../truth/track-checks.js';

/** Longest pause `replay` keeps between two datagrams unless told otherwise (`--max-gap`). */
export const DEFAULT_MAX_GAP_SECONDS = 3600;

export class GapCap {
  /** Gaps shortened to the cap. */
  shortened = 0;
  /** The longest recorded gap that was shortened, seconds. */
  longestSeconds = 0;
  private lastRecordedSeconds = Number.NaN;
  private dueSeconds = 0;

  constructor(readonly maxGapSeconds: number) {}

  /**
   * The next datagram's due time, seconds after the first (0 for the first).
   * @param recordedSeconds - its recorded time; NaN (no timestamp) counts as no gap.
   */
  next(recordedSeconds: number): number {
    if (!Number.isFinite(recordedSeconds)) return this.dueSeconds;
    if (Number.isFinite(this.lastRecordedSeconds)) {
      const gap = recordedSeconds - this.lastRecordedSeconds;
      if (gap > this.maxGapSeconds) {
        this.shortened++;
        this.longestSeconds = Math.max(this.longestSeconds, gap);
        this.dueSeconds += this.maxGapSeconds;
      } else if (gap > 0) {
        this.dueSeconds += gap;
      }
    }
    this.lastRecordedSeconds = recordedSeconds;
    return this.dueSeconds;
  }

  /** `2 gaps longer than 1 h (the longest 136 years) shortened to 1 h (--max-gap)`. */
  describe(): string {
    const cap = formatSeconds(this.maxGapSeconds);
    const gaps = this.shortened === 1 ? '1 gap' : `${this.shortened} gaps`;
    const longest = this.shortened === 1 ? 'of' : 'the longest';
    return `${gaps} longer than ${cap} (${longest} ${formatSeconds(this.longestSeconds)}) shortened to ${cap} (--max-gap)`;
  }
}
