/**
 * What the estimator did to a recording, fix by fix, in its own words: a position held (repeated by the receiver
 * while the vehicle moved), a jump (a position the track cannot have reached), an outlier (further from the track
 * than its noise explains), a height held, stepped or off, a velocity the positions disagree with, rows out of time
 * order, fixes without a usable position. A fix whose position was not used is dropped; a fix used without one of its
 * other parts is repaired. Each repair names its row and the part, for `reckon publish`, results.json and the report.
 */
import type { JumpResult } from './jumps.js';
import { DROP_HEIGHT, DROP_POSITION } from './smoother.js';
import type { TrackPoint } from './track-point.js';
import { FixStatus } from './track-fix.js';
import { KIND_NOUNS, type TrackKind } from './track-checks.js';

/** Why a fix was dropped or repaired. */
export const REPAIR_REASONS = [
  'held',
  'jump',
  'outlier',
  'height-held',
  'height-step',
  'height-outlier',
  'velocity',
  'reordered',
  'invalid',
] as const;
/** One of `REPAIR_REASONS`. */
export type RepairReason = (typeof REPAIR_REASONS)[number];

/** One fix dropped or repaired. */
export interface TrackRepair {
  readonly reason: RepairReason;
  /** The fix's row in its file (a CSV line, a record, a capture's frame), when the source numbers them. */
  readonly row?: number;
  /** Its place among the recording's fixes, from 0. */
  readonly fix: number;
  /** How far off it was, m (jumps, outliers), when known. */
  readonly distanceM?: number;
  /** Whether the fix's position was not used (else only a part of it was dropped, or it was moved). */
  readonly dropped: boolean;
}

/** Reasons that drop a fix: its position is not used. */
const DROPPING: ReadonlySet<RepairReason> = new Set(['held', 'jump', 'outlier', 'invalid']);

/**
 * The repairs of one recording from the estimator's status of each fix (`FixStatus` bits) and the jumps it
 * resolved: one per part of a fix not used (its position, its height, its velocity).
 */
export function repairsOf(
  points: readonly TrackPoint[],
  status: Uint16Array,
  jumps: JumpResult | undefined,
  heightsOutOfRange?: Uint8Array,
): TrackRepair[] {
  const repairs: TrackRepair[] = [];
  for (let i = 0; i < points.length; i++) {
    const s = status[i]!;
    const jumped = jumps !== undefined && (jumps.dropped[i]! & DROP_POSITION) !== 0;
    const row = points[i]!.row;
    const add = (reason: RepairReason, distanceM?: number): void => {
      repairs.push({
        reason,
        fix: i,
        ...(row === undefined ? {} : { row }),
        ...(distanceM === undefined ? {} : { distanceM }),
        dropped: DROPPING.has(reason),
      });
    };
    if (s & FixStatus.POSITION_HELD) add('held');
    else if (jumped) add('jump', jumps.distanceM[i]!);
    else if (s & FixStatus.POSITION_REJECTED) add('outlier');
    if (s & FixStatus.HEIGHT_HELD) add('height-held');
    else if (jumps !== undefined && jumps.dropped[i]! & DROP_HEIGHT && s & FixStatus.HEIGHT_REJECTED)
      add('height-step');
    else if (s & FixStatus.HEIGHT_REJECTED || heightsOutOfRange?.[i] === 1) add('height-outlier');
    if (!jumped && s & (FixStatus.VELOCITY_REJECTED | FixStatus.VERTICAL_RATE_REJECTED)) add('velocity');
  }
  return repairs;
}

/** Fixes dropped (their position not used) and repaired (used without another of their parts, or moved). */
export function repairCounts(repairs: readonly TrackRepair[]): { fixesDropped: number; fixesRepaired: number } {
  const dropped = new Set<number>(),
    repaired = new Set<number>();
  for (const r of repairs) (r.dropped ? dropped : repaired).add(r.fix);
  for (const fix of dropped) repaired.delete(fix);
  return { fixesDropped: dropped.size, fixesRepaired: repaired.size };
}

/** Rows listed in a note; the rest are counted. */
const LISTED_ROWS = 10;

/** What each reason says, after the count: singular and plural nouns, and why. */
const WORDS: Readonly<Record<RepairReason, (kind: TrackKind) => [string, string, string]>> = {
  held: (kind) => [
    'held position',
    'held positions',
    `repeated, or extrapolated from a report repeated whole, while ${KIND_NOUNS[kind].replace(/^an? /, 'the ')} ` +
      "moved: the receiver's, not a fix; not used",
  ],
  jump: () => ['jump', 'jumps', 'positions the track could not have reached at the speed it flew: dropped'],
  outlier: () => ['outlier', 'outliers', 'positions further from the track than its noise explains: not used'],
  'height-held': () => ['held height', 'held heights', 'unchanged while climbing or descending: not used'],
  'height-step': () => [
    'altitude step',
    'altitude steps',
    'heights the climb or descent could not have reached (a step the receiver held, then caught up): not used',
  ],
  'height-outlier': () => [
    'height outlier',
    'height outliers',
    'heights further from the track than their noise explains (another aircraft’s reply): not used',
  ],
  velocity: () => ['velocity', 'velocities', 'ground speed, track or climb the positions disagree with: not used'],
  reordered: () => ['row out of time order', 'rows out of time order', 'sorted by time'],
  invalid: () => ['fix without a usable position', 'fixes without a usable position', 'dropped'],
};

/**
 * One line per reason, e.g. "246 held positions (rows 362, 1200, … and 236 more): repeated unchanged while the
 * aircraft moved: the receiver's old fix, not used".
 */
export function describeRepairs(repairs: readonly TrackRepair[], kind: TrackKind): string[] {
  const lines: string[] = [];
  for (const reason of REPAIR_REASONS) {
    const these = repairs.filter((r) => r.reason === reason);
    if (these.length === 0) continue;
    const [one, many, why] = WORDS[reason](kind);
    const rows = these.slice(0, LISTED_ROWS).map((r) => (r.row !== undefined ? String(r.row) : `fix ${r.fix + 1}`));
    const label = these.every((r) => r.row !== undefined) ? (these.length === 1 ? 'row ' : 'rows ') : '';
    const more = these.length > LISTED_ROWS ? ` and ${these.length - LISTED_ROWS} more` : '';
    const far = these.reduce((m, r) => Math.max(m, r.distanceM ?? 0), 0);
    const distance =
      far > 0 ? `; up to ${far >= 1000 ? `${(far / 1000).toFixed(1)} km` : `${far.toFixed(0)} m`} off` : '';
    lines.push(
      `${these.length} ${these.length === 1 ? one : many} (${label}${rows.join(', ')}${more}${distance}): ${why}`,
    );
  }
  return lines;
}
