/**
 * How runs are told apart in the experiment report's charts: colour by DR algorithm (a fixed colour per algorithm)
 * or else by the sweep's first axis, shape by the other swept settings (usually the threshold), and a fixed colour
 * per reason a PDU was sent — the same in every chart and every report.
 */
// Not spec.ts: the library's index loads this module, and the spec's schema would load zod and mathjs with it.
import { DR_ALGORITHM_NAMES } from '../dr/models/algorithm.js';
import { EMIT_REASON_NAMES } from '../dr/owner/emitter.js';
import type { RunResult } from './runner.js';
import { displayValue } from './results-table.js';

/** Why PDUs are sent, in EMIT_* bit order, and their colours (the same in every report). */
export const REASONS = EMIT_REASON_NAMES as readonly string[];
export const REASON_COLOURS: Readonly<Record<string, string>> = {
  first: '#7f7f7f',
  position: '#4e79a7',
  orientation: '#f28e2b',
  heartbeat: '#59a14f',
  change: '#b07aa1',
};

/** DR algorithms in the standard's order (IEEE 1278.1 Annex E), then `auto`, each with its own colour. */
export const ALGORITHM_ORDER: readonly string[] = [...DR_ALGORITHM_NAMES.slice(1), 'auto'];
export const ALGORITHM_COLOURS: Readonly<Record<string, string>> = {
  static: '#9c755f',
  FPW: '#4e79a7',
  RPW: '#f28e2b',
  RVW: '#e15759',
  FVW: '#59a14f',
  FPB: '#76b7b2',
  RPB: '#edc948',
  RVB: '#b07aa1',
  FVB: '#ff9da7',
  auto: '#333333',
};

const TABLEAU10 = [
  '#4e79a7',
  '#f28e2b',
  '#e15759',
  '#76b7b2',
  '#59a14f',
  '#edc948',
  '#b07aa1',
  '#ff9da7',
  '#9c755f',
  '#bab0ac',
];
const TABLEAU20 = [
  '#4e79a7',
  '#a0cbe8',
  '#f28e2b',
  '#ffbe7d',
  '#59a14f',
  '#8cd17d',
  '#b6992d',
  '#f1ce63',
  '#499894',
  '#86bcb6',
  '#e15759',
  '#ff9d9a',
  '#79706e',
  '#bab0ac',
  '#d37295',
  '#fabfd2',
  '#b07aa1',
  '#d4a6c8',
  '#9d7660',
  '#d7b5a6',
];
/** Shapes Vega draws, most distinguishable first. */
export const SHAPES = [
  'circle',
  'square',
  'triangle-up',
  'diamond',
  'cross',
  'triangle-down',
  'triangle-right',
  'triangle-left',
  'wedge',
  'arrow',
];

/** Above this many colour values the legend is left out (the labels and tooltips name each run). */
export const MAX_LEGEND_ENTRIES = 60;

/** n distinct colours: Tableau 10, Tableau 20, then hues a golden angle apart at two lightnesses. */
export function categoricalColours(n: number): string[] {
  if (n <= 10) return TABLEAU10.slice(0, n);
  if (n <= 20) return TABLEAU20.slice(0, n);
  return Array.from(
    { length: n },
    (_, i) => `hsl(${((i * 137.508) % 360).toFixed(2)},${i % 2 ? 55 : 70}%,${i % 3 === 2 ? 62 : 42}%)`,
  );
}

/** How runs are told apart in the charts. */
export interface RunEncoding {
  /** Swept setting paths, in sweep order. */
  readonly sweptKeys: readonly string[];
  /** The setting that picks the colour, or null when nothing is swept. */
  readonly colourKey: string | null;
  readonly colourDomain: readonly string[];
  readonly colourRange: readonly string[];
  /** The shape field's values (the other swept settings), in sweep order; empty when there is none. */
  readonly pointDomain: readonly string[];
  readonly shapeRange: readonly string[] | null;
  /** Colour value, point value and full label of a run. */
  series(result: RunResult): string;
  point(result: RunResult): string;
  label(result: RunResult): string;
  /** The swept values only (`0.5 m · FPW`), for axis labels. */
  shortLabel(result: RunResult): string;
  /** Sort key: colour value first, then the other settings, in sweep order. */
  rank(result: RunResult): number;
}

/** Algorithm numbers as their names, so `4` and `"RVW"` share a colour. */
export function settingText(key: string, value: unknown): string {
  if (key === 'emitter.algorithm' && typeof value === 'number') return DR_ALGORITHM_NAMES[value] ?? String(value);
  return value === undefined ? '' : displayValue(value);
}

/** The last part of a setting path (`emitter.algorithm` → `algorithm`). */
export const shortKey = (key: string) => key.split('.').pop()!;

/**
 * The encoding of a set of runs: colour by `emitter.algorithm` when swept (fixed colours), else by the first
 * swept setting (Tableau colours in sweep order); shape by the remaining swept settings.
 */
export function runEncoding(results: readonly RunResult[]): RunEncoding {
  const sweptKeys = [...new Set(results.flatMap((r) => Object.keys(r.settings)))];
  const colourKey = sweptKeys.includes('emitter.algorithm') ? 'emitter.algorithm' : (sweptKeys[0] ?? null);
  const otherKeys = sweptKeys.filter((k) => k !== colourKey);
  const series = (r: RunResult) => (colourKey === null ? r.name : settingText(colourKey, r.settings[colourKey]));
  const point = (r: RunResult) =>
    otherKeys.length === 1
      ? settingText(otherKeys[0]!, r.settings[otherKeys[0]!])
      : otherKeys.map((k) => `${shortKey(k)}=${settingText(k, r.settings[k])}`).join(' · ');
  const label = (r: RunResult) =>
    sweptKeys.length === 0
      ? r.name
      : sweptKeys.map((k) => `${shortKey(k)}=${settingText(k, r.settings[k])}`).join(' · ');
  const shortLabel = (r: RunResult) =>
    sweptKeys.length === 0 ? r.name : sweptKeys.map((k) => settingText(k, r.settings[k])).join(' · ');
  const seen = [...new Set(results.map(series))];
  let colourDomain: string[], colourRange: string[];
  if (colourKey === 'emitter.algorithm') {
    colourDomain = [
      ...ALGORITHM_ORDER.filter((a) => seen.includes(a)),
      ...seen.filter((a) => !ALGORITHM_ORDER.includes(a)),
    ];
    const spare = categoricalColours(colourDomain.length);
    colourRange = colourDomain.map((a, i) => ALGORITHM_COLOURS[a] ?? spare[i]!);
  } else {
    colourDomain = seen;
    colourRange = categoricalColours(seen.length);
  }
  const pointDomain = otherKeys.length === 0 ? [] : [...new Set(results.map(point))];
  const shapeRange =
    pointDomain.length > 0 && pointDomain.length <= SHAPES.length ? SHAPES.slice(0, pointDomain.length) : null;
  const rank = (r: RunResult) =>
    colourDomain.indexOf(series(r)) * (pointDomain.length + 1) + pointDomain.indexOf(point(r)) + 1;
  return {
    sweptKeys,
    colourKey,
    colourDomain,
    colourRange,
    pointDomain,
    shapeRange,
    series,
    point,
    label,
    shortLabel,
    rank,
  };
}

/** The Vega-Lite colour channel of an encoding (legend unless there are more than MAX_LEGEND_ENTRIES values). */
export function colourChannel(enc: RunEncoding): Record<string, unknown> {
  const many = enc.colourDomain.length > MAX_LEGEND_ENTRIES;
  return {
    field: 'series',
    type: 'nominal',
    title: enc.colourKey === null ? 'run' : shortKey(enc.colourKey),
    scale: { domain: enc.colourDomain, range: enc.colourRange },
    legend: many ? null : { columns: enc.colourDomain.length > 20 ? 2 : 1, orient: 'right' },
  };
}

/** The Vega-Lite shape channel of an encoding, or undefined when the runs differ by colour only. */
export function shapeChannel(enc: RunEncoding): Record<string, unknown> | undefined {
  if (!enc.shapeRange) return undefined;
  const others = enc.sweptKeys.filter((k) => k !== enc.colourKey);
  return {
    field: 'point',
    type: 'nominal',
    title: others.length === 1 ? shortKey(others[0]!) : 'settings',
    scale: { domain: enc.pointDomain, range: enc.shapeRange },
  };
}
