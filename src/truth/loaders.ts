/**
 * Readers for recorded tracks: CSV (configurable columns), GPX, the gzip JSON of ADS-B state vectors
 * (OpenSky / `traffic` samples) and DIS captures (one entity's Entity State PDUs taken as truth). Parsers are
 * pure (text or bytes in, fixes out); `loadTracks` reads a file, picks the parser by its name, checks the fixes
 * and splits them into recordings.
 */
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import { parse as parseCsv } from 'csv-parse/sync';
import { InputFileError, formatBytes, readInputFile } from '../files/input-file.js';
import { HEARTBEAT_IEEE_TABLE_25, HEARTBEAT_TIMEOUT_MULTIPLIER } from '../dr/heartbeat.js';
import { ecefToGeodeticDegrees } from '../math/geodesy.js';
import { CaptureParser } from '../pcap/reader.js';
import { udpFromFrame } from '../pcap/packet.js';
import { decodeEntityStateOrUpdateInto } from '../pdu/entity-state-decoder.js';
import { EntityStateRecord, markingText } from '../pdu/entity-state-record.js';
import { CodecStatus } from '../pdu/status.js';
import type { EntityType } from '../pdu/schema.js';
import { recordedTrajectory, type RecordedTrackOptions, type TrackPoint } from './recorded.js';
import {
  TrackError,
  capProblems,
  checkFixes,
  defaultMaxGapSeconds,
  describeSegment,
  formatSeconds,
  splitSegments,
  type TrackKind,
  type TrackSegment,
} from './track-checks.js';
import type { Trajectory } from './trajectory.js';

const FEET = 0.3048;

/** CSV column names. Each defaults to the first header found among common spellings (case-insensitive). */
export interface CsvColumns {
  /**
   * ISO 8601 date-time (UTC when it names no zone) or seconds: Unix epoch seconds, epoch milliseconds (values
   * above 10¹¹), or seconds from any start. Defaults to one of time, time_utc, timestamp, t, …
   */
  readonly time?: string;
  readonly latitude?: string;
  readonly longitude?: string;
  /** Metres. Defaults to one of alt_m, altitude, height, ele; absent = 0. */
  readonly height?: string;
  /** Degrees clockwise from true north; absent = derived from the motion. */
  readonly heading?: string;
  /** Which recording a row belongs to (a drive, segment or track id); each value is a segment of its own. */
  readonly id?: string;
}

const CSV_DEFAULTS: Record<keyof CsvColumns, readonly string[]> = {
  time: ['time', 'time_utc', 'timestamp', 't', 'time_s', 'datetime', 'date_time', 'utc', 'gps_time'],
  latitude: ['lat', 'lat_deg', 'latitude', 'gps_lat', 'latitude_deg'],
  longitude: ['lon', 'lon_deg', 'lng', 'longitude', 'gps_lon', 'gps_lng', 'longitude_deg'],
  height: ['alt', 'alt_m', 'altitude', 'height', 'height_m', 'ele', 'elevation', 'gps_alt', 'altitude_m'],
  heading: ['heading', 'heading_deg', 'hdg'],
  id: ['drive', 'drive_id', 'segment', 'segment_id', 'track', 'track_id', 'trip', 'trip_id', 'session', 'session_id'],
};

/**
 * Bounds of a track file, so that no file exhausts memory: its size on disk and, gzip-compressed, unpacked (a
 * 582 KB file that unpacks to 400 MB is refused, not read), and the fixes it may hold (10 days at 1 Hz; a CSV
 * row costs about 1 kB while read).
 */
export const TRACK_LIMITS = { maxFileBytes: 256 * 2 ** 20, maxUnpackedBytes: 256 * 2 ** 20, maxFixes: 1_000_000 };

/** More fixes than `TRACK_LIMITS.maxFixes`. */
function tooManyFixes(file: string): TrackError {
  const max = TRACK_LIMITS.maxFixes;
  return new TrackError(file, [
    `holds more than ${max} fixes, more than reckon reads from one file; split it, or keep every n-th fix`,
  ]);
}

/** Epoch times above this are milliseconds: 10¹¹ s is the year 5138. */
const EPOCH_MILLISECONDS_ABOVE = 1e11;

/**
 * The delimiter of a CSV: comma, semicolon or tab, whichever the header line (outside quotes) has most of.
 */
function detectDelimiter(text: string): string {
  const counts = new Map([
    [',', 0],
    [';', 0],
    ['\t', 0],
  ]);
  let quoted = false;
  for (const c of text) {
    if (c === '"') quoted = !quoted;
    else if (!quoted && (c === '\n' || c === '\r')) break;
    else if (!quoted && counts.has(c)) counts.set(c, counts.get(c)! + 1);
  }
  return [...counts].reduce((best, entry) => (entry[1] > best[1] ? entry : best))[0];
}

/**
 * Parses a CSV track: a header row, then one fix per row. Comma, semicolon (with decimal commas) or tab
 * delimited (detected from the header), quoted fields, a byte-order mark and CRLF line ends are all read
 * (csv-parse, RFC 4180). Rows without a position (a receiver without a fix) are skipped; a cell that is there
 * but unreadable is a problem.
 * @throws TrackError listing every problem with its row (the file's line number).
 */
export function parseCsvTrack(text: string, columns: CsvColumns = {}, file = 'CSV'): TrackPoint[] {
  const delimiter = detectDelimiter(text.replace(/^\uFEFF/, ''));
  // Semicolon files come from locales that write decimal commas.
  const number = (cell: string): number => Number(delimiter === ';' ? cell.replace(',', '.') : cell);
  const problems: string[] = [];
  const points: TrackPoint[] = [];
  let indices: number[] | undefined;
  // Each row becomes a fix as it is parsed (on_record returns nothing to keep): the rows as strings never all sit
  // in memory at once.
  const onRecord = (cells: string[], lines: number): void => {
    if (indices === undefined) {
      indices = columnIndices(cells, columns, problems);
      if (problems.length > 0) throw new TrackError(file, problems);
      return;
    }
    const [ti, lat, lon, h, hdg, id] = indices as [number, number, number, number, number, number];
    const row = lines;
    const latCell = cells[lat] ?? '',
      lonCell = cells[lon] ?? '';
    if (latCell === '' || lonCell === '') return; // no fix in this row
    if (points.length === TRACK_LIMITS.maxFixes) throw tooManyFixes(file);
    const timeSeconds = parseTime(cells[ti]);
    const latitudeDeg = number(latCell),
      longitudeDeg = number(lonCell);
    if (!Number.isFinite(timeSeconds)) {
      problems.push(`row ${row}: time ${shown(cells[ti] ?? '')} is neither ISO 8601 nor seconds`);
    }
    if (!Number.isFinite(latitudeDeg)) problems.push(`row ${row}: latitude ${shown(latCell)} is not a number`);
    if (!Number.isFinite(longitudeDeg)) problems.push(`row ${row}: longitude ${shown(lonCell)} is not a number`);
    const heightCell = h >= 0 ? (cells[h] ?? '') : '';
    const height = heightCell === '' ? 0 : number(heightCell);
    if (!Number.isFinite(height)) problems.push(`row ${row}: height ${shown(heightCell)} is not a number`);
    const headingCell = hdg >= 0 ? (cells[hdg] ?? '') : '';
    const heading = headingCell === '' ? undefined : number(headingCell);
    if (heading !== undefined && !Number.isFinite(heading)) {
      problems.push(`row ${row}: heading ${shown(headingCell)} is not a number`);
    }
    const group = id >= 0 ? cells[id] : undefined;
    const fix = { timeSeconds, latitudeDeg, longitudeDeg, heightM: height, headingDeg: heading, row };
    points.push(group === undefined ? fix : { ...fix, group });
  };
  try {
    parseCsv(text, {
      bom: true,
      delimiter,
      skip_empty_lines: true,
      relax_column_count: true,
      trim: true,
      on_record: (record: string[], context: { lines: number }) => {
        onRecord(record, context.lines);
        return null;
      },
    });
  } catch (error) {
    if (error instanceof TrackError) throw error;
    // csv-parse wraps what on_record throws; a TrackError inside is the answer.
    const cause = (error as { cause?: unknown }).cause;
    if (cause instanceof TrackError) throw cause;
    throw new TrackError(file, [`not readable as CSV: ${(error as Error).message}`]);
  }
  if (indices === undefined) columnIndices([], columns, problems);
  if (problems.length > 0) throw new TrackError(file, capProblems(problems));
  // A heading column with gaps (often the first row) is only usable where present: fill from the next fix.
  for (let i = points.length - 2; i >= 0; i--) {
    if (points[i]!.headingDeg === undefined && points[i + 1]!.headingDeg !== undefined) {
      points[i] = { ...points[i]!, headingDeg: points[i + 1]!.headingDeg };
    }
  }
  return points;
}

/** The columns of time, latitude, longitude, height, heading and id in a CSV header (−1: none); problems added. */
function columnIndices(cells: readonly string[], columns: CsvColumns, problems: string[]): number[] {
  const header = cells.map((h) => h.trim());
  const lowerHeader = header.map((h) => h.toLowerCase());
  const index = (key: keyof CsvColumns, required: boolean): number => {
    const wanted = columns[key];
    const i =
      wanted !== undefined ? header.indexOf(wanted) : lowerHeader.findIndex((h) => CSV_DEFAULTS[key].includes(h));
    if (i < 0 && (required || wanted !== undefined)) {
      problems.push(
        `no ${key} column${wanted ? ` "${wanted}"` : ` (tried ${CSV_DEFAULTS[key].join(', ')})`}; columns are: ${header.map(printable).join(', ')}` +
          ` (name yours with columns.${key})`,
      );
    }
    return i;
  };
  return [
    index('time', true),
    index('latitude', true),
    index('longitude', true),
    index('height', false),
    index('heading', false),
    index('id', false),
  ];
}

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
    const heightM = Number(/<ele>([^<]+)<\/ele>/.exec(body)?.[1] ?? 0);
    if (Number.isFinite(latitudeDeg) && Number.isFinite(longitudeDeg) && Number.isFinite(timeSeconds)) {
      if (points.length === TRACK_LIMITS.maxFixes) throw tooManyFixes('GPX');
      points.push({ timeSeconds, latitudeDeg, longitudeDeg, heightM: Number.isFinite(heightM) ? heightM : 0, row });
    }
  }
  return points;
}

/**
 * Parses ADS-B state vectors (a JSON array of OpenSky-style records: `timestamp` or `last_position` in ms,
 * `latitude`, `longitude`, `geoaltitude` or `altitude` in feet). ADS-B repeats a position until a new one is
 * decoded, so the time of each fix is `last_position` when present and repeats are dropped. `row` is the
 * record's place in the array, from 1.
 */
export function parseAdsbTrack(json: unknown): TrackPoint[] {
  if (!Array.isArray(json)) throw new RangeError('ADS-B track must be a JSON array of state vectors');
  const points: TrackPoint[] = [];
  (json as Array<Record<string, unknown> | null>).forEach((raw, i) => {
    if (raw === null || typeof raw !== 'object') return;
    const ms = Number(raw.last_position ?? raw.timestamp);
    const latitudeDeg = Number(raw.latitude),
      longitudeDeg = Number(raw.longitude);
    const feet = Number(raw.geoaltitude ?? raw.altitude);
    if (![ms, latitudeDeg, longitudeDeg].every(Number.isFinite) || raw.latitude === null) return;
    const last = points[points.length - 1];
    const timeSeconds = ms / 1000;
    if (last && timeSeconds <= last.timeSeconds) return;
    if (points.length === TRACK_LIMITS.maxFixes) throw tooManyFixes('ADS-B');
    points.push({
      timeSeconds,
      latitudeDeg,
      longitudeDeg,
      heightM: Number.isFinite(feet) ? feet * FEET : 0,
      row: i + 1,
    });
  });
  return points;
}

/** One entity seen in a DIS capture. */
export interface CaptureEntity {
  /** "site:application:entity". */
  readonly id: string;
  /** The marking as captured (Latin-1, up to 11 characters; may hold anything: sanitise before printing). */
  readonly marking: string;
  readonly entityType: EntityType;
  /** 0 other, 1 friendly, 2 opposing, 3 neutral. */
  readonly forceId: number;
  /** Entity State (and Entity State Update) PDUs decoded. */
  readonly pdus: number;
  /** Capture times of its first and last PDU, seconds. */
  readonly firstSeconds: number;
  readonly lastSeconds: number;
}

/** "kind:domain:country:category:subcategory:specific:extra". */
export function formatEntityType(t: EntityType): string {
  return [t.kind, t.domain, t.country, t.category, t.subcategory, t.specific, t.extra].join(':');
}

/** One line per capture entity: id, marking, type, force, PDUs and time span. Safe to print. */
export function describeCaptureEntity(e: CaptureEntity): string {
  return (
    `${e.id} "${printable(e.marking)}" type ${formatEntityType(e.entityType)} force ${e.forceId}, ${e.pdus} PDUs over ` +
    `${formatSeconds(e.lastSeconds - e.firstSeconds)}`
  );
}

/** A file's text for a message: quoted, printable ASCII only (no terminal escapes), at most 40 characters. */
function shown(text: string): string {
  return text.length > 40 ? `"${printable(text.slice(0, 39))}…"` : `"${printable(text)}"`;
}

/** Printable ASCII only: text from a capture is never sent raw to a terminal. */
function printable(text: string): string {
  return text.replace(/[^ -~]/g, '?');
}

/**
 * The fixes of one entity in a DIS capture: every decodable Entity State (Update) PDU of that entity, timed by
 * the capture (`row` is the capture's frame number, from 1), with the entity's captured identity.
 * @param entity - "site:application:entity"; needed when the capture holds more than one entity.
 * @throws TrackError listing the entities when `entity` is missing (and there are several) or not there.
 */
export function readDisCaptureTrack(
  bytes: Uint8Array,
  entity?: string,
  file = 'capture',
): { points: TrackPoint[]; entity: CaptureEntity } {
  const record = new EntityStateRecord();
  type Fix = { t: number; x: number; y: number; z: number; frame: number };
  const tracks = new Map<string, { fixes: Fix[]; summary: CaptureEntity }>();
  let frameNumber = 0;
  let fixes = 0;
  const parser = new CaptureParser();
  // In pieces: the frames of one piece at a time, not of the whole file.
  const PIECE = 1 << 20;
  const pieces = function* () {
    for (let at = 0; at < bytes.length; at += PIECE) yield* parser.push(bytes.subarray(at, at + PIECE));
    parser.finish();
  };
  for (const frame of pieces()) {
    frameNumber++;
    const udp = udpFromFrame(frame.linkType, frame.data);
    if (udp.kind !== 'udp' || decodeEntityStateOrUpdateInto(record, udp.payload) !== CodecStatus.OK) continue;
    const id = `${record.site}:${record.application}:${record.entity}`;
    let track = tracks.get(id);
    const full = record.pduType === 1; // an Entity State Update carries no type, force or marking
    if (!track) {
      const t = frame.timeSeconds;
      track = {
        fixes: [],
        summary: {
          id,
          marking: '',
          entityType: entityTypeOf(record),
          forceId: 0,
          pdus: 0,
          firstSeconds: t,
          lastSeconds: t,
        },
      };
      tracks.set(id, track);
    }
    const s = track.summary;
    track.summary = {
      ...s,
      ...(full ? { marking: markingText(record), entityType: entityTypeOf(record), forceId: record.forceId } : {}),
      pdus: s.pdus + 1,
      lastSeconds: frame.timeSeconds,
    };
    const location = record.location;
    if (entity !== undefined && id !== entity) continue; // only the chosen entity's fixes are kept
    if (++fixes > TRACK_LIMITS.maxFixes) throw tooManyFixes(file);
    track.fixes.push({ t: frame.timeSeconds, x: location[0]!, y: location[1]!, z: location[2]!, frame: frameNumber });
  }
  const list = () => [...tracks.values()].map((t) => `  ${describeCaptureEntity(t.summary)}`);
  if (tracks.size === 0) throw new TrackError(file, ['no Entity State PDUs in the capture']);
  let chosen = entity;
  if (chosen === undefined) {
    if (tracks.size > 1) {
      throw new TrackError(file, [
        `the capture holds ${tracks.size} entities; choose one with entity: "site:application:entity" ` +
          `(reckon publish --entity S:A:E):\n${list().join('\n')}`,
      ]);
    }
    chosen = tracks.keys().next().value!;
  }
  const track = tracks.get(chosen);
  if (!track) {
    throw new TrackError(file, [
      `no Entity State PDUs of entity ${chosen} in the capture; entities:\n${list().join('\n')}`,
    ]);
  }
  const geo = new Float64Array(3);
  const points = track.fixes.map((f) => {
    ecefToGeodeticDegrees(geo, f.x, f.y, f.z);
    return { timeSeconds: f.t, latitudeDeg: geo[0]!, longitudeDeg: geo[1]!, heightM: geo[2]!, row: f.frame };
  });
  return { points, entity: track.summary };
}

/** The fixes of one entity in a DIS capture (see `readDisCaptureTrack`). */
export function parseDisCaptureTrack(bytes: Uint8Array, entity?: string): TrackPoint[] {
  return readDisCaptureTrack(bytes, entity).points;
}

function entityTypeOf(record: EntityStateRecord): EntityType {
  const t = record.entityType;
  return {
    kind: t[0]!,
    domain: t[1]!,
    country: t[2]!,
    category: t[3]!,
    subcategory: t[4]!,
    specific: t[5]!,
    extra: t[6]!,
  };
}

/** The track kind of a DIS entity type: its platform domain, or munition (SISO-REF-010); air when unknown. */
function kindOfEntityType(t: EntityType): TrackKind {
  if (t.kind === 2) return 'munition';
  const byDomain: Record<number, TrackKind> = { 1: 'ground', 2: 'air', 3: 'surface', 4: 'subsurface', 5: 'space' };
  return (t.kind === 1 && byDomain[t.domain]) || 'air';
}

/** Options of `loadTrack`: the parser's own plus the trajectory's. */
export interface LoadTrackOptions extends RecordedTrackOptions {
  readonly columns?: CsvColumns;
  /** DIS captures: "site:application:entity"; needed when the capture holds several entities. */
  readonly entity?: string;
  /** Shown in reports. Defaults to the file name (or a DIS entity's marking). */
  readonly name?: string;
  /**
   * What the track records, for its plausible speed (MAX_SPEED_MPS). Defaults to air for ADS-B, the entity
   * type's domain for DIS, and air (the fastest vehicles) for CSV and GPX.
   */
  readonly kind?: TrackKind;
  /** The recording to use (1-based, see `splitSegments`), or all. Needed when the file holds several. */
  readonly segment?: number | 'all';
  /** A pause longer than this between fixes starts a new segment, seconds. Defaults to 10 × the median interval. */
  readonly maxGapSeconds?: number;
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
  /** DIS captures: the entity as captured (id, marking, type, force). */
  readonly captured?: CaptureEntity;
}

/**
 * Reads a recorded track file: `.csv`, `.gpx`, `.json` / `.json.gz` (ADS-B; smoothed over 5 fixes, banked and
 * its attitude averaged over 5 s unless the options say otherwise), `.pcap` / `.pcapng` (DIS). Gzip is detected
 * from the bytes, whatever the name. The fixes are checked (`checkFixes`) and split into recordings (`splitSegments`); `options.segment`
 * picks one or all.
 * @throws TrackError listing every problem (rows, segments or entities to choose from).
 */
export async function loadTracks(path: string, options: LoadTrackOptions = {}): Promise<RecordedTrack[]> {
  let bytes: Uint8Array;
  try {
    bytes = await readInputFile(path, 'track file', TRACK_LIMITS.maxFileBytes);
  } catch (error) {
    if (error instanceof InputFileError) throw new TrackError(path, [error.message]);
    throw error;
  }
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) bytes = await unpack(bytes, path);
  const lower = path.toLowerCase().replace(/\.gz$/, '');
  const text = () => new TextDecoder().decode(bytes);
  let points: TrackPoint[];
  let captured: CaptureEntity | undefined;
  let defaultKind: TrackKind = 'air';
  if (lower.endsWith('.csv')) points = parseCsvTrack(text(), options.columns, path);
  else if (lower.endsWith('.gpx')) points = parseGpxTrack(text());
  else if (lower.endsWith('.json')) {
    let json: unknown;
    try {
      json = JSON.parse(text());
    } catch (error) {
      throw new TrackError(path, [`not valid JSON: ${(error as Error).message}`]);
    }
    if (!Array.isArray(json)) throw new TrackError(path, ['an ADS-B track must be a JSON array of state vectors']);
    points = parseAdsbTrack(json);
  } else if (lower.endsWith('.pcap') || lower.endsWith('.pcapng')) {
    let read;
    try {
      read = readDisCaptureTrack(bytes, options.entity, path);
    } catch (error) {
      if (error instanceof TrackError) throw error;
      throw new TrackError(path, [`not a readable capture: ${(error as Error).message}`]);
    }
    points = read.points;
    captured = read.entity;
    defaultKind = kindOfEntityType(captured.entityType);
  } else {
    throw new TrackError(path, ['unknown track format: use .csv, .gpx, .json(.gz) (ADS-B) or .pcap/.pcapng (DIS)']);
  }
  const kind = options.kind ?? defaultKind;
  // Entity State PDUs come when dead reckoning needs them, so their intervals vary widely: a capture's entity is
  // gone only after a receiver would have timed it out (default heartbeat × HBT_TIMEOUT_MPLIER = 12 s).
  const captureTimeoutSeconds = HEARTBEAT_IEEE_TABLE_25.defaultSeconds * HEARTBEAT_TIMEOUT_MULTIPLIER;
  const maxGapSeconds =
    options.maxGapSeconds ?? (captured ? captureTimeoutSeconds : defaultMaxGapSeconds(groupsOf(points)));
  const segments = splitSegments(points, { maxGapSeconds });
  const problems = segments.flatMap((s) => checkFixes(s.points, kind, { sameTimeAllowed: captured !== undefined }));
  if (problems.length > 0) throw new TrackError(path, capProblems(problems));
  const usable = segments.filter((s) => s.points.length >= 2);
  if (usable.length === 0)
    throw new TrackError(path, [`needs at least two fixes with a position and a time, got ${points.length}`]);
  const list = () => segments.map((s) => `  ${describeSegment(s)}`).join('\n');
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
    .replace(/\.(csv|gpx|json|pcapng|pcap)(\.gz)?$/i, '');
  const base = options.name ?? (captured?.marking ? printable(captured.marking) : fileName);
  // ADS-B positions and 25 ft altitude steps are coarse, and what they track flies: smooth and bank by default,
  // and average the derived attitude over 5 s (docs/recorded-tracks.md, "Attitude from a track").
  const adsb = lower.endsWith('.json') ? { smoothingWindow: 5, banked: true, attitudeSmoothingSeconds: 5 } : {};
  return chosen.map((segment) => ({
    trajectory: trajectoryOf(path, segments.length > 1 ? `${base} #${segment.index}` : base, segment.points, {
      ...adsb,
      ...options,
    }),
    segment,
    segmentCount: segments.length,
    kind,
    ...(captured ? { captured } : {}),
  }));
}

/** `recordedTrajectory`, its refusals (fixes all at one time) as a TrackError. */
function trajectoryOf(
  path: string,
  name: string,
  points: readonly TrackPoint[],
  options: RecordedTrackOptions,
): Trajectory {
  try {
    return recordedTrajectory(name, points, options);
  } catch (error) {
    throw new TrackError(path, [(error as Error).message]);
  }
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

/** Seconds of a time cell: ISO 8601 (UTC unless it names a zone), epoch seconds or milliseconds, or seconds. */
function parseTime(cell: string | undefined): number {
  if (cell === undefined || cell.trim() === '') return NaN;
  const text = cell.trim();
  const seconds = Number(text);
  if (Number.isFinite(seconds)) return Math.abs(seconds) > EPOCH_MILLISECONDS_ABOVE ? seconds / 1000 : seconds;
  // ISO 8601 allows a space for the T; a time without a zone would be local time to Date.parse: take it as UTC.
  let iso = text.replace(/^(\d{4}-\d{2}-\d{2})[ T]/, '$1T');
  if (/T\d{2}:\d{2}/.test(iso) && !/(Z|[+-]\d{2}(:?\d{2})?)$/i.test(iso)) iso += 'Z';
  return /^\d{4}-\d{2}-\d{2}/.test(iso) ? Date.parse(iso) / 1000 : NaN;
}
