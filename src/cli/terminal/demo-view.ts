/** What `reckon demo` shows: the live table, the plain progress lines, and the closing summary. */
import { BASELINE_RATE_HZ, type DemoReport } from './demo-session.js';
import { formatFittedTable, visibleWidth, wrapWords, type FitColumn } from './fit.js';
import { formatByteRate, formatCount, formatMeters, formatPercent } from './format.js';
import { styles, type TerminalSize } from './live-view.js';
import { printable } from './printable.js';

/** Columns of the live table; `dropRank` says which go first on a narrow screen. */
const LIVE_COLUMNS: readonly FitColumn[] = [
  { title: 'entity' },
  { title: 'marking', minWidth: 7 },
  { title: 'DR', dropRank: 2 },
  { title: 'PDUs', align: 'right', dropRank: 5 },
  { title: 'rate', align: 'right', dropRank: 3 },
  { title: 'last sent because', minWidth: 9 },
  { title: 'error now', align: 'right' },
  { title: 'max', align: 'right', dropRank: 4 },
  { title: 'bandwidth', align: 'right', dropRank: 1 },
  { title: `vs ${BASELINE_RATE_HZ} Hz`, align: 'right', dropRank: 6 },
];

/** Columns of the closing summary; on a narrow terminal the least needed go first. */
const SUMMARY_COLUMNS: readonly FitColumn[] = [
  { title: 'entity' },
  { title: 'marking', minWidth: 7, dropRank: 5 },
  { title: `PDUs / ${BASELINE_RATE_HZ} Hz`, align: 'right' },
  { title: 'saved', align: 'right' },
  { title: 'bandwidth', align: 'right', dropRank: 4 },
  { title: 'mean error', align: 'right', dropRank: 1 },
  { title: 'RMS', align: 'right', dropRank: 2 },
  { title: 'p95', align: 'right' },
  { title: 'max', align: 'right', dropRank: 3 },
  { title: 'sent because', minWidth: 12 },
];

/** PDUs per second, or "–" before there is a second to count over. */
function formatPduRate(perSecond: number): string {
  return Number.isFinite(perSecond) ? `${perSecond.toFixed(2)}/s` : '–';
}

/** The parts of a status line, joined with ` · ` on one line where they fit, else one line each. */
function joinOrBreak(parts: readonly string[], width: number): string[] {
  const one = parts.join(' · ');
  return visibleWidth(one) <= width ? [one] : [...parts];
}

function heading(report: DemoReport): string[] {
  return [
    `reckon demo — ${formatCount(report.entities.length, 'entity', 'entities')} over UDP ${report.address}:${report.port}, ` +
      `exercise ${report.exercise}`,
    `thresholds ${formatMeters(report.positionThresholdMeters)} / ${report.orientationThresholdDeg.toFixed(1)}°`,
  ];
}

/**
 * The live table (redrawn in place on a terminal), fitted to `size`: columns dropped or shortened by priority, the
 * entities beyond the height counted as "… and N more".
 * @param color - colour the savings. Defaults to `tty`.
 */
export function demoLiveLines(
  report: DemoReport,
  tty: boolean,
  size: TerminalSize = { columns: Number.POSITIVE_INFINITY, rows: Number.POSITIVE_INFINITY },
  color = tty,
): string[] {
  const s = styles(tty, color);
  const rows = report.entities.map((e) => [
    e.entityId,
    printable(e.received.marking || e.marking),
    e.received.algorithm !== '–' ? e.received.algorithm : e.algorithm,
    String(e.pdusSent),
    formatPduRate(e.pduRatePerSecond),
    e.lastReasons.join(' + ') || '–',
    formatMeters(e.error.nowMeters),
    formatMeters(e.error.maxMeters),
    formatByteRate(e.bytesPerSecond),
    formatPercent(e.baselineBytesPerSecond > 0 ? e.bytesPerSecond / e.baselineBytesPerSecond : NaN),
  ]);
  const t = report.totals;
  const left = Math.max(0, report.durationSeconds - report.elapsedSeconds);
  const top = joinOrBreak(heading(report), size.columns).map((l) => s.bold(l));
  const r = report.receiver;
  const saved = joinOrBreak(
    [
      `${s.green(`${formatCount(t.pdusSaved, 'PDU')} saved`)} (${formatPercent(t.savedFraction)}) ` +
        `against ${BASELINE_RATE_HZ} Hz updates`,
      `received ${formatCount(r.pdus, 'PDU')} in ${formatCount(r.datagrams, 'datagram')}, ${r.rejected} rejected`,
    ],
    size.columns,
  );
  const elapsed = report.elapsedSeconds.toFixed(1);
  const clock = s.dim(`${elapsed} s elapsed, ${left.toFixed(0)} s to go · Ctrl-C stops early`);
  // The blank separators go first when the screen is short, then rows become "… and N more".
  const fixed = top.length + 1 + saved.length + 1;
  const spacious = size.rows >= fixed + 2 + Math.min(rows.length, 3);
  const room = Math.max(1, size.rows - fixed - (spacious ? 2 : 0));
  const shown = rows.length <= room ? rows.length : Math.max(0, room - 1);
  const [header, ...body] = formatFittedTable(LIVE_COLUMNS, rows.slice(0, shown), size.columns);
  return [
    ...top,
    ...(spacious ? [''] : []),
    s.bold(header!),
    ...body,
    ...(shown < rows.length ? [s.dim(`… and ${rows.length - shown} more`)] : []),
    ...(spacious ? [''] : []),
    ...saved,
    clock,
  ];
}

/** One plain line per entity, for logs (no terminal). */
export function demoPlainLines(report: DemoReport): string[] {
  return report.entities.map(
    (e) =>
      `demo: t=${report.elapsedSeconds.toFixed(1)}s ${e.name} ${e.entityId} ` +
      `${printable(e.received.marking || e.marking)} DR=${e.algorithm} ` +
      `pdus=${e.pdusSent} rate=${formatPduRate(e.pduRatePerSecond)} last=${e.lastReasons.join('+') || '-'} error=${formatMeters(e.error.nowMeters)}`,
  );
}

/**
 * The closing summary, fitted to `columns` cells: the table drops and shortens columns, the sentences break
 * between words.
 */
export function demoSummaryLines(
  report: DemoReport,
  tty: boolean,
  color = tty,
  columns: number = Number.POSITIVE_INFINITY,
): string[] {
  const s = styles(tty, color);
  const rows = report.entities.map((e) => [
    `${e.name} ${e.entityId}`,
    printable(e.marking),
    `${e.pdusSent} / ${e.baselinePdus}`,
    formatPercent(e.savedFraction),
    formatByteRate(e.bytesPerSecond),
    formatMeters(e.error.meanMeters),
    formatMeters(e.error.rmsMeters),
    formatMeters(e.error.p95Meters),
    formatMeters(e.error.maxMeters),
    Object.entries(e.reasons)
      .filter(([, n]) => n > 0)
      .map(([reason, n]) => `${reason} ${n}`)
      .join(', ') || '–',
  ]);
  const table = formatFittedTable(SUMMARY_COLUMNS, rows, columns);
  const t = report.totals;
  const seen = report.entities.filter((e) => e.received.appeared).length;
  const removed = report.entities.filter((e) => e.received.removed).length;
  const wrap = (text: string) => wrapWords(text, columns);
  return [
    '',
    s.bold(
      `Summary after ${report.elapsedSeconds.toFixed(1)} s${report.stoppedBy === 'interrupted' ? ' (interrupted)' : ''}`,
    ),
    s.bold(table[0]!),
    ...table.slice(1),
    '',
    ...wrap(
      `PDUs saved: ${t.pdusSaved} of ${t.baselinePdus} (${formatPercent(t.savedFraction)}) — ${t.pdusSent} sent instead of ${BASELINE_RATE_HZ} Hz updates; ` +
        `${formatCount(t.bytesSent, 'byte')} instead of ${t.baselineBytes}.`,
    ).map((line) => s.green(line)),
    ...wrap(
      `Displayed error is the subscriber's smoothed, dead-reckoned position against the truth, sampled at the render rate; ` +
        `threshold ${formatMeters(report.positionThresholdMeters)}.`,
    ),
    ...wrap(
      `Subscriber: ${seen} of ${formatCount(report.entities.length, 'entity', 'entities')} seen, ${removed} removed by their leave notices; ` +
        `${formatCount(report.receiver.pdus, 'PDU')} in ${formatCount(report.receiver.datagrams, 'datagram')}, ${report.receiver.rejected} rejected.`,
    ),
    '',
  ];
}
