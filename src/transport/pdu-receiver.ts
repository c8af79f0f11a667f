/**
 * The receive hot path between a transport and the decoder: split each datagram into its PDUs (IEEE 1278.1
 * bundling: each header's Length says where the next PDU starts), filter them, count every rejection by reason,
 * and hand each accepted PDU to the consumer as (bytes, offset, length). Nothing here allocates or throws.
 */
import type { Config } from '../config/schema.js';
import {
  createTransportStats,
  type DatagramReceiver,
  type DatagramSource,
  type DatagramTransport,
  type TransportStats,
} from './transport.js';

/** DIS MAX_PDU_SIZE_OCTETS (IEEE 1278.1-2012 Table 25). */
export const MAX_PDU_BYTES = 8192;
const HEADER_BYTES = 12;

/**
 * Receives one accepted PDU: `bytes[offset, offset + length)`. `bytes` is the receiver's own buffer holding a copy
 * of the datagram (it may be longer than the datagram), reused for the next one: valid only during the call, so
 * copy what you keep.
 */
export type PduConsumer = (bytes: Uint8Array, offset: number, length: number, source: DatagramSource) => void;

/** What a receiver accepts. Every list left out or empty accepts everything. */
export interface ReceiveFilterOptions {
  /** Exercise id to accept (header byte 1). Defaults to any. */
  readonly exercise?: number;
  /** Protocol versions to accept (header byte 0). Defaults to any. */
  readonly protocolVersions?: readonly number[];
  /** PDU types to accept (header byte 2), e.g. `[1, 67]` for Entity State and Entity State Update. Defaults to any. */
  readonly pduTypes?: readonly number[];
  /** Source addresses to accept. Defaults to any. */
  readonly sources?: readonly string[];
  /**
   * Sites (`"1"`) or site:application pairs (`"1:3001"`) to accept, matched against the entity or object id that
   * opens the body of nearly every DIS PDU (bytes 12–15: originating/firing/entity id). Defaults to any.
   */
  readonly applications?: readonly string[];
  /** Largest PDU accepted, in bytes. Defaults to 8192 (MAX_PDU_SIZE_OCTETS). */
  readonly maxPduBytes?: number;
  /** Told about each exception a consumer throws (after it is counted). Defaults to none. */
  readonly onConsumerError?: (error: unknown) => void;
}

/**
 * Whether a datagram starts like DIS: protocol version 1–7, a non-zero PDU type and a Length of at least 12. For
 * telling DIS from other traffic on a shared port; it says nothing about the rest of the datagram.
 */
export function looksLikeDis(datagram: Uint8Array): boolean {
  return (
    datagram.length >= HEADER_BYTES &&
    datagram[0]! >= 1 &&
    datagram[0]! <= 7 &&
    datagram[2] !== 0 &&
    ((datagram[8]! << 8) | datagram[9]!) >= HEADER_BYTES
  );
}

/** Rejections that a filter made (as opposed to framing problems): a datagram with one was not wanted. */
export function filterRejections(stats: TransportStats): number {
  const r = stats.rejected;
  return r.unsupportedVersion + r.wrongExercise + r.pduTypeNotAccepted + r.sourceNotAllowed + r.applicationNotAllowed;
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
  // Every datagram is copied here first. Node hands each datagram over in a fresh ArrayBuffer, and a decoder needs a
  // DataView over it: one reused buffer means one DataView for the receiver's lifetime instead of one per datagram
  // (copying 144 bytes costs less than creating and collecting the view; bench/udp.bench.ts).
  private readonly scratch = new Uint8Array(65_536);

  /**
   * @param consumer - called for each accepted PDU.
   * @param options - filters; see `ReceiveFilterOptions`.
   * @param stats - counters to update, usually the transport's (`transport.stats`). Defaults to new ones.
   */
  constructor(consumer: PduConsumer, options: ReceiveFilterOptions = {}, stats: TransportStats = createTransportStats()) {
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
  }

  /** Handles one datagram. Total: counts what it drops, never throws. */
  readonly receive: DatagramReceiver = (datagram, source) => {
    let bytes = datagram;
    const stats = this.stats;
    if (this.sources !== undefined && !this.sources.has(source.address)) {
      stats.rejected.sourceNotAllowed++;
      return;
    }
    const end = bytes.length;
    if (end <= this.scratch.length) {
      this.scratch.set(bytes);
      bytes = this.scratch;
    }
    let offset = 0;
    while (offset < end) {
      const remaining = end - offset;
      if (remaining < HEADER_BYTES) {
        stats.rejected.truncated++;
        return;
      }
      const length = (bytes[offset + 8]! << 8) | bytes[offset + 9]!;
      if (length < HEADER_BYTES) {
        // Nothing after this header can be located.
        stats.rejected.badLength++;
        return;
      }
      if (length > remaining) {
        stats.rejected.truncated++;
        return;
      }
      if (this.accept(bytes, offset, length)) {
        stats.pdusAccepted++;
        try {
          this.consumer(bytes, offset, length, source);
        } catch (error) {
          stats.consumerErrors++;
          this.onConsumerError?.(error);
        }
      }
      offset += length;
    }
  };

  private accept(bytes: Uint8Array, offset: number, length: number): boolean {
    const rejected = this.stats.rejected;
    if (length > this.maxPduBytes) {
      rejected.oversized++;
      return false;
    }
    if (this.versions !== undefined && this.versions[bytes[offset]!] === 0) {
      rejected.unsupportedVersion++;
      return false;
    }
    if (this.exercise >= 0 && bytes[offset + 1] !== this.exercise) {
      rejected.wrongExercise++;
      return false;
    }
    if (this.pduTypes !== undefined && this.pduTypes[bytes[offset + 2]!] === 0) {
      rejected.pduTypeNotAccepted++;
      return false;
    }
    if (this.filterApplications) {
      if (length < 16) {
        rejected.applicationNotAllowed++;
        return false;
      }
      const site = (bytes[offset + 12]! << 8) | bytes[offset + 13]!;
      const application = (bytes[offset + 14]! << 8) | bytes[offset + 15]!;
      if (!this.sites.has(site) && !this.siteApplications.has(site * 0x10000 + application)) {
        rejected.applicationNotAllowed++;
        return false;
      }
    }
    return true;
  }
}

/**
 * Delivers a transport's accepted PDUs to `consumer`, counting into the transport's stats.
 * @returns the receiver (its `stats` are the transport's).
 */
export function receivePdus(transport: DatagramTransport, consumer: PduConsumer, options: ReceiveFilterOptions = {}): PduReceiver {
  const receiver = new PduReceiver(consumer, options, transport.stats);
  transport.onDatagram(receiver.receive);
  return receiver;
}
