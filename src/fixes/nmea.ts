/**
 * NMEA 0183 AIS sentences (`!AIVDM`, `!AIVDO`, any talker: AI, AB, BS, …) out of lines of bytes: the checksum,
 * an NMEA 4.0 tag block before the sentence (`\c:1733782034,s:2573238*0A\`: c is the UNIX time in seconds or
 * milliseconds, s the source, g the sentence group), a Gatehouse `$PGHP,1,…` timestamp line that dates the
 * sentence after it, and the fragments of a multi-sentence message put back together (IEC 61162-1 §7.3.3;
 * gpsd's AIVDM/AIVDO protocol decoding). The payload's 6-bit characters come out as values 0–63, ready for
 * `ais.ts`. Pending fragments are bounded; nothing allocates per sentence but a finished message's time.
 */

const BANG = 33,
  DOLLAR = 36,
  BACKSLASH = 92,
  STAR = 42,
  COMMA = 44,
  COLON = 58;

/** The most 6-bit characters a message may have (five sentences of 82 characters hold fewer). */
export const MAX_PAYLOAD_CHARS = 512;
/** Messages being put together at once; a fragment that would pass this drops the oldest. */
const MAX_ASSEMBLIES = 16;

/** What one line gave (`NmeaReader.read`). */
export const NmeaStatus = {
  /** A complete AIS payload is in `payload`/`payloadBits`. */
  MESSAGE: 0,
  /** A fragment of a message still to be completed. */
  PENDING: 1,
  /** A line the reader understood that carries no AIS payload (a timestamp line, another sentence). */
  IGNORED: 2,
  /** Not a sentence, or a checksum that does not match. */
  MALFORMED: 3,
} as const;
export type NmeaStatus = (typeof NmeaStatus)[keyof typeof NmeaStatus];

/** The value of a 6-bit payload character (ITU-R M.1371 Annex 8 §3.3.7), or -1 for one that is none. */
function sixBit(c: number): number {
  if (c >= 48 && c <= 87) return c - 48;
  if (c >= 96 && c <= 119) return c - 56;
  return -1;
}

/** XOR of bytes[start, end). */
function xorSum(bytes: Uint8Array, start: number, end: number): number {
  let sum = 0;
  for (let i = start; i < end; i++) sum ^= bytes[i]!;
  return sum;
}

/** The two hex digits at `at` as a number, or -1. */
function hexByte(bytes: Uint8Array, at: number, end: number): number {
  if (at + 2 > end) return -1;
  let value = 0;
  for (let i = at; i < at + 2; i++) {
    const c = bytes[i]!;
    const d = c >= 48 && c <= 57 ? c - 48 : c >= 65 && c <= 70 ? c - 55 : c >= 97 && c <= 102 ? c - 87 : -1;
    if (d < 0) return -1;
    value = value * 16 + d;
  }
  return value;
}

/** A digit's value or -1. */
function digit(c: number | undefined): number {
  return c !== undefined && c >= 48 && c <= 57 ? c - 48 : -1;
}

/** Reads AIVDM/AIVDO lines and hands out whole AIS payloads. */
export class NmeaReader {
  /** The last complete payload: 6-bit values, and its length in bits. */
  readonly payload = new Uint8Array(MAX_PAYLOAD_CHARS);
  payloadBits = 0;
  /** Its time from a tag block's c: or a `$PGHP` line, UNIX seconds; NaN when the lines gave none. */
  timeSeconds = Number.NaN;
  /** The sentence was an AIVDO (own vessel). */
  own = false;
  /** Sentences whose checksum (or tag block checksum) failed. */
  checksumErrors = 0;
  /** Fragments dropped: out of order, missing, or pushed out by newer messages. */
  fragmentsDropped = 0;

  private readonly assemblies: Assembly[] = Array.from({ length: MAX_ASSEMBLIES }, () => new Assembly());
  private assemblyClock = 0;
  private readonly fieldStart = new Int32Array(6);
  private readonly fieldEnd = new Int32Array(6);
  private readonly clock = new Float64Array(8);
  /** The time a `$PGHP` line gave the sentence after it. */
  private pendingTimeSeconds = Number.NaN;

  /** One line, bytes[start, end), without its line end. Never throws. */
  read(bytes: Uint8Array, start: number, end: number): NmeaStatus {
    let time = Number.NaN;
    let group = -1,
      groupIndex = 0,
      groupCount = 0;
    // An NMEA 4.0 tag block: \key:value,…*hh\ before the sentence.
    if (bytes[start] === BACKSLASH) {
      const close = bytes.indexOf(BACKSLASH, start + 1);
      if (close < 0 || close > end) return NmeaStatus.MALFORMED;
      const star = bytes.lastIndexOf(STAR, close);
      if (star <= start) return NmeaStatus.MALFORMED;
      if (xorSum(bytes, start + 1, star) !== hexByte(bytes, star + 1, close)) {
        this.checksumErrors++;
        return NmeaStatus.MALFORMED;
      }
      for (let p = start + 1; p < star; ) {
        let q = bytes.indexOf(COMMA, p);
        if (q < 0 || q > star) q = star;
        if (bytes[p + 1] === COLON) {
          const key = bytes[p];
          if (key === 99 /* c */) time = parseInteger(bytes, p + 2, q);
          else if (key === 103 /* g */) {
            // g:sentence-total-group
            const a = bytes.indexOf(45, p + 2);
            const b = a < 0 ? -1 : bytes.indexOf(45, a + 1);
            if (a > 0 && b > a && b < q) {
              groupIndex = parseInteger(bytes, p + 2, a);
              groupCount = parseInteger(bytes, a + 1, b);
              group = parseInteger(bytes, b + 1, q);
            }
          }
        }
        p = q + 1;
      }
      if (time > 1e12) time /= 1000; // milliseconds
      start = close + 1;
    }
    if (start >= end) return NmeaStatus.IGNORED; // a tag block alone
    if (bytes[start] === DOLLAR) return this.proprietary(bytes, start, end);
    if (bytes[start] !== BANG) return NmeaStatus.MALFORMED;
    const star = bytes.lastIndexOf(STAR, end - 1);
    if (star < start || xorSum(bytes, start + 1, star) !== hexByte(bytes, star + 1, end)) {
      this.checksumErrors++;
      return NmeaStatus.MALFORMED;
    }
    // !ccVDM or !ccVDO
    if (start + 7 > star || bytes[start + 3] !== 86 || bytes[start + 4] !== 68 || bytes[start + 6] !== COMMA) {
      return NmeaStatus.IGNORED;
    }
    const own = bytes[start + 5] === 79; // O
    if (!own && bytes[start + 5] !== 77) return NmeaStatus.IGNORED;
    // count, number, sequence id, channel, payload, fill
    let p = start + 7;
    const fields = this.fieldStart,
      ends = this.fieldEnd;
    for (let k = 0; k < 6; k++) {
      let q = bytes.indexOf(COMMA, p);
      if (q < 0 || q > star) q = star;
      fields[k] = p;
      ends[k] = q;
      p = q + 1;
      if (q === star && k < 5) return NmeaStatus.MALFORMED;
    }
    const count = digit(bytes[fields[0]!]);
    const number = digit(bytes[fields[1]!]);
    const fill = ends[5]! > fields[5]! ? digit(bytes[fields[5]!]) : 0;
    if (count < 1 || number < 1 || number > count || fill < 0 || fill > 5) return NmeaStatus.MALFORMED;
    const sequence = ends[2]! > fields[2]! ? digit(bytes[fields[2]!]) : -1;
    const channel = ends[3]! > fields[3]! ? bytes[fields[3]!]! : 0;
    const payloadStart = fields[4]!,
      payloadEnd = ends[4]!;
    if (Number.isNaN(time)) time = this.pendingTimeSeconds;
    this.pendingTimeSeconds = Number.NaN;

    if (count === 1) {
      const chars = this.copyPayload(bytes, payloadStart, payloadEnd, this.payload, 0);
      if (chars < 0) return NmeaStatus.MALFORMED;
      this.payloadBits = 6 * chars - fill;
      this.timeSeconds = time;
      this.own = own;
      return NmeaStatus.MESSAGE;
    }
    // Fragments: the tag block's group links them when present, else the sequence id and channel.
    const key = group >= 0 ? 1000 + group : sequence * 256 + channel;
    if (group >= 0 && (groupIndex !== number || groupCount !== count)) return NmeaStatus.MALFORMED;
    let assembly: Assembly | undefined;
    for (const a of this.assemblies) if (a.active && a.key === key) assembly = a;
    if (number === 1) {
      if (assembly) {
        this.fragmentsDropped += assembly.received;
        assembly.active = false;
      }
      assembly = this.freeAssembly();
      assembly.active = true;
      assembly.key = key;
      assembly.count = count;
      assembly.received = 0;
      assembly.chars = 0;
      assembly.timeSeconds = time;
      assembly.stamp = ++this.assemblyClock;
    } else if (!assembly || assembly.received + 1 !== number || assembly.count !== count) {
      this.fragmentsDropped++;
      if (assembly) {
        this.fragmentsDropped += assembly.received;
        assembly.active = false;
      }
      return NmeaStatus.MALFORMED;
    }
    const chars = this.copyPayload(bytes, payloadStart, payloadEnd, assembly.payload, assembly.chars);
    if (chars < 0) {
      this.fragmentsDropped += assembly.received + 1;
      assembly.active = false;
      return NmeaStatus.MALFORMED;
    }
    assembly.chars += chars;
    assembly.received++;
    if (assembly.received < count) return NmeaStatus.PENDING;
    assembly.active = false;
    this.payload.set(assembly.payload.subarray(0, assembly.chars));
    this.payloadBits = 6 * assembly.chars - fill;
    this.timeSeconds = assembly.timeSeconds;
    this.own = own;
    return NmeaStatus.MESSAGE;
  }

  /** 6-bit values of bytes[start, end) into `out` from `at`; the count, or -1 for a bad character or overflow. */
  private copyPayload(bytes: Uint8Array, start: number, end: number, out: Uint8Array, at: number): number {
    if (at + (end - start) > out.length) return -1;
    for (let i = start; i < end; i++) {
      const v = sixBit(bytes[i]!);
      if (v < 0) return -1;
      out[at + i - start] = v;
    }
    return end - start;
  }

  /** `$PGHP,1,year,month,day,hour,minute,second,ms,…*hh`: the time of the sentence that follows. */
  private proprietary(bytes: Uint8Array, start: number, end: number): NmeaStatus {
    const star = bytes.lastIndexOf(STAR, end - 1);
    if (star < start || xorSum(bytes, start + 1, star) !== hexByte(bytes, star + 1, Math.min(end, star + 3))) {
      this.checksumErrors++;
      return NmeaStatus.MALFORMED;
    }
    if (!(bytes[start + 1] === 80 && bytes[start + 2] === 71 && bytes[start + 3] === 72 && bytes[start + 4] === 80)) {
      return NmeaStatus.IGNORED;
    }
    const v = this.clock;
    let p = start + 6;
    for (let k = 0; k < 8; k++) {
      let q = bytes.indexOf(COMMA, p);
      if (q < 0 || q > star) q = star;
      v[k] = parseInteger(bytes, p, q);
      p = q + 1;
    }
    if (v[0] === 1 && v[1]! >= 1970) {
      this.pendingTimeSeconds = Date.UTC(v[1]!, v[2]! - 1, v[3]!, v[4]!, v[5]!, v[6]!, v[7]!) / 1000;
    }
    return NmeaStatus.IGNORED;
  }

  private freeAssembly(): Assembly {
    let oldest = this.assemblies[0]!;
    for (const a of this.assemblies) {
      if (!a.active) return a;
      if (a.stamp < oldest.stamp) oldest = a;
    }
    this.fragmentsDropped += oldest.received;
    oldest.active = false;
    return oldest;
  }
}

class Assembly {
  active = false;
  key = 0;
  count = 0;
  received = 0;
  chars = 0;
  stamp = 0;
  timeSeconds = Number.NaN;
  readonly payload = new Uint8Array(MAX_PAYLOAD_CHARS);
}

/** The unsigned integer in bytes[start, end), or NaN. */
function parseInteger(bytes: Uint8Array, start: number, end: number): number {
  if (start >= end || end - start > 15) return Number.NaN;
  let value = 0;
  for (let i = start; i < end; i++) {
    const d = digit(bytes[i]);
    if (d < 0) return Number.NaN;
    value = value * 10 + d;
  }
  return value;
}
