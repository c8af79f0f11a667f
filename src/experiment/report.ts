/**
 * Experiment outputs: `results.csv`, `results.json` and a self-contained `report.html` whose charts are Vega-Lite
 * specs (`report-charts.ts`) rendered to SVG server-side and inlined: the page needs no network and no script,
 * and its tooltips are SVG titles. Vega is loaded only here, and only when a report is written.
 *
 * The report answers a threshold tuner's questions in order: which setting gives an accepted error at the lowest
 * rate (error against rate, the cheapest run per error level), why PDUs are sent (reasons per run), what the error
 * looks like over time (dead reckoning against what the network and smoothing add) and on the track.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { writeOutputFile } from '../files/output-file.js';
import {
  definitionList,
  escapeHtml,
  formatNumber,
  htmlTable,
  renderHtmlPage,
  type ColumnGroup,
  type ReportSection,
} from '../report/html.js';
import { renderVegaLite } from '../report/vega.js';
import { MAX_DRAWN_RUNS, errorRateDensitySpec } from './report-density.js';
import {
  MAX_REASON_BARS,
  errorRateSpec,
  errorTimeSpec,
  groupedBarsSpec,
  lockstepSpec,
  paretoFront,
  pickEvenly,
  reasonsSpec,
  sameTrajectory,
  trackSpec,
} from './report-charts.js';
import { runEncoding, type RunEncoding } from './run-encoding.js';
import type { RunResult } from './runner.js';
import { ERROR_PANELS, TRACK_PANELS, TRAJECTORY_PANELS } from './traced-runs.js';
import type { ExperimentPlan } from './sweep.js';
import { resultTable, sweptKeys } from './results-table.js';
import { formatCount, reasonShares, runNotes, settingsPanel } from './report-text.js';
import { ResultsFiles, partialNote, resultsJson, type PartialResults } from './results-files.js';
import { extent } from '../math/extent.js';

export { htmlTable, renderVegaLite, paretoFront, partialNote, resultsJson, type PartialResults, type ReportSection };

/** What a report knows beyond the results. */
export interface ReportOptions {
  /** The validated plan, for the settings panel and each run's threshold. */
  readonly plan?: ExperimentPlan;
  /** The experiment stopped before every run finished: every file says so (the report at the top). */
  readonly partial?: PartialResults;
}

/** Above this many runs the table lists the Pareto front and the cheapest runs only; results.csv has them all. */
export const MAX_TABLE_ROWS = 300;

/**
 * Writes results.csv, results.json and report.html into `outDirectory` (created if missing). Each file is written
 * beside its target and renamed over it when complete, so an earlier result is replaced only by a whole new one.
 * @param options - the plan (for the settings panel) and, for a stopped sweep, `partial`: every file then says so.
 * @returns the paths written.
 */
export async function writeExperimentOutputs(
  outDirectory: string,
  name: string,
  spec: unknown,
  results: readonly RunResult[],
  options: ReportOptions = {},
): Promise<string[]> {
  await mkdir(outDirectory, { recursive: true });
  const html = await experimentReportHtml(name, results, options); // a report that fails leaves every file as it was
  const files = await ResultsFiles.open(outDirectory, name, spec, sweptKeys(results));
  for (const result of results) files.add(result);
  const written = await files.finish(options.partial);
  const report = join(outDirectory, 'report.html');
  await writeOutputFile(report, html);
  return [...written, report];
}

/** The whole report page for a set of results. */
export async function experimentReportHtml(
  name: string,
  results: readonly RunResult[],
  options: ReportOptions = {},
): Promise<string> {
  const partial = options.partial;
  const banner = partial
    ? `Partial results: the experiment stopped (${partial.reason}) after ${results.length} of ` +
      `${partial.runsPlanned} runs; the charts show the runs that finished.`
    : undefined;
  return renderHtmlPage({
    title: partial ? `${name} (partial)` : name,
    kind: 'experiment',
    summary: describeExperiment(results),
    sections: await experimentSections(results, options),
    ...(banner ? { banner } : {}),
  });
}

/**
 * The sections of a preset that returns rows instead of runs: a chart where the rows are the lockstep comparison,
 * then the table.
 */
export async function tablePresetSections(rows: ReadonlyArray<Record<string, unknown>>): Promise<ReportSection[]> {
  const header = Object.keys(rows[0] ?? {});
  const cells = rows.map((row) => header.map((h) => row[h] as number | string | null));
  const sections: ReportSection[] = [];
  if (rows.length > 0 && ['transport', 'hitchesPerMinute', 'longestStallMs'].every((h) => header.includes(h))) {
    sections.push({
      title: 'Hitches and stalls by transport',
      caption:
        'Hitches per minute (a frame not there when due) and the longest stall, for each latency (one way), loss ' +
        'and playout delay. ' +
        'TCP delivers in order only, so one lost segment holds back every input after it until its retransmission.',
      html: await renderVegaLite(lockstepSpec(rows)),
    });
  }
  const units: Record<string, string> = {
    latencyMs: 'one-way latency (ms)',
    lossPercent: 'loss (%)',
    playoutDelayMs: 'playout delay (ms)',
    hitchesPerMinute: 'hitches per minute',
    longestStallMs: 'longest stall (ms)',
    bytesPerSecond: 'bytes/s (with IP and transport headers)',
    largestPacketBytes: 'largest payload (bytes)',
  };
  sections.push({
    title: 'Results',
    caption: header.includes('largestPacketBytes')
      ? 'Largest payload: the input bytes in one datagram or segment, headers excluded. TCP sends one 1-byte ' +
        'input per segment (Nagle off; the stream keeps the order, so no frame number is needed) plus 40 header ' +
        'bytes; the redundant ' +
        'UDP packet carries its sequence numbers and every unacknowledged input, so it grows with loss.'
      : undefined,
    html: htmlTable(
      header.map((h) => units[h] ?? h),
      cells,
    ),
  });
  return sections;
}

/** The page shell, kept for table-only reports. */
export function renderHtmlReport(
  title: string,
  summary: string,
  sections: readonly ReportSection[],
  banner?: string,
): string {
  return renderHtmlPage({ title, kind: 'experiment', summary, sections, ...(banner ? { banner } : {}) });
}

function describeExperiment(results: readonly RunResult[]): string {
  const seconds = results.reduce((s, r) => s + r.metrics.durationSeconds, 0);
  const ethernet = results[0]?.metrics.wireIncludesEthernet
    ? 'including Ethernet framing (18 bytes)'
    : 'IPv4 + UDP headers (28 bytes), Ethernet framing not included';
  return `${results.length} run${results.length === 1 ? '' : 's'}, ${(seconds / 3600).toPrecision(3)} simulated hours. Wire bytes: PDU + ${ethernet}. Reduction is against a fixed-rate sender at ${results[0]?.metrics.baselineRateHz ?? 15} Hz.`;
}

/** The report's sections, in reading order. */
export async function experimentSections(
  results: readonly RunResult[],
  options: ReportOptions = {},
): Promise<ReportSection[]> {
  const sections: ReportSection[] = [];
  if (options.plan) sections.push({ title: 'Settings', html: definitionList(settingsPanel(options.plan)) });
  const notes = runNotes(results);
  if (notes.length > 0) {
    sections.push({
      title: 'Notes',
      html: `<ul>${notes.map((n) => `<li>${escapeHtml(n)}</li>`).join('')}</ul>`,
    });
  }
  if (results.length === 0) {
    sections.push({ title: 'Results', html: '<p>No run finished.</p>' });
    return sections;
  }
  const enc = runEncoding(results);
  const thresholdOf = (r: RunResult) =>
    options.plan?.runs.find((p) => p.index === r.index)?.spec.emitter.positionThreshold;
  const front = sameTrajectory(results);
  const rates = results.map((r) => r.metrics.pdusPerSecond);
  const [minRate, maxRate] = extent(rates);
  const sameRate = results.length > 1 && maxRate - minRate <= 1e-3 * maxRate;
  if (sameRate) {
    sections.push({
      title: 'Position error against PDU rate',
      html:
        `<p>Every run sent the same PDUs (${formatNumber(rates[0])} PDUs/s): the sweep changes only the receiving ` +
        'side. The error of each run is under “Display quality by setting” and in the table.</p>',
    });
  } else if (results.length > MAX_DRAWN_RUNS) {
    sections.push({
      title: 'Position error against PDU rate',
      caption:
        `${formatCount(results.length)} runs are more than the ${formatCount(MAX_DRAWN_RUNS)} this chart draws one ` +
        'by one: each cell counts the runs whose PDU rate and RMS error fall in it (darker: more runs)' +
        (front
          ? '; the red dashed steps are the Pareto front over every run (no other run has both a lower rate and a ' +
            'lower RMS error)'
          : '') +
        '. Hover a cell for its range; results.csv has every run.',
      html: await renderVegaLite(errorRateDensitySpec(results)),
    });
  } else {
    sections.push({
      title: 'Position error against PDU rate',
      caption:
        'Each point is a run; lines join the runs of one ' +
        `${enc.colourKey === null ? 'series' : enc.colourKey.split('.').pop()} in sweep order` +
        (front
          ? '; the dashed grey steps are the Pareto front (no other run has both a lower rate and a lower RMS error)'
          : '; no Pareto front: the runs fly different trajectories') +
        '. Hover a point for its numbers.',
      html: await renderVegaLite(errorRateSpec(results, enc)),
    });
  }
  const cheapest = cheapestRuns(results, enc);
  if (cheapest.rows.length > 0) {
    sections.push({
      title: 'Cheapest run for an accepted error',
      caption:
        'For each 95th-percentile position error you might accept, the run that stays within it at the lowest ' +
        'PDU rate.',
      html: htmlTable(cheapest.header, cheapest.rows),
    });
  }
  sections.push({
    title: 'Why PDUs are sent',
    caption:
      'PDUs per second by the reason the owner sent them (a PDU sent for two reasons counts in both). ' +
      (results.length > 60 && enc.colourDomain.length > MAX_REASON_BARS
        ? `The ${formatCount(enc.colourDomain.length)} values of ${enc.colourKey} are grouped, in sweep order, ` +
          `into ${MAX_REASON_BARS} bars, each the mean of its runs. `
        : '') +
      reasonShares(results),
    html: await renderVegaLite(reasonsSpec(results, enc)),
  });
  const others = enc.sweptKeys.filter((k) => k !== 'emitter.algorithm' && k !== 'emitter.positionThreshold');
  if ((others.length > 0 || sameRate) && results.length <= 60) {
    sections.push({
      title: 'Display quality by setting',
      caption:
        'RMS position error, the largest change of displayed velocity between frames (the kink a correction ' +
        'shows; smoothing lowers it) and the PDU rate.',
      html: await renderVegaLite(groupedBarsSpec(results, enc)),
    });
  }
  const traced = results.filter((r) => r.traces && r.traces.errorTime.length > 0);
  if (traced.length > 0) {
    const chosen = pickEvenly(traced, ERROR_PANELS);
    const latency = chosen.some((r) =>
      r.traces!.deadReckoningError.some(
        (e, i) => Number.isFinite(e) && Math.abs(e - r.traces!.positionError[i]!) > 1e-6,
      ),
    );
    sections.push({
      title: 'Displayed position error over time',
      caption:
        'Every rendered frame of the 10 s window in which the error varies most' +
        (traced.length > chosen.length ? `, for ${chosen.length} of ${traced.length} runs spread over the sweep` : '') +
        '; the red dashed line is the position threshold.' +
        (latency
          ? ' Black dashes: the error of the model last sent, without network or smoothing (what the threshold ' +
            'bounds); the gap to the coloured line is latency, loss and smoothing.'
          : ''),
      html: await renderVegaLite(
        errorTimeSpec(
          chosen.map((result) => ({ result, thresholdMeters: thresholdOf(result) })),
          enc,
        ),
      ),
    });
    const trajectories = [...new Set(traced.map((r) => r.trajectory))];
    const tracks =
      trajectories.length > 1
        ? pickEvenly(trajectories, TRAJECTORY_PANELS).map((name) => traced.find((r) => r.trajectory === name)!)
        : pickEvenly(traced, TRACK_PANELS);
    sections.push({
      title: 'Tracks and PDUs sent',
      caption:
        (trajectories.length > 1 ? 'One run per trajectory. ' : '') +
        'True track (grey), displayed track (blue; its offset from the true track drawn enlarged where the error ' +
        'would be too small to see) and a ring where each PDU was sent, coloured by why. Metres east/north of ' +
        'the start.',
      html: await renderVegaLite(trackSpec(tracks, enc, tracks.length > TRACK_PANELS ? 0.5 : 1)),
    });
  }
  if (traced.length === 0) {
    sections.push({
      title: 'Error over time and tracks',
      html:
        '<p>Not drawn: no run kept its traces, because the spec sets <code>"traces": false</code>. Leave ' +
        '<code>traces</code> out (the runs the report draws keep them) or set it to <code>true</code> ' +
        '(<code>--set traces=true</code>) to see the displayed error frame by frame and the tracks with the PDUs ' +
        'sent.</p>',
    });
  }
  sections.push(resultsSection(results, enc));
  return sections;
}

/** Error levels on a 1-2-5 ladder across the runs' p95 errors, each with the lowest-rate run that meets it. */
function cheapestRuns(
  results: readonly RunResult[],
  enc: RunEncoding,
): { header: string[]; rows: Array<Array<string | number>> } {
  const p95s = results.map((r) => r.metrics.positionError.p95).filter((v) => v > 0);
  const header = [
    'accepted p95 error (m)',
    'run',
    'PDUs/s',
    'bytes/s',
    'p95 error (m)',
    'RMS error (m)',
    'time above threshold (%)',
  ];
  if (results.length < 2 || p95s.length === 0) return { header, rows: [] };
  const [lo, hi] = extent(p95s);
  const levels: number[] = [];
  for (let decade = 10 ** Math.floor(Math.log10(lo)); decade <= hi * 10 && levels.length < 40; decade *= 10) {
    for (const m of [1, 2, 5]) {
      const level = Number((m * decade).toPrecision(3));
      if (level >= lo && level < hi * 2) levels.push(level);
    }
  }
  const rows: Array<Array<string | number>> = [];
  let previous: RunResult | undefined;
  for (const level of levels.slice(0, 10)) {
    const within = results.filter((r) => r.metrics.positionError.p95 <= level);
    if (within.length === 0) continue;
    const best = within.reduce((a, b) => (b.metrics.pdusPerSecond < a.metrics.pdusPerSecond ? b : a));
    if (best === previous) continue;
    previous = best;
    const m = best.metrics;
    rows.push([
      `≤ ${level}`,
      enc.label(best),
      m.pdusPerSecond,
      m.bytesPerSecond,
      m.positionError.p95,
      m.positionError.rms,
      100 * m.shareAboveThreshold,
    ]);
  }
  return { header, rows };
}

/** Display names and groups of the results columns (results.csv keeps the snake_case names). */
const COLUMN_GROUPS: ReadonlyArray<{ title: string; columns: ReadonlyArray<readonly [string, string]> }> = [
  {
    title: 'run',
    columns: [
      ['trajectory', 'trajectory'],
      ['duration_s', 'duration (s)'],
    ],
  },
  {
    title: 'PDUs sent, by reason',
    columns: [
      ['pdus', 'total'],
      ['pdus_first', 'first'],
      ['pdus_position', 'position'],
      ['pdus_orientation', 'orientation'],
      ['pdus_heartbeat', 'heartbeat'],
      ['pdus_change', 'change'],
    ],
  },
  {
    title: 'rate',
    columns: [
      ['pdus_per_s', 'PDUs/s'],
      ['pdus_per_orbit', 'PDUs/orbit'],
      ['bytes_per_s', 'bytes/s'],
      ['reduction_vs_baseline_pct', 'vs baseline (%)'],
    ],
  },
  {
    title: 'position error (m)',
    columns: [
      ['pos_err_rms_m', 'RMS'],
      ['pos_err_p95_m', 'p95'],
      ['pos_err_max_m', 'max'],
    ],
  },
  {
    title: 'orientation error (°)',
    columns: [
      ['ori_err_rms_deg', 'RMS'],
      ['ori_err_p95_deg', 'p95'],
      ['ori_err_max_deg', 'max'],
    ],
  },
  {
    title: 'display',
    columns: [
      ['above_threshold_pct', '> threshold (%)'],
      ['max_velocity_jump_mps', 'velocity jump (m/s)'],
      ['lost', 'PDUs lost'],
    ],
  },
  {
    title: 'truth',
    columns: [
      ['truth_max_speed_mps', 'max speed (m/s)'],
      ['truth_max_accel_mps2', 'max accel. (m/s²)'],
      ['truth_max_turn_deg_s', 'max turn (°/s)'],
      ['truth_fixes_dropped', 'fixes dropped'],
      ['truth_fixes_repaired', 'fixes repaired'],
    ],
  },
];

function resultsSection(results: readonly RunResult[], enc: RunEncoding): ReportSection {
  const table = resultTable(results);
  const at = (h: string) => table.header.indexOf(h);
  let rows = table.rows;
  // Columns with one value for every run say nothing per run: they go to the caption.
  const constantNames: Record<string, string> = {
    trajectory: 'trajectory',
    duration_s: 'duration (s)',
    pdus_first: 'first PDUs',
    pdus_change: 'PDUs for a change',
    lost: 'PDUs lost',
    truth_max_speed_mps: 'the truth’s largest speed (m/s)',
    truth_max_accel_mps2: 'acceleration (m/s²)',
    truth_max_turn_deg_s: 'turn rate (°/s)',
    truth_fixes_dropped: 'fixes dropped',
    truth_fixes_repaired: 'fixes repaired',
  };
  const constant = [...Object.keys(constantNames), 'pdus_per_orbit'].filter(
    (h) => at(h) >= 0 && new Set(rows.map((row) => row[at(h)])).size === 1,
  );
  const constantText = constant
    .filter((h) => h in constantNames)
    .map((h) => `${constantNames[h]} ${formatNumber(rows[0]![at(h)] ?? null)}`)
    .join(', ');
  let caption =
    'Every run; results.csv and results.json hold every column (means too) at full precision.' +
    (constantText ? ` The same for every run: ${constantText}.` : '');
  if (rows.length > MAX_TABLE_ROWS) {
    const front = new Set(
      paretoFront(results.map((r) => [r.metrics.pdusPerSecond, r.metrics.positionError.rms] as const)),
    );
    rows = rows.filter((_, i) => front.has(i)).slice(0, MAX_TABLE_ROWS);
    caption =
      `The Pareto-optimal runs (lowest RMS error for their rate; ${rows.length} of ${results.length}); ` +
      'results.csv has every run.';
    if (constantText) caption += ` The same for every run: ${constantText}.`;
  }
  const swept = enc.sweptKeys;
  const groups: ColumnGroup[] = [{ title: '', columns: 1 }];
  const header = ['#'];
  const picks: number[] = [at('run')];
  if (swept.length > 0) {
    groups.push({ title: 'swept settings', columns: swept.length });
    for (const k of swept) {
      header.push(k.split('.').pop()!);
      picks.push(at(k));
    }
  }
  for (const group of COLUMN_GROUPS) {
    // A swept trajectory is already among the swept settings (under the same name).
    const present = group.columns.filter(
      ([h]) => at(h) >= 0 && !constant.includes(h) && !(h === 'trajectory' && swept.includes(h)),
    );
    if (present.length === 0) continue;
    groups.push({ title: group.title, columns: present.length });
    for (const [h, shown] of present) {
      header.push(shown);
      picks.push(at(h));
    }
  }
  return {
    title: 'Results',
    caption,
    html: htmlTable(
      header,
      rows.map((row) => picks.map((i) => row[i] ?? null)),
      groups,
    ),
  };
}
