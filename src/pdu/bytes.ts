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

/** Lower-case hex, two digits per byte. */
export function bytesToHex(bytes: Uint8Array, start = 0, end = bytes.length): string {
  let text = '';
  for (let i = start; i < end; i++) text += HEX[bytes[i]!];
  return text;
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
