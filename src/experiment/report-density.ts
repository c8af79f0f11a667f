/**
 * The error-against-rate chart of a sweep too large to draw run by run: past MAX_DRAWN_RUNS the report shows how
 * many runs fall in each cell of a grid over PDU rate and RMS error (counted here, so the chart holds at most
 * DENSITY_CELLS cells whatever the number of runs), with the Pareto front drawn over it. A 100 000-run sweep drawn
 * point by point made a report of over 150 MB that no browser opens.
 */
import { extent } from '../math/extent.js';
import { NUMBER, paretoFront, sameTrajectory, scaleFor } from './report-charts.js';
import type { RunResult } from './runner.js';
import { pickEvenly } from './traced-runs.js';

/** Most runs the error-against-rate chart draws one by one. */
export const MAX_DRAWN_RUNS = 1000;
/** Columns (rate) and rows (error) of the grid. */
export const DENSITY_CELLS = { columns: 48, rows: 32 } as const;
/** Most points of the Pareto front drawn (picked evenly along it). */
const MAX_FRONT_POINTS = 400;

/** Cut points of `values` on a scale (`scaleFor`): evenly in log10 on a log scale, from 0 on a linear one. */
function edges(values: readonly number[], scale: Record<string, unknown>, cells: number): number[] {
  const finite = values.filter(Number.isFinite);
  const [lo, hi] = extent(finite);
  const log = scale.type === 'log';
  const from = log ? Math.log10(lo) : 0;
  const to = log ? Math.log10(hi) : hi > 0 ? hi : 1;
  const step = (to - from) / cells || 1;
  const cuts = Array.from({ length: cells + 1 }, (_, i) => (log ? 10 ** (from + i * step) : from + i * step));
  // The ends exactly (10 ** log10(x) may miss x by a rounding): no run falls outside.
  if (log) cuts[0] = lo;
  cuts[cells] = Math.max(cuts[cells]!, hi);
  return cuts;
}

/** The cell of `v` among `cuts` (the last cell takes its upper edge), or -1 outside them. */
function cellOf(v: number, cuts: readonly number[]): number {
  if (!(v >= cuts[0]! && v <= cuts[cuts.length - 1]!)) return -1;
  let lo = 0,
    hi = cuts.length - 2;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (v >= cuts[mid]!) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** The count of runs in each cell of the grid (empty cells left out), and the Pareto front over all of them. */
export function errorRateDensitySpec(results: readonly RunResult[]): Record<string, unknown> {
  const rates = results.map((r) => r.metrics.pdusPerSecond);
  const errors = results.map((r) => r.metrics.positionError.rms);
  const xScale = scaleFor(rates),
    yScale = scaleFor(errors);
  const xCuts = edges(rates, xScale, DENSITY_CELLS.columns),
    yCuts = edges(errors, yScale, DENSITY_CELLS.rows);
  const counts = new Map<number, number>();
  for (let i = 0; i < results.length; i++) {
    const cx = cellOf(rates[i]!, xCuts),
      cy = cellOf(errors[i]!, yCuts);
    if (cx < 0 || cy < 0) continue;
    const key = cy * DENSITY_CELLS.columns + cx;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const cells = [...counts].map(([key, runs]) => {
    const cx = key % DENSITY_CELLS.columns,
      cy = Math.floor(key / DENSITY_CELLS.columns);
    return { rate: xCuts[cx]!, rate2: xCuts[cx + 1]!, rms: yCuts[cy]!, rms2: yCuts[cy + 1]!, runs };
  });
  const x = {
    field: 'rate',
    type: 'quantitative',
    title: 'PDU rate (PDUs/s)',
    scale: xScale,
    axis: { format: NUMBER },
  };
  const y = {
    field: 'rms',
    type: 'quantitative',
    title: 'RMS displayed position error (m)',
    scale: yScale,
    axis: { format: NUMBER },
  };
  const layer: Record<string, unknown>[] = [
    {
      data: { values: cells },
      mark: { type: 'rect', aria: true },
      encoding: {
        x,
        x2: { field: 'rate2' },
        y,
        y2: { field: 'rms2' },
        color: { field: 'runs', type: 'quantitative', title: 'runs', scale: { type: 'log', scheme: 'blues' } },
        tooltip: [
          { field: 'runs', title: 'runs' },
          { field: 'rate', title: 'PDUs/s from', format: NUMBER },
          { field: 'rate2', title: 'to', format: NUMBER },
          { field: 'rms', title: 'RMS error (m) from', format: NUMBER },
          { field: 'rms2', title: 'to', format: NUMBER },
        ],
      },
    },
  ];
  if (sameTrajectory(results)) {
    const front = pickEvenly(paretoFront(rates.map((rate, i) => [rate, errors[i]!] as const)), MAX_FRONT_POINTS).map(
      (i) => ({ rate: rates[i], rms: errors[i], run: results[i]!.index }),
    );
    layer.push({
      data: { values: front },
      mark: { type: 'line', color: '#e15759', strokeDash: [5, 4], strokeWidth: 2, interpolate: 'step-after' },
      encoding: { x, y, order: { field: 'rate' } },
    });
  }
  return { width: 720, height: 400, layer };
}
