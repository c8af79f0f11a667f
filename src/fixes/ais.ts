/**
 * AIS messages (ITU-R M.1371-5 Annex 8; field layout as gpsd's "AIVDM/AIVDO protocol decoding" tabulates it)
 * into fixes: position reports of class A (types 1, 2, 3), class B (18, 19) and long range (27), and static data
 * (5 for class A; 24 parts A and B for class B; 19 carries both) for the name, ship type and dimensions.
 * Values the standard reserves for "not available" leave their field unset.
 */
import {
  DecodeStatus,
  FIX_CALLSIGN,
  FIX_GROUND_VELOCITY,
  FIX_HEADING,
  FIX_POSITION,
  FIX_TYPE,
  type Fix,
  KeySpace,
} from './fix.js';

const KNOTS = 1852 / 3600;
/** 6-bit text (Annex 8 Table 47): 0–31 are '@', 'A'…'_', 32–63 are ' '…'?'. */
const SIXBIT_ASCII = '@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_ !"#$%&\'()*+,-./0123456789:;<=>?';

/** Bits [from, from + count) of a payload of 6-bit values, unsigned; 0 past its end. */
export function aisBits(payload: Uint8Array, bits: number, from: number, count: number): number {
  let value = 0;
  for (let k = 0; k < count; k++) {
    const bit = from + k;
    const b = bit < bits ? (payload[(bit / 6) | 0]! >>> (5 - (bit % 6))) & 1 : 0;
    value = value * 2 + b;
  }
  return value;
}

/** Bits [from, from + count) as a two's-complement signed number. */
export function aisSignedBits(payload: Uint8Array, bits: number, from: number, count: number): number {
  const value = aisBits(payload, bits, from, count);
  return value >= 2 ** (count - 1) ? value - 2 ** count : value;
}

/** 6-bit text of `chars` characters from bit `from`, '@' padding and trailing spaces dropped. */
export function aisText(payload: Uint8Array, bits: number, from: number, chars: number): string {
  let text = '';
  for (let k = 0; k < chars; k++) {
    if (from + 6 * k + 6 > bits) break;
    const c = aisBits(payload, bits, from + 6 * k, 6);
    if (c === 0) break; // '@' ends the text
    text += SIXBIT_ASCII[c];
  }
  return text.trimEnd();
}

/** The message type of a payload (1–27), 0 for an empty one. */
export function aisMessageType(payload: Uint8Array, bits: number): number {
  return bits >= 6 ? payload[0]! : 0;
}

/**
 * Fills `fix` from one AIS payload (6-bit values, `bits` long). Never throws.
 * @returns FIX, IGNORED for a message type without position or static data, MALFORMED for one too short.
 */
export function decodeAis(payload: Uint8Array, bits: number, fix: Fix): DecodeStatus {
  fix.clear();
  const type = aisMessageType(payload, bits);
  if (bits < 38) return bits === 0 ? DecodeStatus.MALFORMED : DecodeStatus.IGNORED;
  fix.keySpace = KeySpace.MMSI;
  fix.key = aisBits(payload, bits, 8, 30);
  switch (type) {
    case 1:
    case 2:
    case 3:
      if (bits < 137) return DecodeStatus.MALFORMED; // through the heading (gpsd accepts 163 of 168 bits)
      position(payload, bits, fix, 61, 89, 28, 27, 600_000);
      speedAndCourse(fix, aisBits(payload, bits, 50, 10), aisBits(payload, bits, 116, 12));
      heading(fix, aisBits(payload, bits, 128, 9));
      return DecodeStatus.FIX;
    case 18:
    case 19:
      if (bits < (type === 18 ? 133 : 301)) return DecodeStatus.MALFORMED; // through the heading, or the dimensions
      position(payload, bits, fix, 57, 85, 28, 27, 600_000);
      speedAndCourse(fix, aisBits(payload, bits, 46, 10), aisBits(payload, bits, 112, 12));
      heading(fix, aisBits(payload, bits, 124, 9));
      if (type === 19) {
        name(fix, aisText(payload, bits, 143, 20));
        shipTypeAndSize(
          fix,
          aisBits(payload, bits, 263, 8),
          aisBits(payload, bits, 271, 9),
          aisBits(payload, bits, 280, 9),
          aisBits(payload, bits, 289, 6),
          aisBits(payload, bits, 295, 6),
        );
      }
      return DecodeStatus.FIX;
    case 27: {
      if (bits < 94) return DecodeStatus.MALFORMED;
      position(payload, bits, fix, 44, 62, 18, 17, 600);
      const sog = aisBits(payload, bits, 79, 6),
        cog = aisBits(payload, bits, 85, 9);
      if (sog !== 63 && cog !== 511) {
        fix.groundSpeedMps = sog * KNOTS;
        fix.trackDeg = cog % 360;
        fix.flags |= FIX_GROUND_VELOCITY;
      }
      return DecodeStatus.FIX;
    }
    case 5:
      if (bits < 270) return DecodeStatus.MALFORMED; // through the dimensions (424 bits in all)
      name(fix, aisText(payload, bits, 112, 20));
      shipTypeAndSize(
        fix,
        aisBits(payload, bits, 232, 8),
        aisBits(payload, bits, 240, 9),
        aisBits(payload, bits, 249, 9),
        aisBits(payload, bits, 258, 6),
        aisBits(payload, bits, 264, 6),
      );
      return fix.flags === 0 ? DecodeStatus.IGNORED : DecodeStatus.FIX;
    case 24: {
      const part = aisBits(payload, bits, 38, 2);
      if (part === 0) {
        if (bits < 160) return DecodeStatus.MALFORMED;
        name(fix, aisText(payload, bits, 40, 20));
      } else if (part === 1) {
        if (bits < 162) return DecodeStatus.MALFORMED;
        // An auxiliary craft (MMSI 98xxxxxxx) gives its mothership's MMSI where others give dimensions.
        const auxiliary = Math.floor(fix.key / 10_000_000) === 98;
        shipTypeAndSize(
          fix,
          aisBits(payload, bits, 40, 8),
          auxiliary ? 0 : aisBits(payload, bits, 132, 9),
          auxiliary ? 0 : aisBits(payload, bits, 141, 9),
          auxiliary ? 0 : aisBits(payload, bits, 150, 6),
          auxiliary ? 0 : aisBits(payload, bits, 156, 6),
        );
      } else return DecodeStatus.IGNORED;
      return fix.flags === 0 ? DecodeStatus.IGNORED : DecodeStatus.FIX;
    }
    default:
      return DecodeStatus.IGNORED;
  }
}

/** Latitude and longitude in 1/`perDegree` degree units; 91° and 181° mean "not available". */
function position(
  payload: Uint8Array,
  bits: number,
  fix: Fix,
  lonAt: number,
  latAt: number,
  lonBits: number,
  latBits: number,
  perDegree: number,
): void {
  const lon = aisSignedBits(payload, bits, lonAt, lonBits) / perDegree;
  const lat = aisSignedBits(payload, bits, latAt, latBits) / perDegree;
  if (Math.abs(lat) > 90 || Math.abs(lon) > 180) return;
  fix.latitudeDeg = lat;
  fix.longitudeDeg = lon;
  fix.flags |= FIX_POSITION;
}

/** SOG in 0.1 kn (1023: not available) and COG in 0.1° (3600: not available). */
function speedAndCourse(fix: Fix, sog: number, cog: number): void {
  if (sog === 1023 || cog >= 3600) return;
  fix.groundSpeedMps = sog * 0.1 * KNOTS;
  fix.trackDeg = cog * 0.1;
  fix.flags |= FIX_GROUND_VELOCITY;
}

/** True heading in degrees (511: not available). */
function heading(fix: Fix, value: number): void {
  if (value >= 360) return;
  fix.headingDeg = value;
  fix.flags |= FIX_HEADING;
}

function name(fix: Fix, text: string): void {
  if (text === '') return;
  fix.callsign = text;
  fix.flags |= FIX_CALLSIGN;
}

/** Ship and cargo type (0: not available) and the distances from the reference point to bow, stern, port, starboard. */
function shipTypeAndSize(fix: Fix, type: number, bow: number, stern: number, port: number, starboard: number): void {
  if (type !== 0) fix.shipType = type;
  if (bow + stern > 0) fix.lengthM = bow + stern;
  if (port + starboard > 0) fix.beamM = port + starboard;
  if (type !== 0 || fix.lengthM > 0) fix.flags |= FIX_TYPE;
}
