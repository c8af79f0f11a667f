/**
 * A text table of any number of rows, made one line at a time: a first pass over the rows measures the columns, a
 * second lays each row out, so a capture's million radios are printed without holding a million rows (or lines)
 * in memory at once.
 */
import type { Column } from './format.js';

/** Rows measured between two pauses. */
const ROWS_PER_PAUSE = 4096;

/**
 * The lines of a table of `count` rows, `row(i)` giving row i's cells (called twice per row), aligned as
 * `formatTable` does: columns two spaces apart, widths fitting the widest cell, trailing spaces trimmed. While it
 * measures it yields `null` now and then: a pause, where a caller printing as it goes can let Ctrl-C be heard.
 * @param indent - put before every line.
 */
export function* streamedTable(
  columns: readonly Column[],
  count: number,
  row: (i: number) => readonly string[],
  indent = '',
): Generator<string | null> {
  const widths = columns.map((c) => c.title.length);
  for (let i = 0; i < count; i++) {
    if (i % ROWS_PER_PAUSE === ROWS_PER_PAUSE - 1) yield null;
    const cells = row(i);
    for (let c = 0; c < widths.length; c++) widths[c] = Math.max(widths[c]!, cells[c]?.length ?? 0);
  }
  const line = (cells: readonly string[]) =>
    indent +
    columns
      .map((c, i) =>
        c.align === 'right' ? (cells[i] ?? '').padStart(widths[i]!) : (cells[i] ?? '').padEnd(widths[i]!),
      )
      .join('  ')
      .trimEnd();
  yield line(columns.map((c) => c.title));
  for (let i = 0; i < count; i++) yield line(row(i));
}
