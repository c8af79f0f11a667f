/**
 * ADS-B state vectors (OpenSky, `traffic` samples) as track fixes. Two JSON layouts are read: an array of records,
 * and an object of columns as pandas writes a DataFrame (`to_json(orient="columns")`: each field maps a row index
 * to its value; a column may also be a plain array). Field names: `timestamp` and `last_position` in ms,
 * `latitude`, `longitude`, `geoaltitude` or `altitude` in feet, `groundspeed` in knots, `track` in degrees,
 * `vertical_rate` in feet per minute, `callsign`, `icao24`, `flight_id`.
 */
import { altitudeStepFeet } from './measurement-noise.js';
import { pooledName, type TrackPoint } from './track-point.js';

const FEET = 0.3048;

/** ADS-B records whose layout is neither an array of records nor an object of columns. */
export class AdsbLayoutError extends RangeError {}

/** The records of either layout, in row order (an object's rows in its latitude column's order). */
function recordsOf(json: unknown): ReadonlyArray<Record<string, unknown> | null> {
  if (Array.isArray(json)) return json as Array<Record<string, unknown> | null>;
  if (json === null || typeof json !== 'object') {
    throw new AdsbLayoutError('an ADS-B track must be a JSON array of state vectors or an object of columns');
  }
  const columns = json as Record<string, unknown>;
  const latitude = columns.latitude;
  if (latitude === null || typeof latitude !== 'object') {
    throw new AdsbLayoutError(
      `an ADS-B object of columns needs a latitude column; it has ${Object.keys(columns).slice(0, 12).join(', ') || 'none'}`,
    );
  }
  const keys = Object.keys(latitude);
  const fields = Object.keys(columns).filter((f) => columns[f] !== null && typeof columns[f] === 'object');
  return keys.map((key) => {
    const record: Record<string, unknown> = {};
    for (const f of fields) record[f] = (columns[f] as Record<string, unknown>)[key];
    return record;
  });
}

/** A callsign as published: ADS-B pads it with spaces; empty means none. */
function callsignOf(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/** A finite number, or undefined for null, a missing field or text (`Number(null)` would be 0). */
function numberOf(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** Knots to m/s. */
const KNOT = 1852 / 3600;
/** Feet per minute to m/s. */
const FEET_PER_MINUTE = FEET / 60;

/** What the estimator needs to know of an ADS-B file besides its fixes. */
export interface AdsbTrackInfo {
  /** Whether the records say when each position was decoded (`last_position`); else it may be older. */
  readonly timedPositions: boolean;
  /** Step of the altitudes, feet (25 or 100 for barometric altitude; 0: not quantised). */
  readonly altitudeStepFeet: number;
  /** Which altitude the fixes carry. */
  readonly altitude: 'geometric' | 'barometric' | 'none';
}

/**
 * Parses ADS-B state vectors into fixes with every measurement they hold: position, altitude (geometric when nearly
 * every record has one, else barometric — one source per file, so the two never alternate into steps), ground
 * speed, track and vertical rate. A fix is timed by `last_position` when present (a record repeating the time of
 * the fix before is the same fix again and is dropped), else by `timestamp`. A position repeated under a new time is
 * kept: whether it is held (the receiver repeating an old position while the aircraft moves) is the estimator's to
 * judge from the speed. A record without an altitude has no height (undefined), not 0. `row` is the record's place
 * in the file, from 1; `callsign` the record's callsign; `group` the flight (`flight_id`) or the aircraft (`icao24`)
 * when the file holds several.
 * @param maxFixes - at most this many fixes; more throws `tooMany()`.
 */
export function parseAdsbTrack(json: unknown, maxFixes = Infinity, tooMany?: () => Error): TrackPoint[] {
  return readAdsbTrack(json, maxFixes, tooMany).points;
}

/** `parseAdsbTrack`, with what the file says about its measurements. */
export function readAdsbTrack(
  json: unknown,
  maxFixes = Infinity,
  tooMany?: () => Error,
): { points: TrackPoint[]; info: AdsbTrackInfo } {
  const records = recordsOf(json);
  const groups = new Set<string>();
  let timed = 0,
    geometric = 0,
    barometric = 0,
    valid = 0;
  for (const raw of records) {
    if (raw === null || typeof raw !== 'object') continue;
    const group = groupOf(raw);
    if (group !== undefined) groups.add(group);
    if (numberOf(raw.latitude) === undefined) continue;
    valid++;
    if (numberOf(raw.last_position) !== undefined) timed++;
    if (numberOf(raw.geoaltitude) !== undefined) geometric++;
    if (numberOf(raw.altitude) !== undefined) barometric++;
  }
  const grouped = groups.size > 1;
  // One altitude for the whole file: geometric only where nearly every record has it.
  const altitudeField =
    geometric >= 0.9 * valid && geometric > 0 ? 'geoaltitude' : barometric > 0 ? 'altitude' : undefined;
  const callsigns = new Map<string, string>(); // one string per callsign, however many fixes carry it
  const lastTime = new Map<string | undefined, number>();
  const feet: number[] = [];
  const points: TrackPoint[] = [];
  records.forEach((raw, i) => {
    if (raw === null || typeof raw !== 'object') return;
    const ms = numberOf(raw.last_position) ?? numberOf(raw.timestamp);
    const latitudeDeg = numberOf(raw.latitude),
      longitudeDeg = numberOf(raw.longitude);
    if (ms === undefined || latitudeDeg === undefined || longitudeDeg === undefined) return;
    const group = grouped ? groupOf(raw) : undefined;
    const timeSeconds = ms / 1000;
    const previous = lastTime.get(group);
    if (previous !== undefined && timeSeconds === previous) return; // the same fix again
    lastTime.set(group, timeSeconds);
    if (points.length === maxFixes) throw tooMany ? tooMany() : new RangeError(`more than ${maxFixes} fixes`);
    const altitude = altitudeField === undefined ? undefined : numberOf(raw[altitudeField]);
    if (altitude !== undefined) feet.push(altitude);
    const speed = numberOf(raw.groundspeed);
    const track = numberOf(raw.track);
    const climb = numberOf(raw.vertical_rate);
    const sign = callsignOf(raw.callsign);
    const callsign = sign === undefined ? undefined : pooledName(callsigns, sign);
    points.push({
      timeSeconds,
      latitudeDeg,
      longitudeDeg,
      ...(altitude === undefined ? {} : { heightM: altitude * FEET }),
      ...(speed === undefined ? {} : { groundSpeedMps: speed * KNOT }),
      ...(track === undefined ? {} : { trackDeg: track }),
      ...(climb === undefined ? {} : { verticalRateMps: climb * FEET_PER_MINUTE }),
      row: i + 1,
      ...(callsign === undefined ? {} : { callsign }),
      ...(group === undefined ? {} : { group }),
    });
  });
  return {
    points,
    info: {
      timedPositions: timed > 0.5 * valid,
      altitudeStepFeet: altitudeField === 'altitude' ? altitudeStepFeet(feet) : 0,
      altitude: altitudeField === 'geoaltitude' ? 'geometric' : altitudeField === 'altitude' ? 'barometric' : 'none',
    },
  };
}

/** The flight a record belongs to: its `flight_id` (traffic's flights), else its aircraft (`icao24`). */
function groupOf(raw: Record<string, unknown>): string | undefined {
  if (typeof raw.flight_id === 'string' && raw.flight_id !== '') return raw.flight_id;
  return typeof raw.icao24 === 'string' ? raw.icao24 : undefined;
}
