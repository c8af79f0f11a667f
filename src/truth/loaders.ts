/**
 * Readers for recorded tracks: CSV (configurable columns), GPX, the gzip JSON of ADS-B state vectors
 * (OpenSky / `traffic` samples) and DIS captures (one entity's Entity State PDUs taken as truth). Parsers are
 * pure (text or bytes in, fixes out); `loadTracks` reads a file, picks the parser by its name, checks the fixes
 * and splits them into recordings.
 */
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import { formatBytes, readInputFile } from '../files/input-file.js';
import { HEARTBEAT_IEEE_TABLE_25, HEARTBEAT_TIMEOUT_MULTIPLIER } from '../dr/heartbeat.js';
import { ecefToGeodeticDegrees } from '../math/geodesy.js';
import { CaptureParser } from '../pcap/reader.js';
import { udpFromFrame } from '../pcap/packet.js';
import { decodeEntityStateOrUpdateInto } from '../pdu/entity-state-decoder.js';
import { EntityStateRecord, markingText } from '../pdu/entity-state-record.js';
import { CodecStatus } from '../pdu/status.js';
import type { EntityType } from '../pdu/schema.js';
import { AdsbLayoutError, parseAdsbTrack } from './adsb.js';
import { parseCsvTrack, parseTime, type ColumnHint, type CsvColumns } from './csv-track.js';
import { describeDropped, dropGlitches, tooManyGlitches } from './glitches.js';
import { recordedTrajectory, type RecordedTrackOptions, type TrackPoint } from './recorded.js';
import {
  TRACK_LIMITS,
  TrackError,
  capProblems,
  checkFixes,
  defaultMaxGapSeconds,
  describeSegment,
  formatSeconds,
  kindFromFixes,
  printable,
  splitSegments,
  tooManyFixes,
  type TrackKind,
  type TrackSegment,
} from './track-checks.js';
import type { Trajectory } from './trajectory.js';

export { TRACK_LIMITS } from './track-checks.js';
export { parseAdsbTrack } from './adsb.js';
export { parseCsvTrack, type ColumnHint, type CsvColumns } from './csv-track.js';

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
    const heightM = Number(/<ele>([^<]+)<\/ele>/.exec(body)?.[1] ?? 0);
    if (Number.isFinite(latitudeDeg) && Number.isFinite(longitudeDeg) && Number.isFinite(timeSeconds)) {
      if (points.length === TRACK_LIMITS.maxFixes) throw tooManyFixes('GPX');
      points.push({ timeSeconds, latitudeDeg, longitudeDeg, heightM: Number.isFinite(heightM) ? heightM : 0, row });
    }
  }
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
   * type's domain for DIS, and for CSV and GPX what the motion says (`kindFromFixes`).
   */
  readonly kind?: TrackKind;
  /** The recording to use (1-based, see `splitSegments`), or all. Needed when the file holds several. */
  readonly segment?: number | 'all';
  /**
   * A pause longer than this between fixes starts a new segment, seconds. Defaults to 10 × the median interval
   * (ADS-B: 15 min at least; DIS: the receiver's timeout).
   */
  readonly maxGapSeconds?: number;
  /**
   * Refuse a track with any implausible fix, instead of dropping the isolated ones (`dropGlitches`) and saying so
   * in the trajectory's notes. Defaults to false.
   */
  readonly strict?: boolean;
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
  /** Why `kind` was chosen, when the options did not set it and the file does not say (CSV, GPX). */
  readonly kindReason?: string;
  /** The fixes dropped as receiver glitches (see `dropGlitches`), in file order. */
  readonly dropped: readonly TrackPoint[];
  /** The name the file gives the vehicle (an ADS-B callsign, a CSV callsign column): the most frequent one. */
  readonly callsign?: string;
  /** DIS captures: the entity as captured (id, marking, type, force). */
  readonly captured?: CaptureEntity;
}

/**
 * Reads a recorded track file: `.csv`, `.gpx`, `.json` / `.json.gz` (ADS-B; smoothed over 5 fixes, banked and
 * its attitude averaged over 5 s unless the options say otherwise), `.pcap` / `.pcapng` (DIS). Gzip is detected
 * from the bytes, whatever the name. The fixes are split into recordings (`splitSegments`), their glitches
 * dropped (`dropGlitches`, unless `strict`) and checked (`checkFixes`); `options.segment` picks one or all.
 * @throws TrackError listing every problem (rows, segments or entities to choose from); InputFileError when the
 *   file cannot be read.
 */
export async function loadTracks(path: string, options: LoadTrackOptions = {}): Promise<RecordedTrack[]> {
  let bytes: Uint8Array = await readInputFile(path, 'track file', TRACK_LIMITS.maxFileBytes);
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) bytes = await unpack(bytes, path);
  const lower = path.toLowerCase().replace(/\.gz$/, '');
  const text = () => new TextDecoder().decode(bytes);
  let points: TrackPoint[];
  let captured: CaptureEntity | undefined;
  let defaultKind: TrackKind = 'air';
  if (lower.endsWith('.csv')) points = parseCsvTrack(text(), options.columns, path, options.columnHint);
  else if (lower.endsWith('.gpx')) points = parseGpxTrack(text());
  else if (lower.endsWith('.json')) {
    let json: unknown;
    try {
      json = JSON.parse(text());
    } catch (error) {
      throw new TrackError(path, [`not valid JSON: ${(error as Error).message}`]);
    }
    try {
      points = parseAdsbTrack(json, TRACK_LIMITS.maxFixes, () => tooManyFixes(path));
    } catch (error) {
      if (error instanceof AdsbLayoutError) throw new TrackError(path, [error.message]);
      throw error;
    }
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
  const adsbFile = lower.endsWith('.json');
  // CSV and GPX do not say what they record: the motion does (an aircraft flies fast or high).
  const inferred = options.kind === undefined && !captured && !adsbFile ? kindFromFixes(points) : undefined;
  const kind = options.kind ?? inferred?.kind ?? defaultKind;
  // Entity State PDUs come when dead reckoning needs them, so their intervals vary widely: a capture's entity is
  // gone only after a receiver would have timed it out (default heartbeat × HBT_TIMEOUT_MPLIER = 12 s).
  const captureTimeoutSeconds = HEARTBEAT_IEEE_TABLE_25.defaultSeconds * HEARTBEAT_TIMEOUT_MULTIPLIER;
  const medianGap = () => defaultMaxGapSeconds(groupsOf(points));
  const maxGapSeconds =
    options.maxGapSeconds ??
    (captured ? captureTimeoutSeconds : adsbFile ? Math.max(ADSB_MAX_GAP_SECONDS, medianGap()) : medianGap());
  const problems: string[] = [];
  // A simulation's PDUs are its own state, without a receiver's glitches: a capture is checked as it is.
  const dropping = !(options.strict ?? false) && !captured;
  const split = splitSegments(points, { maxGapSeconds });
  const cleaned = split.map((segment) => {
    if (!dropping) return { segment, dropped: [] as readonly TrackPoint[] };
    const result = dropGlitches(segment.points, kind);
    const first = segment.points[0]!.timeSeconds,
      last = segment.points[segment.points.length - 1]!.timeSeconds;
    const refused = tooManyGlitches(result, kind, first, last);
    if (refused) problems.push(split.length > 1 ? `segment ${segment.index}: ${refused}` : refused);
    return { segment: { ...segment, points: result.kept }, dropped: result.dropped, original: segment.points };
  });
  const segments = cleaned.map((c) => c.segment);
  if (problems.length === 0) {
    for (const s of segments)
      for (const problem of checkFixes(s.points, kind, { sameTimeAllowed: captured !== undefined }))
        problems.push(problem);
  }
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
  const adsb = adsbFile ? { smoothingWindow: 5, banked: true, attitudeSmoothingSeconds: 5 } : {};
  return chosen.map((segment) => {
    const { dropped, original } = cleaned[segment.index - 1]!;
    const trajectory = trajectoryOf(path, segments.length > 1 ? `${base} #${segment.index}` : base, segment.points, {
      ...adsb,
      ...options,
    });
    const callsign = mostFrequentCallsign(segment.points);
    return {
      trajectory:
        dropped.length > 0 && original
          ? { ...trajectory, notes: [...(trajectory.notes ?? []), describeDropped(dropped, original, kind)] }
          : trajectory,
      segment,
      segmentCount: segments.length,
      kind,
      ...(inferred ? { kindReason: inferred.reason } : {}),
      dropped,
      ...(callsign === undefined ? {} : { callsign }),
      ...(captured ? { captured } : {}),
    };
  });
}

/** The callsign most fixes of a recording carry, printable; undefined when none carries one. */
function mostFrequentCallsign(points: readonly TrackPoint[]): string | undefined {
  const counts = new Map<string, number>();
  for (const p of points) if (p.callsign !== undefined) counts.set(p.callsign, (counts.get(p.callsign) ?? 0) + 1);
  let best: string | undefined;
  for (const [name, n] of counts) if (best === undefined || n > counts.get(best)!) best = name;
  return best === undefined ? undefined : printable(best);
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
