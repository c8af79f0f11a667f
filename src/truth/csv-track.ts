/**
 * CSV tracks: a header row, then one fix per row, with columns found by common names or named by the caller.
 */
import { parse as parseCsv } from 'csv-parse/sync';
import { pooledName, type TrackPoint } from './track-point.js';
import { TRACK_LIMITS, TrackError, printable, tooManyFixes, trackProblems } from './track-checks.js';

/** CSV column names. Each defaults to the first header found among common spellings (case-insensitive). */
export interface CsvColumns {
  /**
   * ISO 8601 date-time (UTC when it names no zone) or seconds: Unix epoch seconds, epoch milliseconds (values
   * above 10¹¹), or seconds from any start. Defaults to one of time, time_utc, timestamp, t, …
   */
  readonly time?: string;
  readonly latitude?: string;
  readonly longitude?: string;
  /** Metres (feet when the name ends in _ft). Defaults to one of alt_m, altitude, height, ele, gps_elevation, …; absent: none. */
  readonly height?: string;
  /** Degrees clockwise from true north; absent = derived from the motion. */
  readonly heading?: string;
  /** Pitch, degrees nose up; absent = derived from the motion. */
  readonly pitch?: string;
  /** Roll, degrees right wing down; absent = derived from the motion. */
  readonly roll?: string;
  /** Speed over ground, m/s (km/h, knots or mph when the name says: speed_kmh, sog_kn, …). */
  readonly speed?: string;
  /** Course over ground, degrees clockwise from true north (NMEA COG, a GPS's course). */
  readonly course?: string;
  /** Vertical speed, m/s, positive up (ft/min when the name ends in _fpm). */
  readonly verticalRate?: string;
  /** Which recording a row belongs to (a drive, segment or track id); each value is a segment of its own. */
  readonly id?: string;
  /** The vehicle's name (a callsign, a vessel name): the marking it is published with. Defaults to callsign, name, … */
  readonly callsign?: string;
}

/** The columns of a CSV track, in the order `columnIndices` returns them. */
export const CSV_COLUMN_KEYS = [
  'time',
  'latitude',
  'longitude',
  'height',
  'heading',
  'pitch',
  'roll',
  'speed',
  'course',
  'verticalRate',
  'id',
  'callsign',
] as const satisfies ReadonlyArray<keyof CsvColumns>;

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
  height: [
    'alt',
    'alt_m',
    'altitude',
    'height',
    'height_m',
    'ele',
    'elevation',
    'gps_alt',
    'altitude_m',
    'gps_elevation',
    'gps_altitude',
    'gps_height',
    'elevation_m',
    'alt_ft',
    'altitude_ft',
    'elevation_ft',
    'gps_alt_ft',
  ],
  heading: [
    'heading',
    'heading_deg',
    'hdg',
    'true_heading',
    'heading_true',
    'gps_heading',
    'gps_heading_raw',
    'yaw',
    'yaw_deg',
  ],
  pitch: ['pitch', 'pitch_deg'],
  roll: ['roll', 'roll_deg', 'bank', 'bank_deg'],
  speed: [
    'speed',
    'speed_mps',
    'speed_ms',
    'sog',
    'sog_mps',
    'gps_speed',
    'ground_speed',
    'groundspeed',
    'velocity',
    'speed_kmh',
    'speed_kph',
    'gps_speed_kmh',
    'sog_kn',
    'sog_kt',
    'sog_knots',
    'speed_kn',
    'speed_kt',
    'speed_knots',
    'groundspeed_kt',
    'speed_mph',
  ],
  course: ['course', 'course_deg', 'cog', 'cog_deg', 'cog_deg_true', 'course_over_ground', 'gps_course', 'track_deg'],
  verticalRate: ['vertical_rate', 'vertical_speed', 'climb', 'climb_rate', 'vs', 'vertical_rate_fpm', 'vs_fpm'],
  id: ['drive', 'drive_id', 'segment', 'segment_id', 'track', 'track_id', 'trip', 'trip_id', 'session', 'session_id'],
  callsign: ['callsign', 'call_sign', 'marking', 'name', 'vessel_name', 'ship_name', 'shipname', 'flight'],
};

/** A column that looks like one of the keys but is not used: its name is worth a word to the user. */
const LOOKS_LIKE: Partial<Record<keyof CsvColumns, RegExp>> = {
  verticalRate: /vert|climb|\bvs\b|v_?speed/i,
  height: /alt|elev|height|hgt|\bz\b/i,
  heading: /head|hdg|yaw|azimuth/i,
  pitch: /pitch/i,
  roll: /roll|bank/i,
  speed: /speed|sog|vel|kmh|kph|knot/i,
  course: /course|cog|bearing/i,
};

/** Factor to SI of a column's values, from its name: feet, km/h, knots, mph, ft/min. */
function unitFactor(key: keyof CsvColumns, name: string): number {
  const n = name.toLowerCase();
  if (key === 'height') return /(_ft|_feet|feet)$/.test(n) ? 0.3048 : 1;
  if (key === 'speed') {
    if (/(kmh|kph|km_h)$/.test(n)) return 1 / 3.6;
    if (/(_kn|_kt|_kts|knots|_knot)$/.test(n)) return 1852 / 3600;
    if (/mph$/.test(n)) return 0.44704;
    return 1;
  }
  if (key === 'verticalRate') return /(fpm|ft_min|ft_per_min)$/.test(n) ? 0.3048 / 60 : 1;
  return 1;
}

/** How a caller names a column, for the message that asks for one (`reckon publish` names its flag). */
export type ColumnHint = (key: keyof CsvColumns) => string;
const SPEC_HINT: ColumnHint = (key) => `columns.${key}: "NAME"`;

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
 * but unreadable is a problem; an empty height, speed or angle cell is not measured.
 * @throws TrackError listing every problem with its row (the file's line number).
 */
export function parseCsvTrack(
  text: string,
  columns: CsvColumns = {},
  file = 'CSV',
  hint: ColumnHint = SPEC_HINT,
): TrackPoint[] {
  return readCsvTrack(text, columns, file, hint).points;
}

/** Keys of the optional numeric columns, with the TrackPoint field each fills. */
const MEASURED = [
  ['height', 'heightM'],
  ['heading', 'headingDeg'],
  ['pitch', 'pitchDeg'],
  ['roll', 'rollDeg'],
  ['speed', 'groundSpeedMps'],
  ['course', 'trackDeg'],
  ['verticalRate', 'verticalRateMps'],
] as const;

/**
 * `parseCsvTrack`, with notes for the user: the columns found under other names, and the columns that look like a
 * measurement but were not used, with the flag (or spec key) that would use them.
 */
export function readCsvTrack(
  text: string,
  columns: CsvColumns = {},
  file = 'CSV',
  hint: ColumnHint = SPEC_HINT,
): { points: TrackPoint[]; notes: string[] } {
  const delimiter = detectDelimiter(text.replace(/^\uFEFF/, ''));
  // Semicolon files come from locales that write decimal commas.
  const number = (cell: string): number => Number(delimiter === ';' ? cell.replace(',', '.') : cell);
  const problems: string[] = [];
  const notes: string[] = [];
  const points: TrackPoint[] = [];
  const names = new Map<string, string>();
  let found: FoundColumns | undefined;
  // Each row becomes a fix as it is parsed (on_record returns nothing to keep): the rows as strings never all sit
  // in memory at once.
  const onRecord = (cells: string[], lines: number): void => {
    if (found === undefined) {
      found = columnIndices(cells, columns, problems, hint, notes);
      if (problems.length > 0) throw new TrackError(file, problems);
      return;
    }
    const index = found.index;
    const row = lines;
    const latCell = cells[index.latitude] ?? '',
      lonCell = cells[index.longitude] ?? '';
    if (latCell === '' || lonCell === '') return; // no fix in this row
    if (points.length === TRACK_LIMITS.maxFixes) throw tooManyFixes(file);
    const timeSeconds = parseTime(cells[index.time]);
    const latitudeDeg = number(latCell),
      longitudeDeg = number(lonCell);
    if (!Number.isFinite(timeSeconds)) {
      problems.push(`row ${row}: time ${shown(cells[index.time] ?? '')} is neither ISO 8601 nor seconds`);
    }
    if (!Number.isFinite(latitudeDeg)) problems.push(`row ${row}: latitude ${shown(latCell)} is not a number`);
    if (!Number.isFinite(longitudeDeg)) problems.push(`row ${row}: longitude ${shown(lonCell)} is not a number`);
    const fix: Record<string, unknown> = { timeSeconds, latitudeDeg, longitudeDeg };
    for (const [key, field] of MEASURED) {
      const i = index[key];
      const cell = i >= 0 ? (cells[i] ?? '') : '';
      if (cell === '') continue;
      const value = number(cell) * found.factor[key];
      if (Number.isFinite(value)) fix[field] = value;
      else
        problems.push(`row ${row}: ${key === 'verticalRate' ? 'vertical rate' : key} ${shown(cell)} is not a number`);
    }
    fix.row = row;
    const group = index.id >= 0 ? cells[index.id] : undefined;
    const name = index.callsign >= 0 ? cells[index.callsign] : undefined;
    const callsign = name ? pooledName(names, name) : undefined;
    if (group !== undefined) fix.group = group;
    if (callsign !== undefined) fix.callsign = callsign;
    points.push(fix as unknown as TrackPoint);
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
  if (found === undefined) columnIndices([], columns, problems, hint, notes);
  if (problems.length > 0) throw trackProblems(file, problems);
  // A heading column with gaps (often the first row) is only usable where present: fill from the next fix.
  for (let i = points.length - 2; i >= 0; i--) {
    if (points[i]!.headingDeg === undefined && points[i + 1]!.headingDeg !== undefined) {
      points[i] = { ...points[i]!, headingDeg: points[i + 1]!.headingDeg };
    }
  }
  return { points, notes };
}

/** Where each column is (−1: none) and the factor to SI of its values. */
interface FoundColumns {
  readonly index: Record<keyof CsvColumns, number>;
  readonly factor: Record<keyof CsvColumns, number>;
}

/**
 * The columns of a CSV header: each key's, named or found by its default names; problems added for a required or
 * named column that is not there; notes for the columns found under another name than the key's and for unused
 * columns that look like a measurement.
 */
function columnIndices(
  cells: readonly string[],
  columns: CsvColumns,
  problems: string[],
  hint: ColumnHint,
  notes: string[],
): FoundColumns {
  const header = cells.map((h) => h.trim());
  const lowerHeader = header.map((h) => h.toLowerCase());
  const index = {} as Record<keyof CsvColumns, number>;
  const factor = {} as Record<keyof CsvColumns, number>;
  const used = new Set<number>();
  for (const key of CSV_COLUMN_KEYS) {
    const wanted = columns[key];
    const required = key === 'time' || key === 'latitude' || key === 'longitude';
    const i =
      wanted !== undefined ? header.indexOf(wanted) : lowerHeader.findIndex((h) => CSV_DEFAULTS[key].includes(h));
    if (i < 0 && (required || wanted !== undefined)) {
      problems.push(
        `no ${key} column${wanted ? ` "${wanted}"` : ` (tried ${CSV_DEFAULTS[key].join(', ')})`}; columns are: ${header.map(printable).join(', ')}` +
          ` (name yours with ${hint(key)})`,
      );
    }
    index[key] = i;
    factor[key] = i >= 0 ? unitFactor(key, header[i]!) : 1;
    if (i >= 0) used.add(i);
  }
  if (problems.length > 0 || header.length === 0) return { index, factor };
  for (const [key] of MEASURED) {
    const i = index[key];
    if (i >= 0 && columns[key] === undefined && factor[key] !== 1) {
      notes.push(`column "${printable(header[i]!)}" read as the ${describe(key)} in ${unitName(key, header[i]!)}`);
    }
  }
  header.forEach((name, i) => {
    if (used.has(i)) return;
    const key = (Object.keys(LOOKS_LIKE) as Array<keyof CsvColumns>).find((k) => LOOKS_LIKE[k]!.test(name));
    // A rate or an acceleration of an angle or a height is not the angle or height ("roll_rate", "alt_accel").
    if (key === undefined || (key !== 'verticalRate' && /rate|_dot|acc/i.test(name))) return;
    notes.push(
      `column "${printable(name)}" looks like the ${describe(key)} but was not used` +
        (index[key] >= 0 ? ` ("${printable(header[index[key]]!)}" was)` : '') +
        `; to use it: ${hint(key).replace('NAME', printable(name))}`,
    );
  });
  return { index, factor };
}

/** A column key in words. */
function describe(key: keyof CsvColumns): string {
  return key === 'verticalRate' ? 'vertical rate' : key === 'speed' ? 'speed over ground' : key;
}

/** The unit a column's name gives its values, for a note. */
function unitName(key: keyof CsvColumns, name: string): string {
  const f = unitFactor(key, name);
  if (key === 'height') return 'feet';
  if (key === 'verticalRate') return 'feet per minute';
  return f === 1 / 3.6 ? 'km/h' : f === 0.44704 ? 'mph' : 'knots';
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
