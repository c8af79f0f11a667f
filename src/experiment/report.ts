/**
 * Experiment outputs: `results.csv`, `results.json` and a self-contained `report.html` whose plots are drawn by
 * Vega-Lite, rendered to SVG server-side and inlined (the page needs no network and no script). Vega is loaded
 * only here, and only when a report is written.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { writeOutputFile } from '../files/output-file.js';
import type { RunResult } from './runner.js';
import { formatCell, resultTable, runLabel, toCsv } from './results-table.js';

/** A titled figure or table of the HTML report. */
export interface ReportSection {
  readonly title: string;
  /** Inline SVG markup, or an HTML table from `htmlTable`. */
  readonly html: string;
  readonly caption?: string;
}

/** Results of a sweep that was stopped: they hold only the runs that finished. */
export interface PartialResults {
  /** Runs the sweep had planned. */
  readonly runsPlanned: number;
  /** Why it stopped, e.g. "interrupted by SIGINT". */
  readonly reason: string;
}

/**
 * The content of `results.json`: the spec as given, and each run's settings and metrics (no traces). A stopped
 * sweep's file says so in `partial` ({ runsPlanned, runsFinished, reason }).
 */
export function resultsJson(
  name: string,
  spec: unknown,
  results: readonly RunResult[],
  partial?: PartialResults,
): string {
  const runs = results.map(({ index, name: _n, settings, trajectory, metrics }) => ({ index, settings, trajectory, metrics }));
  const marker = partial && {
    partial: { runsPlanned: partial.runsPlanned, runsFinished: results.length, reason: partial.reason },
  };
  return JSON.stringify({ name, ...marker, spec, runs }, null, 2) + '\n';
}

/** One line that says results are partial, e.g. "partial: 3 of 10 runs finished (interrupted by SIGINT)". */
export function partialNote(results: readonly RunResult[], partial: PartialResults): string {
  return `partial: ${results.length} of ${partial.runsPlanned} runs finished (${partial.reason})`;
}

/**
 * Writes results.csv, results.json and report.html into `outDirectory` (created if missing). Each file is written
 * beside its target and renamed over it when complete, so an earlier result is replaced only by a whole new one.
 * @param partial - set for a stopped sweep: every file then says it is partial.
 * @returns the paths written.
 */
export async function writeExperimentOutputs(
  outDirectory: string,
  name: string,
  spec: unknown,
  results: readonly RunResult[],
  partial?: PartialResults,
): Promise<string[]> {
  await mkdir(outDirectory, { recursive: true });
  const files = [join(outDirectory, 'results.csv'), join(outDirectory, 'results.json'), join(outDirectory, 'report.html')];
  const sections = await experimentSections(results);
  // A partial CSV starts with a `#` comment line (read with e.g. pandas' comment="#"); the columns are unchanged.
  const note = partial && partialNote(results, partial);
  const summary = (note ? `${note[0]!.toUpperCase()}${note.slice(1)}. ` : '') + describeExperiment(results);
  await Promise.all([
    writeOutputFile(files[0]!, (note ? `# ${note}\n` : '') + toCsv(results)),
    writeOutputFile(files[1]!, resultsJson(name, spec, results, partial)),
    writeOutputFile(files[2]!, renderHtmlReport(note ? `${name} (partial)` : name, summary, sections)),
  ]);
  return files;
}

function describeExperiment(results: readonly RunResult[]): string {
  const seconds = results.reduce((s, r) => s + r.metrics.durationSeconds, 0);
  const ethernet = results[0]?.metrics.wireIncludesEthernet ? 'including Ethernet framing (18 bytes)' : 'IPv4 + UDP headers (28 bytes), Ethernet framing not included';
  return `${results.length} run${results.length === 1 ? '' : 's'}, ${(seconds / 3600).toPrecision(3)} simulated hours. Wire bytes: PDU + ${ethernet}. Reduction is against a fixed-rate sender at ${results[0]?.metrics.baselineRateHz ?? 15} Hz.`;
}

/** The standard figures: error against PDU rate with its Pareto front, error over time, the track with PDU markers, the table. */
export async function experimentSections(results: readonly RunResult[]): Promise<ReportSection[]> {
  const sections: ReportSection[] = [];
  const points = results.map((r) => ({ label: runLabel(r), rate: r.metrics.pdusPerSecond, rms: r.metrics.positionError.rms, p95: r.metrics.positionError.p95 }));
  const front = paretoFront(points.map((p) => [p.rate, p.rms] as const)).map((i) => points[i]!);
  sections.push({
    title: 'Position error against PDU rate',
    caption: 'Each point is a run; the line joins the Pareto-optimal runs (no other run has both a lower rate and a lower RMS error).',
    html: await renderVegaLite({
      width: 640,
      height: 360,
      layer: [
        {
          data: { values: front },
          mark: { type: 'line', color: '#888', strokeDash: [4, 3], point: false },
          encoding: { x: { field: 'rate', type: 'quantitative' }, y: { field: 'rms', type: 'quantitative' } },
        },
        {
          data: { values: points },
          mark: { type: 'point', filled: true, size: 70 },
          encoding: {
            x: { field: 'rate', type: 'quantitative', title: 'PDUs per second', scale: { zero: false, padding: 12 } },
            y: { field: 'rms', type: 'quantitative', title: 'RMS displayed position error (m)', scale: { zero: true } },
            color: { field: 'label', type: 'nominal', title: 'run', legend: results.length <= 24 ? {} : null },
          },
        },
      ],
    }),
  });
  const traced = results.filter((r) => r.traces && r.traces.time.length > 0).slice(0, 6);
  if (traced.length > 0) {
    sections.push({
      title: 'Displayed position error, first minute',
      caption: `Every rendered frame${results.length > traced.length ? ` of the first ${traced.length} runs` : ''}.`,
      html: await renderVegaLite({
        width: 640,
        height: 300,
        data: { values: traced.flatMap((r) => r.traces!.errorTime.map((t, i) => ({ t, error: r.traces!.positionError[i], label: runLabel(r) }))) },
        mark: { type: 'line', strokeWidth: 1.2 },
        encoding: {
          x: { field: 't', type: 'quantitative', title: 'time (s)' },
          y: { field: 'error', type: 'quantitative', title: 'position error (m)' },
          color: { field: 'label', type: 'nominal', title: 'run', legend: {} },
        },
      }),
    });
    const r = traced[0]!;
    sections.push({ title: `Track and PDUs sent — ${runLabel(r)}`, html: await renderTrack(r), caption: 'True track, displayed track and the position of every PDU sent (colour: why), metres from the start.' });
  }
  const { header, rows } = resultTable(results);
  sections.push({ title: 'Results', html: htmlTable(header, rows) });
  return sections;
}

async function renderTrack(result: RunResult): Promise<string> {
  const t = result.traces!;
  const track = t.time.flatMap((_, i) => [
    { east: t.trueEast[i], north: t.trueNorth[i], i, series: 'true' },
    { east: t.shownEast[i], north: t.shownNorth[i], i, series: 'displayed' },
  ]);
  const reasons = ['first', 'position', 'orientation', 'heartbeat', 'change'];
  const pdus = t.pduTime.map((time, i) => ({ east: t.pduEast[i], north: t.pduNorth[i], time, why: reasons.filter((_, b) => t.pduReasons[i]! & (1 << b)).join('+') }));
  // Equal metres per pixel on both axes, so circles look round.
  const all = [...track, ...pdus];
  const span = (key: 'east' | 'north') => {
    const values = all.map((p) => p[key]!);
    return [Math.min(...values), Math.max(...values)] as const;
  };
  const [e0, e1] = span('east'), [n0, n1] = span('north');
  const size = Math.max(e1 - e0, n1 - n0, 1) * 1.05;
  const ec = (e0 + e1) / 2, nc = (n0 + n1) / 2;
  const axis = (c: number, title: string) => ({ type: 'quantitative', title, scale: { domain: [c - size / 2, c + size / 2], nice: false } });
  return renderVegaLite({
    width: 520,
    height: 520,
    layer: [
      {
        data: { values: track },
        mark: { type: 'line', strokeWidth: 1, opacity: 0.8 },
        encoding: {
          x: { field: 'east', ...axis(ec, 'east (m)') },
          y: { field: 'north', ...axis(nc, 'north (m)') },
          order: { field: 'i' },
          detail: { field: 'series' },
          stroke: { field: 'series', type: 'nominal', title: 'track', scale: { domain: ['true', 'displayed'], range: ['#9aa0a6', '#1f77b4'] } },
        },
      },
      {
        data: { values: pdus },
        mark: { type: 'point', filled: true, size: 22, opacity: 0.9 },
        encoding: {
          x: { field: 'east', type: 'quantitative' },
          y: { field: 'north', type: 'quantitative' },
          color: { field: 'why', type: 'nominal', title: 'PDU sent for', scale: { range: ['#d62728', '#ff7f0e', '#2ca02c', '#9467bd', '#8c564b', '#111111'] } },
        },
      },
    ],
  });
}

/** Indices of the points not dominated by any other (lower or equal x and y, one strictly), sorted by x. */
export function paretoFront(points: ReadonlyArray<readonly [number, number]>): number[] {
  const order = points.map((_, i) => i).sort((a, b) => points[a]![0] - points[b]![0] || points[a]![1] - points[b]![1]);
  const front: number[] = [];
  let bestY = Infinity;
  for (const i of order) {
    if (points[i]![1] < bestY) {
      front.push(i);
      bestY = points[i]![1];
    }
  }
  return front;
}

/** Renders a Vega-Lite spec to SVG markup (server-side, no canvas). */
export async function renderVegaLite(spec: Record<string, unknown>): Promise<string> {
  const [vega, vegaLite] = await Promise.all([import('vega'), import('vega-lite')]);
  const full = { $schema: 'https://vega.github.io/schema/vega-lite/v6.json', config: { font: 'system-ui, sans-serif', legend: { labelLimit: 420 } }, background: 'white', ...spec };
  const compiled = vegaLite.compile(full as Parameters<typeof vegaLite.compile>[0]).spec;
  const view = new vega.View(vega.parse(compiled), { renderer: 'none' });
  const svg = await view.toSVG();
  view.finalize();
  return svg;
}

/** An HTML table; numbers right-aligned to 3 significant digits. */
export function htmlTable(header: readonly string[], rows: ReadonlyArray<ReadonlyArray<number | string | null>>): string {
  const head = header.map((h) => `<th>${escapeHtml(h.replace(/_/g, ' '))}</th>`).join('');
  const body = rows
    .map((row) => `<tr>${row.map((v) => `<td${typeof v === 'number' ? ' class="n"' : ''}>${escapeHtml(formatCell(v))}</td>`).join('')}</tr>`)
    .join('\n');
  return `<div class="scroll"><table><thead><tr>${head}</tr></thead><tbody>\n${body}\n</tbody></table></div>`;
}

/** The whole page: title, summary line, sections. No scripts, no external resources. */
export function renderHtmlReport(title: string, summary: string, sections: readonly ReportSection[]): string {
  const body = sections
    .map((s) => `<section><h2>${escapeHtml(s.title)}</h2>${s.caption ? `<p class="caption">${escapeHtml(s.caption)}</p>` : ''}\n${s.html}</section>`)
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} — reckon experiment</title>
<style>
body { font: 14px/1.45 system-ui, sans-serif; margin: 2rem auto; max-width: 1100px; padding: 0 1rem; color: #222; }
h1 { font-size: 1.5rem; margin-bottom: 0.2rem; } h2 { font-size: 1.1rem; margin-top: 2rem; }
.summary, .caption { color: #555; } svg { max-width: 100%; height: auto; }
.scroll { overflow-x: auto; } table { border-collapse: collapse; font-size: 12px; }
th, td { border-bottom: 1px solid #ddd; padding: 3px 8px; white-space: nowrap; } th { text-align: left; background: #f4f4f4; }
td.n { text-align: right; font-variant-numeric: tabular-nums; }
</style></head>
<body><h1>${escapeHtml(title)}</h1><p class="summary">${escapeHtml(summary)}</p>
${body}
</body></html>
`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
}
