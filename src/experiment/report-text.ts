// What the experiment report says in words: the settings panel (what every run shares and what the sweep varies),
// the runs' notes and the share of PDUs sent for each reason.
import { DR_ALGORITHM_NAMES } from '../dr/models/algorithm.js';
import { displayValue } from './results-table.js';
import type { RunResult } from './runner.js';
import type { ExperimentPlan } from './sweep.js';

/** Each distinct note of the runs, with how many runs it concerns when not all of them. */
export function runNotes(results: readonly RunResult[]): string[] {
  const counts = new Map<string, number>();
  for (const r of results) for (const note of r.notes ?? []) counts.set(note, (counts.get(note) ?? 0) + 1);
  return [...counts].map(([note, n]) =>
    n === results.length || results.length === 1 ? note : `${note} (${n} of ${results.length} runs)`,
  );
}

/** One sentence: the share of all PDUs sent for each reason, largest first. */
export function reasonShares(results: readonly RunResult[]): string {
  const totals = new Map<string, number>();
  for (const r of results)
    for (const [k, n] of Object.entries(r.metrics.pdusByReason)) totals.set(k, (totals.get(k) ?? 0) + n);
  const all = [...totals.values()].reduce((a, b) => a + b, 0);
  if (all === 0) return '';
  const parts = [...totals]
    .filter(([, n]) => n > 0)
    .sort((a, b) => b[1] - a[1])
    .map(([k, n]) => `${k} ${Math.round((100 * n) / all)} %`);
  return `Over all runs: ${parts.join(', ')}.`;
}

/** The settings panel: what every run shares, and what the sweep varies. */
export function settingsPanel(plan: ExperimentPlan): Array<[string, string]> {
  const s = plan.spec;
  const swept = Object.entries(s.sweep);
  const sweptValue = (path: string) =>
    swept.find(([k]) => k === path || path.startsWith(`${k}.`) || k.startsWith(`${path}.`));
  const show = (path: string, value: string): [string, string] => {
    const sw = sweptValue(path);
    return [path, sw ? `swept: ${sweptValues(sw[1])}` : value];
  };
  const e = s.emitter;
  const algorithm =
    typeof e.algorithm === 'number' ? `${DR_ALGORITHM_NAMES[e.algorithm] ?? '?'} (${e.algorithm})` : e.algorithm;
  const trajectory = Object.entries(s.trajectory)
    .filter(([k]) => k !== 'type')
    .map(([k, v]) => `${k}=${typeof v === 'object' ? JSON.stringify(v) : String(v)}`)
    .join(', ');
  const network =
    typeof s.network === 'string'
      ? s.network
      : Object.entries(s.network)
          .map(([k, v]) => `${k}=${String(v)}`)
          .join(', ');
  const runs = plan.runs.length;
  const duration = plan.runs[0]?.spec.durationSeconds;
  return [
    ['runs', `${runs}${swept.length ? ` (${swept.map(([k, v]) => `${v.length} ${k}`).join(' × ')})` : ''}`],
    show('trajectory', `${s.trajectory.type}${trajectory ? ` (${trajectory})` : ''}`),
    ['duration', duration === undefined ? 'the trajectory’s own' : `${duration} s`],
    show('emitter.algorithm', algorithm),
    show('emitter.positionThreshold', `${e.positionThreshold} m`),
    show('emitter.orientationThreshold', `${((e.orientationThreshold * 180) / Math.PI).toPrecision(3)}°`),
    show('emitter.heartbeat', `${e.heartbeat} s`),
    show('emitter.maxRateHz', e.maxRateHz === undefined ? 'none' : `${e.maxRateHz} Hz`),
    show('network', network),
    show('smoothing', `${s.smoothing.method}, ${s.smoothing.time} s, snap beyond ${s.smoothing.teleportDistance} m`),
    show('sampleRateHz', `${s.sampleRateHz} Hz`),
    show('renderRateHz', `${s.renderRateHz ?? s.sampleRateHz} Hz`),
    show('seed', String(s.seed)),
    ['baseline', `fixed-rate sender at ${s.metrics.baselineRateHz} Hz`],
  ];
}

/** Most swept values the settings panel lists; past it, the first and last few and how many there are. */
const MAX_LISTED_VALUES = 12;

/** A sweep axis's values, as the settings panel shows them. */
function sweptValues(values: readonly unknown[]): string {
  if (values.length <= MAX_LISTED_VALUES) return values.map(displayValue).join(', ');
  const ends = MAX_LISTED_VALUES / 2;
  const shown = [...values.slice(0, ends), ...values.slice(-ends)].map(displayValue);
  return `${shown.slice(0, ends).join(', ')}, …, ${shown.slice(ends).join(', ')} (${formatCount(values.length)} values)`;
}

/** `100 000`: a count with its thousands apart. */
export function formatCount(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+$)/g, ' ');
}
