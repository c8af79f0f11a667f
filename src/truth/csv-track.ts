/**
 * CSV tracks: a header row, then one fix per row, with columns found by common names or named by the caller.
 */
import { parse as parseCsv } from 'csv-parse/sync';
import type { TrackPoint } from './recorded.js';
import { TRACK_LIMITS, TrackError, capProblems, printable, tooManyFixes } from './track-checks.js';

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
  /** The vehicle's name (a callsign, a vessel name): the marking it is published with. Defaults to callsign, name, … */
  readonly callsign?: string;
}

const CSV_DEFAULTS: Record<keyof CsvColumns, readonly string[]> = {
  time: ['time', 'time_utc', 'timestamp', 't', 'time_s', 'datetime', 'date_time', 'utc', 'gps_time'],
  latitude: ['lat', 'lat_deg', 'latitude', 'gps_lat', 'latitude_deg', 'gps_latitude'],
  longitude: [
    'lon',
    'lon_deg',
    'lng',
    'long',
    'longitude',
    'gps_lon',
    'gps_lng',
    'gps_long',
    'longitude_deg',
    'gps_longitude',
  ],
  height: ['alt', 'alt_m', 'altitude', 'height', 'height_m', 'ele', 'elevation', 'gps_alt', 'altitude_m'],
  heading: ['heading', 'heading_deg', 'hdg'],
  id: ['drive', 'drive_id', 'segment', 'segment_id', 'track', 'track_id', 'trip', 'trip_id', 'session', 'session_id'],
  callsign: ['callsign', 'call_sign', 'marking', 'name', 'vessel_name', 'ship_name', 'shipname', 'flight'],
};

/** How a caller names a column, for the message that asks for one (`reckon publish` names its flag). */
export type ColumnHint = (key: keyof CsvColumns) => string;
const SPEC_HINT: ColumnHint = (key) => `columns.${key}`;

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
export function parseCsvTrack(
  text: string,
  columns: CsvColumns = {},
  file = 'CSV',
  hint: ColumnHint = SPEC_HINT,
): TrackPoint[] {
  const delimiter = detectDelimiter(text.replace(/^\uFEFF/, ''));
  // Semicolon files come from locales that write decimal commas.
  const number = (cell: string): number => Number(delimiter === ';' ? cell.replace(',', '.') : cell);
  const problems: string[] = [];
  const points: TrackPoint[] = [];
  const names = new Map<string, string>();
  let indices: number[] | undefined;
  // Each row becomes a fix as it is parsed (on_record returns nothing to keep): the rows as strings never all sit
  // in memory at once.
  const onRecord = (cells: string[], lines: number): void => {
    if (indices === undefined) {
      indices = columnIndices(cells, columns, problems, hint);
      if (problems.length > 0) throw new TrackError(file, problems);
      return;
    }
    const [ti, lat, lon, h, hdg, id, sign] = indices as [number, number, number, number, number, number, number];
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
    const name = sign >= 0 ? cells[sign] : undefined;
    // One string per name, however many rows carry it.
    const callsign = name ? (names.get(name) ?? (names.set(name, name), name)) : undefined;
    const fix = { timeSeconds, latitudeDeg, longitudeDeg, heightM: height, headingDeg: heading, row };
    points.push({
      ...fix,
      ...(group === undefined ? {} : { group }),
      ...(callsign === undefined ? {} : { callsign }),
    });
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
  if (indices === undefined) columnIndices([], columns, problems, hint);
  if (problems.length > 0) throw new TrackError(file, capProblems(problems));
  // A heading column with gaps (often the first row) is only usable where present: fill from the next fix.
  for (let i = points.length - 2; i >= 0; i--) {
    if (points[i]!.headingDeg === undefined && points[i + 1]!.headingDeg !== undefined) {
      points[i] = { ...points[i]!, headingDeg: points[i + 1]!.headingDeg };
    }
  }
  return points;
}

/**
 * The columns of time, latitude, longitude, height, heading, id and callsign in a CSV header (−1: none); problems
 * added.
 */
function columnIndices(cells: readonly string[], columns: CsvColumns, problems: string[], hint: ColumnHint): number[] {
  const header = cells.map((h) => h.trim());
  const lowerHeader = header.map((h) => h.toLowerCase());
  const index = (key: keyof CsvColumns, required: boolean): number => {
    const wanted = columns[key];
    const i =
      wanted !== undefined ? header.indexOf(wanted) : lowerHeader.findIndex((h) => CSV_DEFAULTS[key].includes(h));
    if (i < 0 && (required || wanted !== undefined)) {
      problems.push(
        `no ${key} column${wanted ? ` "${wanted}"` : ` (tried ${CSV_DEFAULTS[key].join(', ')})`}; columns are: ${header.map(printable).join(', ')}` +
          ` (name yours with ${hint(key)})`,
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
    index('callsign', false),
  ];
}

/** A file's text for a message: quoted, printable ASCII only (no terminal escapes), at most 40 characters. */
function shown(text: string): string {
  return text.length > 40 ? `"${printable(text.slice(0, 39))}…"` : `"${printable(text)}"`;
}

/** Seconds of a time cell: ISO 8601 (UTC unless it names a zone), epoch seconds or milliseconds, or seconds. */
export function parseTime(cell: string | undefined): number {
  if (cell === undefined || cell.trim() === '') return NaN;
  const text = cell.trim();
  const seconds = Number(text);
  if (Number.isFinite(seconds)) return Math.abs(seconds) > EPOCH_MILLISECONDS_ABOVE ? seconds / 1000 : seconds;
  // ISO 8601 allows a space for the T; a time without a zone would be local time to Date.parse: take it as UTC.
  let iso = text.replace(/^(\d{4}-\d{2}-\d{2})[ T]/, '$1T');
  if (/T\d{2}:\d{2}/.test(iso) && !/(Z|[+-]\d{2}(:?\d{2})?)$/i.test(iso)) iso += 'Z';
  return /^\d{4}-\d{2}-\d{2}/.test(iso) ? Date.parse(iso) / 1000 : NaN;
}
