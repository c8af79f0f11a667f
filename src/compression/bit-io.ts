/**
 * Bit-granular reading and writing over a reusable byte buffer, most significant bit first (network order).
 * Both classes work in place: no allocation after construction, so they fit per-packet hot paths.
 */

/** Writes bit fields into a caller-owned byte buffer. Overflow is sticky: check `overflowed` once at the end. */
export class BitWriter {
  private bytes: Uint8Array;
  private bit = 0;
  /** Set when a write did not fit; the bits that did not fit are dropped and later writes are ignored. */
  overflowed = false;

  /** @param bytes - where to write. Defaults to a new 1500-byte buffer (one Ethernet MTU). */
  constructor(bytes: Uint8Array = new Uint8Array(1500)) {
    this.bytes = bytes;
  }

  /** Starts over at bit 0 of `bytes` (or of the current buffer). */
  reset(bytes: Uint8Array = this.bytes): this {
    this.bytes = bytes;
    this.bit = 0;
    this.overflowed = false;
    return this;
  }

  /** Bits written so far. */
  get bitLength(): number {
    return this.bit;
  }

  /** Whole bytes touched so far (the last one zero-padded). */
  get byteLength(): number {
    return (this.bit + 7) >>> 3;
  }

  /** The buffer written to (valid bytes: `0 … byteLength`). */
  get buffer(): Uint8Array {
    return this.bytes;
  }

  /**
   * Appends the low `count` bits of `value`, most significant first.
   * @param value - unsigned integer; bits above `count` are ignored.
   * @param count - 0 to 32.
   */
  write(value: number, count: number): void {
    if (this.overflowed) return;
    if (this.bit + count > this.bytes.length * 8) {
      this.overflowed = true;
      return;
    }
    for (let i = count - 1; i >= 0; i--) {
      const byte = this.bit >>> 3;
      const mask = 0x80 >>> (this.bit & 7);
      // Clear as well as set: the buffer is reused and may hold an older message.
      if ((value >>> i) & 1) this.bytes[byte]! |= mask;
      else this.bytes[byte]! &= ~mask;
      this.bit++;
    }
  }

  /** Appends one bit. */
  writeBit(bit: boolean | number): void {
    this.write(bit ? 1 : 0, 1);
  }

  /** Pads with zero bits up to the next byte boundary. */
  alignToByte(): void {
    const pad = (8 - (this.bit & 7)) & 7;
    if (pad > 0) this.write(0, pad);
  }
}

/** Reads bit fields from a byte range. Reading past the end never throws: it sets `overrun` and yields 0. */
export class BitReader {
  private bytes: Uint8Array = new Uint8Array(0);
  private bit = 0;
  private endBit = 0;
  /** Set when a read asked for more bits than remain. */
  overrun = false;

  /**
   * Points the reader at `bytes`.
   * @param bitLength - readable bits. Defaults to all of `bytes`.
   */
  reset(bytes: Uint8Array, bitLength: number = bytes.length * 8): this {
    this.bytes = bytes;
    this.bit = 0;
    this.endBit = Math.min(Math.max(0, bitLength), bytes.length * 8);
    this.overrun = false;
    return this;
  }

  /** Bits consumed so far. */
  get position(): number {
    return this.bit;
  }

  /** Bits left to read. */
  get remaining(): number {
    return this.endBit - this.bit;
  }

  /** Reads `count` (0 to 32) bits as an unsigned integer. */
  read(count: number): number {
    if (this.bit + count > this.endBit) {
      this.overrun = true;
      this.bit = this.endBit;
      return 0;
    }
    let value = 0;
    for (let i = 0; i < count; i++) {
      const b = (this.bytes[this.bit >>> 3]! >>> (7 - (this.bit & 7))) & 1;
      value = value * 2 + b; // not `<<`: 32-bit fields must stay unsigned
      this.bit++;
    }
    return value;
  }

  /** Reads one bit as a boolean. */
  readBit(): boolean {
    return this.read(1) === 1;
  }

  /** Skips to the next byte boundary. */
  alignToByte(): void {
    this.bit = Math.min(this.endBit, (this.bit + 7) & ~7);
  }
}
