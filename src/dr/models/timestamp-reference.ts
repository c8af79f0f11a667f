/** The time a PDU's model is valid at with latency compensation: its absolute timestamp, when it can be trusted. */
import { SECONDS_PER_TIMESTAMP_UNIT } from '../../pdu/wire/timestamp.js';

/**
 * The time, on the axis of `nowSeconds` (Unix epoch seconds, so that t mod 3600 is the position in the hour), that
 * the absolute DIS timestamp `raw` names: the one within half an hour of now.
 * @returns NaN when the timestamp is relative or further than `maxSkewSeconds` from now (not to be trusted).
 */
export function timestampReferenceSeconds(raw: number, nowSeconds: number, maxSkewSeconds: number): number {
  if ((raw & 1) === 0) return Number.NaN;
  const nowPastHour = ((nowSeconds % 3600) + 3600) % 3600;
  let age = nowPastHour - (raw >>> 1) * SECONDS_PER_TIMESTAMP_UNIT;
  if (age > 1800) age -= 3600;
  else if (age <= -1800) age += 3600;
  if (Math.abs(age) > maxSkewSeconds) return Number.NaN;
  return nowSeconds - age;
}
