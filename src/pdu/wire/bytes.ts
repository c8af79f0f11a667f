/**
 * Byte helpers shared by the codecs: a DataView cache and hex text.
 */

const EMPTY = new Uint8Array(0);

/**
 * A one-entry cache of the DataView over one byte array, so that decoding the PDUs of one datagram (or encoding
 * into one buffer again and again) builds a single view. Each codec direction owns its own cache: a relay that
 * decodes a datagram, then encodes into its send buffer, would otherwise rebuild a view on every call.
 * It holds the last array alive until another one comes in.
 */
export class DataViewCache {
  private bytes: Uint8Array = EMPTY;
  private view: DataView = new DataView(EMPTY.buffer);

  /**
   * A DataView whose byte 0 is `bytes[0]` and that reaches to the end of the ArrayBuffer behind it (a Node Buffer
   * from the pool starts at a non-zero byteOffset). Keyed on the array itself: a same-object check per call, a
   * new view only when another array comes in (dgram gives every datagram its own Buffer). Callers index it
   * below `bytes.length` only, and call it only once `bytes` is known not to be empty.
   */
  of(bytes: Uint8Array): DataView {
    if (bytes !== this.bytes) {
      this.bytes = bytes;
      this.view = new DataView(bytes.buffer, bytes.byteOffset);
    }
    return this.view;
  }
}

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));
/** Each byte's two hex digits as ASCII codes, high digit in the high byte: one 16-bit store per byte. */
const HEX_CODES = Uint16Array.from({ length: 256 }, (_, i) => (HEX[i]!.charCodeAt(0) << 8) | HEX[i]!.charCodeAt(1));
const ascii = new TextDecoder('latin1');
let digits = new Uint8Array(0);
let digitView = new DataView(digits.buffer);

/**
 * Lower-case hex, two digits per byte. Past a few dozen bytes the digits are written as ASCII codes and decoded
 * once, cheaper than concatenating a string per byte (docs/benchmarks.md).
 */
export function bytesToHex(bytes: Uint8Array, start = 0, end = bytes.length): string {
  const n = end - start;
  if (n <= 32) {
    let text = '';
    for (let i = start; i < end; i++) text += HEX[bytes[i]!];
    return text;
  }
  if (digits.length < 2 * n) {
    digits = new Uint8Array(2 * n);
    digitView = new DataView(digits.buffer);
  }
  for (let i = 0; i < n; i++) digitView.setUint16(2 * i, HEX_CODES[bytes[start + i]!]!);
  return ascii.decode(digits.subarray(0, 2 * n));
}

/**
 * Writes hex text into `out` at `offset`, at most `maxBytes` bytes; the rest of the span is zero-filled.
 * @returns the number of bytes taken from the text.
 */
export function hexInto(out: Uint8Array, offset: number, hex: string, maxBytes: number): number {
  const n = Math.min(hex.length >>> 1, maxBytes);
  for (let i = 0; i < n; i++) out[offset + i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  out.fill(0, offset + n, offset + maxBytes);
  return n;
}
