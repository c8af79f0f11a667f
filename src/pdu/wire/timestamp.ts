/**
 * The DIS timestamp (IEEE 1278.1 §6.2.88): a uint32 whose bit 0 is the absolute flag (1 = host clock synchronised
 * to UTC) and whose bits 31..1 count time units since the start of the hour, 2^31 units per hour (≈ 1.676 µs each).
 * Pure arithmetic: the clock is always a parameter.
 */

/** Time units per hour: 0 is the top of the hour, 2^31 − 1 one unit before the next. */
export const TIMESTAMP_UNITS_PER_HOUR = 0x8000_0000;
export const SECONDS_PER_HOUR = 3600;
/** Seconds per time unit: 3600 / 2^31 ≈ 1.67638e-6. */
export const SECONDS_PER_TIMESTAMP_UNIT = SECONDS_PER_HOUR / TIMESTAMP_UNITS_PER_HOUR;
const HALF_HOUR_UNITS = TIMESTAMP_UNITS_PER_HOUR / 2;

/**
 * Builds the raw timestamp field.
 * @param secondsPastHour - seconds since the start of the hour; wrapped into [0, 3600) first, so an hour's
 *   overflow or a negative value still gives a valid field.
 * @param absolute - true when the clock is synchronised to UTC (sets bit 0).
 * @returns the uint32 field, `units × 2 + flag`.
 */
export function timestampFromSeconds(secondsPastHour: number, absolute: boolean): number {
  let seconds = secondsPastHour % SECONDS_PER_HOUR;
  if (seconds < 0) seconds += SECONDS_PER_HOUR;
  // × 2^31 is exact and the one division is correctly rounded, so whole units survive seconds → units → seconds.
  const units = Math.min(
    Math.floor((seconds * TIMESTAMP_UNITS_PER_HOUR) / SECONDS_PER_HOUR),
    TIMESTAMP_UNITS_PER_HOUR - 1,
  );
  // `* 2` and not `<< 1`: a shift is int32 and goes negative once units ≥ 2^30.
  return units * 2 + (absolute ? 1 : 0);
}

/**
 * The raw timestamp field of a UTC instant: seconds past the top of the UTC hour, flagged absolute.
 * @param epochMillis - milliseconds since the Unix epoch (e.g. `Date.now()`, passed in by the caller).
 */
export function timestampFromEpochMillis(epochMillis: number, absolute = true): number {
  return timestampFromSeconds((epochMillis % 3_600_000) / 1000, absolute);
}

/** Time units since the hour held in a raw timestamp (bits 31..1), read unsigned. */
export function timestampUnits(raw: number): number {
  return raw >>> 1;
}

/** Seconds since the start of the hour held in a raw timestamp, in [0, 3600). */
export function secondsPastHourFromTimestamp(raw: number): number {
  return ((raw >>> 1) * SECONDS_PER_HOUR) / TIMESTAMP_UNITS_PER_HOUR;
}

/** True when bit 0 marks the timestamp absolute (UTC-synchronised clock). */
export function isAbsoluteTimestamp(raw: number): boolean {
  return (raw & 1) === 1;
}

/**
 * Signed difference b − a in time units, wrap-aware: the counter wraps every hour, so the shorter way round is
 * taken (half-hour rule). Positive when `b` is newer than `a`. The absolute flags are ignored.
 * @returns units in (−2^30, 2^30]; exactly half an hour apart counts as newer.
 */
export function timestampUnitsDelta(a: number, b: number): number {
  let delta = (b >>> 1) - (a >>> 1);
  if (delta > HALF_HOUR_UNITS) delta -= TIMESTAMP_UNITS_PER_HOUR;
  else if (delta <= -HALF_HOUR_UNITS) delta += TIMESTAMP_UNITS_PER_HOUR;
  return delta;
}

/** Signed, wrap-aware difference b − a in seconds (see `timestampUnitsDelta`). */
export function timestampDeltaSeconds(a: number, b: number): number {
  return timestampUnitsDelta(a, b) * SECONDS_PER_TIMESTAMP_UNIT;
}

/**
 * True when `candidate` is strictly newer than `reference` (wrap-aware). A receiver drops a PDU that is not newer
 * than the last one it kept from the same entity: equal means duplicate, older means out of order.
 */
export function isNewerTimestamp(candidate: number, reference: number): boolean {
  return timestampUnitsDelta(reference, candidate) > 0;
}

/**
 * Advances a raw timestamp by a number of seconds, wrapping at the hour and keeping the absolute flag.
 * @param dtSeconds - may be negative.
 */
export function advanceTimestamp(raw: number, dtSeconds: number): number {
  // Whole units are added (as IEEE 1278.1 implementations do), so the flag bit is never touched.
  let units =
    ((raw >>> 1) + Math.trunc((dtSeconds * TIMESTAMP_UNITS_PER_HOUR) / SECONDS_PER_HOUR)) % TIMESTAMP_UNITS_PER_HOUR;
  if (units < 0) units += TIMESTAMP_UNITS_PER_HOUR;
  return units * 2 + (raw & 1);
}
