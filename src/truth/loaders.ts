/**
 * Readers for recorded tracks: CSV (configurable columns), GPX, NMEA 0183, the gzip JSON of ADS-B state vectors
 * (OpenSky / `traffic` samples) and DIS captures (one entity's Entity State PDUs taken as truth). Parsers are
 * pure (text or bytes in, fixes out); `loadTracks` reads a file, picks the parser by its name, splits the fixes
 * into recordings and makes each chosen one a trajectory (`recording.ts`).
 */
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import { formatBytes, readInputFile } from '../files/input-file.js';
import { HEARTBEAT_IEEE_TABLE_25, HEARTBEAT_TIMEOUT_MULTIPLIER } from '../dr/owner/heartbeat.js';
import type { EntityType } from '../pdu/schema/schema.js';
import { AdsbLayoutError, readAdsbTrack } from './adsb.js';
import { parseTime, readCsvTrack, type ColumnHint, type CsvColumns } from './csv-track.js';
import { kindOfEntityType, readDisCaptureTrack, type CaptureEntity, type CapturedState } from './dis-capture.js';
import { SOURCE_NOISE, STATE_VECTOR_TIMING_SIGMA_SECONDS, type SourceNoise } from './measurement-noise.js';
import { looksLikeNmea, readNmeaTrack } from './nmea.js';
import type { TrackPoint } from './track-point.js';
import { estimateCapture, estimateRecording } from './recording.js';
import type { TrackRepair } from './repairs.js';
import {
  TRACK_LIMITS,
  TrackError,
  defaultMaxGapSeconds,
  describeSegment,
  formatSeconds,
  kindFromFixes,
  listedLines,
  printable,
  splitSegments,
  tooManyFixes,
  trackProblems,
  type TrackKind,
  type TrackSegment,
} from './track-checks.js';
import type { Trajectory } from './trajectory.js';

export { TRACK_LIMITS } from './track-checks.js';
export { parseAdsbTrack, readAdsbTrack } from './adsb.js';
export { parseCsvTrack, readCsvTrack, type ColumnHint, type CsvColumns } from './csv-track.js';
export {
  describeCaptureEntity,
  formatEntityType,
  parseDisCaptureTrack,
  readDisCaptureTrack,
  type CaptureEntity,
} from './dis-capture.js';

/**
 * Reception holes of ADS-B last minutes while the flight goes on (out of a receiver's range, over the sea): only a
 * longer pause starts a new recording of an ADS-B file by default.
 */
const ADSB_MAX_GAP_SECONDS = 15 * 60;

/** Parses the track points (`trkpt`, else `rtept`) of a GPX file: lat/lon attributes, `<ele>`, `<time>`. */
export function parseGpxTrack(text: string): TrackPoint[] {
  const points: TrackPoint[] = [];
  const pattern = /<(trkpt|rtept)\b([^>]*)>([\s\S]*?)<\/\1>/g;
  let row = 0;
  for (const match of text.matchAll(pattern)) {
    row++;
    const attributes = match[2]!,
      body = match[3]!;
    const latitudeDeg = Number(/\blat\s*=\s*["']([^"']+)["']/.exec(attributes)?.[1]);
    const longitudeDeg = Number(/\blon\s*=\s*["']([^"']+)["']/.exec(attributes)?.[1]);
    const timeSeconds = parseTime(/<time>([^<]+)<\/time>/.exec(body)?.[1]);
    const heightM = Number(/<ele>([^<]+)<\/ele>/.exec(body)?.[1]);
    if (Number.isFinite(latitudeDeg) && Number.isFinite(longitudeDeg) && Number.isFinite(timeSeconds)) {
      if (points.length === TRACK_LIMITS.maxFixes) throw tooManyFixes('GPX');
      points.push({ timeSeconds, latitudeDeg, longitudeDeg, ...(Number.isFinite(heightM) ? { heightM } : {}), row });
    }
  }
  return points;
}

/** Options of `loadTrack`. */
export interface LoadTrackOptions {
  readonly columns?: CsvColumns;
  /** DIS captures: "site:application:entity"; needed when the capture holds several entities. */
  readonly entity?: string;
  /** Shown in reports. Defaults to the file name (or a DIS entity's marking). */
  readonly name?: string;
  /**
   * What the track records: its motion model and plausible speeds. Defaults to the kind of `entityType`, air for
   * ADS-B, the entity type's domain for DIS, and for CSV, GPX and NMEA what the motion says (`kindFromFixes`).
   */
  readonly kind?: TrackKind;
  /** The entity type the track is published as; its domain sets the kind when `kind` does not. */
  readonly entityType?: EntityType;
  /** The recording to use (1-based, see `splitSegments`), or all. Needed when the file holds several. */
  readonly segment?: number | 'all';
  /**
   * A pause longer than this between fixes starts a new segment, seconds. Defaults to 10 × the median interval
   * (ADS-B: 15 min at least; DIS: the receiver's timeout).
   */
  readonly maxGapSeconds?: number;
  /**
   * Refuse a track with any implausible fix (held, a jump, an outlier, out of time order), listing each, instead of
   * repairing it and saying so in the trajectory's notes. Defaults to false.
   */
  readonly strict?: boolean;
  /** Roll into turns. Defaults to the kind's (aircraft bank). */
  readonly banked?: boolean;
  /** How the caller names a CSV column, for the message that asks for one. Defaults to `columns.NAME`. */
  readonly columnHint?: ColumnHint;
}

/** A gzip file unpacked, within `TRACK_LIMITS.maxUnpackedBytes` (off the event loop, so Ctrl-C is heard). */
async function unpack(bytes: Uint8Array, path: string): Promise<Uint8Array> {
  const max = TRACK_LIMITS.maxUnpackedBytes;
  try {
    return await promisify(gunzip)(bytes, { maxOutputLength: max });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ERR_BUFFER_TOO_LARGE') {
      throw new TrackError(path, [
        `unpacks to more than ${formatBytes(max)} (${formatBytes(bytes.length)} packed), more than a track file may hold`,
      ]);
    }
    throw new TrackError(path, [`not readable as gzip: ${(error as Error).message}`]);
  }
}

/** One recording of a track file as a trajectory, with what the file says about the entity. */
export interface RecordedTrack {
  readonly trajectory: Trajectory;
  readonly segment: TrackSegment;
  /** How many segments the file holds. */
  readonly segmentCount: number;
  readonly kind: TrackKind;
  /** Why `kind` was chosen, when the options did not set it and the file does not say (CSV, GPX, NMEA). */
  readonly kindReason?: string;
  /** The fixes the estimator dropped or repaired, in file order. */
  readonly repairs: readonly TrackRepair[];
  /** The name the file gives the vehicle (an ADS-B callsign, a CSV callsign column): the most frequent one. */
  readonly callsign?: string;
  /** DIS captures: the entity as captured (id, marking, type, force). */
  readonly captured?: CaptureEntity;
}

/** A track file read: its fixes and what its format says about them. */
interface ReadFile {
  readonly points: TrackPoint[];
  readonly noise: SourceNoise;
  readonly defaultKind?: TrackKind;
  readonly notes: string[];
  readonly captured?: CaptureEntity;
  readonly states?: CapturedState[];
  readonly adsb: boolean;
}

/** Reads and parses a track file by its name (gzip detected from the bytes). */
async function readTrackFile(path: string, options: LoadTrackOptions): Promise<ReadFile> {
  let bytes: Uint8Array = await readInputFile(path, 'track file', TRACK_LIMITS.maxFileBytes);
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) bytes = await unpack(bytes, path);
  const lower = path.toLowerCase().replace(/\.gz$/, '');
  const text = () => new TextDecoder().decode(bytes);
  const gnss = { noise: SOURCE_NOISE.gnss, adsb: false };
  if (lower.endsWith('.csv')) {
    const { points, notes } = readCsvTrack(text(), options.columns, path, options.columnHint);
    return { points, notes, ...gnss };
  }
  if (lower.endsWith('.gpx')) return { points: parseGpxTrack(text()), notes: [], ...gnss };
  if (lower.endsWith('.nmea') || (/\.(txt|log)$/.test(lower) && looksLikeNmea(text()))) {
    const { points, summary } = readNmeaTrack(text(), TRACK_LIMITS.maxFixes, () => tooManyFixes(path));
    const skipped = summary.badChecksums + summary.withoutFix;
    const notes =
      skipped > 0
        ? [`skipped ${summary.badChecksums} sentences with a wrong checksum and ${summary.withoutFix} without a fix`]
        : [];
    return { points, notes, ...gnss };
  }
  if (lower.endsWith('.json')) {
    let json: unknown;
    try {
      json = JSON.parse(text());
    } catch (error) {
      throw new TrackError(path, [`not valid JSON: ${(error as Error).message}`]);
    }
    try {
      const { points, info } = readAdsbTrack(json, TRACK_LIMITS.maxFixes, () => tooManyFixes(path));
      // Without last_position a position may be a second older than its vector's time.
      const noise = {
        ...SOURCE_NOISE.adsb,
        heightQuantumM: info.altitudeStepFeet * 0.3048,
        ...(info.timedPositions ? {} : { timingSigmaSeconds: STATE_VECTOR_TIMING_SIGMA_SECONDS }),
      };
      return { points, notes: [], noise, defaultKind: 'air', adsb: true };
    } catch (error) {
      if (error instanceof AdsbLayoutError) throw new TrackError(path, [error.message]);
      throw error;
    }
  }
  if (lower.endsWith('.pcap') || lower.endsWith('.pcapng')) {
    try {
      const read = readDisCaptureTrack(bytes, options.entity, path);
      return {
        points: read.points,
        notes: [],
        noise: SOURCE_NOISE.dis,
        defaultKind: kindOfEntityType(read.entity.entityType),
        captured: read.entity,
        states: read.states,
        adsb: false,
      };
    } catch (error) {
      if (error instanceof TrackError) throw error;
      throw new TrackError(path, [`not a readable capture: ${(error as Error).message}`]);
    }
  }
  throw new TrackError(path, [
    'unknown track format: use .csv, .gpx, .nmea, .json(.gz) (ADS-B) or .pcap/.pcapng (DIS)',
  ]);
}

/**
 * Reads a recorded track file: `.csv`, `.gpx`, `.nmea` (or an NMEA log named `.txt`/`.log`), `.json` / `.json.gz`
 * (ADS-B), `.pcap` / `.pcapng` (DIS). Gzip is detected from the bytes, whatever the name. The fixes are split into
 * recordings (`splitSegments`); each chosen one (`options.segment`) is estimated (`estimateRecording`), its held,
 * jumping and outlying fixes dropped or repaired and named in its notes — or, with `strict`, refused.
 * @throws TrackError listing every problem (rows, segments or entities to choose from); InputFileError when the
 *   file cannot be read.
 */
export async function loadTracks(path: string, options: LoadTrackOptions = {}): Promise<RecordedTrack[]> {
  const file = await readTrackFile(path, options);
  const { points, captured } = file;
  const typeKind = options.entityType === undefined ? undefined : kindOfEntityType(options.entityType);
  // CSV, GPX and NMEA do not say what they record: the motion does (an aircraft flies fast or high).
  const inferred =
    options.kind === undefined && typeKind === undefined && file.defaultKind === undefined
      ? kindFromFixes(points)
      : undefined;
  const kind = options.kind ?? typeKind ?? file.defaultKind ?? inferred!.kind;
  // Entity State PDUs come when dead reckoning needs them, so their intervals vary widely: a capture's entity is
  // gone only after a receiver would have timed it out (default heartbeat × HBT_TIMEOUT_MPLIER = 12 s).
  const captureTimeoutSeconds = HEARTBEAT_IEEE_TABLE_25.defaultSeconds * HEARTBEAT_TIMEOUT_MULTIPLIER;
  const medianGap = () => defaultMaxGapSeconds(groupsOf(points));
  const maxGapSeconds =
    options.maxGapSeconds ??
    (captured ? captureTimeoutSeconds : file.adsb ? Math.max(ADSB_MAX_GAP_SECONDS, medianGap()) : medianGap());
  const segments = splitSegments(points, { maxGapSeconds });
  const usable = segments.filter((s) => s.points.length >= 2);
  if (usable.length === 0)
    throw new TrackError(path, [`needs at least two fixes with a position and a time, got ${points.length}`]);
  const list = () => listedLines(segments, segments.length, describeSegment);
  let chosen: TrackSegment[];
  const wanted = options.segment;
  if (wanted === 'all') chosen = usable;
  else if (wanted === undefined) {
    if (segments.length > 1) {
      throw new TrackError(path, [
        `the file holds ${segments.length} recordings (split at an id column or at pauses over ` +
          `${formatSeconds(maxGapSeconds)}); choose one with segment: N ` +
          `(reckon publish --segment N|all; in a spec, sweep over trajectory.segment to run each):\n${list()}`,
      ]);
    }
    chosen = usable;
  } else {
    const segment = segments[wanted - 1];
    if (segment === undefined || segment.points.length < 2) {
      throw new TrackError(path, [
        `segment ${wanted} ${segment ? 'has a single fix' : 'does not exist'}; the file holds:\n${list()}`,
      ]);
    }
    chosen = [segment];
  }
  const fileName = path
    .split(/[\\/]/)
    .pop()!
    .replace(/\.(csv|gpx|nmea|txt|log|json|pcapng|pcap)(\.gz)?$/i, '');
  const base = options.name ?? (captured?.marking ? printable(captured.marking) : fileName);
  const problems: string[] = [];
  const tracks: RecordedTrack[] = [];
  for (const segment of chosen) {
    const name = segments.length > 1 ? `${base} #${segment.index}` : base;
    const recordingOptions = {
      kind,
      noise: file.noise,
      ...(options.strict === undefined ? {} : { strict: options.strict }),
      ...(options.banked === undefined ? {} : { banked: options.banked }),
      notes: file.notes,
    };
    const estimated =
      captured && file.states
        ? estimateCapture(name, segment.points, statesOf(file.states, segment.points), recordingOptions)
        : estimateRecording(name, segment.points, recordingOptions);
    const prefix = segments.length > 1 ? `segment ${segment.index}: ` : '';
    for (const problem of estimated.problems) problems.push(prefix + problem);
    if (estimated.trajectory === undefined) continue;
    const callsign = mostFrequentCallsign(segment.points);
    tracks.push({
      trajectory: estimated.trajectory,
      segment,
      segmentCount: segments.length,
      kind,
      ...(inferred ? { kindReason: inferred.reason } : {}),
      repairs: estimated.repairs,
      ...(callsign === undefined ? {} : { callsign }),
      ...(captured ? { captured } : {}),
    });
  }
  if (problems.length > 0) throw trackProblems(path, problems);
  return tracks;
}

/** The captured states of a segment's fixes (a capture's fixes and states are in the same order). */
function statesOf(states: readonly CapturedState[], points: readonly TrackPoint[]): CapturedState[] {
  const rows = new Set(points.map((p) => p.row));
  return states.filter((s) => rows.has(s.row));
}

/** The callsign most fixes of a recording carry, printable; undefined when none carries one. */
function mostFrequentCallsign(points: readonly TrackPoint[]): string | undefined {
  const counts = new Map<string, number>();
  for (const p of points) if (p.callsign !== undefined) counts.set(p.callsign, (counts.get(p.callsign) ?? 0) + 1);
  let best: string | undefined;
  for (const [name, n] of counts) if (best === undefined || n > counts.get(best)!) best = name;
  return best === undefined ? undefined : printable(best);
}

/** The fixes of each recording of an id column (one group when there is none). */
function groupsOf(points: readonly TrackPoint[]): TrackPoint[][] {
  const groups = new Map<string | undefined, TrackPoint[]>();
  for (const p of points) {
    const group = groups.get(p.group);
    if (group) group.push(p);
    else groups.set(p.group, [p]);
  }
  return [...groups.values()];
}

/**
 * Reads a recorded track file as one trajectory (see `loadTracks`); `options.segment` must not be "all".
 */
export async function loadTrack(
  path: string,
  options: LoadTrackOptions & { readonly segment?: number } = {},
): Promise<Trajectory> {
  return (await loadTracks(path, options))[0]!.trajectory;
}
