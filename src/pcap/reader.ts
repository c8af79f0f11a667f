/**
 * Reads capture files: classic libpcap (either byte order, microsecond or nanosecond timestamps) and pcapng
 * (section header, interface description with `if_tsresol`, enhanced / simple / obsolete packet blocks).
 * `CaptureParser` takes the file in pieces as they are read, so a capture of any size is decoded in bounded memory;
 * `readCapture` parses one held in memory. Frames are views into the bytes given, not copies.
 */

export interface CaptureFrame {
  /** 1-based frame number, as Wireshark counts. */
  readonly number: number;
  /** Capture time, seconds since the Unix epoch (NaN when the format has none, e.g. a simple packet block). */
  readonly timeSeconds: number;
  /** LINKTYPE_* value of the frame's interface (1 Ethernet, 101 raw IP, 113 Linux SLL, 276 SLL2, …). */
  readonly linkType: number;
  /** The captured bytes (may be shorter than the packet on the wire). */
  readonly data: Uint8Array;
  /** Length of the packet on the wire. */
  readonly originalLength: number;
}

/** The frames of a capture file and how it ended. */
export interface Capture {
  readonly format: 'pcap' | 'pcapng';
  readonly frames: CaptureFrame[];
  /** True when the file ends in the middle of a record: the frames before it are kept. */
  readonly truncated: boolean;
  /**
   * Set when a record's header is impossible (a length beyond any snapshot length, or a captured length above the
   * length on the wire): the frames before it are kept, reading stops there, and `offset` is the record's first byte.
   */
  readonly corrupt?: { readonly offset: number; readonly message: string };
}

/** The file is not a capture reckon can read (the message says what was found). */
export class CaptureFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CaptureFormatError';
  }
}

const PCAP_MICROS = 0xa1b2c3d4;
const PCAP_NANOS = 0xa1b23c4d;
const PCAPNG_SECTION = 0x0a0d0d0a;
const PCAPNG_BYTE_ORDER = 0x1a2b3c4d;
/**
 * Largest packet a capture record may hold: libpcap's and Wireshark's maximum snapshot length (262 144 bytes).
 * A longer record is not a packet but a damaged length field.
 */
export const MAX_CAPTURED_BYTES = 262_144;
/** Largest pcapng block accepted (Wireshark's limit, 16 MiB); a longer one is a damaged length field. */
const MAX_PCAPNG_BLOCK_BYTES = 16 * 2 ** 20;
/**
 * Interfaces a pcapng section may describe: one per capture interface, so a few, and hundreds on a router; a section
 * describing more is refused there (each is kept for the section's packets, and millions filled the heap).
 */
export const MAX_PCAPNG_INTERFACES = 4096;

/**
 * Parses a capture file held in memory.
 * @throws CaptureFormatError when the file header is neither pcap nor pcapng.
 */
export function readCapture(bytes: Uint8Array): Capture {
  const parser = new CaptureParser();
  const frames = parser.push(bytes);
  parser.finish();
  return {
    format: parser.format!,
    frames,
    truncated: parser.truncated,
    ...(parser.corrupt ? { corrupt: parser.corrupt } : {}),
  };
}

interface Interface {
  readonly linkType: number;
  /** Seconds per timestamp tick. */
  readonly resolution: number;
}

const EMPTY = new Uint8Array(0);

/**
 * A capture file read in pieces: `push` each piece as it is read and take the frames it completes, then `finish`.
 * A record cut by the end of a piece is kept (copied) until the next one completes it; reading stops at a corrupt
 * record. Memory is one piece plus at most one record (or pcapng block), whatever the file's size.
 */
export class CaptureParser {
  format: 'pcap' | 'pcapng' | undefined = undefined;
  /** Frames read so far. */
  frameCount = 0;
  /** Set by `finish` when the file ends in the middle of a record. */
  truncated = false;
  /** Set at an impossible record header; nothing after it is read. */
  corrupt: { readonly offset: number; readonly message: string } | undefined = undefined;
  /** Bytes of an unfinished record, and their offset in the file. */
  private pending: Uint8Array = EMPTY;
  private base = 0;
  private littleEndian = false;
  private fractionSeconds = 1e-6;
  private linkType = 0;
  private interfaces: Interface[] = [];

  /**
   * Takes the next piece of the file.
   * @returns the frames it completes, in order; their data are views into `chunk` (or into a copy of a record
   *   that straddled two pieces).
   * @throws CaptureFormatError when the file's start is neither pcap nor pcapng.
   */
  push(chunk: Uint8Array): CaptureFrame[] {
    const frames: CaptureFrame[] = [];
    if (this.corrupt !== undefined || chunk.length === 0) return frames;
    let data = chunk;
    if (this.pending.length > 0) {
      data = new Uint8Array(this.pending.length + chunk.length);
      data.set(this.pending);
      data.set(chunk, this.pending.length);
    }
    const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
    let at = 0;
    if (this.format === undefined) {
      at = this.readFileHeader(data, view);
      if (at < 0) {
        this.pending = data.slice();
        return frames;
      }
    }
    at = this.format === 'pcap' ? this.readPcap(data, view, at, frames) : this.readPcapng(data, view, at, frames);
    // What is left is the start of a record: copied, so that the piece it came in can be let go.
    this.pending = this.corrupt !== undefined || at >= data.length ? EMPTY : data.slice(at);
    this.base += at;
    return frames;
  }

  /**
   * The end of the file.
   * @throws CaptureFormatError when it ended before the file header did.
   */
  finish(): void {
    if (this.format === undefined) {
      const length = this.pending.length;
      if (length >= 4) throw new CaptureFormatError('pcap file header cut short (needs 24 bytes)');
      throw new CaptureFormatError(`file too short for a capture (${length} bytes)`);
    }
    this.truncated = this.corrupt === undefined && this.pending.length > 0;
  }

  /** Reads the format (and a pcap file header). @returns where records start, or −1 when more bytes are needed. */
  private readFileHeader(data: Uint8Array, view: DataView): number {
    if (data.length < 4) return -1;
    const magic = view.getUint32(0, false);
    if (magic === PCAPNG_SECTION) {
      this.format = 'pcapng';
      return 0;
    }
    for (const littleEndian of [false, true]) {
      const m = view.getUint32(0, littleEndian);
      if (m !== PCAP_MICROS && m !== PCAP_NANOS) continue;
      if (data.length < 24) return -1;
      this.format = 'pcap';
      this.littleEndian = littleEndian;
      this.fractionSeconds = m === PCAP_NANOS ? 1e-9 : 1e-6;
      this.linkType = view.getUint32(20, littleEndian) & 0x0fff_ffff; // the top bits may carry FCS information
      return 24;
    }
    throw new CaptureFormatError(
      `not a pcap or pcapng file (starts with 0x${magic.toString(16).padStart(8, '0')}); save the capture as pcap or pcapng`,
    );
  }

  private readPcap(data: Uint8Array, view: DataView, at: number, frames: CaptureFrame[]): number {
    const le = this.littleEndian;
    while (at + 16 <= data.length) {
      const seconds = view.getUint32(at, le);
      const fraction = view.getUint32(at + 4, le);
      const capturedLength = view.getUint32(at + 8, le);
      const originalLength = view.getUint32(at + 12, le);
      const start = at + 16;
      // The file's snapshot length is not a bound: writers (this one too) leave it at 65 535 and still write a
      // 65 549-byte frame of a full UDP datagram. Wireshark bounds records by the maximum, and so does this.
      const damage =
        capturedLength > MAX_CAPTURED_BYTES
          ? `captured length ${capturedLength} exceeds the maximum of ${MAX_CAPTURED_BYTES} bytes`
          : originalLength < capturedLength
            ? `captured length ${capturedLength} exceeds the packet's length on the wire ${originalLength}`
            : undefined;
      if (damage !== undefined) {
        const offset = this.base + at;
        this.corrupt = { offset, message: `record ${this.frameCount + 1} at byte ${offset} is corrupt: ${damage}` };
        return at;
      }
      if (start + capturedLength > data.length) break;
      frames.push({
        number: ++this.frameCount,
        timeSeconds: seconds + fraction * this.fractionSeconds,
        linkType: this.linkType,
        data: data.subarray(start, start + capturedLength),
        originalLength,
      });
      at = start + capturedLength;
    }
    return at;
  }

  private readPcapng(data: Uint8Array, view: DataView, at: number, frames: CaptureFrame[]): number {
    while (at + 12 <= data.length) {
      let le = this.littleEndian;
      const type = view.getUint32(at, le);
      if (type === PCAPNG_SECTION) {
        // Each section declares its own byte order and restarts the interface list.
        if (view.getUint32(at + 8, true) === PCAPNG_BYTE_ORDER) le = true;
        else if (view.getUint32(at + 8, false) === PCAPNG_BYTE_ORDER) le = false;
        else throw new CaptureFormatError(`pcapng section at byte ${this.base + at} has no valid byte-order magic`);
        this.littleEndian = le;
        this.interfaces = [];
      }
      const offset = this.base + at;
      const blockLength = view.getUint32(at + 4, le);
      if (blockLength < 12 || blockLength % 4 !== 0 || blockLength > MAX_PCAPNG_BLOCK_BYTES) {
        if (offset === 0) throw new CaptureFormatError(`pcapng block length ${blockLength} at byte 0 is invalid`);
        return this.corruptBlock(
          at,
          `length ${blockLength} is not a multiple of 4 from 12 to ${MAX_PCAPNG_BLOCK_BYTES}`,
        );
      }
      if (at + blockLength > data.length) break;
      // A block repeats its length at its end; a mismatch means the length read is not the block's.
      const trailer = view.getUint32(at + blockLength - 4, le);
      if (trailer !== blockLength) {
        return this.corruptBlock(at, `length ${blockLength} differs from the length at its end, ${trailer}`);
      }
      if (type === 1 && this.interfaces.length >= MAX_PCAPNG_INTERFACES) {
        const why = `it describes interface ${MAX_PCAPNG_INTERFACES + 1} of its section, more than the ${MAX_PCAPNG_INTERFACES} read`;
        this.corrupt = { offset, message: `block at byte ${offset} is refused: ${why}` };
        return at;
      }
      this.readBlock(data, view, type, at + 8, at + blockLength - 4, frames);
      at += blockLength;
    }
    return at;
  }

  private readBlock(
    data: Uint8Array,
    view: DataView,
    type: number,
    body: number,
    bodyEnd: number,
    frames: CaptureFrame[],
  ): void {
    const le = this.littleEndian;
    if (type === 1) {
      this.interfaces.push({
        linkType: view.getUint16(body, le),
        resolution: interfaceResolution(view, body + 8, bodyEnd, le),
      });
    } else if (type === 6 || type === 2) {
      // Enhanced packet block (6): interface u32; obsolete packet block (2): interface u16 + drops u16.
      const iface = this.interfaces[type === 6 ? view.getUint32(body, le) : view.getUint16(body, le)];
      const ticks = view.getUint32(body + 4, le) * 0x1_0000_0000 + view.getUint32(body + 8, le);
      const capturedLength = view.getUint32(body + 12, le);
      const start = body + 20;
      if (iface && start + capturedLength <= bodyEnd) {
        frames.push({
          number: ++this.frameCount,
          timeSeconds: ticks * iface.resolution,
          linkType: iface.linkType,
          data: data.subarray(start, start + capturedLength),
          originalLength: view.getUint32(body + 16, le),
        });
      }
    } else if (type === 3) {
      // Simple packet block: no timestamp, interface 0, captured bytes fill the block.
      const iface = this.interfaces[0];
      const originalLength = view.getUint32(body, le);
      const start = body + 4;
      if (iface) {
        const end = Math.min(bodyEnd, start + originalLength);
        frames.push({
          number: ++this.frameCount,
          timeSeconds: NaN,
          linkType: iface.linkType,
          data: data.subarray(start, end),
          originalLength,
        });
      }
    }
  }

  private corruptBlock(at: number, damage: string): number {
    const offset = this.base + at;
    this.corrupt = { offset, message: `block at byte ${offset} is corrupt: ${damage}` };
    return at;
  }
}

/** The `if_tsresol` option (code 9): 10^-n seconds, or 2^-n when the top bit is set. Defaults to microseconds. */
function interfaceResolution(view: DataView, offset: number, end: number, le: boolean): number {
  while (offset + 4 <= end) {
    const code = view.getUint16(offset, le);
    const length = view.getUint16(offset + 2, le);
    if (code === 0) break;
    if (code === 9 && length >= 1) {
      const value = view.getUint8(offset + 4);
      return value & 0x80 ? 2 ** -(value & 0x7f) : 10 ** -value;
    }
    offset += 4 + Math.ceil(length / 4) * 4;
  }
  return 1e-6;
}
