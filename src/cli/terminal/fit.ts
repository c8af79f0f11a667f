/**
 * Fitting text to a terminal of a given size: a table that drops and shortens columns to fit the width, and
 * lines cut to the width. Widths count UTF-16 code units outside ANSI escape sequences: every text shown in a live
 * view is ASCII or Latin-1 (network text passes through `printable` first), one terminal cell per code unit.
 */
import type { Column } from './format.js';
import { columnWidths } from './column-widths.js';

export interface FitColumn extends Column {
  /** Dropped when the table is too wide, lowest first. Defaults to never dropped. */
  readonly dropRank?: number;
  /** Cut down (with `…`) to as few as this many characters when dropping is not enough. Defaults to never cut. */
  readonly minWidth?: number;
  /** Which columns with a `minWidth` are cut down first, lowest first. Defaults to their order. */
  readonly shrinkRank?: number;
  /** Styles a cell after padding (e.g. a colour), so the padding stays right. Defaults to none. */
  readonly style?: (padded: string, row: number) => string;
}

// Our own styling only: SGR and cursor sequences (network text never contains ESC once printable).
// eslint-disable-next-line no-control-regex
const ANSI = /\x1b\[[0-9;?]*[A-Za-z]/g;
// eslint-disable-next-line no-control-regex
const ANSI_AT = /\x1b\[[0-9;?]*[A-Za-z]/y;

/** Terminal cells `text` takes, not counting ANSI escape sequences. */
export function visibleWidth(text: string): number {
  return text.replace(ANSI, '').length;
}

/** `text` cut to `width` cells, ending in `…` when cut; styles that were cut off are reset. */
export function clipLine(text: string, width: number): string {
  if (visibleWidth(text) <= width) return text;
  if (width <= 0) return '';
  let out = '';
  let cells = 0;
  let styled = false;
  for (let i = 0; i < text.length && cells < width - 1; ) {
    if (text[i] === '\x1b') {
      ANSI_AT.lastIndex = i;
      const m = ANSI_AT.exec(text);
      if (m) {
        out += m[0];
        styled = true;
        i += m[0].length;
        continue;
      }
    }
    out += text[i];
    cells++;
    i++;
  }
  return out + '…' + (styled ? '\x1b[0m' : '');
}

/**
 * `text` broken into lines of at most `width` cells at spaces (a word longer than the width gets a line of its
 * own); each line after the first starts with `indent`. Numbers and words are never split.
 */
export function wrapWords(text: string, width: number, indent = ''): string[] {
  if (visibleWidth(text) <= width) return [text];
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    const candidate = line === '' ? word : `${line} ${word}`;
    const prefix = lines.length === 0 ? '' : indent;
    if (line !== '' && visibleWidth(prefix + candidate) > width) {
      lines.push(prefix + line);
      line = word;
    } else {
      line = candidate;
    }
  }
  lines.push((lines.length === 0 ? '' : indent) + line);
  return lines;
}

function cut(text: string, width: number): string {
  return text.length <= width ? text : text.slice(0, Math.max(0, width - 1)).trimEnd() + '…';
}

/**
 * Lays rows out under their titles like `formatTable`, in at most `maxWidth` cells: drops columns by `dropRank`
 * (empty ones first, then lowest rank first), then shortens the columns that have a `minWidth` (lowest
 * `shrinkRank` first). A line may still be wider when the columns that must stay do not fit; the live view cuts
 * those.
 * @returns the header line, then one line per row.
 */
export function formatFittedTable(
  columns: readonly FitColumn[],
  rows: readonly (readonly string[])[],
  maxWidth: number,
): string[] {
  const widths = columnWidths(
    columns.map((c) => c.title),
    rows,
  );
  const kept = columns.map(() => true);
  const total = () => widths.reduce((sum, w, i) => (kept[i] ? sum + w + 2 : sum), -2);
  const empty = (i: number) => rows.every((r) => (r[i] ?? '') === '');
  const droppable = columns
    .map((c, i) => ({ rank: c.dropRank, i }))
    .filter((c): c is { rank: number; i: number } => c.rank !== undefined)
    .sort((a, b) => Number(empty(b.i)) - Number(empty(a.i)) || a.rank - b.rank);
  for (const { i } of droppable) {
    if (total() <= maxWidth) break;
    kept[i] = false;
  }
  const shrinkOrder = columns
    .map((c, i) => ({ rank: c.shrinkRank ?? Number.POSITIVE_INFINITY, i }))
    .sort((a, b) => a.rank - b.rank || a.i - b.i);
  for (const { i } of shrinkOrder) {
    if (total() <= maxWidth) break;
    const min = columns[i]!.minWidth;
    if (!kept[i] || min === undefined) continue;
    widths[i] = Math.max(min, Math.min(widths[i]!, widths[i]! - (total() - maxWidth)));
  }
  const line = (cells: readonly string[], row: number) => {
    const parts: string[] = [];
    columns.forEach((c, i) => {
      if (!kept[i]) return;
      const text = cut(cells[i] ?? '', widths[i]!);
      const padded = c.align === 'right' ? text.padStart(widths[i]!) : text.padEnd(widths[i]!);
      parts.push(row >= 0 && c.style ? c.style(padded, row) : padded);
    });
    return parts.join('  ').trimEnd();
  };
  return [
    line(
      columns.map((c) => c.title),
      -1,
    ),
    ...rows.map((r, row) => line(r, row)),
  ];
}
