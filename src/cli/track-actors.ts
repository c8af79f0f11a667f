/**
 * `reckon publish --track`: recorded track files as actors to publish, each with its marking (the file's callsign,
 * a capture's marking, else its name), its entity type (a capture's, else a platform of the track's kind) and the
 * lines to tell the user (the recordings chosen, the kind chosen from the data, the fixes dropped as glitches).
 */
import type { UsageProblem } from './command.js';
import type { FlagSpec, FlagValues } from './command.js';
import type { Actor } from './terminal/scenario.js';
import type { CsvColumns } from '../truth/csv-track.js';
import type { TrackKind } from '../truth/track-checks.js';

/** The CSV columns a flag names, by key of `CsvColumns`. */
const COLUMN_FLAGS = {
  time: 'time-column',
  latitude: 'latitude-column',
  longitude: 'longitude-column',
  height: 'height-column',
  heading: 'heading-column',
  id: 'id-column',
  callsign: 'callsign-column',
} as const satisfies Record<keyof CsvColumns, string>;

/** The flags of `COLUMN_FLAGS`, for a command's flag table, under help's heading `group` (defaults to none). */
export function columnFlags(group?: string): Record<string, FlagSpec> {
  const what: Record<keyof CsvColumns, string> = {
    time: 'time (ISO 8601, epoch seconds or ms, or seconds)',
    latitude: 'latitude (degrees)',
    longitude: 'longitude (degrees)',
    height: 'height (m)',
    heading: 'heading (degrees from true north)',
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

/** A published actor of a track, with the force a capture gives it. */
export type TrackActor = Actor & { readonly forceId?: number; readonly firstFixSeconds: number };

export interface TrackActorOptions {
  readonly entity?: string;
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
      // A capture's entity keeps what it was captured as; other tracks get a platform of their kind's domain.
      const suffix = loaded.length > 1 || first.segmentCount > 1 ? ` ${segment.index}` : '';
      const name = captured?.marking || callsign || trajectory.name.replace(/ #\d+$/, '');
      const marking = captured?.marking
        ? captured.marking
        : name
            .replace(/[^ -~]/g, '')
            .toUpperCase()
            .slice(0, 11 - suffix.length) + suffix;
      actors.push({
        name: trajectory.name,
        marking,
        entityType: captured?.entityType ?? {
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
      for (const problem of error.problems) problems.push({ path: '--track', message: `${path}: ${problem}` });
    } else if (error instanceof InputFileError) {
      problems.push({ path: '--track', message: error.message });
    } else {
      const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message;
      problems.push({ path: '--track', message: `cannot load "${path}": ${reason}` });
    }
  }
  return { actors, lines };
}
