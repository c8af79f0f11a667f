/**
 * Mode S extended squitter (ADS-B on 1090 MHz), DF17 and DF18, decoded into one reused record: the parity check
 * (ICAO Annex 10 Vol. IV §3.1.2.3.3, CRC-24, generator 0x1FFF409) and the ME field's type codes of RTCA DO-260B
 * §2.2.3.2: identification and category (TC 1–4), surface position (5–8), airborne position with barometric
 * (9–18) or GNSS (20–22) altitude, and airborne velocity (19). Never throws; the record says what it holds.
 */
import { PositionSource } from './fix.js';

const CRC_TABLE: Uint32Array = (() => {
  const table = new Uint32Array(256);
  for (let i = 0; i < 256; i++) {
    let c = i << 16;
    for (let k = 0; k < 8; k++) c = c & 0x800000 ? ((c << 1) ^ 0xfff409) & 0xffffff : (c << 1) & 0xffffff;
    table[i] = c;
  }
  return table;
})();

/** The CRC-24 remainder of bytes[0, length): 0 for a DF17/18 message received without error. */
export function modeSCrc(bytes: Uint8Array, length: number): number {
  let crc = 0;
  for (let i = 0; i < length - 3; i++) crc = ((crc << 8) & 0xffffff) ^ CRC_TABLE[((crc >>> 16) ^ bytes[i]!) & 0xff]!;
  return (crc ^ ((bytes[length - 3]! << 16) | (bytes[length - 2]! << 8) | bytes[length - 1]!)) >>> 0;
}

/** What a message held (`ModeSMessage.kind`). */
export const ModeSKind = {
  NONE: 0,
  IDENTIFICATION: 1,
  AIRBORNE_POSITION: 2,
  SURFACE_POSITION: 3,
  VELOCITY: 4,
} as const;
export type ModeSKind = (typeof ModeSKind)[keyof typeof ModeSKind];

const CALLSIGN_CHARS = '#ABCDEFGHIJKLMNOPQRSTUVWXYZ##### ###############0123456789######';
const FEET = 0.3048;
const KNOTS = 1852 / 3600;

/** One DF17/18 message's content; reused. */
export class ModeSMessage {
  kind: ModeSKind = ModeSKind.NONE;
  /** The last message was a DF17/18 whose parity failed. */
  badParity = false;
  /** 17 (ADS-B) or 18 (non-transponder, TIS-B, ADS-R). */
  df = 0;
  /** 24-bit address. */
  address = 0;
  /** The address is not an ICAO 24-bit address (DF18 CF=1 or 5, or an IMF bit of 1). */
  nonIcao = false;
  positionSource: PositionSource = PositionSource.OWN;
  typeCode = 0;
  /** Emitter category as 0xA0–0xD7 (TC 4 is set A … TC 1 set D), 0 for none. */
  category = 0;
  callsign = '';
  /** CPR: odd format, 17-bit latitude and longitude. */
  cprOdd = false;
  cprLat = 0;
  cprLon = 0;
  /** Altitude (m) of a position; NaN when the message has none. */
  altitudeM = Number.NaN;
  /** The altitude is GNSS height above the ellipsoid (TC 20–22), not barometric. */
  altitudeGnss = false;
  /** Surface: ground speed (m/s, NaN unknown) and track (deg, NaN unknown). */
  groundSpeedMps = Number.NaN;
  trackDeg = Number.NaN;
  /** Velocity: vertical rate (m/s, NaN unknown). */
  verticalRateMps = Number.NaN;
  /** Velocity subtypes 3–4: heading (deg, NaN unknown). */
  headingDeg = Number.NaN;
  /** Velocity: GNSS height minus baro altitude (m, NaN unknown). */
  gnssMinusBaroM = Number.NaN;
}

/** ME bits [from, from + count) (1-based within the 56-bit ME field, as DO-260B numbers them). */
function meBits(bytes: Uint8Array, from: number, count: number): number {
  let value = 0;
  for (let k = 0; k < count; k++) {
    const bit = 32 + from - 1 + k; // ME starts at message bit 33
    value = value * 2 + ((bytes[bit >>> 3]! >>> (7 - (bit & 7))) & 1);
  }
  return value;
}

/**
 * Decodes a 14-byte Mode S message into `out`.
 * @returns true when `out.kind` holds something the tracks use; false otherwise, with `out.badParity` telling a
 *   DF17/18 message that failed its parity from one that is simply of no use.
 */
export function decodeModeS(bytes: Uint8Array, length: number, out: ModeSMessage): boolean {
  out.kind = ModeSKind.NONE;
  out.badParity = false;
  if (length !== 14) return false;
  const df = bytes[0]! >>> 3;
  if (df !== 17 && df !== 18) return false;
  if (modeSCrc(bytes, 14) !== 0) {
    out.badParity = true;
    return false;
  }
  const cf = bytes[0]! & 7;
  out.df = df;
  out.address = (bytes[1]! << 16) | (bytes[2]! << 8) | bytes[3]!;
  out.nonIcao = df === 18 && (cf === 1 || cf === 5);
  out.positionSource =
    df === 18 && (cf === 2 || cf === 5)
      ? PositionSource.TISB
      : df === 18 && cf === 6
        ? PositionSource.ADSR
        : PositionSource.OWN;
  if (df === 18 && (cf === 3 || cf === 4 || cf === 7)) return false; // coarse TIS-B, management, reserved
  const tc = meBits(bytes, 1, 5);
  out.typeCode = tc;
  out.altitudeM = Number.NaN;
  out.groundSpeedMps = Number.NaN;
  out.trackDeg = Number.NaN;
  out.verticalRateMps = Number.NaN;
  out.headingDeg = Number.NaN;
  out.gnssMinusBaroM = Number.NaN;
  out.altitudeGnss = false;
  if (tc >= 1 && tc <= 4) return identification(bytes, tc, out);
  if (tc >= 5 && tc <= 8) return surfacePosition(bytes, out);
  if ((tc >= 9 && tc <= 18) || (tc >= 20 && tc <= 22)) return airbornePosition(bytes, tc, cf, out);
  if (tc === 19) return velocity(bytes, cf, out);
  return false;
}

function identification(bytes: Uint8Array, tc: number, out: ModeSMessage): boolean {
  out.category = (0xa0 + (4 - tc) * 0x10 + meBits(bytes, 6, 3)) & 0xff;
  let sign = '';
  for (let k = 0; k < 8; k++) {
    const c = CALLSIGN_CHARS[meBits(bytes, 9 + 6 * k, 6)]!;
    if (c === '#') {
      out.badParity = true; // a character no transmitter sends: corrupt
      return false;
    }
    sign += c;
  }
  out.callsign = sign.trim();
  out.kind = ModeSKind.IDENTIFICATION;
  return true;
}

function cpr(bytes: Uint8Array, out: ModeSMessage): void {
  out.cprOdd = meBits(bytes, 22, 1) === 1;
  out.cprLat = meBits(bytes, 23, 17);
  out.cprLon = meBits(bytes, 40, 17);
}

function airbornePosition(bytes: Uint8Array, tc: number, cf: number, out: ModeSMessage): boolean {
  if (out.df === 18 && (cf === 2 || cf === 6) && meBits(bytes, 8, 1) === 1) out.nonIcao = true; // IMF
  const alt = meBits(bytes, 9, 12);
  if (tc >= 20) {
    out.altitudeGnss = true;
    if (alt !== 0) out.altitudeM = alt; // GNSS height in metres (DO-260B §2.2.3.2.3.4.3)
  } else if (alt !== 0 && (alt & 0x10) !== 0) {
    // Q = 1: 25 ft steps of the 11 bits around it, from −1000 ft.
    const n = ((alt & 0xfe0) >>> 1) | (alt & 0xf);
    out.altitudeM = (n * 25 - 1000) * FEET;
  }
  cpr(bytes, out);
  out.kind = ModeSKind.AIRBORNE_POSITION;
  return true;
}

/** Surface movement (DO-260B §2.2.3.2.4.2): a non-linear scale of ground speed, in knots. */
function movementKnots(m: number): number {
  if (m <= 0 || m >= 125) return Number.NaN; // 0 unknown; 125–127 reserved or ≥ 175 kt
  if (m === 1) return 0;
  if (m <= 8) return 0.125 + (m - 2) * 0.125;
  if (m <= 12) return 1 + (m - 9) * 0.25;
  if (m <= 38) return 2 + (m - 13) * 0.5;
  if (m <= 93) return 15 + (m - 39);
  if (m <= 108) return 70 + (m - 94) * 2;
  if (m <= 123) return 100 + (m - 109) * 5;
  return 175;
}

function surfacePosition(bytes: Uint8Array, out: ModeSMessage): boolean {
  out.groundSpeedMps = movementKnots(meBits(bytes, 6, 7)) * KNOTS;
  if (meBits(bytes, 13, 1) === 1) out.trackDeg = (meBits(bytes, 14, 7) * 360) / 128;
  cpr(bytes, out);
  out.kind = ModeSKind.SURFACE_POSITION;
  return true;
}

function velocity(bytes: Uint8Array, cf: number, out: ModeSMessage): boolean {
  const subtype = meBits(bytes, 6, 3);
  if (subtype < 1 || subtype > 4) return false;
  if (out.df === 18 && (cf === 2 || cf === 6) && meBits(bytes, 9, 1) === 1) out.nonIcao = true; // IMF
  const scale = subtype === 2 || subtype === 4 ? 4 : 1;
  if (subtype <= 2) {
    const ew = meBits(bytes, 15, 10),
      ns = meBits(bytes, 26, 10);
    if (ew !== 0 && ns !== 0) {
      const east = (meBits(bytes, 14, 1) === 1 ? -1 : 1) * (ew - 1) * scale;
      const north = (meBits(bytes, 25, 1) === 1 ? -1 : 1) * (ns - 1) * scale;
      out.groundSpeedMps = Math.hypot(east, north) * KNOTS;
      const track = (Math.atan2(east, north) * 180) / Math.PI;
      out.trackDeg = track < 0 ? track + 360 : track;
    }
  } else if (meBits(bytes, 14, 1) === 1) {
    out.headingDeg = (meBits(bytes, 15, 10) * 360) / 1024;
  }
  const vr = meBits(bytes, 38, 9);
  if (vr !== 0) out.verticalRateMps = ((meBits(bytes, 37, 1) === 1 ? -1 : 1) * (vr - 1) * 64 * FEET) / 60;
  const diff = meBits(bytes, 50, 7);
  if (diff !== 0) out.gnssMinusBaroM = (meBits(bytes, 49, 1) === 1 ? -1 : 1) * (diff - 1) * 25 * FEET;
  out.kind = ModeSKind.VELOCITY;
  return true;
}
