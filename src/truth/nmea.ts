/**
 * NMEA 0183 logs of a GNSS receiver as track fixes (NMEA 0183 v4.11 §6.3): RMC (time, date, position, speed and
 * course over ground), GGA and GNS (position, fix quality, HDOP, altitude above mean sea level and the geoid's
 * separation), VTG (speed and course over ground), from any talker (GP, GN, GL, GA, …). The sentences of one epoch
 * (the same UTC time) become one fix. A sentence whose checksum is wrong, or that says there is no fix, is skipped
 * and counted.
 */
import type { TrackPoint } from './track-point.js';

/** Knots to m/s. */
const KNOT = 1852 / 3600;
/**
 * Horizontal standard deviation per axis for an HDOP of 1, m: a receiver's user-equivalent range error of about
 * 3.5 m (GPS Standard Positioning Service Performance Standard, 2020, §3.4) spread over two axes.
 */
const SIGMA_PER_HDOP_M = 2.5;

/** What a log held besides its fixes. */
export interface NmeaSummary {
  /** Sentences with a wrong checksum. */
  readonly badChecksums: number;
  /** Sentences that said the receiver had no fix. */
  readonly withoutFix: number;
  /** Sentences of other types (satellites, …), ignored. */
  readonly ignored: number;
}

/** A fix being assembled from the sentences of one epoch. */
interface Epoch {
  secondsOfDay: number;
  day: number; // days since 1970, NaN until an RMC gives the date
  latitudeDeg: number;
  longitudeDeg: number;
  heightM: number;
  speedMps: number;
  courseDeg: number;
  hdop: number;
  row: number;
}

/** Whether a text looks like an NMEA 0183 log: its first non-empty line is a sentence. */
export function looksLikeNmea(text: string): boolean {
  return /^\s*[$!][A-Z]{2}[A-Z]{3},/.test(text.slice(0, 200));
}

/**
 * Parses an NMEA 0183 log. `row` is the line of the epoch's first sentence. Fixes come in the log's order; a log
 * without a date (no RMC) is timed in seconds from the first day's midnight, its days counted at each wrap.
 * @param maxFixes - at most this many fixes; more throws `tooMany()`.
 */
export function readNmeaTrack(
  text: string,
  maxFixes = Infinity,
  tooMany?: () => Error,
): { points: TrackPoint[]; summary: NmeaSummary } {
  const points: TrackPoint[] = [];
  let badChecksums = 0,
    withoutFix = 0,
    ignored = 0;
  let epoch: Epoch | undefined;
  let lastDay = Number.NaN,
    lastSeconds = Number.NaN,
    wraps = 0;
  const flush = (): void => {
    if (epoch === undefined || !Number.isFinite(epoch.latitudeDeg)) return;
    if (points.length === maxFixes) throw tooMany ? tooMany() : new RangeError(`more than ${maxFixes} fixes`);
    let day = epoch.day;
    if (Number.isFinite(day)) lastDay = day;
    else if (Number.isFinite(lastDay)) day = lastDay;
    else {
      // No date yet: count midnights from the times going back.
      if (epoch.secondsOfDay < lastSeconds - 43_200) wraps++;
      day = wraps;
    }
    lastSeconds = epoch.secondsOfDay;
    const e = epoch;
    points.push({
      timeSeconds: day * 86_400 + e.secondsOfDay,
      latitudeDeg: e.latitudeDeg,
      longitudeDeg: e.longitudeDeg,
      ...(Number.isFinite(e.heightM) ? { heightM: e.heightM } : {}),
      ...(Number.isFinite(e.speedMps) ? { groundSpeedMps: e.speedMps } : {}),
      ...(Number.isFinite(e.courseDeg) ? { trackDeg: e.courseDeg } : {}),
      ...(Number.isFinite(e.hdop) && e.hdop > 0 ? { positionSigmaM: SIGMA_PER_HDOP_M * e.hdop } : {}),
      row: e.row,
    });
  };
  const lines = text.split(/\r?\n/);
  for (let l = 0; l < lines.length; l++) {
    const line = lines[l]!.trim();
    if (line === '') continue;
    const sentence = checkedSentence(line);
    if (sentence === undefined) {
      if (/^[$!]/.test(line)) badChecksums++;
      continue;
    }
    const fields = sentence.split(',');
    const type = fields[0]!.slice(-3);
    if (type !== 'RMC' && type !== 'GGA' && type !== 'GNS' && type !== 'VTG') {
      ignored++;
      continue;
    }
    if (type === 'VTG') {
      // Speed and course of the epoch under way (VTG has no time of its own).
      if (epoch) {
        const course = Number.parseFloat(fields[1]!);
        const knots = Number.parseFloat(fields[5]!);
        if (Number.isFinite(course)) epoch.courseDeg = course;
        if (Number.isFinite(knots)) epoch.speedMps = knots * KNOT;
      }
      continue;
    }
    const secondsOfDay = timeOfDay(fields[1]!);
    if (!Number.isFinite(secondsOfDay)) {
      withoutFix++;
      continue;
    }
    if (epoch === undefined || epoch.secondsOfDay !== secondsOfDay) {
      flush();
      epoch = {
        secondsOfDay,
        day: Number.NaN,
        latitudeDeg: Number.NaN,
        longitudeDeg: Number.NaN,
        heightM: Number.NaN,
        speedMps: Number.NaN,
        courseDeg: Number.NaN,
        hdop: Number.NaN,
        row: l + 1,
      };
    }
    const latitude = type === 'RMC' ? angle(fields[3]!, fields[4]!) : angle(fields[2]!, fields[3]!);
    const longitude = type === 'RMC' ? angle(fields[5]!, fields[6]!) : angle(fields[4]!, fields[5]!);
    const valid =
      type === 'RMC' ? fields[2] === 'A' : type === 'GGA' ? Number(fields[6]) > 0 : /^[ADPRFEM]/.test(fields[6] ?? '');
    if (!valid || !Number.isFinite(latitude) || !Number.isFinite(longitude)) {
      withoutFix++;
      continue;
    }
    epoch.latitudeDeg = latitude;
    epoch.longitudeDeg = longitude;
    if (type === 'RMC') {
      const knots = Number.parseFloat(fields[7]!);
      const course = Number.parseFloat(fields[8]!);
      if (Number.isFinite(knots)) epoch.speedMps = knots * KNOT;
      if (Number.isFinite(course)) epoch.courseDeg = course;
      epoch.day = dateDays(fields[9]!);
    } else {
      epoch.hdop = Number.parseFloat(fields[8]!);
      const msl = Number.parseFloat(fields[9]!);
      const separation = Number.parseFloat(fields[type === 'GGA' ? 11 : 10]!);
      // Height above the ellipsoid: above mean sea level plus the geoid's separation, when the receiver gives it.
      if (Number.isFinite(msl)) epoch.heightM = msl + (Number.isFinite(separation) ? separation : 0);
    }
  }
  flush();
  return { points, summary: { badChecksums, withoutFix, ignored } };
}

/** The sentence between its start and checksum, when the checksum (XOR of the characters between) agrees. */
function checkedSentence(line: string): string | undefined {
  const match = /^[$!]([^*]+)\*([0-9A-Fa-f]{2})/.exec(line);
  if (match === null) return undefined;
  const body = match[1]!;
  let sum = 0;
  for (let i = 0; i < body.length; i++) sum ^= body.charCodeAt(i);
  return sum === Number.parseInt(match[2]!, 16) ? body : undefined;
}

/** Seconds of the day of "hhmmss.ss". */
function timeOfDay(field: string): number {
  const match = /^(\d{2})(\d{2})(\d{2}(?:\.\d+)?)$/.exec(field);
  if (match === null) return Number.NaN;
  return Number(match[1]) * 3600 + Number(match[2]) * 60 + Number(match[3]);
}

/** Days since 1970 of "ddmmyy" (years 80–99 are 1980–1999). */
function dateDays(field: string): number {
  const match = /^(\d{2})(\d{2})(\d{2})$/.exec(field);
  if (match === null) return Number.NaN;
  const year = Number(match[3]);
  return Date.UTC(year >= 80 ? 1900 + year : 2000 + year, Number(match[2]) - 1, Number(match[1])) / 86_400_000;
}

/** Degrees of "ddmm.mmmm" / "dddmm.mmmm" and a hemisphere letter. */
function angle(field: string, hemisphere: string): number {
  const match = /^(\d{2,3})(\d{2}(?:\.\d+)?)$/.exec(field);
  if (match === null) return Number.NaN;
  const degrees = Number(match[1]) + Number(match[2]) / 60;
  return hemisphere === 'S' || hemisphere === 'W' ? -degrees : degrees;
}
