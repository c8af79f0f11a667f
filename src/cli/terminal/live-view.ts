/**
 * A block of lines redrawn in place on a terminal (ANSI: cursor up, clear line), or — when the output is not a
 * terminal (CI, a pipe, a file) — printed as plain lines at a slower pace so that logs stay readable.
 *
 * On a terminal the block is fitted to the screen: every line is cut to the width less one column (a line as wide
 * as the screen wraps at once on some terminals) and the block to the height less one row (the row the cursor
 * rests on), so one line is one screen row and moving the cursor up by the lines drawn always lands on the block's
 * first line. After a resize the old block may have been rewrapped by the terminal, so the screen is cleared and
 * the block drawn again from the top.
 */
import { clipLine } from './fit.js';

const CLEAR_LINE = '\x1b[2K';
const CLEAR_BELOW = '\x1b[J';
const CLEAR_SCREEN = '\x1b[H\x1b[2J';
const HIDE_CURSOR = '\x1b[?25l';
const SHOW_CURSOR = '\x1b[?25h';

/** Size of a terminal in character cells. */
export interface TerminalSize {
  readonly columns: number;
  readonly rows: number;
}

/** Assumed when a terminal does not report its size. */
const DEFAULT_SIZE: TerminalSize = { columns: 80, rows: 24 };

/** What the live view writes to: a `tty.WriteStream` (or a stand-in with the same fields). */
export type LiveStream = NodeJS.WritableStream & { isTTY?: boolean; columns?: number; rows?: number };

export interface LiveViewOptions {
  /** Redraw in place. Defaults to `stream.isTTY`. */
  readonly tty?: boolean;
  /** Without a terminal, print at most once per this many seconds. Defaults to 5. */
  readonly plainIntervalSeconds?: number;
  /** Environment read for `NO_COLOR` and `TERM`. Defaults to `process.env`. */
  readonly env?: NodeJS.ProcessEnv;
}

export class LiveView {
  private drawnLines = 0;
  private drawnSize: TerminalSize | undefined;
  private lastPlainMs = Number.NEGATIVE_INFINITY;
  readonly tty: boolean;
  /** Colours may be used: a terminal, `NO_COLOR` unset or empty (https://no-color.org), `TERM` not `dumb`. */
  readonly color: boolean;
  private readonly plainIntervalMs: number;

  constructor(
    private readonly stream: LiveStream,
    options: LiveViewOptions = {},
  ) {
    this.tty = options.tty ?? stream.isTTY === true;
    this.color = colorSupported(this.tty, options.env ?? process.env);
    this.plainIntervalMs = (options.plainIntervalSeconds ?? 5) * 1000;
  }

  /**
   * Cells a block may use: the terminal's size less one column and one row (see above); without a terminal, no
   * bound.
   */
  get size(): TerminalSize {
    if (!this.tty) return { columns: Number.POSITIVE_INFINITY, rows: Number.POSITIVE_INFINITY };
    const { columns, rows } = terminalSize(this.stream);
    return { columns: Math.max(1, columns - 1), rows: Math.max(1, rows - 1) };
  }

  /**
   * Shows the block: replaces the previous one on a terminal (cut to `size`); otherwise prints `plain` (or the
   * block), throttled.
   * @param plain - the lines to print without a terminal. Defaults to `lines`.
   */
  update(lines: readonly string[], plain: readonly string[] = lines, nowMs = performance.now()): void {
    if (!this.tty) {
      if (nowMs - this.lastPlainMs < this.plainIntervalMs) return;
      this.lastPlainMs = nowMs;
      this.stream.write(plain.join('\n') + '\n');
      return;
    }
    const screen = terminalSize(this.stream);
    const { columns, rows } = this.size;
    const block = lines.slice(0, rows).map((l) => CLEAR_LINE + clipLine(l, columns));
    const before = this.drawnSize;
    const resized = before !== undefined && (before.columns !== screen.columns || before.rows !== screen.rows);
    const start = resized ? CLEAR_SCREEN : this.drawnLines > 0 ? `\x1b[${this.drawnLines}A\r` : HIDE_CURSOR;
    this.stream.write(start + block.join('\n') + '\n' + CLEAR_BELOW);
    this.drawnLines = block.length;
    this.drawnSize = screen;
  }

  /** Leaves the last block on screen and gives the cursor back. */
  close(): void {
    if (this.tty && this.drawnSize !== undefined) this.stream.write(SHOW_CURSOR);
    this.drawnLines = 0;
    this.drawnSize = undefined;
  }
}

function terminalSize(stream: LiveStream): TerminalSize {
  return {
    columns: stream.columns !== undefined && stream.columns > 0 ? stream.columns : DEFAULT_SIZE.columns,
    rows: stream.rows !== undefined && stream.rows > 0 ? stream.rows : DEFAULT_SIZE.rows,
  };
}

/** Colour on a terminal unless `NO_COLOR` is set to anything non-empty or `TERM` is `dumb`. */
export function colorSupported(tty: boolean, env: NodeJS.ProcessEnv): boolean {
  return tty && !env.NO_COLOR && env.TERM !== 'dumb';
}

/** Bold and dim on a terminal, plain text elsewhere; green only where `color` (defaults to `tty`). */
export function styles(
  tty: boolean,
  color = tty,
): {
  bold(text: string): string;
  dim(text: string): string;
  green(text: string): string;
} {
  const wrap = (open: string, on: boolean) => (text: string) => (on ? `\x1b[${open}m${text}\x1b[0m` : text);
  return { bold: wrap('1', tty), dim: wrap('2', tty), green: wrap('32', color) };
}
