/**
 * Receiver glitches in recorded tracks: a fix (or a short run of fixes) that jumps further than the vehicle can
 * move while the fixes before and after it agree with each other. Real position sources have them (an ADS-B
 * receiver's bad decode, a GPS multipath jump, an altitude reply from another aircraft); they are dropped and
 * counted, and only a track that is mostly implausible is refused. docs/recorded-tracks.md describes the rule.
 */
import { geodeticDegreesToEcef } from '../math/geodesy.js';
import type { TrackPoint } from './recorded.js';
import { KIND_NOUNS, MAX_SPEED_MPS, POSITION_NOISE_M, formatSeconds, type TrackKind } from './track-checks.js';

/** Most consecutive fixes dropped as one glitch: a longer run is a jump the track really makes. */
export const MAX_GLITCH_RUN = 3;

/** The fixes kept and the fixes dropped as glitches, both in file order. */
export interface GlitchFilterResult {
  readonly kept: readonly TrackPoint[];
  readonly dropped: readonly TrackPoint[];
}

/**
 * Drops the isolated implausible fixes of one recording (in time order): a run of at most MAX_GLITCH_RUN fixes
 * reached from the last good fix faster than `kind` can move (MAX_SPEED_MPS, beyond POSITION_NOISE_M), where the
 * fix after the run is plausible from that good fix and from its own next fix. A first fix that the following
 * fixes agree against is dropped the same way. Jumps that nothing after agrees with are kept, for `checkFixes` to
 * report; fixes without a valid position or time order are left to it too.
 */
export function dropGlitches(points: readonly TrackPoint[], kind: TrackKind): GlitchFilterResult {
  const valid = points.every(
    (p, i) =>
      Math.abs(p.latitudeDeg) <= 90 &&
      Math.abs(p.longitudeDeg) <= 180 &&
      (p.heightM === undefined || Number.isFinite(p.heightM)) &&
      (i === 0 || p.timeSeconds >= points[i - 1]!.timeSeconds),
  );
  if (!valid || points.length < 3) return { kept: points, dropped: [] };
  const limit = MAX_SPEED_MPS[kind];
  const a = new Float64Array(3),
    b = new Float64Array(3);
  const plausible = (p: TrackPoint, q: TrackPoint): boolean => {
    const dt = q.timeSeconds - p.timeSeconds;
    if (dt <= 0) return true; // same-time fixes are checkFixes' business
    geodeticDegreesToEcef(a, p.latitudeDeg, p.longitudeDeg, p.heightM ?? 0);
    geodeticDegreesToEcef(b, q.latitudeDeg, q.longitudeDeg, q.heightM ?? 0);
    return (Math.hypot(b[0]! - a[0]!, b[1]! - a[1]!, b[2]! - a[2]!) - POSITION_NOISE_M) / dt <= limit;
  };
  // The fix after a run comes back from it (a run that the next fix agrees with is a real step), agrees with the
  // good fix before the run and with its own successor (or ends the track).
  const rejoins = (good: TrackPoint, j: number): boolean =>
    !plausible(points[j - 1]!, points[j]!) &&
    plausible(good, points[j]!) &&
    (j + 1 === points.length || plausible(points[j]!, points[j + 1]!));

  const kept: TrackPoint[] = [];
  const dropped: TrackPoint[] = [];
  let start = 0;
  // A glitch at the very start: the first fixes disagree with the ones after them, which agree among themselves.
  if (!plausible(points[0]!, points[1]!)) {
    for (let s = 1; s <= MAX_GLITCH_RUN && s + 1 < points.length; s++) {
      if (plausible(points[s]!, points[s + 1]!) && (s === 1 || !plausible(points[0]!, points[s]!))) {
        dropped.push(...points.slice(0, s));
        start = s;
        break;
      }
    }
  }
  kept.push(points[start]!);
  for (let i = start + 1; i < points.length; i++) {
    const good = kept[kept.length - 1]!;
    if (plausible(good, points[i]!)) {
      kept.push(points[i]!);
      continue;
    }
    let rejoin = -1;
    for (let j = i + 1; j <= i + MAX_GLITCH_RUN && j < points.length; j++) {
      if (rejoins(good, j)) {
        rejoin = j;
        break;
      }
    }
    if (rejoin < 0) {
      kept.push(points[i]!); // a real jump, or a step that nothing after agrees with: checkFixes reports it
      continue;
    }
    dropped.push(...points.slice(i, rejoin));
    i = rejoin - 1;
  }
  return { kept, dropped };
}

/** Rows listed in a note; the rest are counted. */
const LISTED_ROWS = 10;

/** Where a fix came from, for a note: its row, or its place among the fixes. */
function rowOf(p: TrackPoint, points: readonly TrackPoint[]): string {
  return p.row !== undefined ? String(p.row) : `fix ${points.indexOf(p) + 1}`;
}

/**
 * One line saying which fixes were dropped as glitches, e.g. "dropped 14 implausible fixes (rows 6022, 6037, …
 * and 4 more): each faster than an aircraft can move from the fixes around it".
 */
export function describeDropped(
  dropped: readonly TrackPoint[],
  points: readonly TrackPoint[],
  kind: TrackKind,
): string {
  const rows = dropped.slice(0, LISTED_ROWS).map((p) => rowOf(p, points));
  const more = dropped.length > LISTED_ROWS ? ` and ${dropped.length - LISTED_ROWS} more` : '';
  const label = dropped.every((p) => p.row !== undefined) ? (dropped.length === 1 ? 'row ' : 'rows ') : '';
  return (
    `dropped ${dropped.length} implausible ${dropped.length === 1 ? 'fix' : 'fixes'} (${label}${rows.join(', ')}${more}): ` +
    `each faster than ${KIND_NOUNS[kind]} can move (${MAX_SPEED_MPS[kind]} m/s) from the fixes around it; ` +
    'strict checking refuses the track instead'
  );
}

/**
 * A track that cannot be one: more fixes implausible than plausible (a wrong kind, coordinates in the wrong
 * columns, another vehicle's fixes mixed in). Undefined when the track is usable.
 */
export function tooManyGlitches(
  result: GlitchFilterResult,
  kind: TrackKind,
  firstTimeSeconds: number,
  lastTimeSeconds: number,
): string | undefined {
  const total = result.kept.length + result.dropped.length;
  if (result.dropped.length * 2 <= total) return undefined;
  return (
    `${result.dropped.length} of ${total} fixes over ${formatSeconds(lastTimeSeconds - firstTimeSeconds)} jump ` +
    `faster than ${KIND_NOUNS[kind]} can move (${MAX_SPEED_MPS[kind]} m/s): not a track of this kind ` +
    '(set the kind if it is wrong, or check which columns hold latitude and longitude)'
  );
}
