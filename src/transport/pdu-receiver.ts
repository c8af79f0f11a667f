/**
 * The receive hot path between a transport and the decoder: split each datagram into its PDUs (`forEachPdu`,
 * src/pdu/wire/header.ts), filter them, count every rejection by reason (and report it to a sink, if given one), and
 * hand each accepted PDU to the consumer as (bytes, offset, length). Nothing here allocates or throws.
 */
import type { Config } from '../config/schema.js';
import { HeaderOffset, MAX_PDU_BYTES } from '../pdu/wire/constants.js';
import { forEachPdu, lengthFieldIsZero, type PduVisitor } from '../pdu/wire/header.js';
import { CodecStatus } from '../pdu/wire/status.js';
import {
  createTransportStats,
  type DatagramReceiver,
  type DatagramSource,
  type DatagramTransport,
  type RejectReason,
  type TransportStats,
} from './transport.js';

/**
 * Receives one accepted PDU: `bytes[offset, offset + length)`. `bytes` is the receiver's own buffer holding a copy
 * of the datagram (it may be longer than the datagram), reused for the next one: valid only during the call, so
 * copy what you keep. `datagramBytes` is the size of the datagram the PDU came in.
 */
export type PduConsumer = (
  bytes: Uint8Array,
  offset: number,
  length: number,
  source: DatagramSource,
  datagramBytes: number,
) => void;

/**
 * Told about each PDU (or, for `sourceNotAllowed`, each datagram) a `PduReceiver` drops, when it drops it, after
 * the counter is incremented. Give the receiver one object for its lifetime: reporting then allocates nothing.
 */
export interface RejectionSink {
  /**
   * @param reason - why: the `stats.rejected` counter that was incremented.
   * @param offset - where the dropped PDU starts in the datagram. For `truncated` and `badLength`, the header that
   *   could not be used (nothing after it in the datagram can be located); 0 for `sourceNotAllowed`.
   * @param datagramBytes - size of the datagram.
   * @param source - where the datagram came from.
   */
  onRejected(reason: RejectReason, offset: number, datagramBytes: number, source: DatagramSource): void;
}

/** What a receiver accepts. Every list left out or empty accepts everything. */
export interface ReceiveFilterOptions {
  /** Exercise id to accept (header byte 1). Defaults to any. */
  readonly exercise?: number;
  /** Protocol versions to accept (header byte 0). Defaults to any. */
  readonly protocolVersions?: readonly number[];
  /**
   * PDU types the consumer takes (header byte 2), e.g. `[1, 67]` for Entity State and Entity State Update; a PDU of
   * another type is counted in `stats.otherPdus` by its type, not rejected. Defaults to any.
   */
  readonly pduTypes?: readonly number[];
  /** Source addresses to accept. Defaults to any. */
  readonly sources?: readonly string[];
  /**
   * Sites (`"1"`) or site:application pairs (`"1:3001"`) to accept, matched against the entity or object id that
   * opens the body of nearly every DIS PDU (bytes 12–15: originating/firing/entity id). Defaults to any.
   */
  readonly applications?: readonly string[];
  /** Largest PDU accepted, in bytes. Defaults to `MAX_PDU_BYTES` (8192, DIS MAX_PDU_SIZE_OCTETS). */
  readonly maxPduBytes?: number;
  /** Told about each exception a consumer or the rejection sink throws (after it is counted). Defaults to none. */
  readonly onConsumerError?: (error: unknown) => void;
  /**
   * Told about each rejection as it is counted, with its reason and offset (what it throws is counted in
   * `consumerErrors`). Defaults to none.
   */
  readonly rejectionSink?: RejectionSink;
}

/** Rejections that a filter made (as opposed to framing problems): a datagram with one was not wanted. */
export function filterRejections(stats: TransportStats): number {
  const r = stats.rejected;
  return r.unsupportedVersion + r.wrongExercise + r.sourceNotAllowed + r.applicationNotAllowed;
}

/** The filter a configuration asks for: its exercise, accepted versions and allow-lists. */
export function receiveFilterFromConfig(config: Pick<Config, 'dis' | 'filter'>): ReceiveFilterOptions {
  return {
    exercise: config.dis.exercise,
    protocolVersions: config.dis.acceptProtocolVersions,
    sources: config.filter.allowSources,
    applications: config.filter.allowApplications,
  };
}

const NO_SOURCE: DatagramSource = { address: '', port: 0, family: '' };

function byteTable(values: readonly number[] | undefined): Uint8Array | undefined {
  if (!values || values.length === 0) return undefined;
  const table = new Uint8Array(256);
  for (const v of values) if (v >= 0 && v < 256) table[v] = 1;
  return table;
}

/** Splits, filters and counts; hand `receive` to a transport (`transport.onDatagram(receiver.receive)`). */
export class PduReceiver {
  readonly stats: TransportStats;
  private readonly consumer: PduConsumer;
  private readonly exercise: number;
  private readonly versions: Uint8Array | undefined;
  private readonly pduTypes: Uint8Array | undefined;
  private readonly sources: ReadonlySet<string> | undefined;
  private readonly sites: ReadonlySet<number>;
  // site · 2^16 + application: number keys, so the lookup builds no string per PDU.
  private readonly siteApplications: ReadonlySet<number>;
  private readonly filterApplications: boolean;
  private readonly maxPduBytes: number;
  private readonly onConsumerError: ((error: unknown) => void) | undefined;
  private readonly rejectionSink: RejectionSink | undefined;
  // Every datagram is copied here first, so one DataView serves the receiver's lifetime (docs/benchmarks.md).
  private readonly scratch = new Uint8Array(65_536);
  // The datagram being walked, for `visit` (built once, so the walk allocates nothing) and the sink.
  private source: DatagramSource = NO_SOURCE;
  private datagramBytes = 0;
  /** End of the last PDU visited: where the walk stopped when a header turns out bad. */
  private walked = 0;

  /**
   * @param consumer - called for each accepted PDU.
   * @param options - filters; see `ReceiveFilterOptions`.
   * @param stats - counters to update, usually the transport's (`transport.stats`). Defaults to new ones.
   */
  constructor(
    consumer: PduConsumer,
    options: ReceiveFilterOptions = {},
    stats: TransportStats = createTransportStats(),
  ) {
    this.consumer = consumer;
    this.stats = stats;
    this.exercise = options.exercise ?? -1;
    this.versions = byteTable(options.protocolVersions);
    this.pduTypes = byteTable(options.pduTypes);
    this.sources = options.sources && options.sources.length > 0 ? new Set(options.sources) : undefined;
    const sites = new Set<number>();
    const pairs = new Set<number>();
    for (const entry of options.applications ?? []) {
      const [site, application] = entry.split(':').map(Number);
      if (application === undefined) sites.add(site!);
      else pairs.add(site! * 0x10000 + application);
    }
    this.sites = sites;
    this.siteApplications = pairs;
    this.filterApplications = sites.size + pairs.size > 0;
    this.maxPduBytes = options.maxPduBytes ?? MAX_PDU_BYTES;
    this.onConsumerError = options.onConsumerError;
    this.rejectionSink = options.rejectionSink;
  }

  /** Handles one datagram. Total: counts what it drops, never throws. */
  readonly receive: DatagramReceiver = (datagram, source) => {
    const end = datagram.length;
    this.source = source;
    this.datagramBytes = end;
    if (this.sources !== undefined && !this.sources.has(source.address)) return this.reject('sourceNotAllowed', 0);
    let bytes = datagram;
    if (end <= this.scratch.length) {
      this.scratch.set(datagram);
      bytes = this.scratch;
    }
    this.walked = 0;
    const status = forEachPdu(bytes, this.visit, 0, end);
    // A bad header ends the walk: nothing after it can be located.
    if (status === CodecStatus.BAD_LENGTH) this.reject('badLength', this.walked);
    else if (status !== CodecStatus.OK) this.reject('truncated', this.walked);
  };

  private readonly visit: PduVisitor = (bytes, offset, length) => {
    this.walked = offset + length;
    if (lengthFieldIsZero(bytes, offset)) this.repairLength(bytes, offset, length);
    const rejection = this.rejection(bytes, offset, length);
    if (rejection !== undefined) return this.reject(rejection, offset);
    const stats = this.stats;
    const type = bytes[offset + 2]!;
    if (this.pduTypes !== undefined && this.pduTypes[type] === 0) {
      stats.otherPdus[type]!++;
      return;
    }
    stats.pdusAccepted++;
    try {
      this.consumer(bytes, offset, length, this.source, this.datagramBytes);
    } catch (error) {
      stats.consumerErrors++;
      this.onConsumerError?.(error);
    }
  };

  /**
   * A Length of 0 was read as the rest of the datagram (`pduLengthAt`): counted, and written into the receiver's copy
   * so that what consumers forward (a bridge, the map's feed) carries the Length every reader expects.
   */
  private repairLength(bytes: Uint8Array, offset: number, length: number): void {
    this.stats.warnings.lengthZero++;
    if (bytes !== this.scratch) return;
    bytes[offset + HeaderOffset.LENGTH] = length >>> 8;
    bytes[offset + HeaderOffset.LENGTH + 1] = length & 0xff;
  }

  /** Counts one rejection and reports it. */
  private reject(reason: RejectReason, offset: number): void {
    this.stats.rejected[reason]++;
    const sink = this.rejectionSink;
    if (sink === undefined) return;
    try {
      sink.onRejected(reason, offset, this.datagramBytes, this.source);
    } catch (error) {
      this.stats.consumerErrors++;
      this.onConsumerError?.(error);
    }
  }

  /** Why the filters turn this PDU away, or undefined when they accept it. */
  private rejection(bytes: Uint8Array, offset: number, length: number): RejectReason | undefined {
    if (length > this.maxPduBytes) return 'oversized';
    if (this.versions !== undefined && this.versions[bytes[offset]!] === 0) return 'unsupportedVersion';
    if (this.exercise >= 0 && bytes[offset + 1] !== this.exercise) return 'wrongExercise';
    if (this.filterApplications) {
      if (length < 16) return 'applicationNotAllowed';
      const site = (bytes[offset + 12]! << 8) | bytes[offset + 13]!;
      const application = (bytes[offset + 14]! << 8) | bytes[offset + 15]!;
      const allowed = this.sites.has(site) || this.siteApplications.has(site * 0x10000 + application);
      if (!allowed) return 'applicationNotAllowed';
    }
    return undefined;
  }
}

/**
 * Delivers a transport's accepted PDUs to `consumer`, counting into the transport's stats.
 * @returns the receiver (its `stats` are the transport's).
 */
export function receivePdus(
  transport: DatagramTransport,
  consumer: PduConsumer,
  options: ReceiveFilterOptions = {},
): PduReceiver {
  const receiver = new PduReceiver(consumer, options, transport.stats);
  transport.onDatagram(receiver.receive);
  return receiver;
}
