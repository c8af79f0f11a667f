/**
 * Results as rows: one flat row per run (swept settings first, then the metrics), shared by `results.csv`, the
 * CLI's text table and the HTML report's table.
 */
import type { RunResult } from './runner.js';

/** A column: header, how to read it from a result, and whether the text table shows it. */
interface Column {
  readonly header: string;
  readonly value: (r: RunResult) => number | string | null;
  readonly brief?: boolean;
}

const METRIC_COLUMNS: readonly Column[] = [
  { header: 'trajectory', value: (r) => r.trajectory },
  { header: 'duration_s', value: (r) => r.metrics.durationSeconds },
  { header: 'pdus', value: (r) => r.metrics.pdus, brief: true },
  { header: 'pdus_first', value: (r) => r.metrics.pdusByReason.first },
  { header: 'pdus_position', value: (r) => r.metrics.pdusByReason.position },
  { header: 'pdus_orientation', value: (r) => r.metrics.pdusByReason.orientation },
  { header: 'pdus_heartbeat', value: (r) => r.metrics.pdusByReason.heartbeat },
  { header: 'pdus_change', value: (r) => r.metrics.pdusByReason.change },
  { header: 'pdus_per_s', value: (r) => r.metrics.pdusPerSecond, brief: true },
  { header: 'pdus_per_orbit', value: (r) => r.metrics.pdusPerOrbit },
  { header: 'bytes_per_s', value: (r) => r.metrics.bytesPerSecond, brief: true },
  { header: 'pos_err_mean_m', value: (r) => r.metrics.positionError.mean, brief: true },
  { header: 'pos_err_rms_m', value: (r) => r.metrics.positionError.rms },
  { header: 'pos_err_p95_m', value: (r) => r.metrics.positionError.p95, brief: true },
  { header: 'pos_err_max_m', value: (r) => r.metrics.positionError.max, brief: true },
  { header: 'ori_err_mean_deg', value: (r) => r.metrics.orientationErrorDeg.mean },
  { header: 'ori_err_rms_deg', value: (r) => r.metrics.orientationErrorDeg.rms },
  { header: 'ori_err_p95_deg', value: (r) => r.metrics.orientationErrorDeg.p95, brief: true },
  { header: 'ori_err_max_deg', value: (r) => r.metrics.orientationErrorDeg.max },
  { header: 'above_threshold_pct', value: (r) => 100 * r.metrics.shareAboveThreshold, brief: true },
  { header: 'max_velocity_jump_mps', value: (r) => r.metrics.maxVelocityJump, brief: true },
  { header: 'lost', value: (r) => r.metrics.lost },
  { header: 'reduction_vs_baseline_pct', value: (r) => r.metrics.reductionPercent, brief: true },
  { header: 'truth_max_speed_mps', value: (r) => r.truth.maxSpeedMps },
  { header: 'truth_max_accel_mps2', value: (r) => r.truth.maxAccelerationMps2 },
  { header: 'truth_max_turn_deg_s', value: (r) => r.truth.maxTurnRateDegPerS },
  { header: 'truth_fixes_dropped', value: (r) => r.truth.fixesDropped },
  { header: 'truth_fixes_repaired', value: (r) => r.truth.fixesRepaired },
];

/** The swept settings of a set of runs, in sweep order. */
export function sweptKeys(results: readonly RunResult[]): string[] {
  const keys = new Set<string>();
  for (const r of results) for (const k of Object.keys(r.settings)) keys.add(k);
  return [...keys];
}

/** The metric columns shown for runs sweeping `swept`; `brief` keeps those that fit a terminal. */
function metricColumns(swept: readonly string[], brief: boolean, orbits: boolean): readonly Column[] {
  return METRIC_COLUMNS.filter(
    (c) =>
      !(c.header === 'trajectory' && swept.includes('trajectory')) &&
      (!brief || c.brief || (c.header === 'pdus_per_orbit' && orbits)),
  );
}

/** One run's row: its index, swept values and metrics, numbers kept as numbers. */
function rowOf(r: RunResult, swept: readonly string[], columns: readonly Column[]): Array<number | string | null> {
  return [r.index, ...swept.map((k) => displayValue(r.settings[k])), ...columns.map((c) => c.value(r))];
}

/** Header and rows; numbers are kept as numbers. `brief` keeps the columns that fit a terminal. */
export function resultTable(
  results: readonly RunResult[],
  brief = false,
): { header: string[]; rows: Array<Array<number | string | null>> } {
  const swept = sweptKeys(results);
  const columns = metricColumns(swept, brief, brief && results.some((r) => r.metrics.pdusPerOrbit !== null));
  return {
    header: ['run', ...swept, ...columns.map((c) => c.header)],
    rows: results.map((r) => rowOf(r, swept, columns)),
  };
}

/** A short label of a run's swept settings: `positionThreshold=1 m · network=wan`. */
export function runLabel(result: RunResult): string {
  const parts = Object.entries(result.settings).map(([k, v]) => `${k.split('.').pop()}=${displayValue(v)}`);
  return parts.length > 0 ? parts.join(' · ') : result.name;
}

function csvCell(v: number | string | null): string {
  const text = v === null ? '' : String(v);
  return /[",\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * results.csv a line at a time, for runs sweeping `swept` (`Object.keys` of the plan's sweep): the header line, then
 * each run's line as it finishes; the lines of `toCsv`.
 */
export function csvLines(swept: readonly string[]): { header: string; row(result: RunResult): string } {
  const columns = metricColumns(swept, false, false);
  return {
    header: `${['run', ...swept, ...columns.map((c) => c.header)].map(csvCell).join(',')}\n`,
    row: (result) => `${rowOf(result, swept, columns).map(csvCell).join(',')}\n`,
  };
}

/** RFC 4180 CSV with a header row. */
export function toCsv(results: readonly RunResult[]): string {
  const lines = csvLines(sweptKeys(results));
  let text = lines.header;
  for (const r of results) text += lines.row(r);
  return text;
}

/** A fixed-width text table for terminals (brief columns, 3 significant digits). */
export function toTextTable(results: readonly RunResult[]): string {
  const { header, rows } = resultTable(results, true);
  const text = rows.map((row) => row.map(formatCell));
  // A loop, not Math.max(h.length, ...column): spreading a sweep's 100,000 runs into a call overflows the stack.
  const widths = header.map((h) => h.length);
  for (const row of text) for (let i = 0; i < widths.length; i++) widths[i] = Math.max(widths[i]!, row[i]!.length);
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === 0 || typeof rows[0]?.[i] !== 'number' ? c.padEnd(widths[i]!) : c.padStart(widths[i]!)))
      .join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...text.map(line)].join('\n') + '\n';
}

export function formatCell(v: number | string | null): string {
  if (v === null) return '';
  if (typeof v === 'string') return v;
  if (Number.isInteger(v) || Math.abs(v) >= 1000) return String(Math.round(v));
  return String(Number(v.toPrecision(3)));
}

/** A swept value as written: strings as they are, `{ type, …fields }` as `type (field=value …)`, others as JSON. */
export function displayValue(v: unknown): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'object' && v !== null && 'type' in v) {
    const { type, ...fields } = v as Record<string, unknown>;
    const extra = Object.entries(fields)
      .map(([k, x]) => `${k}=${displayValue(x)}`)
      .join(' ');
    return extra ? `${String(type)} (${extra})` : String(type);
  }
  return JSON.stringify(v);
}
