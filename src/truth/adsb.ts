/**
 * ADS-B state vectors (OpenSky, `traffic` samples) as track fixes. Two JSON layouts are read: an array of records,
 * and an object of columns as pandas writes a DataFrame (`to_json(orient="columns")`: each field maps a row index
 * to its value; a column may also be a plain array). Field names: `timestamp` and `last_position` in ms,
 * `latitude`, `longitude`, `geoaltitude` or `altitude` in feet, `callsign`, `icao24`.
 */
import type { TrackPoint } from './recorded.js';

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

/**
 * Parses ADS-B state vectors. A receiver repeats the last decoded position until a new one comes, so the time of a
 * fix is `last_position` when present and a repeat is dropped: by its time, or, without `last_position`, by the
 * same latitude and longitude as the fix before (the position's own time is the first one it was seen at). A
 * record without an altitude (surface messages, a lost altitude reply) keeps the altitude before it, not 0.
 * `row` is the record's place in the file, from 1; `callsign` the record's callsign; `group` the aircraft's
 * `icao24` when the file holds several aircraft.
 * @param maxFixes - at most this many fixes; more throws `tooMany()`.
 */
export function parseAdsbTrack(json: unknown, maxFixes = Infinity, tooMany?: () => Error): TrackPoint[] {
  const records = recordsOf(json);
  const aircraft = new Set<string>();
  for (const raw of records) if (raw && typeof raw.icao24 === 'string') aircraft.add(raw.icao24);
  const grouped = aircraft.size > 1;
  const callsigns = new Map<string, string>(); // one string per callsign, however many fixes carry it
  const last = new Map<string | undefined, { t: number; lat: number; lon: number; heightM: number | undefined }>();
  const points: TrackPoint[] = [];
  records.forEach((raw, i) => {
    if (raw === null || typeof raw !== 'object') return;
    const ms = numberOf(raw.last_position) ?? numberOf(raw.timestamp);
    const latitudeDeg = numberOf(raw.latitude),
      longitudeDeg = numberOf(raw.longitude);
    if (ms === undefined || latitudeDeg === undefined || longitudeDeg === undefined) return;
    const group = grouped && typeof raw.icao24 === 'string' ? raw.icao24 : undefined;
    const previous = last.get(group);
    const timeSeconds = ms / 1000;
    const feet = numberOf(raw.geoaltitude) ?? numberOf(raw.altitude);
    const heightM = feet === undefined ? previous?.heightM : feet * FEET;
    if (previous) {
      const repeated =
        timeSeconds <= previous.t ||
        (raw.last_position === undefined && latitudeDeg === previous.lat && longitudeDeg === previous.lon);
      if (repeated) {
        if (previous.heightM === undefined) previous.heightM = heightM;
        return;
      }
    }
    if (points.length === maxFixes) throw tooMany ? tooMany() : new RangeError(`more than ${maxFixes} fixes`);
    last.set(group, { t: timeSeconds, lat: latitudeDeg, lon: longitudeDeg, heightM });
    const sign = callsignOf(raw.callsign);
    const callsign = sign === undefined ? undefined : (callsigns.get(sign) ?? (callsigns.set(sign, sign), sign));
    points.push({
      timeSeconds,
      latitudeDeg,
      longitudeDeg,
      heightM: heightM ?? Number.NaN,
      row: i + 1,
      ...(callsign === undefined ? {} : { callsign }),
      ...(group === undefined ? {} : { group }),
    });
  });
  fillMissingHeights(points);
  return points;
}

/** Heights missing before an aircraft's first altitude take that altitude (0 when it never reports one). */
function fillMissingHeights(points: TrackPoint[]): void {
  const first = new Map<string | undefined, number>();
  for (const p of points) if (!Number.isNaN(p.heightM) && !first.has(p.group)) first.set(p.group, p.heightM!);
  for (let i = 0; i < points.length; i++) {
    const p = points[i]!;
    if (Number.isNaN(p.heightM)) points[i] = { ...p, heightM: first.get(p.group) ?? 0 };
  }
}
