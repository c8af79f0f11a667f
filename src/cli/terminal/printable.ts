/**
 * Text that came from the network (a datagram or a capture) made safe to show on a terminal. A marking is 11 bytes
 * chosen by whoever sent the PDU (the Entity Marking of the IEEE 1278.1 Entity State PDU): raw, `ESC ] 0 ; … BEL`
 * would set the window title, `ESC [ 2 J` clear the screen, and a right-to-left override (U+202E) reorder the rest
 * of the line. Every such string goes through `printable` before it is written to a terminal; NDJSON output keeps the
 * exact text, written with `jsonLine` (JSON escapes for every control character, not only C0).
 */

/**
 * C0 controls, DEL, C1 controls, the backslash (so that an escape cannot be forged), the bidirectional embedding,
 * override and isolate controls (U+202A–U+202E, U+2066–U+2069), the bidi marks (U+061C, U+200E, U+200F) and the
 * line and paragraph separators (U+2028, U+2029).
 */
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\x00-\x1f\x7f-\x9f\\\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

function escapeChar(char: string): string {
  if (char === '\\') return '\\\\';
  const code = char.charCodeAt(0);
  return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/**
 * `text` with every character that could steer a terminal written as a visible escape, in JavaScript notation:
 * `\x1b` for ESC (and every other C0/C1 control and DEL), `\u202e` for a bidi control, `\\` for a backslash.
 * Everything else is kept as it is.
 * @param text - text received from the network or read from a capture.
 */
export function printable(text: string): string {
  UNSAFE.lastIndex = 0;
  return UNSAFE.test(text) ? text.replace(UNSAFE, escapeChar) : text;
}

/** What `JSON.stringify` leaves raw but a terminal may act on: DEL, C1, and the bidi controls and separators. */
// eslint-disable-next-line no-control-regex
const JSON_UNSAFE = /[\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/**
 * `JSON.stringify(value)` with DEL, the C1 controls and the bidi controls also written as `\uXXXX` (JSON escapes
 * only C0 itself): the same value for a JSON reader, and harmless when the line lands on a terminal.
 * @param replacer - passed to `JSON.stringify`, e.g. to name non-finite numbers.
 */
export function jsonLine(value: unknown, replacer?: (key: string, value: unknown) => unknown): string {
  return JSON.stringify(value, replacer).replace(
    JSON_UNSAFE,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** JSON has no NaN or Infinity (`JSON.stringify` writes null): a replacer that names them as text. */
export function nonFiniteAsText(_key: string, value: unknown): unknown {
  return typeof value === 'number' && !Number.isFinite(value) ? String(value) : value;
}

/**
 * `jsonLine(value)`, but a number JSON cannot carry (NaN, ±Infinity, from a float on the wire) is written as the
 * text "NaN", "Infinity", "-Infinity" rather than as null; only a line that shows a null is written again.
 */
export function jsonLineNamingNonFinite(value: unknown): string {
  const line = jsonLine(value);
  return /[[:,]null[\],}]/.test(line) ? jsonLine(value, nonFiniteAsText) : line;
}
