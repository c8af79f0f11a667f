/**
 * Readers for recorded tracks: CSV (configurable columns), GPX, the gzip JSON of ADS-B state vectors
 * (OpenSky / `traffic` samples) and DIS captures (one entity's Entity State PDUs taken as truth). Parsers are
 * pure (text or bytes in, fixes out); `loadTrack` reads a file and picks the parser by its name.
 */
import { readFile } from 'node:fs/promises';
import { gunzipSync } from 'node:zlib';
import { ecefToGeodeticDegrees } from '../../math/geodesy.js';
import { readCapture } from '../../pcap/reader.js';
import { udpFromFrame } from '../../pcap/packet.js';
import { decodeEntityStateOrUpdateInto } from '../../pdu/entity-state-codec.js';
import { EntityStateRecord } from '../../pdu/entity-state-record.js';
import { CodecStatus } from '../../pdu/status.js';
import { recordedTrajectory, type RecordedTrackOptions, type TrackPoint } from './recorded.js';
import type { Trajectory } from './trajectory.js';

const FEET = 0.3048;

/** CSV column names. Each defaults to the first header found among common spellings. */
export interface CsvColumns {
  /** ISO 8601 date-time or seconds. Defaults to one of time, time_utc, timestamp, t. */
  readonly time?: string;
  readonly latitude?: string;
  readonly longitude?: string;
  /** Metres. Defaults to one of alt_m, altitude, height, ele; absent = 0. */
  readonly height?: string;
  /** Degrees clockwise from true north; absent = derived from the motion. */
  readonly heading?: string;
}

const CSV_DEFAULTS: Record<keyof CsvColumns, readonly string[]> = {
  time: ['time', 'time_utc', 'timestamp', 't', 'time_s'],
  latitude: ['lat', 'lat_deg', 'latitude'],
  longitude: ['lon', 'lon_deg', 'lng', 'longitude'],
  height: ['alt', 'alt_m', 'altitude', 'height', 'height_m', 'ele'],
  heading: ['heading', 'heading_deg', 'hdg'],
};

/** Parses a CSV track (comma separated, header row). Rows with an unreadable time or position are skipped. */
export function parseCsvTrack(text: string, columns: CsvColumns = {}): TrackPoint[] {
  const lines = text.split(/\r?\n/).filter((l) => l.trim() !== '');
  const header = (lines[0] ?? '').split(',').map((h) => h.trim());
  const index = (key: keyof CsvColumns, required: boolean): number => {
    const wanted = columns[key];
    const i = wanted !== undefined ? header.indexOf(wanted) : header.findIndex((h) => CSV_DEFAULTS[key].includes(h.toLowerCase()));
    if (i < 0 && (required || wanted !== undefined)) {
      throw new RangeError(`CSV has no ${key} column${wanted ? ` "${wanted}"` : ` (tried ${CSV_DEFAULTS[key].join(', ')})`}; columns are: ${header.join(', ')}`);
    }
    return i;
  };
  const [ti, lat, lon, h, hdg] = [index('time', true), index('latitude', true), index('longitude', true), index('height', false), index('heading', false)];
  const points: TrackPoint[] = [];
  for (const line of lines.slice(1)) {
    const cells = line.split(',');
    const timeSeconds = parseTime(cells[ti]);
    const latitudeDeg = Number(cells[lat]), longitudeDeg = Number(cells[lon]);
    if (!Number.isFinite(timeSeconds) || !isCoordinate(cells[lat], latitudeDeg) || !isCoordinate(cells[lon], longitudeDeg)) continue;
    const height = h >= 0 ? Number(cells[h]) : 0;
    const heading = hdg >= 0 && cells[hdg]?.trim() ? Number(cells[hdg]) : undefined;
    points.push({ timeSeconds, latitudeDeg, longitudeDeg, heightM: Number.isFinite(height) ? height : 0, headingDeg: heading });
  }
  // A heading column with gaps (often the first row) is only usable where present: fill from the next fix.
  for (let i = points.length - 2; i >= 0; i--) {
    if (points[i]!.headingDeg === undefined && points[i + 1]!.headingDeg !== undefined) {
      points[i] = { ...points[i]!, headingDeg: points[i + 1]!.headingDeg };
    }
  }
  return points;
}

/** Parses the track points (`trkpt`, else `rtept`) of a GPX file: lat/lon attributes, `<ele>`, `<time>`. */
export function parseGpxTrack(text: string): TrackPoint[] {
  const points: TrackPoint[] = [];
  const pattern = /<(trkpt|rtept)\b([^>]*)>([\s\S]*?)<\/\1>/g;
  for (const match of text.matchAll(pattern)) {
    const attributes = match[2]!, body = match[3]!;
    const latitudeDeg = Number(/\blat\s*=\s*["']([^"']+)["']/.exec(attributes)?.[1]);
    const longitudeDeg = Number(/\blon\s*=\s*["']([^"']+)["']/.exec(attributes)?.[1]);
    const timeSeconds = parseTime(/<time>([^<]+)<\/time>/.exec(body)?.[1]);
    const heightM = Number(/<ele>([^<]+)<\/ele>/.exec(body)?.[1] ?? 0);
    if (Number.isFinite(latitudeDeg) && Number.isFinite(longitudeDeg) && Number.isFinite(timeSeconds)) {
      points.push({ timeSeconds, latitudeDeg, longitudeDeg, heightM: Number.isFinite(heightM) ? heightM : 0 });
    }
  }
  return points;
}

/**
 * Parses ADS-B state vectors (a JSON array of OpenSky-style records: `timestamp` or `last_position` in ms,
 * `latitude`, `longitude`, `geoaltitude` or `altitude` in feet). ADS-B repeats a position until a new one is
 * decoded, so the time of each fix is `last_position` when present and repeats are dropped.
 */
export function parseAdsbTrack(json: unknown): TrackPoint[] {
  if (!Array.isArray(json)) throw new RangeError('ADS-B track must be a JSON array of state vectors');
  const points: TrackPoint[] = [];
  for (const raw of json as Array<Record<string, unknown>>) {
    const ms = Number(raw.last_position ?? raw.timestamp);
    const latitudeDeg = Number(raw.latitude), longitudeDeg = Number(raw.longitude);
    const feet = Number(raw.geoaltitude ?? raw.altitude);
    if (![ms, latitudeDeg, longitudeDeg].every(Number.isFinite) || raw.latitude === null) continue;
    const last = points[points.length - 1];
    const timeSeconds = ms / 1000;
    if (last && timeSeconds <= last.timeSeconds) continue;
    points.push({ timeSeconds, latitudeDeg, longitudeDeg, heightM: Number.isFinite(feet) ? feet * FEET : 0 });
  }
  return points;
}

/**
 * The fixes of one entity in a DIS capture: every decodable Entity State (Update) PDU of that entity, timed
 * by the capture. Picks the entity that moved farthest when `entity` ("site:application:entity") is not given.
 */
export function parseDisCaptureTrack(bytes: Uint8Array, entity?: string): TrackPoint[] {
  const record = new EntityStateRecord();
  const tracks = new Map<string, Array<{ t: number; x: number; y: number; z: number; psi: number }>>();
  for (const frame of readCapture(bytes).frames) {
    const udp = udpFromFrame(frame.linkType, frame.data);
    if (udp.kind !== 'udp' || decodeEntityStateOrUpdateInto(record, udp.payload) !== CodecStatus.OK) continue;
    const id = `${record.site}:${record.application}:${record.entity}`;
    let fixes = tracks.get(id);
    if (!fixes) tracks.set(id, (fixes = []));
    fixes.push({ t: frame.timeSeconds, x: record.location[0]!, y: record.location[1]!, z: record.location[2]!, psi: record.orientation[0]! });
  }
  let chosen = entity;
  if (chosen === undefined) {
    let farthest = -1;
    for (const [id, fixes] of tracks) {
      const a = fixes[0]!, b = fixes[fixes.length - 1]!;
      const d = Math.hypot(b.x - a.x, b.y - a.y, b.z - a.z);
      if (d > farthest) [farthest, chosen] = [d, id];
    }
  }
  const fixes = chosen === undefined ? undefined : tracks.get(chosen);
  if (!fixes) {
    throw new RangeError(`no Entity State PDUs${chosen ? ` of entity ${chosen}` : ''} in the capture; entities: ${[...tracks.keys()].join(', ') || 'none'}`);
  }
  const geo = new Float64Array(3);
  return fixes.map((f) => {
    ecefToGeodeticDegrees(geo, f.x, f.y, f.z);
    return { timeSeconds: f.t, latitudeDeg: geo[0]!, longitudeDeg: geo[1]!, heightM: geo[2]! };
  });
}

/** Options of `loadTrack`: the parser's own plus the trajectory's. */
export interface LoadTrackOptions extends RecordedTrackOptions {
  readonly columns?: CsvColumns;
  /** DIS captures: "site:application:entity". */
  readonly entity?: string;
  /** Shown in reports. Defaults to the file name. */
  readonly name?: string;
}

/**
 * Reads a recorded track file as a trajectory: `.csv`, `.gpx`, `.json` / `.json.gz` (ADS-B; smoothed over 5
 * fixes and banked unless the options say otherwise), `.pcap` / `.pcapng` (DIS). Gzip is detected from the
 * bytes, whatever the name.
 */
export async function loadTrack(path: string, options: LoadTrackOptions = {}): Promise<Trajectory> {
  let bytes: Uint8Array = await readFile(path);
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) bytes = gunzipSync(bytes);
  const lower = path.toLowerCase().replace(/\.gz$/, '');
  const text = () => new TextDecoder().decode(bytes);
  const points = lower.endsWith('.csv')
    ? parseCsvTrack(text(), options.columns)
    : lower.endsWith('.gpx')
      ? parseGpxTrack(text())
      : lower.endsWith('.json')
        ? parseAdsbTrack(JSON.parse(text()))
        : lower.endsWith('.pcap') || lower.endsWith('.pcapng')
          ? parseDisCaptureTrack(bytes, options.entity)
          : undefined;
  if (!points) throw new RangeError(`unknown track format "${path}": use .csv, .gpx, .json(.gz) (ADS-B) or .pcap/.pcapng (DIS)`);
  const name = options.name ?? path.split(/[\\/]/).pop()!.replace(/\.(csv|gpx|json|pcapng|pcap)(\.gz)?$/i, '');
  // ADS-B positions and 25 ft altitude steps are coarse, and what they track flies: smooth and bank by default.
  const adsb = lower.endsWith('.json') ? { smoothingWindow: 5, banked: true } : {};
  return recordedTrajectory(name, points, { ...adsb, ...options });
}

function parseTime(cell: string | undefined): number {
  if (cell === undefined || cell.trim() === '') return NaN;
  const text = cell.trim();
  const seconds = Number(text);
  return Number.isFinite(seconds) ? seconds : Date.parse(text) / 1000;
}

function isCoordinate(cell: string | undefined, value: number): boolean {
  return cell !== undefined && cell.trim() !== '' && Number.isFinite(value);
}
