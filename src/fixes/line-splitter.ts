/**
 * Lines out of a byte stream (TCP, a pipe, a file), each handed over as a range of bytes without a copy where the
 * line lies within one chunk. A line longer than `maxLineBytes` — or one that never ends — is dropped whole and
 * counted, and the memory held stays within the bound, whatever the sender does.
 */

/** Called with each complete line, bytes[start, end), without its CR/LF; valid during the call only. */
export type LineSink = (bytes: Uint8Array, start: number, end: number) => void;

const LF = 10,
  CR = 13;

/** Splits a byte stream into lines (LF or CRLF) within a bound of bytes per line; see the file's comment. */
export class LineSplitter {
  /** Lines dropped for being longer than the bound. */
  overlong = 0;
  /** Complete lines handed over (empty ones not counted). */
  lines = 0;
  private readonly partial: Uint8Array;
  private partialLength = 0;
  /** Inside an overlong line: skip to its end. */
  private skipping = false;

  constructor(
    readonly maxLineBytes: number,
    private readonly sink: LineSink,
  ) {
    this.partial = new Uint8Array(maxLineBytes);
  }

  /** Bytes held of a line not yet ended. */
  get pendingBytes(): number {
    return this.partialLength;
  }

  /** Feeds a chunk of the stream. */
  push(chunk: Uint8Array): void {
    let from = 0;
    const n = chunk.length;
    while (from < n) {
      const lf = chunk.indexOf(LF, from);
      const end = lf < 0 ? n : lf;
      if (this.skipping) {
        if (lf >= 0) this.skipping = false;
      } else if (lf < 0) {
        this.hold(chunk, from, end);
      } else if (this.partialLength > 0) {
        if (this.hold(chunk, from, end)) this.emit(this.partial, 0, this.partialLength);
        this.partialLength = 0;
      } else if (end - from > this.maxLineBytes) {
        this.overlong++;
      } else {
        this.emit(chunk, from, end);
      }
      if (lf < 0) break;
      from = lf + 1;
    }
  }

  /** The end of the stream: a last line without its newline is handed over. */
  end(): void {
    if (this.partialLength > 0 && !this.skipping) this.emit(this.partial, 0, this.partialLength);
    this.partialLength = 0;
    this.skipping = false;
  }

  /** Appends to the partial line; false (and the line dropped) when it would pass the bound. */
  private hold(chunk: Uint8Array, from: number, to: number): boolean {
    if (this.partialLength + (to - from) > this.maxLineBytes) {
      this.overlong++;
      this.partialLength = 0;
      this.skipping = to === chunk.length; // the line goes on in the next chunk
      return false;
    }
    this.partial.set(chunk.subarray(from, to), this.partialLength);
    this.partialLength += to - from;
    return true;
  }

  private emit(bytes: Uint8Array, start: number, end: number): void {
    if (end > start && bytes[end - 1] === CR) end--;
    if (end === start) return;
    this.lines++;
    this.sink(bytes, start, end);
  }
}
