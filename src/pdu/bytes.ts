/**
 * Byte helpers shared by the codecs: a DataView cache and hex text.
 */

// One-entry cache: decoding many Buffers from one pool (or one receive buffer) reuses one DataView instead of
// allocating a view per datagram. It holds the last ArrayBuffer alive until another one is decoded.
let cachedBuffer: ArrayBufferLike | undefined;
let cachedView: DataView | undefined;

/**
 * A DataView over the whole ArrayBuffer behind `bytes`. Index it with `bytes.byteOffset + offset`: a Node Buffer
 * from the pool starts at a non-zero byteOffset.
 */
export function dataViewOf(bytes: Uint8Array): DataView {
  const buffer = bytes.buffer;
  if (buffer !== cachedBuffer) {
    cachedBuffer = buffer;
    cachedView = new DataView(buffer);
  }
  return cachedView!;
}

/**
 * Copies `count` bytes between two DataViews in 32-bit words, then the remaining bytes (big-endian both sides,
 * so the byte order is kept).
 */
export function copyView(to: DataView, toAt: number, from: DataView, fromAt: number, count: number): void {
  let i = 0;
  for (; i + 4 <= count; i += 4) to.setUint32(toAt + i, from.getUint32(fromAt + i));
  for (; i < count; i++) to.setUint8(toAt + i, from.getUint8(fromAt + i));
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
