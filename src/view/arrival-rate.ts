/**
 * What the gateway receives per second, as the panel shows it: every PDU it takes (Entity State and the others it
 * forwards or acts on) and their bytes, over the last few seconds, so that a feed of one PDU a second reads about
 * 1, not 0 in one second and 2 in the next.
 */

/** Seconds the rate is taken over. */
export const RATE_WINDOW_SECONDS = 5;

export class ArrivalRate {
  private readonly pdus = new Float64Array(RATE_WINDOW_SECONDS);
  private readonly bytes = new Float64Array(RATE_WINDOW_SECONDS);
  /** The second being counted (an index into the ring), and how many seconds have been closed so far. */
  private current = 0;
  private closed = 0;
  /** PDUs and bytes per second over the seconds closed (at most the window). */
  pdusPerSecond = 0;
  bytesPerSecond = 0;

  /** One PDU of `length` bytes taken. */
  count(length: number): void {
    this.pdus[this.current] = this.pdus[this.current]! + 1;
    this.bytes[this.current] = this.bytes[this.current]! + length;
  }

  /** Closes the second being counted (call once a second) and updates the rates. */
  roll(): void {
    this.closed = Math.min(RATE_WINDOW_SECONDS, this.closed + 1);
    let pdus = 0,
      bytes = 0;
    for (let i = 0; i < RATE_WINDOW_SECONDS; i++) {
      pdus += this.pdus[i]!;
      bytes += this.bytes[i]!;
    }
    this.pdusPerSecond = pdus / this.closed;
    this.bytesPerSecond = bytes / this.closed;
    this.current = (this.current + 1) % RATE_WINDOW_SECONDS;
    this.pdus[this.current] = 0;
    this.bytes[this.current] = 0;
  }
}
