/**
 * Reading text formats (SBS-1 CSV, NMEA 0183) straight from the bytes a socket delivered: fields found by
 * scanning for separators, numbers parsed from their digits, so that a line costs no string and no allocation.
 */

const POWERS_OF_TEN = Float64Array.from({ length: 16 }, (_, k) => 10 ** k);
const ZERO = 48,
  NINE = 57,
  DOT = 46,
  MINUS = 45,
  PLUS = 43,
  SPACE = 32;

/**
 * The decimal number in bytes[start, end) (optional sign, digits, optional fraction; spaces around are allowed);
 * NaN for an empty field or anything else.
 */
export function parseDecimal(bytes: Uint8Array, start: number, end: number): number {
  while (start < end && bytes[start] === SPACE) start++;
  while (end > start && bytes[end - 1] === SPACE) end--;
  if (start >= end) return Number.NaN;
  let i = start;
  let negative = false;
  if (bytes[i] === MINUS || bytes[i] === PLUS) {
    negative = bytes[i] === MINUS;
    i++;
  }
  // All digits as one integer, divided once by the power of ten of the fraction: rounded once, as Number() does.
  let mantissa = 0;
  let digits = 0;
  let fraction = 0;
  while (i < end) {
    const c = bytes[i]!;
    if (c < ZERO || c > NINE) break;
    mantissa = mantissa * 10 + (c - ZERO);
    digits++;
    i++;
  }
  if (i < end && bytes[i] === DOT) {
    i++;
    while (i < end) {
      const c = bytes[i]!;
      if (c < ZERO || c > NINE) break;
      mantissa = mantissa * 10 + (c - ZERO);
      digits++;
      fraction++;
      i++;
    }
  }
  if (i !== end || digits === 0 || digits > 15) return Number.NaN;
  const value = fraction === 0 ? mantissa : mantissa / POWERS_OF_TEN[fraction]!;
  return negative ? -value : value;
}

/** The unsigned hexadecimal number in bytes[start, end), or -1 (empty, not hex, or more than 8 digits). */
export function parseHex(bytes: Uint8Array, start: number, end: number): number {
  if (start >= end || end - start > 8) return -1;
  let value = 0;
  for (let i = start; i < end; i++) {
    const c = bytes[i]!;
    const d = c >= 48 && c <= 57 ? c - 48 : c >= 65 && c <= 70 ? c - 55 : c >= 97 && c <= 102 ? c - 87 : -1;
    if (d < 0) return -1;
    value = value * 16 + d;
  }
  return value;
}

/**
 * Writes the offsets of the separators `separator` in bytes[start, end) into `at` (at[0] = start − 1, then each
 * separator, then end): field k is bytes[at[k] + 1, at[k + 1]).
 * @returns the number of fields, or −1 when there are more than `at.length − 1`.
 */
export function splitFields(bytes: Uint8Array, start: number, end: number, separator: number, at: Int32Array): number {
  let n = 0;
  at[0] = start - 1;
  for (let i = start; i < end; i++) {
    if (bytes[i] !== separator) continue;
    if (++n >= at.length - 1) return -1;
    at[n] = i;
  }
  at[n + 1] = end;
  return n + 1;
}

/** Printable ASCII of bytes[start, end), trailing spaces dropped, other bytes left out; at most `max` characters. */
export function asciiText(bytes: Uint8Array, start: number, end: number, max: number): string {
  while (end > start && bytes[end - 1] === SPACE) end--;
  while (start < end && bytes[start] === SPACE) start++;
  let text = '';
  for (let i = start; i < end && text.length < max; i++) {
    const c = bytes[i]!;
    if (c >= 32 && c < 127) text += String.fromCharCode(c);
  }
  return text;
}

/** Whether bytes[start, end) holds exactly the ASCII of `text`. */
export function bytesEqual(bytes: Uint8Array, start: number, end: number, text: string): boolean {
  if (end - start !== text.length) return false;
  for (let i = 0; i < text.length; i++) if (bytes[start + i] !== text.charCodeAt(i)) return false;
  return true;
}
