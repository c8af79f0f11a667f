/**
 * The width of each column of a text table: its title's or its widest cell's. A loop, not
 * `Math.max(...rows.map(…))`: spreading more than about 100,000 values into a call overflows V8's stack, and a
 * capture's entities or radios, or a sweep's runs, are that many.
 */
export function columnWidths(titles: readonly string[], rows: readonly (readonly (string | undefined)[])[]): number[] {
  const widths = titles.map((t) => t.length);
  for (const row of rows) {
    for (let i = 0; i < widths.length; i++) {
      const length = row[i]?.length ?? 0;
      if (length > widths[i]!) widths[i] = length;
    }
  }
  return widths;
}

/** The longest of `texts`, 0 for none; a loop for the same reason. */
export function longest(texts: Iterable<string>): number {
  let max = 0;
  for (const text of texts) if (text.length > max) max = text.length;
  return max;
}
