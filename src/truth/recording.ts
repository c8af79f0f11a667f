/**
 * One recording of a track file made a trajectory: its fixes put in time order, those without a usable position
 * dropped, the estimator run (`track-estimator.ts`, or the sender's own dead reckoning for a DIS capture,
 * `dis-truth.ts`), and every fix dropped or repaired named. By default nothing a real recording can be is refused;
 * strict checking refuses a recording with any implausible fix, listing each.
 */
import type { CapturedState } from './dis-capture.js';
import { disTruthTrajectory, keptStates } from './dis-truth.js';
import type { SourceNoise } from './measurement-noise.js';
import type { TrackPoint } from './track-point.js';
import { describeRepairs, repairCounts, type TrackRepair } from './repairs.js';
import { checkFixes, formatSeconds } from './track-checks.js';
import { estimateTrack } from './track-estimator.js';
import { KIND_NOUNS, type TrackKind } from './track-kinds.js';
import type { Trajectory } from './trajectory.js';

/** A recording estimated, or why it cannot be. */
export interface EstimatedRecording {
  readonly trajectory?: Trajectory;
  readonly repairs: readonly TrackRepair[];
  /** What keeps it from being a trajectory (strict checking, too few fixes, a recording that is not one). */
  readonly problems: readonly string[];
}

/** Options of `estimateRecording`. */
export interface RecordingOptions {
  readonly kind: TrackKind;
  readonly noise: SourceNoise;
  readonly banked?: boolean;
  readonly strict?: boolean;
  /** Notes of the file (its columns) for the trajectory. */
  readonly notes?: readonly string[];
}

/** Whether a fix's position can be placed at all. */
function usable(p: TrackPoint): boolean {
  return (
    Math.abs(p.latitudeDeg) <= 90 &&
    Math.abs(p.longitudeDeg) <= 180 &&
    Number.isFinite(p.timeSeconds) &&
    (p.heightM === undefined || Number.isFinite(p.heightM))
  );
}

/**
 * The trajectory of one recording's fixes (in file order). Rows out of time order are sorted (and named), fixes
 * without a usable position dropped (and named), then the estimator decides. A recording whose positions are mostly
 * dropped is refused: it is not a track of its kind, or its columns are wrong.
 * @param name - the trajectory's name.
 */
export function estimateRecording(
  name: string,
  points: readonly TrackPoint[],
  options: RecordingOptions,
): EstimatedRecording {
  const kind = options.kind;
  if (options.strict) {
    const problems = checkFixes(points, kind);
    if (problems.length > 0) return { repairs: [], problems };
  }
  const repairs: TrackRepair[] = [];
  const kept: TrackPoint[] = [];
  let latest = Number.NEGATIVE_INFINITY;
  points.forEach((p, i) => {
    if (!usable(p)) {
      repairs.push({ reason: 'invalid', fix: i, ...(p.row === undefined ? {} : { row: p.row }), dropped: true });
      return;
    }
    if (p.timeSeconds < latest) {
      repairs.push({ reason: 'reordered', fix: i, ...(p.row === undefined ? {} : { row: p.row }), dropped: false });
    }
    latest = Math.max(latest, p.timeSeconds);
    kept.push(p);
  });
  // Stable: fixes at one time keep their order.
  if (repairs.some((r) => r.reason === 'reordered')) kept.sort((a, b) => a.timeSeconds - b.timeSeconds);
  const distinct = kept.filter((p, i) => i === 0 || p.timeSeconds > kept[i - 1]!.timeSeconds).length;
  if (distinct < 2) {
    // Every row that is not a fix, by row (coordinates out of range, times that are not numbers), else the count.
    const listed = checkFixes(points, kind);
    return {
      repairs,
      problems:
        listed.length > 0 ? listed : [`needs at least two fixes with a position and distinct times, got ${distinct}`],
    };
  }
  const result = estimateTrack(name, kept, {
    kind,
    noise: options.noise,
    ...(options.banked === undefined ? {} : { banked: options.banked }),
  });
  // The estimator's fix numbers are of `kept`; rows name them in the file.
  for (const r of result.repairs) repairs.push({ ...r, fix: points.indexOf(kept[r.fix]!) });
  repairs.sort((a, b) => a.fix - b.fix);
  return finish(name, points, result.trajectory, repairs, options);
}

/** The trajectory with its notes and summary, or the problems strict checking or a mostly dropped track give. */
function finish(
  name: string,
  points: readonly TrackPoint[],
  trajectory: Trajectory,
  repairs: TrackRepair[],
  options: Pick<RecordingOptions, 'kind' | 'strict' | 'notes'>,
): EstimatedRecording {
  const kind = options.kind;
  const counts = repairCounts(repairs);
  if (options.strict && repairs.length > 0) {
    const lines = describeRepairs(repairs, kind);
    return {
      repairs,
      problems: lines.map((line) => `${line} (strict checking refuses the track; without it they are repaired)`),
    };
  }
  // More than half the positions off the track (not merely held by a receiver): the kind or the columns are wrong.
  const off = new Set(
    repairs.filter((r) => r.reason === 'jump' || r.reason === 'outlier' || r.reason === 'invalid').map((r) => r.fix),
  );
  if (off.size * 2 > points.length) {
    const first = points[0]!.timeSeconds,
      last = points[points.length - 1]!.timeSeconds;
    return {
      repairs,
      problems: [
        `${off.size} of ${points.length} fixes over ${formatSeconds(last - first)} are not a track of ` +
          `${KIND_NOUNS[kind]}: ${describeRepairs(repairs, kind)[0] ?? ''} ` +
          '(set the kind if it is wrong, or check which columns hold latitude and longitude)',
      ],
    };
  }
  const notes = [...describeRepairs(repairs, kind), ...(options.notes ?? []), ...(trajectory.notes ?? [])];
  return {
    trajectory: {
      ...trajectory,
      name,
      sample: trajectory.sample,
      ...(notes.length > 0 ? { notes } : {}),
      recording: { kind, ...counts },
    },
    repairs,
    problems: [],
  };
}

/**
 * The truth of a captured entity (`dis-truth.ts`): the PDUs a sender could not have sent in a row dropped and
 * named, strict checking refusing them instead.
 */
export function estimateCapture(
  name: string,
  points: readonly TrackPoint[],
  states: readonly CapturedState[],
  options: Omit<RecordingOptions, 'noise'>,
): EstimatedRecording {
  const kind = options.kind;
  if (options.strict) {
    const problems = checkFixes(points, kind, { sameTimeAllowed: true });
    if (problems.length > 0) return { repairs: [], problems };
  }
  const { kept, repairs, teleports } = keptStates(states, kind);
  if (kept.length < 2 || !(kept[kept.length - 1]!.timeSeconds > kept[0]!.timeSeconds)) {
    return { repairs, problems: [`needs at least two Entity State PDUs at distinct times, got ${kept.length}`] };
  }
  const notes =
    teleports.length > 0
      ? [
          `${teleports.length} PDUs move the entity faster than ${KIND_NOUNS[kind]} can: ${teleports.slice(0, 3).join('; ')}${teleports.length > 3 ? `; and ${teleports.length - 3} more` : ''}`,
        ]
      : [];
  return finish(name, points, disTruthTrajectory(name, kept), repairs, {
    ...options,
    notes: [...notes, ...(options.notes ?? [])],
  });
}
