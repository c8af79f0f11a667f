/**
 * SBS-1 BaseStation CSV, as dump1090 and readsb serve it on TCP port 30003: `MSG,T,…` lines of 22 fields
 * (Kinetic Avionics' BaseStation socket format). Transmission types: 1 identification (callsign), 2 surface
 * position, 3 airborne position, 4 airborne velocity, 5–8 altitude, squawk and all-call replies. Altitude is
 * barometric (ft), speed in knots, vertical rate in ft/min; readsb writes a non-ICAO address as `~hex`.
 */
import {
  DecodeStatus,
  FIX_CALLSIGN,
  FIX_GROUND_VELOCITY,
  FIX_HEIGHT,
  FIX_ON_GROUND,
  FIX_POSITION,
  FIX_VERTICAL_RATE,
  type Fix,
  KeySpace,
  NON_ICAO_ADDRESS,
} from './fix.js';
import { asciiText, bytesEqual, parseDecimal, parseHex, splitFields } from './text-bytes.js';

export const FEET = 0.3048;
export const KNOTS = 1852 / 3600;
export const FEET_PER_MINUTE = FEET / 60;

const COMMA = 44,
  TILDE = 126;
const FIELDS = new Int32Array(32);
/** 0-based field numbers. */
const TYPE = 1,
  HEX = 4,
  CALLSIGN = 10,
  ALTITUDE = 11,
  SPEED = 12,
  TRACK = 13,
  LATITUDE = 14,
  LONGITUDE = 15,
  VERTICAL_RATE = 16,
  ON_GROUND = 21;

/** Fills `fix` from one SBS-1 line, bytes[start, end). Never throws. */
export function decodeSbsLine(bytes: Uint8Array, start: number, end: number, fix: Fix): DecodeStatus {
  fix.clear();
  const at = FIELDS;
  const n = splitFields(bytes, start, end, COMMA, at);
  if (n < 11 || !bytesEqual(bytes, at[0]! + 1, at[1]!, 'MSG')) {
    return n >= 2 && isKnownNonMessage(bytes, at[0]! + 1, at[1]!) ? DecodeStatus.IGNORED : DecodeStatus.MALFORMED;
  }
  const type = fieldValue(bytes, at, n, TYPE);
  if (!(type >= 1 && type <= 8)) return DecodeStatus.MALFORMED;
  let hexStart = at[HEX]! + 1;
  const nonIcao = bytes[hexStart] === TILDE;
  if (nonIcao) hexStart++;
  const address = parseHex(bytes, hexStart, at[HEX + 1]!);
  if (address < 0 || address > 0xffffff) return DecodeStatus.MALFORMED;
  fix.keySpace = KeySpace.ICAO;
  fix.key = nonIcao ? address | NON_ICAO_ADDRESS : address;

  if (type === 1) {
    const sign = asciiText(bytes, at[CALLSIGN]! + 1, at[CALLSIGN + 1]!, 8);
    if (sign === '') return DecodeStatus.IGNORED;
    fix.callsign = sign;
    fix.flags |= FIX_CALLSIGN;
    return DecodeStatus.FIX;
  }
  const altitudeFt = fieldValue(bytes, at, n, ALTITUDE);
  if (type === 2 || type === 3) {
    const latitudeDeg = fieldValue(bytes, at, n, LATITUDE),
      longitudeDeg = fieldValue(bytes, at, n, LONGITUDE);
    if (!(Math.abs(latitudeDeg) <= 90 && Math.abs(longitudeDeg) <= 180)) {
      return Number.isNaN(latitudeDeg) && Number.isNaN(longitudeDeg) ? DecodeStatus.IGNORED : DecodeStatus.MALFORMED;
    }
    fix.latitudeDeg = latitudeDeg;
    fix.longitudeDeg = longitudeDeg;
    fix.flags |= FIX_POSITION;
    if (Number.isFinite(altitudeFt)) {
      fix.heightM = altitudeFt * FEET;
      fix.flags |= FIX_HEIGHT;
    }
    if (type === 2) fix.flags |= FIX_ON_GROUND;
  }
  if (type === 2 || type === 4) {
    const speedKt = fieldValue(bytes, at, n, SPEED),
      trackDeg = fieldValue(bytes, at, n, TRACK);
    if (speedKt >= 0 && speedKt < 4000 && trackDeg >= 0 && trackDeg <= 360) {
      fix.groundSpeedMps = speedKt * KNOTS;
      fix.trackDeg = trackDeg % 360;
      fix.flags |= FIX_GROUND_VELOCITY;
    }
    const rate = fieldValue(bytes, at, n, VERTICAL_RATE);
    if (type === 4 && Math.abs(rate) < 100_000) {
      fix.verticalRateMps = rate * FEET_PER_MINUTE;
      fix.flags |= FIX_VERTICAL_RATE;
    }
  }
  if (type === 3 && fieldValue(bytes, at, n, ON_GROUND) === -1) fix.flags |= FIX_ON_GROUND; // BaseStation writes true as -1
  return fix.flags === 0 ? DecodeStatus.IGNORED : DecodeStatus.FIX;
}

/** Field k as a number; NaN when empty or absent. */
function fieldValue(bytes: Uint8Array, at: Int32Array, n: number, k: number): number {
  return k < n ? parseDecimal(bytes, at[k]! + 1, at[k + 1]!) : Number.NaN;
}

/** BaseStation's other records (SEL, ID, AIR, STA, CLK): well-formed, nothing to track. */
function isKnownNonMessage(bytes: Uint8Array, start: number, end: number): boolean {
  return (
    bytesEqual(bytes, start, end, 'SEL') ||
    bytesEqual(bytes, start, end, 'ID') ||
    bytesEqual(bytes, start, end, 'AIR') ||
    bytesEqual(bytes, start, end, 'STA') ||
    bytesEqual(bytes, start, end, 'CLK')
  );
}
