/**
 * The experiment report's charts as Vega-Lite specs (plain data, rendered by `report.ts`), encoded as
 * `run-encoding.ts` says so a run looks the same in every chart and every report.
 */
import type { RunResult } from './runner.js';
import {
  REASONS,
  REASON_COLOURS,
  type RunEncoding,
  colourChannel,
  settingText,
  shapeChannel,
  shortKey,
} from './run-encoding.js';
import { eastNorthAxes } from '../report/enu-axes.js';
import { extent } from '../math/extent.js';
import { pickEvenly } from './traced-runs.js';

export { pickEvenly };

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

/** Whether a Pareto front means anything: every run flew the same trajectory. */
export function sameTrajectory(results: readonly RunResult[]): boolean {
  return new Set(results.map((r) => r.trajectory)).size <= 1 && !results.some((r) => 'trajectory' in r.settings);
}

/** A quantitative scale for positive values: logarithmic when they span a decade or more, else linear from 0. */
export function scaleFor(values: readonly number[]): Record<string, unknown> {
  const positive = values.filter((v) => v > 0);
  const [lo, hi] = extent(positive);
  if (positive.length === values.length && positive.length > 1 && hi / lo >= 10) return { type: 'log', nice: true };
  return hi > 0 ? { type: 'linear', zero: true, nice: true } : { type: 'linear', domain: [0, 1] };
}

/** Three significant digits, thousands separated, never an exponent. */
export const NUMBER = ',.3~r';

/**
 * Error against PDU rate: a curve per colour value through its runs (in sweep order, i.e. by threshold), each
 * point labelled, native tooltips, and the Pareto front where all runs share a trajectory.
 */
export function errorRateSpec(results: readonly RunResult[], enc: RunEncoding): Record<string, unknown> {
  const points = results.map((r) => ({
    run: r.index,
    label: enc.label(r),
    series: enc.series(r),
    point: enc.point(r),
    rate: r.metrics.pdusPerSecond,
    rms: r.metrics.positionError.rms,
    p95: r.metrics.positionError.p95,
    max: r.metrics.positionError.max,
    bytes: r.metrics.bytesPerSecond,
    tip:
      `${enc.label(r)}: ${fmt(r.metrics.pdusPerSecond)} PDUs/s, ${fmt(r.metrics.bytesPerSecond)} bytes/s; ` +
      `position error RMS ${fmt(r.metrics.positionError.rms)} m, p95 ${fmt(r.metrics.positionError.p95)} m, ` +
      `max ${fmt(r.metrics.positionError.max)} m`,
  }));
  const x = {
    field: 'rate',
    type: 'quantitative',
    title: 'PDU rate (PDUs/s)',
    scale: scaleFor(points.map((p) => p.rate)),
    axis: { format: NUMBER },
  };
  const y = {
    field: 'rms',
    type: 'quantitative',
    title: 'RMS displayed position error (m)',
    scale: scaleFor(points.map((p) => p.rms)),
    axis: { format: NUMBER },
  };
  const layer: Record<string, unknown>[] = [];
  if (results.length > 1 && sameTrajectory(results)) {
    const front = paretoFront(points.map((p) => [p.rate, p.rms] as const)).map((i) => ({
      ...points[i],
      front: 'Pareto front',
    }));
    layer.push({
      data: { values: front },
      mark: {
        type: 'line',
        color: '#999',
        strokeDash: [5, 4],
        strokeWidth: 4,
        opacity: 0.45,
        interpolate: 'step-after',
      },
      encoding: { x, y, order: { field: 'rate' } },
    });
  }
  if (enc.pointDomain.length > 0) {
    layer.push({
      mark: { type: 'line', strokeWidth: 1.5, opacity: 0.8 },
      encoding: { x, y, color: colourChannel(enc), detail: { field: 'series' }, order: { field: 'run' } },
    });
  }
  const shape = shapeChannel(enc);
  layer.push({
    mark: { type: 'point', filled: true, size: 90, opacity: 1, stroke: 'white', strokeWidth: 0.8, aria: true },
    encoding: {
      x,
      y,
      color: colourChannel(enc),
      ...(shape ? { shape } : {}),
      description: { field: 'tip' },
      tooltip: [
        { field: 'label', title: 'run' },
        { field: 'rate', title: 'PDUs/s', format: NUMBER },
        { field: 'rms', title: 'RMS error (m)', format: NUMBER },
        { field: 'p95', title: 'p95 error (m)', format: NUMBER },
        { field: 'max', title: 'max error (m)', format: NUMBER },
        { field: 'bytes', title: 'bytes/s', format: ',.0f' },
      ],
    },
  });
  if (results.length <= 40 && enc.pointDomain.length > 0) {
    // Neighbouring points of a curve get their labels on opposite sides (above right, below right), so the
    // labels of close thresholds do not print over each other.
    for (const [parity, dy] of [
      [0, -7],
      [1, 12],
    ] as const) {
      layer.push({
        data: { values: points.filter((p) => enc.pointDomain.indexOf(p.point) % 2 === parity) },
        mark: { type: 'text', align: 'left', dx: 7, dy, fontSize: 10, color: '#444', aria: false },
        encoding: { x, y, text: { field: 'point' } },
      });
    }
  }
  return { width: 720, height: 400, data: { values: points }, layer, resolve: { scale: { color: 'shared' } } };
}

/** Most bars of the reasons chart: past it, neighbouring colour values (in sweep order) share a bar. */
export const MAX_REASON_BARS = 30;

/**
 * PDUs per second by reason, a stacked bar per run (or per colour value, averaged, above 60 runs; per group of
 * neighbouring colour values past MAX_REASON_BARS of them).
 */
export function reasonsSpec(results: readonly RunResult[], enc: RunEncoding): Record<string, unknown> {
  const perRun = results.length <= 60;
  const rows: Array<{ label: string; order: number; reason: string; rate: number }> = [];
  if (perRun) {
    for (const r of results) {
      for (const reason of REASONS) {
        const n = r.metrics.pdusByReason[reason as keyof RunResult['metrics']['pdusByReason']];
        rows.push({
          label: enc.shortLabel(r),
          order: enc.rank(r) * 1e6 + r.index,
          reason,
          rate: n / r.metrics.durationSeconds,
        });
      }
    }
  } else {
    // One pass: each run's rates added to its bar (a colour value, or a group of neighbouring ones).
    const barOf = new Map<string, number>();
    const values = enc.colourDomain.length;
    const bars = Math.min(values, MAX_REASON_BARS);
    enc.colourDomain.forEach((series, i) => barOf.set(series, Math.floor((i * bars) / values)));
    const sums = Array.from({ length: bars }, () => ({ runs: 0, rates: REASONS.map(() => 0) }));
    for (const r of results) {
      const bar = sums[barOf.get(enc.series(r)) ?? 0]!;
      bar.runs++;
      REASONS.forEach((reason, k) => {
        const n = r.metrics.pdusByReason[reason as keyof RunResult['metrics']['pdusByReason']];
        bar.rates[k]! += n / r.metrics.durationSeconds;
      });
    }
    sums.forEach((bar, order) => {
      const first = enc.colourDomain[Math.ceil((order * values) / bars)]!;
      const last = enc.colourDomain[Math.ceil(((order + 1) * values) / bars) - 1]!;
      const name = first === last ? first : `${first} … ${last}`;
      REASONS.forEach((reason, k) => {
        rows.push({ label: `${name} (mean of ${bar.runs})`, order, reason, rate: bar.rates[k]! / bar.runs });
      });
    });
  }
  const bars = new Set(rows.map((r) => r.label)).size;
  return {
    width: 640,
    height: { step: 18 },
    data: { values: rows },
    mark: { type: 'bar', aria: true },
    encoding: {
      y: {
        field: 'label',
        type: 'nominal',
        title: enc.sweptKeys.length > 0 && perRun ? enc.sweptKeys.map(shortKey).join(' · ') : null,
        sort: { field: 'order' },
        axis: { labelLimit: 360 },
      },
      x: {
        field: 'rate',
        type: 'quantitative',
        title: 'PDUs per second, by reason',
        stack: 'zero',
        axis: { format: NUMBER },
      },
      color: {
        field: 'reason',
        type: 'nominal',
        title: 'sent for',
        scale: { domain: [...REASONS], range: REASONS.map((r) => REASON_COLOURS[r]) },
        legend: { orient: bars > 12 ? 'right' : 'top' },
      },
      order: { field: 'reasonOrder' },
      tooltip: [
        { field: 'label', title: 'run' },
        { field: 'reason', title: 'sent for' },
        { field: 'rate', title: 'PDUs/s', format: NUMBER },
      ],
    },
    transform: [{ calculate: `indexof(${JSON.stringify([...REASONS])}, datum.reason)`, as: 'reasonOrder' }],
  };
}

const WINDOW_SECONDS = 10;

/**
 * The window of the error-over-time panels: the 10 s (starting on a whole 5 s, after the first 5 s) in which the
 * displayed error of the runs varies most, so the panels show corrections rather than a quiet straight; the whole
 * trace when it is shorter.
 */
export function errorWindow(results: readonly RunResult[]): readonly [number, number] {
  const [last] = extent(results.map((r) => r.traces!.errorTime[r.traces!.errorTime.length - 1] ?? 0));
  if (!(last > WINDOW_SECONDS + 5)) return [0, Math.max(last, 1e-3)];
  let best = 5,
    bestScore = -1;
  for (let start = 5; start + WINDOW_SECONDS <= last; start += 5) {
    let score = 0;
    for (const r of results) {
      const t = r.traces!;
      let lo = Infinity,
        hi = -Infinity;
      for (let i = 0; i < t.errorTime.length; i++) {
        const time = t.errorTime[i]!;
        if (time < start || time > start + WINDOW_SECONDS) continue;
        lo = Math.min(lo, t.positionError[i]!);
        hi = Math.max(hi, t.positionError[i]!);
      }
      if (hi > lo) score += hi - lo;
    }
    if (score > bestScore) [best, bestScore] = [start, score];
  }
  return [best, best + WINDOW_SECONDS];
}

/** Error over time, one panel per chosen run, with the position threshold as a reference line. */
export function errorTimeSpec(
  runs: ReadonlyArray<{ result: RunResult; thresholdMeters: number | undefined }>,
  enc: RunEncoding,
): Record<string, unknown> {
  const [t0, t1] = errorWindow(runs.map((r) => r.result));
  const panels = runs.map(({ result: r, thresholdMeters }) => {
    const t = r.traces!;
    const values: Array<{ t: number; error: number; kind: string }> = [];
    const hasLatency = t.deadReckoningError.some(
      (e, i) => Number.isFinite(e) && Math.abs(e - t.positionError[i]!) > 1e-6,
    );
    for (let i = 0; i < t.errorTime.length; i++) {
      const time = t.errorTime[i]!;
      if (time < t0 || time > t1) continue;
      values.push({ t: round(time, 4), error: round(t.positionError[i]!, 4), kind: 'displayed' });
      const dr = t.deadReckoningError[i];
      if (hasLatency && dr !== undefined && Number.isFinite(dr))
        values.push({ t: round(time, 4), error: round(dr, 4), kind: 'dead reckoning only' });
    }
    const layer: Record<string, unknown>[] = [
      {
        data: { values },
        mark: { type: 'line', strokeWidth: 1.1, interpolate: 'linear', aria: false },
        encoding: {
          x: { field: 't', type: 'quantitative', title: 'time (s)', scale: { domain: [t0, t1], nice: false } },
          y: { field: 'error', type: 'quantitative', title: 'position error (m)', axis: { format: NUMBER } },
          color: {
            field: 'kind',
            type: 'nominal',
            title: null,
            scale: {
              domain: ['displayed', 'dead reckoning only'],
              range: [enc.colourRange[enc.colourDomain.indexOf(enc.series(r))] ?? '#4e79a7', '#222'],
            },
            legend: { orient: 'top' },
          },
          strokeDash: {
            field: 'kind',
            type: 'nominal',
            title: null,
            scale: {
              domain: ['displayed', 'dead reckoning only'],
              range: [
                [1, 0],
                [3, 2],
              ],
            },
            legend: { orient: 'top' },
          },
        },
      },
    ];
    if (thresholdMeters !== undefined) {
      layer.push({
        data: { values: [{ threshold: thresholdMeters }] },
        mark: { type: 'rule', color: '#c00', strokeDash: [6, 3], strokeWidth: 1 },
        encoding: { y: { field: 'threshold', type: 'quantitative' } },
      });
    }
    return { title: enc.label(r), width: 340, height: 150, layer };
  });
  return {
    concat: panels,
    columns: 2,
    spacing: 24,
    resolve: { scale: { color: 'independent', strokeDash: 'independent' } },
  };
}

/**
 * Track panels: PDU markers (thin, under), the true track and the displayed track, error exaggerated to show.
 * @param detail - share of the usual points and markers per panel (less when there are many panels).
 */
export function trackSpec(results: readonly RunResult[], enc: RunEncoding, detail = 1): Record<string, unknown> {
  const panels = results.map((r) => {
    const t = r.traces!;
    const stride = Math.max(1, Math.ceil(t.time.length / (700 * detail)));
    const idx = t.time.map((_, i) => i).filter((i) => i % stride === 0 || i === t.time.length - 1);
    const spanOf = (a: number[]) => {
      const [lo, hi] = extent(a);
      return hi - lo;
    };
    const span = Math.max(spanOf(t.trueEast), spanOf(t.trueNorth), 1);
    const p95 = r.metrics.positionError.p95;
    // The displayed track's offset from the true one is drawn k times its size, so an error of a metre shows on
    // a 10 km course: about 1.5 % of the course for the 95th percentile error.
    const k = p95 > 0 ? Math.max(1, Math.min(1000, niceFactor((0.015 * span) / p95))) : 1;
    const shownLabel = k > 1 ? `displayed (error ×${k})` : 'displayed';
    const track = idx.flatMap((i, order) => [
      { e: round(t.trueEast[i]!, 2), n: round(t.trueNorth[i]!, 2), order, series: 'true' },
      {
        e: round(t.trueEast[i]! + k * (t.shownEast[i]! - t.trueEast[i]!), 2),
        n: round(t.trueNorth[i]! + k * (t.shownNorth[i]! - t.trueNorth[i]!), 2),
        order,
        series: shownLabel,
      },
    ]);
    const pduIdx = pickEvenly(
      t.pduTime.map((_, i) => i),
      Math.round(300 * detail),
    );
    const pdus = pduIdx.map((i) => ({
      e: round(t.pduEast[i]!, 2),
      n: round(t.pduNorth[i]!, 2),
      why: REASONS[lowestBit(t.pduReasons[i]!)] ?? 'change',
    }));
    const { x, y } = eastNorthAxes([...track, ...pdus], 1, 1.06);
    return {
      title: {
        text: enc.label(r),
        subtitle:
          `${t.pduTime.length}${t.pduTime.length >= 2000 ? '+' : ''} PDUs; ` +
          (pdus.length < t.pduTime.length ? `${pdus.length} shown` : 'all shown'),
      },
      width: 360,
      height: 360,
      layer: [
        {
          data: { values: pdus },
          mark: { type: 'point', shape: 'circle', filled: false, size: 36, strokeWidth: 1, opacity: 0.9, aria: false },
          encoding: {
            x,
            y,
            color: {
              field: 'why',
              type: 'nominal',
              title: 'PDU sent for',
              scale: { domain: [...REASONS], range: REASONS.map((q) => REASON_COLOURS[q]) },
            },
          },
        },
        ...(['true', shownLabel] as const).map((series, i) => ({
          data: { values: track.filter((p) => p.series === series) },
          mark: { type: 'line', interpolate: 'linear', strokeWidth: i === 0 ? 3 : 1.1, aria: false },
          encoding: {
            x,
            y,
            order: { field: 'order' },
            stroke: {
              datum: series,
              title: 'track',
              scale: { domain: ['true', shownLabel], range: ['#b8b8b8', '#1f3a93'] },
              legend: { orient: 'top' },
            },
          },
        })),
      ],
    };
  });
  return { concat: panels, columns: 2, spacing: 30, resolve: { scale: { stroke: 'independent' } } };
}

/**
 * Grouped bars of the display's quality by the swept settings (network × smoothing and the like): RMS error,
 * largest velocity jump (the visible kink of a correction) and PDU rate.
 */
export function groupedBarsSpec(results: readonly RunResult[], enc: RunEncoding): Record<string, unknown> {
  const others = enc.sweptKeys.filter((k) => k !== enc.colourKey);
  const groupKey = others[0];
  const rows = results.map((r) => ({
    series: enc.series(r),
    group: groupKey === undefined ? enc.series(r) : settingText(groupKey, r.settings[groupKey]),
    label: enc.label(r),
    rms: r.metrics.positionError.rms,
    jump: r.metrics.maxVelocityJump,
    rate: r.metrics.pdusPerSecond,
  }));
  const groups = [...new Set(rows.map((r) => r.group))];
  const panel = (field: string, title: string) => ({
    width: groupKey === undefined ? { step: 28 } : 300,
    height: 200,
    mark: { type: 'bar', aria: true },
    encoding: {
      x: {
        field: 'group',
        type: 'nominal',
        title: groupKey === undefined ? null : shortKey(groupKey),
        sort: groups,
        axis: { labelAngle: -30 },
      },
      ...(groupKey === undefined ? {} : { xOffset: { field: 'series', type: 'nominal', sort: enc.colourDomain } }),
      y: { field, type: 'quantitative', title, axis: { format: NUMBER } },
      color: colourChannel(enc),
      tooltip: [
        { field: 'label', title: 'run' },
        { field, title, format: NUMBER },
      ],
    },
  });
  return {
    data: { values: rows },
    hconcat: [
      panel('rms', 'RMS position error (m)'),
      panel('jump', 'max velocity jump (m/s)'),
      panel('rate', 'PDUs/s'),
    ],
    spacing: 28,
  };
}

/** Bars of the lockstep comparison: hitches per minute and the longest stall by condition and transport. */
export function lockstepSpec(rows: ReadonlyArray<Record<string, unknown>>): Record<string, unknown> {
  const values = rows.map((r) => ({
    condition: `${String(r.latencyMs)} ms, ${String(r.lossPercent)} % loss, playout ${String(r.playoutDelayMs)} ms`,
    transport: String(r.transport),
    hitches: Number(r.hitchesPerMinute),
    stall: Number(r.longestStallMs),
  }));
  const conditions = [...new Set(values.map((v) => v.condition))];
  const panel = (field: string, title: string) => ({
    width: 300,
    height: { step: 16 },
    mark: { type: 'bar', aria: true },
    encoding: {
      y: { field: 'condition', type: 'nominal', title: null, sort: conditions, axis: { labelLimit: 300 } },
      yOffset: { field: 'transport', type: 'nominal', sort: ['tcp', 'udp-redundant'] },
      x: { field, type: 'quantitative', title, axis: { format: NUMBER } },
      color: {
        field: 'transport',
        type: 'nominal',
        scale: { domain: ['tcp', 'udp-redundant'], range: ['#e15759', '#4e79a7'] },
        legend: { orient: 'top' },
      },
      tooltip: [{ field: 'condition' }, { field: 'transport' }, { field, title, format: NUMBER }],
    },
  });
  return {
    data: { values },
    hconcat: [panel('hitches', 'hitches per minute'), panel('stall', 'longest stall (ms)')],
    spacing: 24,
  };
}

/** Three significant digits, as the tables show them. */
function fmt(v: number): string {
  return Number.isInteger(v) || Math.abs(v) >= 1000 ? String(Math.round(v)) : String(Number(v.toPrecision(3)));
}

function lowestBit(bits: number): number {
  for (let b = 0; b < 5; b++) if (bits & (1 << b)) return b;
  return 4;
}

/** 1, 2, 5, 10, 20, 50, … at or below x (≥ 1). */
function niceFactor(x: number): number {
  if (x < 1) return 1;
  const decade = 10 ** Math.floor(Math.log10(x));
  const m = x / decade;
  return (m >= 5 ? 5 : m >= 2 ? 2 : 1) * decade;
}

function round(v: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(v * f) / f;
}
