/**
 * The HTML around the reports' charts: the page, tables, a definition list, and escaping. Every text that comes
 * from outside (markings read off the wire, labels from a spec file) goes through `escapeHtml`.
 */

/** A titled figure or table of an HTML report. */
export interface ReportSection {
  readonly title: string;
  /** Inline SVG markup or HTML built with the helpers here (already escaped). */
  readonly html: string;
  readonly caption?: string;
}

/** Escapes text for HTML element content and double-quoted attributes. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** Three significant digits; integers and values ≥ 1000 rounded; null and NaN empty. */
export function formatNumber(v: number | string | null | undefined): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v;
  if (!Number.isFinite(v)) return Number.isNaN(v) ? '' : String(v);
  if (Number.isInteger(v) || Math.abs(v) >= 1000) return String(Math.round(v));
  return String(Number(v.toPrecision(3)));
}

/** A group of adjacent columns sharing a heading. */
export interface ColumnGroup {
  readonly title: string;
  readonly columns: number;
}

/** How a table lays out beyond its defaults. */
export interface TableLayout {
  /** Columns whose text wraps (long names), so the table fits the page instead of scrolling. */
  readonly wrap?: readonly number[];
  /** On a narrow screen, each row as a card of "heading: value" lines instead of a row too wide to read. */
  readonly cards?: boolean;
}

/**
 * An HTML table; numbers right-aligned to 3 significant digits. With `groups`, a first header row spans each
 * group's columns.
 */
export function htmlTable(
  header: readonly string[],
  rows: ReadonlyArray<ReadonlyArray<number | string | null>>,
  groups?: readonly ColumnGroup[],
  layout: TableLayout = {},
): string {
  const top = groups
    ? `<tr class="groups">${groups.map((g) => `<th colspan="${g.columns}">${escapeHtml(g.title)}</th>`).join('')}</tr>`
    : '';
  const head = header.map((h) => `<th>${escapeHtml(h)}</th>`).join('');
  const wrap = new Set(layout.wrap);
  // The class and data-label attribute of each column's cells: the same for every row, so made once.
  const attributes = header.map((h, i) => {
    const label = layout.cards ? ` data-label="${escapeHtml(h)}"` : '';
    return {
      text: `${wrap.has(i) ? ' class="wrap"' : ''}${label}`,
      number: ` class="n${wrap.has(i) ? ' wrap' : ''}"${label}`,
    };
  });
  const cell = (v: number | string | null, i: number) => {
    const a = attributes[i] ?? { text: '', number: ' class="n"' };
    return typeof v === 'number'
      ? `<td${a.number}>${formatNumber(v)}</td>`
      : `<td${a.text}>${escapeHtml(formatNumber(v))}</td>`;
  };
  const body = rows.map((row) => `<tr>${row.map(cell).join('')}</tr>`).join('\n');
  const table = layout.cards ? '<table class="cards">' : '<table>';
  return `<div class="scroll">${table}\n<thead>${top}<tr>${head}</tr></thead>\n<tbody>\n${body}\n</tbody></table></div>`;
}

/** A two-column list of settings: name → value (both escaped). */
export function definitionList(items: ReadonlyArray<readonly [string, string]>): string {
  const entries = items.map(([k, v]) => `<dt>${escapeHtml(k)}</dt><dd>${escapeHtml(v)}</dd>`);
  return `<dl class="settings">${entries.join('')}</dl>`;
}

/**
 * The whole page: title, summary line, optional banner, sections. No scripts, no external resources.
 * @param kind - what the page reports, after the title in the window title, e.g. `experiment`.
 */
export function renderHtmlPage(options: {
  title: string;
  kind: string;
  summary: string;
  sections: readonly ReportSection[];
  banner?: string;
}): string {
  const body = options.sections
    .map(
      (s) =>
        `<section><h2>${escapeHtml(s.title)}</h2>` +
        (s.caption ? `<p class="caption">${escapeHtml(s.caption)}</p>` : '') +
        `\n${s.html}</section>`,
    )
    .join('\n');
  const banner = options.banner ? `<p class="banner">${escapeHtml(options.banner)}</p>\n` : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(options.title)} — reckon ${escapeHtml(options.kind)}</title>
<style>
body { font: 14px/1.45 system-ui, sans-serif; margin: 1.5rem auto; max-width: 1180px; padding: 0 1rem; color: #222; }
h1 { font-size: 1.5rem; margin-bottom: 0.2rem; } h2 { font-size: 1.1rem; margin: 2rem 0 0.3rem; }
.summary, .caption { color: #555; margin-top: 0.2rem; } svg { max-width: 100%; height: auto; }
.banner { background: #fff4d6; border: 1px solid #e0b84c; padding: 0.5rem 0.8rem; }
.scroll { overflow-x: auto; } table { border-collapse: collapse; font-size: 12px; }
th, td { border-bottom: 1px solid #ddd; padding: 3px 6px; white-space: nowrap; }
td.wrap { white-space: normal; overflow-wrap: anywhere; min-width: 7em; }
.panels { display: flex; flex-wrap: wrap; gap: 0.6rem 1rem; }
.panels figure { margin: 0; width: 160px; } .panels figcaption { font-size: 12px; color: #555; }
@media (max-width: 700px) {
  table.cards, table.cards tbody, table.cards tr, table.cards td { display: block; }
  table.cards thead { display: none; } table.cards tr { border-bottom: 1px solid #ccc; padding: 4px 0; }
  table.cards td { border: 0; padding: 1px 4px; white-space: normal; text-align: left; }
  table.cards td::before { content: attr(data-label) ": "; color: #666; }
}
thead th { white-space: normal; vertical-align: bottom; }
th { text-align: left; background: #f4f4f4; font-weight: 600; }
tr.groups th { background: #e8ecf2; text-align: center; border-left: 2px solid #fff; }
td.n { text-align: right; font-variant-numeric: tabular-nums; } tbody tr:hover { background: #f6f9ff; }
dl.settings { display: grid; grid-template-columns: max-content 1fr; gap: 2px 1.2rem; margin: 0.5rem 0; }
dl.settings dt { color: #555; } dl.settings dd { margin: 0; font-variant-numeric: tabular-nums; }
</style></head>
<body><h1>${escapeHtml(options.title)}</h1><p class="summary">${escapeHtml(options.summary)}</p>
${banner}${body}
</body></html>
`;
}
