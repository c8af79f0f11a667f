/** What `reckon demo` shows: the live table, the plain progress lines, and the closing summary. */
import { BASELINE_RATE_HZ, type DemoReport } from './demo-session.js';
import { formatByteRate, formatMeters, formatPercent, formatTable, formatCount } from './format.js';
import { styles } from './live-view.js';

const LIVE_COLUMNS = [
  { title: 'entity' },
  { title: 'marking' },
  { title: 'DR' },
  { title: 'PDUs', align: 'right' },
  { title: 'rate', align: 'right' },
  { title: 'last sent because' },
  { title: 'error now', align: 'right' },
  { title: 'max', align: 'right' },
  { title: 'bandwidth', align: 'right' },
  { title: `vs ${BASELINE_RATE_HZ} Hz`, align: 'right' },
] as const;

function heading(report: DemoReport): string {
  return (
    `reckon demo — ${formatCount(report.entities.length, 'entity', 'entities')} over UDP ${report.address}:${report.port}, exercise ${report.exercise}, ` +
    `thresholds ${formatMeters(report.positionThresholdMeters)} / ${report.orientationThresholdDeg.toFixed(1)}°`
  );
}

/** The live table (redrawn in place on a terminal). */
export function demoLiveLines(report: DemoReport, tty: boolean): string[] {
  const s = styles(tty);
  const rows = report.entities.map((e) => [
    e.entityId,
    e.received.marking || e.marking,
    e.received.algorithm !== '–' ? e.received.algorithm : e.algorithm,
    String(e.pdusSent),
    `${e.pduRatePerSecond.toFixed(2)}/s`,
    e.lastReasons.join(' + ') || '–',
    formatMeters(e.error.nowMeters),
    formatMeters(e.error.maxMeters),
    formatByteRate(e.bytesPerSecond),
    formatPercent(e.baselineBytesPerSecond > 0 ? e.bytesPerSecond / e.baselineBytesPerSecond : NaN),
  ]);
  const [header, ...body] = formatTable(LIVE_COLUMNS, rows);
  const t = report.totals;
  const left = Math.max(0, report.durationSeconds - report.elapsedSeconds);
  return [
    s.bold(heading(report)),
    '',
    s.bold(header!),
    ...body,
    '',
    `${s.green(`${formatCount(t.pdusSaved, 'PDU')} saved`)} (${formatPercent(t.savedFraction)}) against ${BASELINE_RATE_HZ} Hz updates · ` +
      `received ${formatCount(report.receiver.pdus, 'PDU')} in ${formatCount(report.receiver.datagrams, 'datagram')}, ${report.receiver.rejected} rejected`,
    s.dim(`${report.elapsedSeconds.toFixed(1)} s elapsed, ${left.toFixed(0)} s to go · Ctrl-C stops early`),
  ];
}

/** One plain line per entity, for logs (no terminal). */
export function demoPlainLines(report: DemoReport): string[] {
  return report.entities.map(
    (e) =>
      `demo: t=${report.elapsedSeconds.toFixed(1)}s ${e.name} ${e.entityId} ${e.received.marking || e.marking} DR=${e.algorithm} ` +
      `pdus=${e.pdusSent} rate=${e.pduRatePerSecond.toFixed(2)}/s last=${e.lastReasons.join('+') || '-'} error=${formatMeters(e.error.nowMeters)}`,
  );
}

/** The closing summary. */
export function demoSummaryLines(report: DemoReport, tty: boolean): string[] {
  const s = styles(tty);
  const rows = report.entities.map((e) => [
    `${e.name} ${e.entityId}`,
    e.marking,
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
  const table = formatTable(
    [
      { title: 'entity' },
      { title: 'marking' },
      { title: `PDUs / ${BASELINE_RATE_HZ} Hz`, align: 'right' },
      { title: 'saved', align: 'right' },
      { title: 'bandwidth', align: 'right' },
      { title: 'mean error', align: 'right' },
      { title: 'RMS', align: 'right' },
      { title: 'p95', align: 'right' },
      { title: 'max', align: 'right' },
      { title: 'sent because' },
    ],
    rows,
  );
  const t = report.totals;
  const seen = report.entities.filter((e) => e.received.appeared).length;
  const removed = report.entities.filter((e) => e.received.removed).length;
  return [
    '',
    s.bold(`Summary after ${report.elapsedSeconds.toFixed(1)} s${report.stoppedBy === 'interrupted' ? ' (interrupted)' : ''}`),
    s.bold(table[0]!),
    ...table.slice(1),
    '',
    s.green(
      `PDUs saved: ${t.pdusSaved} of ${t.baselinePdus} (${formatPercent(t.savedFraction)}) — ${t.pdusSent} sent instead of ${BASELINE_RATE_HZ} Hz updates; ` +
        `${formatCount(t.bytesSent, 'byte')} instead of ${t.baselineBytes}.`,
    ),
    `Displayed error is the subscriber's smoothed, dead-reckoned position against the truth, sampled at the render rate; ` +
      `threshold ${formatMeters(report.positionThresholdMeters)}.`,
    `Subscriber: ${seen} of ${formatCount(report.entities.length, 'entity', 'entities')} seen, ${removed} removed by their leave notices; ` +
      `${formatCount(report.receiver.pdus, 'PDU')} in ${formatCount(report.receiver.datagrams, 'datagram')}, ${report.receiver.rejected} rejected.`,
    '',
  ];
}
