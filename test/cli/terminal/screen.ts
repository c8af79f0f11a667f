// A small terminal model for the live-view tests: a grid of cells that interprets what the live view writes (text,
// CR, LF as CR LF like a tty's onlcr, cursor up, home, erase line/below/screen; colours ignored), wraps at the right
// margin the way VT100-style terminals do (the wrap happens when the next character comes), and scrolls at the
// bottom. A resize keeps the cells that still fit, without rewrapping (like xterm).
import { Writable } from 'node:stream';

export class Screen extends Writable {
  readonly isTTY = true;
  private grid: string[][] = [];
  private row = 0;
  private col = 0;
  private pendingWrap = false;
  /** Everything written, as written. */
  written = '';

  constructor(
    public columns: number,
    public rows: number,
  ) {
    super();
    this.grid = Array.from({ length: rows }, () => this.blank());
  }

  private blank(): string[] {
    return new Array<string>(this.columns).fill(' ');
  }

  /** The visible rows, right-trimmed. */
  lines(): string[] {
    return this.grid.map((r) => r.join('').trimEnd());
  }

  resize(columns: number, rows: number): void {
    const old = this.grid;
    // Rows that no longer fit above the cursor scroll off the top.
    const shift = Math.max(0, this.row - (rows - 1));
    this.columns = columns;
    this.rows = rows;
    this.grid = Array.from({ length: rows }, (_, r) => {
      const line = this.blank();
      const source = old[r + shift];
      if (source) for (let c = 0; c < columns && c < source.length; c++) line[c] = source[c]!;
      return line;
    });
    this.row -= shift;
    this.col = Math.min(this.col, columns - 1);
    this.pendingWrap = false;
  }

  override _write(chunk: Buffer | string, _encoding: BufferEncoding, done: () => void): void {
    const text = String(chunk);
    this.written += text;
    this.feed(text);
    done();
  }

  private lineFeed(): void {
    if (this.row === this.rows - 1) {
      this.grid.shift();
      this.grid.push(this.blank());
    } else this.row++;
  }

  private feed(text: string): void {
    for (let i = 0; i < text.length; i++) {
      const ch = text[i]!;
      if (ch === '\x1b') {
        const m = /^\x1b\[(\??)([0-9;]*)([A-Za-z])/.exec(text.slice(i)); // eslint-disable-line no-control-regex
        if (!m) throw new Error(`unexpected escape ${JSON.stringify(text.slice(i, i + 8))}`);
        i += m[0].length - 1;
        const n = Number(m[2] || '0');
        switch (m[3]) {
          case 'A':
            this.row = Math.max(0, this.row - Math.max(1, n));
            this.pendingWrap = false;
            break;
          case 'H':
            this.row = 0;
            this.col = 0;
            this.pendingWrap = false;
            break;
          case 'K':
            if (n === 2) this.grid[this.row] = this.blank();
            break;
          case 'J':
            if (n === 2) this.grid = Array.from({ length: this.rows }, () => this.blank());
            else {
              for (let c = this.col; c < this.columns; c++) this.grid[this.row]![c] = ' ';
              for (let r = this.row + 1; r < this.rows; r++) this.grid[r] = this.blank();
            }
            break;
          default: // colours, cursor shown/hidden
        }
      } else if (ch === '\n') {
        this.col = 0;
        this.pendingWrap = false;
        this.lineFeed();
      } else if (ch === '\r') {
        this.col = 0;
        this.pendingWrap = false;
      } else {
        if (this.pendingWrap) {
          this.col = 0;
          this.lineFeed();
          this.pendingWrap = false;
        }
        this.grid[this.row]![this.col] = ch;
        if (this.col === this.columns - 1) this.pendingWrap = true;
        else this.col++;
      }
    }
  }
}
