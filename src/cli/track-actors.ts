/**
 * `reckon publish --track`: recorded track files as actors to publish, each with its marking (the file's callsign,
 * a capture's marking, else its name), its entity type (a capture's, else a platform of the track's kind) and the
 * lines to tell the user (the recordings chosen, the kind chosen from the data, the fixes dropped as glitches).
 */
import type { UsageProblem } from './command.js';
import type { FlagSpec, FlagValues } from './command.js';
import type { Actor } from './terminal/scenario.js';
import type { CsvColumns } from '../truth/csv-track.js';
import type { EntityType } from '../pdu/schema/schema.js';
import type { TrackError, TrackKind } from '../truth/track-checks.js';

/** The CSV columns a flag names, by key of `CsvColumns`. */
const COLUMN_FLAGS = {
  time: 'time-column',
  latitude: 'latitude-column',
  longitude: 'longitude-column',
  height: 'height-column',
  heading: 'heading-column',
  pitch: 'pitch-column',
  roll: 'roll-column',
  speed: 'speed-column',
  course: 'course-column',
  verticalRate: 'vertical-rate-column',
  id: 'id-column',
  callsign: 'callsign-column',
} as const satisfies Record<keyof CsvColumns, string>;

/** The flags of `COLUMN_FLAGS`, for a command's flag table, under help's heading `group` (defaults to none). */
export function columnFlags(group?: string): Record<string, FlagSpec> {
  const what: Record<keyof CsvColumns, string> = {
    time: 'time (ISO 8601, epoch seconds or ms, or seconds)',
    latitude: 'latitude (degrees)',
    longitude: 'longitude (degrees)',
    height: 'height (m; feet when its name ends in _ft)',
    heading: 'heading (degrees from true north)',
    pitch: 'pitch (degrees, nose up)',
    roll: 'roll (degrees, right wing down)',
    speed: 'speed over ground (m/s; km/h, knots or mph when its name says so: speed_kmh, sog_kn)',
    course: 'course over ground (degrees from true north)',
    verticalRate: 'vertical rate (m/s up; ft/min when its name ends in _fpm)',
    id: 'recording id (each value a recording of its own)',
    callsign: 'callsign or name (the marking sent)',
  };
  return Object.fromEntries(
    Object.entries(COLUMN_FLAGS).map(([key, flag]) => [
      flag,
      {
        type: 'string',
        value: 'NAME',
        ...(group === undefined ? {} : { group }),
        description: `CSV tracks: the column of the ${what[key as keyof CsvColumns]}. Defaults to a common name (docs/recorded-tracks.md).`,
      } satisfies FlagSpec,
    ]),
  );
}

/** The CSV columns named by flags. */
export function columnsFromFlags(flags: FlagValues): CsvColumns {
  const columns: Record<string, string> = {};
  for (const [key, flag] of Object.entries(COLUMN_FLAGS)) {
    const value = flags[flag];
    if (typeof value === 'string') columns[key] = value;
  }
  return columns;
}

/**
 * A track file's problems as usage problems at `at`, each message after `prefix`; when there were more than were
 * listed, the last ("and 21 more") counts them, so the heading says how many there are.
 */
export function trackErrorProblems(error: TrackError, at: string, prefix: string): UsageProblem[] {
  const listed = error.problems;
  return listed.map((problem, i) => {
    const counted = i === listed.length - 1 && error.count > listed.length ? error.count - i : undefined;
    return { path: at, message: `${prefix}${problem}`, ...(counted === undefined ? {} : { count: counted }) };
  });
}

/** A published actor of a track, with the force a capture gives it. */
export type TrackActor = Actor & { readonly forceId?: number; readonly firstFixSeconds: number };

export interface TrackActorOptions {
  readonly entity?: string;
  /** The entity type to publish the tracks as (`--type`); its domain sets the kind when `kind` does not. */
  readonly entityType?: EntityType;
  readonly segment?: number | 'all';
  readonly kind?: TrackKind;
  readonly maxGapSeconds?: number;
  readonly strict: boolean;
  readonly columns: CsvColumns;
}

/**
 * The actors of one track file (one per recording chosen) and the lines to print before publishing; a file that
 * cannot be used adds its problems instead.
 */
export async function trackActors(
  path: string,
  options: TrackActorOptions,
  problems: UsageProblem[],
): Promise<{ actors: TrackActor[]; lines: string[] }> {
  const [{ loadTracks }, { TrackError, KIND_ENTITY_TYPE, describeSegment }, { InputFileError }] = await Promise.all([
    import('../truth/loaders.js'),
    import('../truth/track-checks.js'),
    import('../files/input-file.js'),
  ]);
  const lines: string[] = [];
  const actors: TrackActor[] = [];
  try {
    const loaded = await loadTracks(path, {
      ...(options.entity === undefined ? {} : { entity: options.entity }),
      ...(options.segment === undefined ? {} : { segment: options.segment }),
      ...(options.kind === undefined ? {} : { kind: options.kind }),
      ...(options.entityType === undefined ? {} : { entityType: options.entityType }),
      ...(options.maxGapSeconds === undefined ? {} : { maxGapSeconds: options.maxGapSeconds }),
      columns: options.columns,
      strict: options.strict,
      columnHint: (key) => `--${COLUMN_FLAGS[key]} NAME (columns.${key} in a spec)`,
    });
    const first = loaded[0]!;
    if (first.segmentCount > 1) {
      lines.push(
        `publish: ${path} holds ${first.segmentCount} recordings; publishing ${loaded.map((l) => `#${l.segment.index}`).join(', ')}`,
      );
      for (const l of loaded) lines.push(`  ${describeSegment(l.segment)}`);
    }
    if (first.kindReason) lines.push(`publish: ${path}: kind ${first.kindReason} (--kind to set it)`);
    for (const { trajectory, captured, kind, segment, callsign } of loaded) {
      for (const note of trajectory.notes ?? []) lines.push(`publish: ${trajectory.name}: ${note}`);
      // A capture's entity keeps what it was captured as (unless --type says otherwise); other tracks get the type
      // asked for, else a platform of their kind's domain.
      const suffix = loaded.length > 1 || first.segmentCount > 1 ? ` ${segment.index}` : '';
      const marking = captured?.marking
        ? captured.marking
        : callsign
          ? printableMarking(callsign, suffix)
          : shortMarking(trajectory.name.replace(/ #\d+$/, ''), suffix);
      actors.push({
        name: trajectory.name,
        marking,
        entityType: options.entityType ??
          captured?.entityType ?? {
            ...KIND_ENTITY_TYPE[kind],
            country: 0,
            category: 0,
            subcategory: 0,
            specific: 0,
            extra: 0,
          },
        trajectory,
        startSeconds: 0,
        firstFixSeconds: segment.points[0]!.timeSeconds,
        ...(captured ? { forceId: captured.forceId } : {}),
      });
    }
  } catch (error) {
    if (error instanceof TrackError) {
      problems.push(...trackErrorProblems(error, '--track', `${path}: `));
    } else if (error instanceof InputFileError) {
      problems.push({ path: '--track', message: error.message });
    } else {
      const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message;
      problems.push({ path: '--track', message: `cannot load "${path}": ${reason}` });
    }
  }
  return { actors, lines };
}

/** Words of a file name that say nothing of the vehicle, left out of a marking made from it. */
const GENERIC_WORDS = new Set([
  'aircraft',
  'adsb',
  'ads',
  'b',
  'track',
  'tracks',
  'trk',
  'gps',
  'gnss',
  'gpx',
  'nmea',
  'log',
  'data',
  'csv',
  'json',
  'derived',
  'sample',
  'samples',
  'recording',
  'raw',
  'the',
  'of',
  'hz',
  'ownship',
  'traffic',
  'signalk',
  'opensky',
]);

/** A marking's 11 Latin-1 characters (IEEE 1278.1 §6.2.53), upper case, printable, with `suffix` kept. */
function printableMarking(name: string, suffix: string): string {
  return (
    name
      .replace(/[^ -~]/g, '')
      .toUpperCase()
      .slice(0, 11 - suffix.length)
      .trimEnd() + suffix
  );
}

/**
 * A marking made from a file's name: its words (split at _, -, ., spaces, digit runs and camel case) without the
 * generic ones (aircraft, adsb, track, gps, 1hz, …), as many whole words as fit in 11 characters —
 * "aircraft_adsb_dreamliner_airfrance" → "DREAMLINER", "ship_signalk_aava_ownship_1hz_derived" → "SHIP AAVA".
 */
export function shortMarking(name: string, suffix = ''): string {
  const words = name
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => w !== '' && !GENERIC_WORDS.has(w.toLowerCase()) && !/^\d+(hz|s|m)?$/i.test(w));
  const room = 11 - suffix.length;
  let marking = '';
  for (const word of words) {
    const next = marking === '' ? word : `${marking} ${word}`;
    if (next.length > room) break;
    marking = next;
  }
  if (marking === '') marking = (words[0] ?? name).slice(0, room);
  return printableMarking(marking, suffix);
}
