/**
 * `npm run fuzz -- [--datagrams N] [--seed S]`: random and mutated datagrams — mutations of the real captures in
 * test/fixtures/dis/*.pcap — through both ways reckon reads DIS:
 *   receive  the subscriber's own path (PduReceiver → decode → validate → remote-entity table → events, frames
 *            and the `reckon subscribe` view), over a transport double and a virtual clock;
 *   decode   the `reckon decode` path (pcap → datagrams → PDUs → decode → validate → NDJSON lines, summary),
 *            every PDU type through its own decoder and JSON form;
 *   view     the map gateway's engagement feed (Fire, Detonation, Collision, entity control and radio PDUs → the
 *            page's messages).
 * The seeds are the real captures and test/fixtures/pdu/every-pdu-type.pcap (every PDU type reckon decodes).
 * Prints one JSON line: counts per status code and rejection reason for each path, table outcomes, throws (every
 * exception anywhere is caught, counted and its first few shown) and non-finite values that reached an event, a
 * frame or a view. Exit 1 when any throw or non-finite value was seen. Same seed, same datagrams, same counts.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Subscription, type SchedulerAction, type SchedulerLike } from 'rxjs';
import { EntityList, subscribePlainLines } from '../src/cli/terminal/subscribe-view.js';
import { createRandom, type Random } from '../src/math/random.js';
import { summarizeDisCapture } from '../src/pcap/capture-summary.js';
import { disCapturePdus, emptyTotals } from '../src/pcap/dis-capture.js';
import { udpFromFrame } from '../src/pcap/packet.js';
import { readCapture } from '../src/pcap/reader.js';
import { renderCaptureSummary } from '../src/cli/terminal/decode-summary.js';
import { pcapFileHeader, pcapUdpRecord } from '../src/pcap/writer.js';
import { pduTypeName } from '../src/names/enumerations.js';
import { pduRecordToJson } from '../src/pdu/json/pdu-json.js';
import { jsonLineNamingNonFinite } from '../src/cli/terminal/printable.js';
import { ENGAGEMENT_PDU_TYPES, EngagementFeed } from '../src/view/engagement-feed.js';
import { EntityStateOffset as ES, EntityStateUpdateOffset as ESU } from '../src/pdu/wire/constants.js';
import { entityStateRecordToPdu } from '../src/pdu/json/entity-state-json.js';
import { CODEC_STATUS_NAMES, codecStatusName } from '../src/pdu/wire/status.js';
import type { EntityFrame } from '../src/stream/frame.js';
import { createSubscriber } from '../src/stream/subscriber.js';
import {
  createTransportStats,
  totalOtherPdus,
  type DatagramReceiver,
  type DatagramTransport,
} from '../src/transport/transport.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

export interface FuzzOptions {
  /** Datagrams to generate. */
  readonly datagrams: number;
  /** Seed of the generator. */
  readonly seed: number;
  /** Real datagrams to mutate. Defaults to those of test/fixtures/dis/*.pcap. */
  readonly seeds?: readonly Uint8Array[];
}

export interface FuzzReport {
  datagrams: number;
  seed: number;
  receive: {
    /** Framing and filter rejections (PduReceiver), by reason. */
    rejected: Record<string, number>;
    /** PDUs of types the subscriber passes over, counted (not rejected). */
    other: number;
    /** Entity State PDUs past the filters, by status name (OK = applied to the table). */
    status: Record<string, number>;
    /** What the table made of the PDUs it was given. */
    table: Record<string, number>;
    /** Entity events emitted, by type. */
    events: Record<string, number>;
    frames: number;
  };
  decode: {
    pdus: number;
    /** Entity State and Update PDUs by status name. */
    status: Record<string, number>;
    /** Every other PDU type, by type name, then status name (OK = decoded, its JSON line written). */
    types: Record<string, Record<string, number>>;
    /** Header problems that end a datagram, by status name. */
    headers: Record<string, number>;
  };
  /** The map gateway's engagement feed: messages made, PDUs it refused, by message type. */
  view: { messages: Record<string, number>; rejected: number };
  /** Exceptions thrown anywhere: must be 0. */
  throws: number;
  /** Non-finite numbers in an event, a frame, or NaN in a rendered view or summary: must be 0. */
  nonFinite: number;
  /** The first few problems, with the datagram (hex) that caused them. */
  problems: string[];
}

/** The capture folders whose datagrams seed the mutator: the real captures, and every PDU type reckon decodes. */
const SEED_DIRS = [join(ROOT, 'test/fixtures/dis'), join(ROOT, 'test/fixtures/pdu')];

/** The datagrams of every capture in `dirs`, plus each PDU of a bundle on its own. */
export function captureSeeds(dirs: readonly string[] = SEED_DIRS): Uint8Array[] {
  const seeds: Uint8Array[] = [];
  const files = dirs.flatMap((dir) =>
    readdirSync(dir)
      .filter((f) => f.endsWith('.pcap'))
      .sort()
      .map((f) => join(dir, f)),
  );
  for (const file of files) {
    const capture = readCapture(readFileSync(file));
    for (const frame of capture.frames) {
      const udp = udpFromFrame(frame.linkType, frame.data);
      if (udp.kind !== 'udp') continue;
      const payload = new Uint8Array(udp.payload); // a copy: the capture's bytes stay untouched
      seeds.push(payload);
      for (let offset = 0; offset + 12 <= payload.length; ) {
        const length = (payload[offset + 8]! << 8) | payload[offset + 9]!;
        if (length < 12 || offset + length > payload.length) break;
        if (offset > 0 || length < payload.length) seeds.push(payload.slice(offset, offset + length));
        offset += length;
      }
    }
  }
  return seeds;
}

/** A transport double: the fuzzer hands datagrams in. */
class InjectedTransport implements DatagramTransport {
  readonly stats = createTransportStats();
  receiver: DatagramReceiver | undefined;
  send(): void {}
  onDatagram(receiver: DatagramReceiver | undefined): void {
    this.receiver = receiver;
  }
  onClose(): void {}
  close(): Promise<void> {
    return Promise.resolve();
  }
}

/**
 * A clock the fuzzer moves by hand. rxjs's VirtualTimeScheduler chains every rescheduled periodic action to the one
 * before, so a long run ends in a stack overflow when they are torn down; here an action is one object for life.
 */
class ManualScheduler implements SchedulerLike {
  nowMs = 0;
  readonly due = new Set<ManualAction<unknown>>();
  now(): number {
    return this.nowMs;
  }
  schedule<T>(work: (this: SchedulerAction<T>, state: T) => void, delay = 0, state?: T): Subscription {
    return new ManualAction<T>(this, work).schedule(state, delay);
  }
  /** Runs every action due by `toMs`, earliest first, each at its own time. */
  advance(toMs: number): void {
    for (;;) {
      let next: ManualAction<unknown> | undefined;
      for (const action of this.due) if (action.dueMs <= toMs && (!next || action.dueMs < next.dueMs)) next = action;
      if (!next) break;
      this.due.delete(next);
      this.nowMs = next.dueMs;
      next.run();
    }
    this.nowMs = toMs;
  }
}

class ManualAction<T> extends Subscription implements SchedulerAction<T> {
  dueMs = 0;
  private state: T | undefined;
  constructor(
    private readonly scheduler: ManualScheduler,
    private readonly work: (this: SchedulerAction<T>, state: T) => void,
  ) {
    super(() => scheduler.due.delete(this as ManualAction<unknown>));
  }
  schedule(state?: T, delay = 0): Subscription {
    if (this.closed) return this;
    this.state = state;
    this.dueMs = this.scheduler.nowMs + delay;
    this.scheduler.due.add(this as ManualAction<unknown>);
    return this;
  }
  run(): void {
    this.work.call(this, this.state as T);
  }
}

const SOURCE = { address: '127.0.0.1', port: 3000, family: 'IPv4' };
const F32_MAX = 3.4028234663852886e38;

/** Values that no entity may carry, and some that are only just allowed. */
function hostileFloat(random: Random): number {
  const r = random.nextUint32() % 10;
  if (r === 0) return NaN;
  if (r === 1) return Infinity;
  if (r === 2) return -Infinity;
  if (r === 3) return (random.next() < 0.5 ? -1 : 1) * 10 ** (5 + random.next() * 33); // 1e5 … 1e38
  if (r === 4) return (random.next() < 0.5 ? -1 : 1) * F32_MAX;
  if (r === 5) return (random.next() < 0.5 ? -1 : 1) * 1e9 * (1 + random.next() * 1e-6); // about the location bound
  return (random.next() - 0.5) * 2e4;
}

/**
 * The mutator. Each case aims at a class of problems; together they reach every framing and filter rejection the
 * subscriber counts, every codec and validation status a decoder can meet, and every table outcome.
 */
export class Mutator {
  private readonly buffer = new Uint8Array(65_536);
  private readonly view = new DataView(this.buffer.buffer);
  private readonly entityStates: Uint8Array[];
  private readonly updates: Uint8Array[];
  private timestamp = 0;

  constructor(
    private readonly random: Random,
    private readonly seeds: readonly Uint8Array[],
  ) {
    this.entityStates = seeds.filter((s) => s.length >= 144 && s[2] === 1 && ((s[8]! << 8) | s[9]!) === s.length);
    // Entity State Updates do not occur in the captures: made from their Entity State PDUs, field by field.
    this.updates = this.entityStates.map((s) => {
      const u = new Uint8Array(72);
      u.set(s.subarray(0, 12));
      u[2] = 67;
      u[8] = 0;
      u[9] = 72;
      u.set(s.subarray(12, 18), 12);
      u.set(s.subarray(ES.LINEAR_VELOCITY, ES.APPEARANCE + 4), ESU.LINEAR_VELOCITY);
      return u;
    });
  }

  private pick<T>(list: readonly T[]): T {
    return list[this.random.nextUint32() % list.length]!;
  }

  private int(n: number): number {
    return this.random.nextUint32() % n;
  }

  /** A real PDU (full or update) re-identified, with a timestamp later than any before: it reaches the table. */
  private live(): number {
    const update = this.int(5) === 0;
    const seed = update ? this.pick(this.updates) : this.pick(this.entityStates);
    this.buffer.set(seed);
    const v = this.view;
    v.setUint16(12, 1 + this.int(3));
    v.setUint16(14, 1 + this.int(3));
    v.setUint16(16, 1 + this.int(120));
    this.timestamp = (this.timestamp + 2 * (1 + this.int(50))) % 0x1_0000_0000;
    if (this.int(8) !== 0) v.setUint32(4, this.timestamp); // else the recorded one: duplicates, out of order
    if (this.int(40) === 0) v.setUint32(update ? ESU.APPEARANCE : ES.APPEARANCE, 1 << 23); // deactivated: removed
    return seed.length;
  }

  /** Fills the generator's buffer with the next datagram. @returns its length. */
  next(): number {
    const b = this.buffer,
      v = this.view;
    switch (this.int(10)) {
      case 0: {
        // random bytes, sometimes behind a plausible header
        const n = this.int(300);
        for (let i = 0; i < n; i++) b[i] = this.int(256);
        if (n >= 12 && this.int(2) === 0) {
          b[0] = 5 + this.int(3);
          b[1] = 1;
          b[2] = this.int(2) === 0 ? 1 : 67;
          b[8] = n >> 8;
          b[9] = n & 0xff;
        }
        return n;
      }
      case 1: {
        // a real datagram cut short
        const s = this.pick(this.seeds);
        b.set(s);
        return this.int(s.length + 1);
      }
      case 2: {
        // bit flips in a real datagram
        const s = this.pick(this.seeds);
        b.set(s);
        for (let i = 1 + this.int(8); i > 0; i--) b[this.int(s.length)]! ^= 1 << this.int(8);
        return s.length;
      }
      case 3: {
        // a wrong Length or record count
        const s = this.pick(this.entityStates);
        b.set(s);
        const at = this.int(2) === 0 ? 8 : ES.PARAMETER_COUNT;
        if (at === 8) v.setUint16(8, this.int(3) === 0 ? this.int(12) : this.int(0x10000));
        else b[at] = this.int(256);
        return s.length + this.int(40);
      }
      case 4: {
        // a bundle of real PDUs, maybe cut
        let n = 0;
        for (let k = 1 + this.int(4); k > 0; k--) {
          const s = this.pick(this.seeds);
          if (n + s.length > b.length) break;
          b.set(s, n);
          n += s.length;
        }
        return this.int(3) === 0 ? this.int(n + 1) : n;
      }
      case 5: {
        // a header field changed: version, exercise, PDU type
        const s = this.pick(this.entityStates);
        b.set(s);
        const field = this.int(3);
        if (field === 0) b[0] = this.int(4) === 0 ? this.int(256) : this.pick([0, 1, 4, 5, 6, 7, 8]);
        else if (field === 1) b[1] = this.int(256);
        else b[2] = this.pick([0, 2, 3, 20, 67, 255]);
        return s.length;
      }
      case 6:
      case 7: {
        // one value no entity can have, in a PDU that would otherwise reach the table
        const n = this.live();
        const update = b[2] === 67;
        const motion = update ? ESU.LINEAR_VELOCITY : ES.LINEAR_VELOCITY;
        const target = this.int(update ? 5 : 8);
        if (target === 0) v.setUint16(12 + 2 * this.int(3), this.int(2) === 0 ? 0 : 0xffff);
        else if (target === 1) v.setFloat64(motion + 12 + 8 * this.int(3), hostileFloat(this.random));
        else if (target === 2) v.setFloat32(motion + 4 * this.int(3), hostileFloat(this.random));
        else if (target === 3) v.setFloat32(motion + 36 + 4 * this.int(3), hostileFloat(this.random));
        // random bits in the high word of a float64 coordinate
        else if (target === 4) v.setUint32(motion + 12 + 8 * this.int(3), this.random.nextUint32());
        else if (target === 5) b[ES.DR_ALGORITHM] = this.int(256);
        else if (target === 6) v.setFloat32(ES.DR_LINEAR_ACCELERATION + 4 * this.int(3), hostileFloat(this.random));
        else v.setFloat32(ES.DR_ANGULAR_VELOCITY + 4 * this.int(3), hostileFloat(this.random));
        return n;
      }
      case 8:
        // oversized: a Length beyond MAX_PDU_SIZE_OCTETS (8192) that the datagram does hold
        if (this.int(4) === 0) {
          const s = this.pick(this.entityStates);
          const n = 8193 + this.int(1000);
          b.set(s);
          b.fill(0, s.length, n);
          v.setUint16(8, n);
          return n;
        }
        return this.live();
      default:
        return this.live();
    }
  }

  /** The current datagram (valid until `next`). */
  datagram(length: number): Uint8Array {
    return this.buffer.subarray(0, length);
  }
}

function hex(bytes: Uint8Array): string {
  return Buffer.from(bytes.subarray(0, 200)).toString('hex');
}

function allFinite(values: ArrayLike<number>): boolean {
  for (let i = 0; i < values.length; i++) if (!Number.isFinite(values[i])) return false;
  return true;
}

/** Whether a JSON-bound value holds a number JSON cannot carry (NaN, ±Infinity), at any depth. */
function holdsNonFinite(value: unknown, depth = 0): boolean {
  if (typeof value === 'number') return !Number.isFinite(value);
  if (typeof value !== 'object' || value === null || depth > 8) return false;
  for (const v of Object.values(value)) if (holdsNonFinite(v, depth + 1)) return true;
  return false;
}

const ENGAGEMENT_TYPES = new Set(ENGAGEMENT_PDU_TYPES);

/** Runs both paths on `options.datagrams` generated datagrams. */
export function runFuzz(options: FuzzOptions): FuzzReport {
  const random = createRandom(options.seed);
  const mutator = new Mutator(random, options.seeds ?? captureSeeds());
  const report: FuzzReport = {
    datagrams: options.datagrams,
    seed: options.seed,
    receive: { rejected: {}, other: 0, status: {}, table: {}, events: {}, frames: 0 },
    decode: { pdus: 0, status: {}, types: {}, headers: {} },
    view: { messages: {}, rejected: 0 },
    throws: 0,
    nonFinite: 0,
    problems: [],
  };
  let current: Uint8Array = new Uint8Array(0);
  const problem = (what: string, error?: unknown) => {
    if (report.problems.length < 5) {
      const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error ?? '');
      report.problems.push(`${what}${message ? `: ${message}` : ''} (datagram ${hex(current)})`);
    }
  };
  const threw = (where: string, error: unknown) => {
    report.throws++;
    problem(`${where} threw`, error);
  };

  // The receive path: a subscriber as `reckon subscribe` runs one, on a virtual clock (2 ms per datagram).
  const scheduler = new ManualScheduler();
  const transport = new InjectedTransport();
  const subscriber = createSubscriber({ receiver: { maxEntities: 300 } }, { transport, scheduler });
  const entities = new EntityList();
  const onError = (error: unknown) => threw('subscriber stream', error);
  const subscriptions = [
    subscriber.events$.subscribe({
      next(event) {
        report.receive.events[event.type] = (report.receive.events[event.type] ?? 0) + 1;
        if (event.type === 'fire' || event.type === 'detonation' || event.type === 'collision') {
          const numbers = [...event.location, event.latitude, event.longitude, event.height];
          if (event.type !== 'collision') numbers.push(...event.velocity);
          if (!allFinite(numbers)) {
            report.nonFinite++;
            problem(`non-finite ${event.type} event`);
          }
        } else {
          entities.apply(event);
          const s = event.state;
          if (!allFinite(s.location) || !allFinite(s.linearVelocity) || !allFinite(s.orientation)) {
            report.nonFinite++;
            problem(`non-finite ${event.type} event`);
          }
        }
        JSON.stringify(event); // as `reckon subscribe --json` prints it
      },
      error: onError,
    }),
    subscriber.frames({ rateHz: 2 }).subscribe({
      next(frame: EntityFrame) {
        report.receive.frames++;
        for (let slot = 0; slot < frame.slotCount; slot++) {
          if (frame.active[slot] !== 1) continue;
          const j = 3 * slot;
          if (!allFinite(frame.location.subarray(j, j + 3)) || !allFinite(frame.orientation.subarray(j, j + 3))) {
            report.nonFinite++;
            problem('non-finite frame');
          }
        }
        const text = subscribePlainLines(frame, entities).join('\n');
        if (/NaN|Infinity/.test(text)) {
          report.nonFinite++;
          problem(`view shows ${text.match(/.*(NaN|Infinity).*/)![0]}`);
        }
      },
      error: onError,
    }),
  ];

  // The decode path, a capture of up to 2048 datagrams at a time.
  let batch: Uint8Array[] = [];
  const decodeBatch = (datagrams: Uint8Array[]): void => {
    const records = datagrams.map((d, i) => pcapUdpRecord(d, 1_700_000_000 + i * 1e-3));
    const capture = readCapture(Buffer.concat([pcapFileHeader(), ...records]));
    const totals = emptyTotals();
    let framed = 0;
    for (const event of disCapturePdus(capture, totals, { port: 3000 })) {
      // A header that cannot be framed ends its datagram, and is not counted as a PDU.
      if (totals.pdus === framed) {
        const name = codecStatusName(event.status);
        report.decode.headers[name] = (report.decode.headers[name] ?? 0) + 1;
        continue;
      }
      framed = totals.pdus;
      report.decode.pdus++;
      if (event.pduType !== 1 && event.pduType !== 67) {
        const type = pduTypeName(event.pduType);
        const counts = (report.decode.types[type] ??= {});
        const status = codecStatusName(event.status);
        counts[status] = (counts[status] ?? 0) + 1;
        // The NDJSON line `reckon decode --json` prints: JSON has no NaN or Infinity.
        if (event.other) {
          const pdu = pduRecordToJson(event.other);
          const line = jsonLineNamingNonFinite({ pdu });
          if (holdsNonFinite(pdu) && !/"(NaN|-?Infinity)"/.test(line)) {
            report.nonFinite++;
            problem(`a non-finite number of a ${type} PDU written as null in its JSON line`);
          }
        }
        continue;
      }
      const name = codecStatusName(event.status);
      report.decode.status[name] = (report.decode.status[name] ?? 0) + 1;
      // The NDJSON line `reckon decode --json` prints.
      const record = event.record ?? event.rejectedRecord;
      if (record) JSON.stringify(entityStateRecordToPdu(record));
    }
    const summary = renderCaptureSummary('fuzz.pcap', capture, summarizeDisCapture(capture, { port: 3000 }));
    // The rejection lines name NaN in their messages; the rest is numbers from decoded PDUs and the capture.
    const shown = summary.replace(/^\s+\d+\s+[A-Z_]+: .*$/gm, '');
    if (/NaN|Infinity/.test(shown)) {
      report.nonFinite++;
      problem(`decode summary shows ${shown.match(/.*(NaN|Infinity).*/)![0]}`);
    }
  };
  const flushDecode = (): void => {
    const datagrams = batch;
    batch = [];
    try {
      decodeBatch(datagrams);
    } catch {
      // Find the datagrams that throw, one capture each.
      for (const d of datagrams) {
        current = d;
        try {
          decodeBatch([d]);
        } catch (error) {
          threw('decode', error);
        }
      }
    }
  };

  // The map gateway's engagement feed, on each PDU of the types it takes.
  const feed = new EngagementFeed();
  const onMessage = (message: { type: string }) => {
    report.view.messages[message.type] = (report.view.messages[message.type] ?? 0) + 1;
    if (holdsNonFinite(message)) {
      report.nonFinite++;
      problem(`non-finite number in a ${message.type} message to the map`);
    }
  };
  const toView = (d: Uint8Array, nowMs: number): void => {
    for (let offset = 0; offset + 12 <= d.length; ) {
      const length = (d[offset + 8]! << 8) | d[offset + 9]!;
      if (length < 12 || offset + length > d.length) break;
      if (ENGAGEMENT_TYPES.has(d[offset + 2]!)) feed.consume(d, offset, length, nowMs, onMessage);
      offset += length;
    }
  };

  // The table lives while the subscriber is connected: its counters are read before the last subscription ends.
  let tableCounts: Record<string, number> = {};
  for (let i = 0; i < options.datagrams; i++) {
    const length = mutator.next();
    current = mutator.datagram(length);
    try {
      scheduler.advance(2 * i); // expiry (every second) and frames (twice a second) due by now
      transport.stats.datagramsIn++;
      transport.receiver?.(current, SOURCE);
    } catch (error) {
      threw('receive', error);
    }
    try {
      toView(current, 1_700_000_000_000 + 2 * i);
      if (i % 500 === 499) feed.everySecond(1_700_000_000_000 + 2 * i, onMessage);
    } catch (error) {
      threw('view', error);
    }
    if (length <= 65_507) batch.push(current.slice());
    if (batch.length === 2048) flushDecode();
  }
  if (batch.length > 0) flushDecode();
  const table = subscriber.table;
  if (table) tableCounts = Object.fromEntries(Object.entries(table.stats).filter(([, n]) => n > 0));
  for (const s of subscriptions) {
    try {
      s.unsubscribe();
    } catch (error) {
      threw('unsubscribe', error);
    }
  }

  const stats = subscriber.stats;
  for (const [reason, n] of Object.entries(stats.transport.rejected)) if (n > 0) report.receive.rejected[reason] = n;
  report.receive.other = totalOtherPdus(stats.transport);
  for (const name of CODEC_STATUS_NAMES) {
    let n = stats.decodeErrors[name];
    for (const counts of Object.values(stats.otherDecodeErrors)) n += counts[name] ?? 0;
    if (n > 0) report.receive.status[name] = n;
  }
  const rejected = Object.values(report.receive.status).reduce((a, b) => a + b, 0);
  report.receive.status.OK = stats.transport.pdusAccepted - rejected;
  if (stats.transport.consumerErrors > 0) {
    report.throws += stats.transport.consumerErrors;
    problem(`${stats.transport.consumerErrors} consumer errors caught by the receiver`);
  }
  report.receive.table = { ...tableCounts, timedOut: stats.transport.timeouts };
  report.view.rejected = Object.values(feed.stats.rejected).reduce((a, b) => a + b, 0);
  return report;
}

function parseArgs(argv: readonly string[]): { datagrams: number; seed: number } | string {
  let datagrams = 100_000;
  let seed = 1;
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = argv[i + 1];
    if (flag === '--help' || flag === '-h') return 'help';
    if (flag !== '--datagrams' && flag !== '--seed') return `unknown option "${flag}"`;
    const n = Number(value);
    if (value === undefined || !Number.isInteger(n) || n < (flag === '--seed' ? 0 : 1)) {
      return `${flag}: expected a whole number${flag === '--seed' ? '' : ' ≥ 1'}, got "${value ?? ''}"`;
    }
    if (flag === '--datagrams') datagrams = n;
    else seed = n;
    i++;
  }
  return { datagrams, seed };
}

const USAGE = `Usage: npm run fuzz -- [--datagrams N] [--seed S]

Random and mutated datagrams (mutations of test/fixtures/dis/*.pcap) through the subscriber's receive path and the
decode path; prints one JSON line with the counts per status code. Exit 1 when anything threw or a non-finite value
reached an event, a frame or a view.

  --datagrams N  datagrams to generate (default 100000)
  --seed S       generator seed, for a reproducible run (default 1)
`;

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const parsed = parseArgs(process.argv.slice(2));
  if (parsed === 'help') {
    process.stdout.write(USAGE);
  } else if (typeof parsed === 'string') {
    process.stderr.write(`fuzz: ${parsed}\n\n${USAGE}`);
    process.exitCode = 2;
  } else {
    const started = process.hrtime.bigint();
    const report = runFuzz(parsed);
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    process.stdout.write(JSON.stringify({ ...report, seconds: Math.round(seconds * 10) / 10 }) + '\n');
    process.exitCode = report.throws > 0 || report.nonFinite > 0 ? 1 : 0;
  }
}
