/**
 * Checks on recorded fixes before they become a trajectory, and the split of a file into its recordings. A track
 * file is user input: coordinates out of range, times that go backwards and jumps no vehicle of its kind could
 * make are listed with their row numbers rather than published as a trajectory at hundreds of km/s. The speed
 * limits are documented in docs/recorded-tracks.md.
 */
import { geodeticDegreesToEcef } from '../math/geodesy.js';
import type { TrackPoint } from './track-point.js';
import { KIND_NOUNS, MAX_SPEED_MPS, type TrackKind } from './track-kinds.js';

export { KIND_ENTITY_TYPE, KIND_NOUNS, MAX_SPEED_MPS, TRACK_KINDS, type TrackKind } from './track-kinds.js';

/**
 * Metres of receiver noise allowed between two fixes before their distance counts against the speed limit:
 * fixes a few milliseconds apart (a capture's PDUs, a 10 Hz GPS) would otherwise turn a metre of noise into an
 * impossible speed.
 */
export const POSITION_NOISE_M = 10;

/**
 * Bounds of a track file, so that no file exhausts memory: its size on disk and, gzip-compressed, unpacked (a
 * 582 KB file that unpacks to 400 MB is refused, not read), and the fixes it may hold (10 days at 1 Hz; a CSV
 * row costs about 1 kB while read).
 */
export const TRACK_LIMITS = { maxFileBytes: 256 * 2 ** 20, maxUnpackedBytes: 256 * 2 ** 20, maxFixes: 1_000_000 };

/** More fixes than `TRACK_LIMITS.maxFixes`. */
export function tooManyFixes(file: string): TrackError {
  const max = TRACK_LIMITS.maxFixes;
  return new TrackError(file, [
    `holds more than ${max} fixes, more than reckon reads from one file; split it, or keep every n-th fix`,
  ]);
}

/** Printable ASCII only: text from a file or a capture is never sent raw to a terminal. */
export function printable(text: string): string {
  return text.replace(/[^ -~]/g, '?');
}

/** Most problems listed one by one; the rest are counted ("and N more"). */
export const MAX_LISTED_PROBLEMS = 20;

/** A track file that cannot be used as it is: every problem found, each naming its row. */
export class TrackError extends RangeError {
  constructor(
    readonly file: string,
    /** The problems listed; past MAX_LISTED_PROBLEMS the last one counts the others ("and N more"). */
    readonly problems: readonly string[],
    /** Every problem found, the listed and the counted ones. */
    readonly count = problems.length,
  ) {
    super(`${file}: ${problems.join('; ')}`);
    this.name = 'TrackError';
  }
}

/** The first MAX_LISTED_PROBLEMS of `problems`, and a last line counting the others. */
export function capProblems(problems: readonly string[]): string[] {
  if (problems.length <= MAX_LISTED_PROBLEMS) return [...problems];
  return [...problems.slice(0, MAX_LISTED_PROBLEMS), `and ${problems.length - MAX_LISTED_PROBLEMS} more`];
}

/** A TrackError listing the first MAX_LISTED_PROBLEMS of `problems` and counting all of them. */
export function trackProblems(file: string, problems: readonly string[]): TrackError {
  return new TrackError(file, capProblems(problems), problems.length);
}

/**
 * A list under a problem (the entities of a capture, the recordings of a file): the first MAX_LISTED_PROBLEMS
 * items, one indented line each, and a line counting the others; a capture of 200 000 entities is not listed whole.
 */
export function listedLines<T>(items: Iterable<T>, count: number, describe: (item: T) => string): string {
  const lines: string[] = [];
  for (const item of items) {
    if (lines.length === MAX_LISTED_PROBLEMS) break;
    lines.push(`  ${describe(item)}`);
  }
  if (count > lines.length) lines.push(`  and ${count - lines.length} more`);
  return lines.join('\n');
}

function where(p: TrackPoint, index: number): string {
  return p.row !== undefined ? `row ${p.row}` : `fix ${index + 1}`;
}

/** Options of `checkFixes`. */
export interface CheckOptions {
  /**
   * Fixes at the same time but another position are fine (the trajectory keeps the first): a capture's frame
   * times can be coarser than its PDU rate. Defaults to false (a problem: which of the two is right?).
   */
  readonly sameTimeAllowed?: boolean;
}

/**
 * The problems of one recording's fixes (in file order): latitude outside ±90°, longitude outside ±180°, a
 * height that is not a number, a time that does not increase, and a speed between consecutive fixes above
 * MAX_SPEED_MPS of `kind`. Empty when the fixes are fine.
 */
export function checkFixes(points: readonly TrackPoint[], kind: TrackKind, options: CheckOptions = {}): string[] {
  const problems: string[] = [];
  const limit = MAX_SPEED_MPS[kind];
  const a = new Float64Array(3),
    b = new Float64Array(3);
  let previous: TrackPoint | undefined;
  let previousIndex = -1;
  points.forEach((p, i) => {
    const here = where(p, i);
    let valid = true;
    if (!(Math.abs(p.latitudeDeg) <= 90)) {
      problems.push(`${here}: latitude ${p.latitudeDeg}° is outside −90…90°`);
      valid = false;
    }
    if (!(Math.abs(p.longitudeDeg) <= 180)) {
      problems.push(`${here}: longitude ${p.longitudeDeg}° is outside −180…180°`);
      valid = false;
    }
    if (p.heightM !== undefined && !Number.isFinite(p.heightM)) {
      problems.push(`${here}: height is not a number`);
      valid = false;
    }
    if (!valid) return;
    if (previous !== undefined) {
      const dt = p.timeSeconds - previous.timeSeconds;
      geodeticDegreesToEcef(a, previous.latitudeDeg, previous.longitudeDeg, previous.heightM ?? 0);
      geodeticDegreesToEcef(b, p.latitudeDeg, p.longitudeDeg, p.heightM ?? 0);
      const distance = Math.hypot(b[0]! - a[0]!, b[1]! - a[1]!, b[2]! - a[2]!);
      if (dt < 0) {
        problems.push(
          `${here}: time goes back ${formatSeconds(-dt)} from ${where(previous, previousIndex)} (sort the rows by time)`,
        );
      } else if (dt === 0) {
        if (distance > 0.01 && !options.sameTimeAllowed)
          problems.push(`${here}: same time as ${where(previous, previousIndex)} at another position`);
      } else if ((distance - POSITION_NOISE_M) / dt > limit) {
        problems.push(
          `${here}: ${formatSpeed(distance / dt)} from ${where(previous, previousIndex)} (${distance.toFixed(0)} m in ` +
            `${formatSeconds(dt)}) is faster than ${KIND_NOUNS[kind]} can move (${limit} m/s; set the kind if it is wrong)`,
        );
      }
    }
    previous = p;
    previousIndex = i;
  });
  return problems;
}

/** Speed above which a recorded track is taken to fly, m/s (162 km/h): faster than road traffic for long. */
const FLYING_SPEED_MPS = 45;
/** Height spread (5th to 95th percentile) above which a recorded track is taken to fly, m. */
const FLYING_HEIGHT_SPREAD_M = 1000;

/**
 * What a track most likely records when its file does not say (CSV, GPX): air when its fixes go faster than
 * FLYING_SPEED_MPS for a quarter of the time or spread over more than FLYING_HEIGHT_SPREAD_M of height, else ground
 * (a ship cannot be told from a car by its motion). The reason names the figures, for the user to correct.
 */
export function kindFromFixes(points: readonly TrackPoint[]): { kind: TrackKind; reason: string } {
  const speeds: number[] = [];
  const heights = points.map((p) => p.heightM ?? 0).filter(Number.isFinite);
  const a = new Float64Array(3),
    b = new Float64Array(3);
  for (let i = 1; i < points.length; i++) {
    const p = points[i - 1]!,
      q = points[i]!;
    const dt = q.timeSeconds - p.timeSeconds;
    if (!(dt >= 0.5) || p.group !== q.group) continue; // close fixes turn noise into speed
    geodeticDegreesToEcef(a, p.latitudeDeg, p.longitudeDeg, 0);
    geodeticDegreesToEcef(b, q.latitudeDeg, q.longitudeDeg, 0);
    const mps = Math.hypot(b[0]! - a[0]!, b[1]! - a[1]!, b[2]! - a[2]!) / dt;
    if (Number.isFinite(mps)) speeds.push(mps);
  }
  const quantile = (values: number[], q: number): number => {
    if (values.length === 0) return 0;
    const sorted = [...values].sort((x, y) => x - y);
    return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  };
  const speed = quantile(speeds, 0.75); // a quarter of the fixes may be glitches or a fast stretch
  const spread = quantile(heights, 0.95) - quantile(heights, 0.05);
  const figures = `3 in 4 of its fixes under ${speed.toFixed(0)} m/s, heights within ${spread.toFixed(0)} m`;
  const flies = speed > FLYING_SPEED_MPS || spread > FLYING_HEIGHT_SPREAD_M;
  return {
    kind: flies ? 'air' : 'ground',
    reason: flies ? `air, as it flies (${figures})` : `ground, as it does not fly (${figures}); a ship is surface`,
  };
}

/** One recording found in a track file. */
export interface TrackSegment {
  /** 1-based, in file order. */
  readonly index: number;
  /** The id column's value, when the file has one. */
  readonly id?: string;
  readonly points: readonly TrackPoint[];
}

export interface SplitOptions {
  /**
   * A pause between fixes longer than this starts a new segment, seconds. Defaults to 10 × the median interval
   * between fixes (at least 1 s).
   */
  readonly maxGapSeconds?: number;
}

/**
 * Splits fixes into recordings: by the id column (`TrackPoint.group`, each value one recording, in order of first
 * appearance), then wherever consecutive fixes are further apart in time than the gap limit. A file of several
 * drives would otherwise be one track interpolated across days.
 */
export function splitSegments(points: readonly TrackPoint[], options: SplitOptions = {}): TrackSegment[] {
  const groups = new Map<string | undefined, TrackPoint[]>();
  for (const p of points) {
    let group = groups.get(p.group);
    if (!group) groups.set(p.group, (group = []));
    group.push(p);
  }
  const maxGap = options.maxGapSeconds ?? defaultMaxGapSeconds([...groups.values()]);
  const segments: TrackSegment[] = [];
  for (const [id, group] of groups) {
    let start = 0;
    for (let i = 1; i <= group.length; i++) {
      // A pause, or a time going back further than a pause (another recording appended).
      if (i === group.length || Math.abs(group[i]!.timeSeconds - group[i - 1]!.timeSeconds) > maxGap) {
        segments.push({
          index: segments.length + 1,
          ...(id === undefined ? {} : { id }),
          points: group.slice(start, i),
        });
        start = i;
      }
    }
  }
  return segments;
}

/** 10 × the median positive interval between consecutive fixes of the groups, at least 1 s. */
export function defaultMaxGapSeconds(groups: ReadonlyArray<readonly TrackPoint[]>): number {
  const steps: number[] = [];
  for (const g of groups)
    for (let i = 1; i < g.length; i++) {
      const dt = g[i]!.timeSeconds - g[i - 1]!.timeSeconds;
      if (dt > 0) steps.push(dt);
    }
  if (steps.length === 0) return Infinity;
  steps.sort((x, y) => x - y);
  return Math.max(1, 10 * steps[steps.length >> 1]!);
}

/** One line per segment: number, id, start, duration, fixes and rows, for reports and error messages. */
export function describeSegment(segment: TrackSegment): string {
  const first = segment.points[0]!,
    last = segment.points[segment.points.length - 1]!;
  const rows = first.row !== undefined ? `, rows ${first.row}–${last.row}` : '';
  return (
    `segment ${segment.index}${segment.id !== undefined ? ` (id ${segment.id})` : ''}: starts ${formatTime(first.timeSeconds)}, ` +
    `${formatSeconds(last.timeSeconds - first.timeSeconds)}, ${segment.points.length} ${segment.points.length === 1 ? 'fix' : 'fixes'}${rows}`
  );
}

/** Seconds since 1970 as ISO 8601 UTC when they look like a date (after 1990), else as seconds. */
export function formatTime(seconds: number): string {
  return seconds > 631_152_000 && seconds < 4_102_444_800 ? new Date(seconds * 1000).toISOString() : `${seconds} s`;
}

/** A duration for people: 42.0 s, 12 min 5 s, 3 h 2 min, 27 d 4 h. */
export function formatSeconds(seconds: number): string {
  if (!Number.isFinite(seconds)) return 'any time';
  if (seconds < 60) return `${Number(seconds.toFixed(1))} s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ${Math.round(seconds % 60)} s`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)} h ${Math.round((seconds % 3600) / 60)} min`;
  return `${Math.floor(seconds / 86_400)} d ${Math.round((seconds % 86_400) / 3600)} h`;
}

function formatSpeed(mps: number): string {
  return mps >= 10_000 ? `${(mps / 1000).toFixed(0)} km/s` : `${mps.toFixed(0)} m/s`;
}
