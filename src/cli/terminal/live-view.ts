/**
 * A block of lines redrawn in place on a terminal (ANSI: cursor up, clear line), or — when the output is not a
 * terminal (CI, a pipe, a file) — printed as plain lines at a slower pace so that logs stay readable.
 */

const CLEAR_LINE = '\x1b[2K';
const HIDE_CURSOR = '\x1b[?25l';
const SHOW_CURSOR = '\x1b[?25h';

export interface LiveViewOptions {
  /** Redraw in place. Defaults to `stream.isTTY`. */
  readonly tty?: boolean;
  /** Without a terminal, print at most once per this many seconds. Defaults to 5. */
  readonly plainIntervalSeconds?: number;
}

export class LiveView {
  private drawnLines = 0;
  private lastPlainMs = Number.NEGATIVE_INFINITY;
  readonly tty: boolean;
  private readonly plainIntervalMs: number;

  constructor(
    private readonly stream: NodeJS.WritableStream & { isTTY?: boolean },
    options: LiveViewOptions = {},
  ) {
    this.tty = options.tty ?? stream.isTTY === true;
    this.plainIntervalMs = (options.plainIntervalSeconds ?? 5) * 1000;
  }

  /**
   * Shows the block: replaces the previous one on a terminal; otherwise prints `plain` (or the block), throttled.
   * @param plain - the lines to print without a terminal. Defaults to `lines`.
   */
  update(lines: readonly string[], plain: readonly string[] = lines, nowMs = performance.now()): void {
    if (!this.tty) {
      if (nowMs - this.lastPlainMs < this.plainIntervalMs) return;
      this.lastPlainMs = nowMs;
      this.stream.write(plain.join('\n') + '\n');
      return;
    }
    const up = this.drawnLines > 0 ? `\x1b[${this.drawnLines}A\r` : HIDE_CURSOR;
    this.stream.write(up + lines.map((l) => CLEAR_LINE + l).join('\n') + '\n' + (this.drawnLines > lines.length ? '\x1b[J' : ''));
    this.drawnLines = lines.length;
  }

  /** Leaves the last block on screen and gives the cursor back. */
  close(): void {
    if (this.tty && this.drawnLines > 0) this.stream.write(SHOW_CURSOR);
    this.drawnLines = 0;
  }
}

/** Bold and dim on a terminal, plain text elsewhere. */
export function styles(tty: boolean): { bold(text: string): string; dim(text: string): string; green(text: string): string } {
  const wrap = (open: string) => (text: string) => (tty ? `\x1b[${open}m${text}\x1b[0m` : text);
  return { bold: wrap('1'), dim: wrap('2'), green: wrap('32') };
}
