/**
 * Reads capture files: classic libpcap (either byte order, microsecond or nanosecond timestamps) and pcapng
 * (section header, interface description with `if_tsresol`, enhanced / simple / obsolete packet blocks).
 * The whole file is in memory; frames are views into it, not copies.
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
 * Parses a capture file held in memory.
 * @throws CaptureFormatError when the file header is neither pcap nor pcapng.
 */
export function readCapture(bytes: Uint8Array): Capture {
  if (bytes.length < 4) throw new CaptureFormatError(`file too short for a capture (${bytes.length} bytes)`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const magic = view.getUint32(0, false);
  if (magic === PCAPNG_SECTION) return readPcapng(bytes, view);
  for (const littleEndian of [false, true]) {
    const m = view.getUint32(0, littleEndian);
    if (m === PCAP_MICROS || m === PCAP_NANOS)
      return readPcap(bytes, view, littleEndian, m === PCAP_NANOS ? 1e-9 : 1e-6);
  }
  throw new CaptureFormatError(
    `not a pcap or pcapng file (starts with 0x${magic.toString(16).padStart(8, '0')}); save the capture as pcap or pcapng`,
  );
}

function readPcap(bytes: Uint8Array, view: DataView, le: boolean, fractionSeconds: number): Capture {
  if (bytes.length < 24) throw new CaptureFormatError('pcap file header cut short (needs 24 bytes)');
  const linkType = view.getUint32(20, le) & 0x0fff_ffff; // the top bits may carry FCS information
  const frames: CaptureFrame[] = [];
  let offset = 24;
  while (offset + 16 <= bytes.length) {
    const seconds = view.getUint32(offset, le);
    const fraction = view.getUint32(offset + 4, le);
    const capturedLength = view.getUint32(offset + 8, le);
    const originalLength = view.getUint32(offset + 12, le);
    const start = offset + 16;
    // The file's snapshot length is not a bound: writers (this one too) leave it at 65 535 and still write a
    // 65 549-byte frame of a full UDP datagram. Wireshark bounds records by the maximum, and so does this.
    const damage =
      capturedLength > MAX_CAPTURED_BYTES
        ? `captured length ${capturedLength} exceeds the maximum of ${MAX_CAPTURED_BYTES} bytes`
        : originalLength < capturedLength
          ? `captured length ${capturedLength} exceeds the packet's length on the wire ${originalLength}`
          : undefined;
    if (damage !== undefined) {
      const message = `record ${frames.length + 1} at byte ${offset} is corrupt: ${damage}`;
      return { format: 'pcap', frames, truncated: false, corrupt: { offset, message } };
    }
    if (start + capturedLength > bytes.length) return { format: 'pcap', frames, truncated: true };
    frames.push({
      number: frames.length + 1,
      timeSeconds: seconds + fraction * fractionSeconds,
      linkType,
      data: bytes.subarray(start, start + capturedLength),
      originalLength,
    });
    offset = start + capturedLength;
  }
  return { format: 'pcap', frames, truncated: offset !== bytes.length };
}

interface Interface {
  readonly linkType: number;
  /** Seconds per timestamp tick. */
  readonly resolution: number;
}

function readPcapng(bytes: Uint8Array, view: DataView): Capture {
  const frames: CaptureFrame[] = [];
  let interfaces: Interface[] = [];
  let le = true;
  let offset = 0;
  while (offset + 12 <= bytes.length) {
    const type = view.getUint32(offset, le);
    if (type === PCAPNG_SECTION) {
      // Each section declares its own byte order and restarts the interface list.
      if (view.getUint32(offset + 8, true) === PCAPNG_BYTE_ORDER) le = true;
      else if (view.getUint32(offset + 8, false) === PCAPNG_BYTE_ORDER) le = false;
      else throw new CaptureFormatError(`pcapng section at byte ${offset} has no valid byte-order magic`);
      interfaces = [];
    }
    const blockLength = view.getUint32(offset + 4, le);
    if (blockLength < 12 || blockLength % 4 !== 0 || blockLength > MAX_PCAPNG_BLOCK_BYTES) {
      if (offset === 0) throw new CaptureFormatError(`pcapng block length ${blockLength} at byte 0 is invalid`);
      const damage = `length ${blockLength} is not a multiple of 4 from 12 to ${MAX_PCAPNG_BLOCK_BYTES}`;
      return corruptBlock(frames, offset, damage);
    }
    if (offset + blockLength > bytes.length) return { format: 'pcapng', frames, truncated: true };
    // A block repeats its length at its end; a mismatch means the length read is not the block's.
    if (view.getUint32(offset + blockLength - 4, le) !== blockLength) {
      const trailer = view.getUint32(offset + blockLength - 4, le);
      return corruptBlock(frames, offset, `length ${blockLength} differs from the length at its end, ${trailer}`);
    }
    const body = offset + 8;
    const bodyEnd = offset + blockLength - 4;
    if (type === 1) {
      interfaces.push({
        linkType: view.getUint16(body, le),
        resolution: interfaceResolution(view, body + 8, bodyEnd, le),
      });
    } else if (type === 6 || type === 2) {
      // Enhanced packet block (6): interface u32; obsolete packet block (2): interface u16 + drops u16.
      const iface = interfaces[type === 6 ? view.getUint32(body, le) : view.getUint16(body, le)];
      const ticks = view.getUint32(body + 4, le) * 0x1_0000_0000 + view.getUint32(body + 8, le);
      const capturedLength = view.getUint32(body + 12, le);
      const start = body + 20;
      if (iface && start + capturedLength <= bodyEnd) {
        frames.push({
          number: frames.length + 1,
          timeSeconds: ticks * iface.resolution,
          linkType: iface.linkType,
          data: bytes.subarray(start, start + capturedLength),
          originalLength: view.getUint32(body + 16, le),
        });
      }
    } else if (type === 3) {
      // Simple packet block: no timestamp, interface 0, captured bytes fill the block.
      const iface = interfaces[0];
      const originalLength = view.getUint32(body, le);
      const start = body + 4;
      if (iface) {
        const end = Math.min(bodyEnd, start + originalLength);
        frames.push({
          number: frames.length + 1,
          timeSeconds: NaN,
          linkType: iface.linkType,
          data: bytes.subarray(start, end),
          originalLength,
        });
      }
    }
    offset += blockLength;
  }
  return { format: 'pcapng', frames, truncated: offset !== bytes.length };
}

function corruptBlock(frames: CaptureFrame[], offset: number, damage: string): Capture {
  const message = `block at byte ${offset} is corrupt: ${damage}`;
  return { format: 'pcapng', frames, truncated: false, corrupt: { offset, message } };
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
