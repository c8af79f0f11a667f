/**
 * Bytes of a feed to fixes, one decoder per format: SBS-1 lines, Beast frames, AIVDM/AIVDO sentences, NDJSON
 * truth records and aircraft.json documents. Each counts what it read (messages, fixes, malformed, ignored, lines
 * too long) and keeps the first problem as one line to show. Pure: bytes and the time of arrival in, fixes out; a
 * browser can feed one from a WebSocket as well as Node from a socket.
 */
import { ModeSDecoder } from './adsb-decoder.js';
import { decodeAis } from './ais.js';
import { AircraftJsonReader } from './aircraft-json.js';
import { BEAST_MLAT_TIMESTAMP, BeastDeframer } from './beast.js';
import { DecodeStatus, Fix, PositionSource } from './fix.js';
import { LineSplitter } from './line-splitter.js';
import { NmeaReader, NmeaStatus } from './nmea.js';
import { decodeSbsLine } from './sbs.js';
import { decodeTruthRecord } from './truth-record.js';

/** The formats a feed may carry. */
export type FeedFormat = 'sbs' | 'beast' | 'aivdm' | 'truth' | 'aircraft-json';

/** Counters of one feed's decoder, updated in place. */
export interface DecoderStats {
  /** Lines, frames or aircraft entries read. */
  messages: number;
  /** Messages that gave a fix. */
  fixes: number;
  /** Messages that were no message of the format, failed a checksum, or broke a rule. */
  malformed: number;
  /** Well-formed messages with nothing to track (squawks, base stations, fragments still to come). */
  ignored: number;
  /** Lines dropped for passing the length bound. */
  overlong: number;
  bytes: number;
  /** Bytes skipped as noise between Beast frames. */
  noiseBytes: number;
  /** The first malformed message: where and why, and its start, as one line (not yet made safe to print). */
  firstProblem: string | undefined;
}

/** Decoder counters, all zero. */
export function createDecoderStats(): DecoderStats {
  return {
    messages: 0,
    fixes: 0,
    malformed: 0,
    ignored: 0,
    overlong: 0,
    bytes: 0,
    noiseBytes: 0,
    firstProblem: undefined,
  };
}

/** Longest line of each text format: NMEA and SBS lines are under 100 bytes; a record may be long. */
export const MAX_LINE_BYTES: Readonly<Record<'sbs' | 'aivdm' | 'truth', number>> = {
  sbs: 1024,
  aivdm: 1024,
  truth: 64 * 1024,
};
/** Connections read at once by a decoder (each needs its own partial line). */
const MAX_STREAMS = 256;

/** Called with each fix and the wall-clock time it arrived; the fix is reused after the call. */
export type FixSink = (fix: Fix, wallSeconds: number) => void;

/** A decoder of one feed format. */
export interface FeedDecoder {
  readonly format: FeedFormat;
  readonly stats: DecoderStats;
  /** Bytes from connection `stream` (0 for a feed of one), arrived at `wallSeconds`. */
  push(chunk: Uint8Array, wallSeconds: number, stream?: number): void;
  /** Connection `stream` ended: a last line without its newline is read. */
  end(stream?: number): void;
}

/** Makes the decoder of a format, handing its fixes to `sink` and counting into `stats`. */
export function createFeedDecoder(format: FeedFormat, sink: FixSink, stats = createDecoderStats()): FeedDecoder {
  switch (format) {
    case 'beast':
      return new BeastFeedDecoder(sink, stats);
    case 'aircraft-json':
      return new AircraftJsonFeedDecoder(sink, stats);
    default:
      return new LineFeedDecoder(format, sink, stats);
  }
}

const textDecoder = new TextDecoder('utf-8', { fatal: false });

/** Up to 60 characters of a line, for the first problem. */
function excerpt(bytes: Uint8Array, start: number, end: number): string {
  const text = textDecoder.decode(bytes.subarray(start, Math.min(end, start + 60)));
  return end - start > 60 ? `${text}…` : text;
}

/** A format of lines: SBS-1, AIVDM or truth records. */
class LineFeedDecoder implements FeedDecoder {
  private readonly fix = new Fix();
  private readonly splitters = new Map<number, LineSplitter>();
  private readonly nmea = new NmeaReader();
  private wallSeconds = 0;
  private readonly onLine = (bytes: Uint8Array, start: number, end: number): void => this.line(bytes, start, end);

  constructor(
    readonly format: 'sbs' | 'aivdm' | 'truth',
    private readonly sink: FixSink,
    readonly stats: DecoderStats,
  ) {}

  push(chunk: Uint8Array, wallSeconds: number, stream = 0): void {
    this.wallSeconds = wallSeconds;
    this.stats.bytes += chunk.length;
    let splitter = this.splitters.get(stream);
    if (!splitter) {
      if (this.splitters.size >= MAX_STREAMS) return;
      splitter = new LineSplitter(MAX_LINE_BYTES[this.format], this.onLine);
      this.splitters.set(stream, splitter);
    }
    const before = splitter.overlong;
    splitter.push(chunk);
    this.overlong(splitter.overlong - before);
  }

  end(stream = 0): void {
    const splitter = this.splitters.get(stream);
    if (!splitter) return;
    splitter.end();
    this.splitters.delete(stream);
  }

  private overlong(count: number): void {
    if (count === 0) return;
    this.stats.messages += count;
    this.stats.overlong += count;
    this.stats.firstProblem ??= `a line longer than ${MAX_LINE_BYTES[this.format]} bytes (dropped)`;
  }

  private line(bytes: Uint8Array, start: number, end: number): void {
    const stats = this.stats;
    stats.messages++;
    let status: DecodeStatus;
    let reason = '';
    if (this.format === 'sbs') status = decodeSbsLine(bytes, start, end, this.fix);
    else if (this.format === 'aivdm') {
      const n = this.nmea.read(bytes, start, end);
      if (n === NmeaStatus.MESSAGE) {
        status = decodeAis(this.nmea.payload, this.nmea.payloadBits, this.fix);
        this.fix.timeSeconds = this.nmea.timeSeconds;
      } else status = n === NmeaStatus.MALFORMED ? DecodeStatus.MALFORMED : DecodeStatus.IGNORED;
    } else {
      let record: unknown;
      try {
        record = JSON.parse(textDecoder.decode(bytes.subarray(start, end)));
        reason = decodeTruthRecord(record, this.fix) ?? '';
      } catch {
        reason = 'not JSON';
      }
      status = reason === '' ? DecodeStatus.FIX : DecodeStatus.MALFORMED;
    }
    if (status === DecodeStatus.FIX) {
      stats.fixes++;
      this.sink(this.fix, this.wallSeconds);
    } else if (status === DecodeStatus.MALFORMED) {
      stats.malformed++;
      stats.firstProblem ??= `message ${stats.messages}: ${reason || `not ${this.format === 'sbs' ? 'an SBS-1 MSG line' : 'a valid AIVDM sentence'}`}: ${excerpt(bytes, start, end)}`;
    } else stats.ignored++;
  }
}

/** Beast binary frames of Mode S messages. */
class BeastFeedDecoder implements FeedDecoder {
  readonly format = 'beast' as const;
  readonly modeS = new ModeSDecoder();
  private readonly fix = new Fix();
  private readonly deframers = new Map<number, BeastDeframer>();
  private wallSeconds = 0;
  private readonly onFrame = (type: number, timestamp: number, _signal: number, message: Uint8Array, length: number) =>
    this.frame(type, timestamp, message, length);

  constructor(
    private readonly sink: FixSink,
    readonly stats: DecoderStats,
  ) {}

  push(chunk: Uint8Array, wallSeconds: number, stream = 0): void {
    this.wallSeconds = wallSeconds;
    this.stats.bytes += chunk.length;
    let deframer = this.deframers.get(stream);
    if (!deframer) {
      if (this.deframers.size >= MAX_STREAMS) return;
      deframer = new BeastDeframer(this.onFrame);
      this.deframers.set(stream, deframer);
    }
    const skipped = deframer.skippedBytes;
    deframer.push(chunk);
    if (deframer.skippedBytes > skipped) {
      this.stats.noiseBytes += deframer.skippedBytes - skipped;
      this.stats.firstProblem ??= `bytes that are no Beast frame (0x1a, type '1'–'3', …) near byte ${this.stats.bytes - chunk.length}`;
    }
  }

  end(stream = 0): void {
    this.deframers.delete(stream);
  }

  private frame(type: number, timestamp: number, message: Uint8Array, length: number): void {
    const stats = this.stats;
    stats.messages++;
    if (type === 0x31) {
      stats.ignored++; // Mode A/C: a squawk or an altitude, no address
      return;
    }
    const source = timestamp === BEAST_MLAT_TIMESTAMP ? PositionSource.MLAT : PositionSource.OWN;
    const status = this.modeS.decode(message, length, this.wallSeconds, this.fix, source);
    if (status === DecodeStatus.FIX) {
      stats.fixes++;
      this.sink(this.fix, this.wallSeconds);
    } else if (status === DecodeStatus.MALFORMED) {
      stats.malformed++;
      stats.firstProblem ??= `frame ${stats.messages}: a DF17/18 message that fails its parity`;
    } else stats.ignored++;
  }
}

/** aircraft.json documents, one per poll (`push` gets the whole body). */
class AircraftJsonFeedDecoder implements FeedDecoder {
  readonly format = 'aircraft-json' as const;
  readonly reader = new AircraftJsonReader();
  private readonly fix = new Fix();

  constructor(
    private readonly sink: FixSink,
    readonly stats: DecoderStats,
  ) {}

  push(body: Uint8Array, wallSeconds: number): void {
    const stats = this.stats;
    stats.bytes += body.length;
    let document: unknown;
    try {
      document = JSON.parse(textDecoder.decode(body));
    } catch {
      stats.malformed++;
      stats.firstProblem ??= `poll ${stats.malformed + stats.ignored}: not JSON: ${excerpt(body, 0, body.length)}`;
      return;
    }
    const malformed = this.reader.malformed;
    const ok = this.reader.read(document, wallSeconds, this.fix, (fix) => {
      stats.messages++;
      stats.fixes++;
      this.sink(fix, wallSeconds);
    });
    if (!ok) {
      stats.malformed++;
      stats.firstProblem ??= 'a document without an "aircraft" array (is the URL an aircraft.json?)';
      return;
    }
    const bad = this.reader.malformed - malformed;
    if (bad > 0) {
      stats.messages += bad;
      stats.malformed += bad;
      stats.firstProblem ??= 'an aircraft entry without a valid "hex" address';
    }
  }

  end(): void {}
}
