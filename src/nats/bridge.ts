/**
 * The bridge between a site's LAN (DIS over UDP) and NATS (docs/nats.md), both ways:
 *
 * - UDP → NATS: every accepted PDU of a datagram goes to the NATS transport, which routes Entity State PDUs by
 *   cell and the other types to the per-exercise subject.
 * - NATS → UDP: the PDUs of each NATS message are re-bundled into datagrams of at most the MTU and sent to the LAN.
 *
 * Loops: the NATS connection does not get its own messages back (`noEcho`), and a datagram the bridge itself sent
 * to the LAN (heard again through multicast loopback, broadcast or its own port) is recognised by its hash and not
 * forwarded to NATS. Both directions apply the exercise and site filters and count datagrams, PDUs and bytes.
 */
import { PduBundler } from '../transport/bundler.js';
import { PduReceiver, type ReceiveFilterOptions } from '../transport/pdu-receiver.js';
import type { DatagramSource, DatagramTransport, TransportStats } from '../transport/transport.js';

/** Traffic of one direction. */
export interface BridgeDirectionStats {
  /** Datagrams (UDP) or messages (NATS) taken in. */
  in: number;
  /** PDUs forwarded, and their bytes. */
  pdus: number;
  bytes: number;
  /** Datagrams (UDP) or messages (NATS) sent out. */
  out: number;
}

/** Counters of a `Bridge`, per direction. */
export interface BridgeStats {
  readonly udpToNats: BridgeDirectionStats;
  readonly natsToUdp: BridgeDirectionStats;
  /** Datagrams heard on the LAN that the bridge had sent there itself: not forwarded (loop prevention). */
  loopsDropped: number;
  /** Filter rejections and framing problems of each side, by reason (the receivers' counters). */
  readonly udpReceive: TransportStats;
  readonly natsReceive: TransportStats;
}

/** Options of a `Bridge`. */
export interface BridgeOptions {
  /** The LAN side: binds the DIS port and sends to the LAN's destination. */
  readonly udp: DatagramTransport;
  /** The NATS side: publishes, and subscribes to what should reach the LAN. */
  readonly nats: DatagramTransport;
  /** What passes, both ways: exercise, protocol versions, sites and applications. */
  readonly filter: ReceiveFilterOptions;
  /** Most bytes per datagram sent to the LAN. Defaults to 1472. */
  readonly mtu?: number;
  /** Datagrams remembered for loop detection. Defaults to 8192. */
  readonly loopMemory?: number;
  /** Told about each datagram heard on the LAN that the bridge had sent there itself (and drops). */
  readonly onLoop?: (source: DatagramSource) => void;
}

/** FNV-1a (32-bit) of `bytes[0, length)`: identifies a datagram the bridge sent. */
export function fnv1a(bytes: Uint8Array, length = bytes.length): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < length; i++) {
    hash ^= bytes[i]!;
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** Hashes of recently sent datagrams: a ring for the order and a count per hash for the lookup. Bounded. */
class RecentDatagrams {
  private readonly ring: Uint32Array;
  private readonly counts = new Map<number, number>();
  private next = 0;
  private size = 0;
  constructor(capacity: number) {
    this.ring = new Uint32Array(capacity);
  }
  add(hash: number): void {
    if (this.size === this.ring.length) {
      const old = this.ring[this.next]!;
      const n = this.counts.get(old)! - 1;
      if (n === 0) this.counts.delete(old);
      else this.counts.set(old, n);
    } else {
      this.size++;
    }
    this.ring[this.next] = hash;
    this.next = (this.next + 1) % this.ring.length;
    this.counts.set(hash, (this.counts.get(hash) ?? 0) + 1);
  }
  has(hash: number): boolean {
    return this.counts.has(hash);
  }
}

function createDirectionStats(): BridgeDirectionStats {
  return { in: 0, pdus: 0, bytes: 0, out: 0 };
}

/** Forwards DIS between a UDP transport and a NATS transport until `close()`. */
export class Bridge {
  readonly stats: BridgeStats;
  private readonly udp: DatagramTransport;
  private readonly nats: DatagramTransport;
  private readonly recent: RecentDatagrams;
  private readonly toNats: PduBundler;
  private readonly toUdp: PduBundler;
  private readonly udpReceiver: PduReceiver;
  private readonly natsReceiver: PduReceiver;
  private natsFlushQueued = false;
  private readonly onLoop: ((source: DatagramSource) => void) | undefined;
  private closed = false;

  constructor(options: BridgeOptions) {
    this.udp = options.udp;
    this.nats = options.nats;
    this.recent = new RecentDatagrams(options.loopMemory ?? 8192);
    this.onLoop = options.onLoop;
    this.stats = {
      udpToNats: createDirectionStats(),
      natsToUdp: createDirectionStats(),
      loopsDropped: 0,
      udpReceive: options.udp.stats,
      natsReceive: options.nats.stats,
    };
    // Bundles for NATS are as large as a datagram can be; the NATS transport re-bundles them per subject.
    this.toNats = new PduBundler(
      {
        send: (datagram, length) => {
          this.stats.udpToNats.out++;
          this.nats.send(datagram, length);
        },
      },
      65_507,
    );
    this.toUdp = new PduBundler(
      {
        send: (datagram, length = datagram.length) => {
          this.recent.add(fnv1a(datagram, length));
          this.stats.natsToUdp.out++;
          this.udp.send(datagram, length);
        },
      },
      options.mtu ?? 1472,
    );
    this.udpReceiver = new PduReceiver(this.fromUdp, options.filter, options.udp.stats);
    // Source addresses are the LAN's: NATS messages have a subject instead.
    this.natsReceiver = new PduReceiver(this.fromNats, { ...options.filter, sources: [] }, options.nats.stats);
    this.udp.onDatagram(this.onUdpDatagram);
    this.nats.onDatagram(this.onNatsMessage);
  }

  private readonly onUdpDatagram = (datagram: Uint8Array, source: DatagramSource): void => {
    if (this.recent.has(fnv1a(datagram))) {
      this.stats.loopsDropped++;
      this.onLoop?.(source);
      return;
    }
    this.stats.udpToNats.in++;
    this.udpReceiver.receive(datagram, source);
    if (!this.natsFlushQueued) {
      this.natsFlushQueued = true;
      // The datagrams of one event-loop turn share NATS messages.
      setImmediate(this.flushToNats);
    }
  };

  private readonly flushToNats = (): void => {
    this.natsFlushQueued = false;
    if (!this.closed) this.toNats.flush();
  };

  private readonly fromUdp = (bytes: Uint8Array, offset: number, length: number): void => {
    this.stats.udpToNats.pdus++;
    this.stats.udpToNats.bytes += length;
    this.toNats.append(bytes, offset, length);
  };

  private readonly onNatsMessage = (message: Uint8Array, source: DatagramSource): void => {
    this.stats.natsToUdp.in++;
    this.natsReceiver.receive(message, source);
    this.toUdp.flush();
  };

  private readonly fromNats = (bytes: Uint8Array, offset: number, length: number): void => {
    this.stats.natsToUdp.pdus++;
    this.stats.natsToUdp.bytes += length;
    this.toUdp.append(bytes, offset, length);
  };

  /** Sends what waits, stops forwarding and closes both transports. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.toNats.flush();
    this.toUdp.flush();
    this.closed = true;
    this.udp.onDatagram(undefined);
    this.nats.onDatagram(undefined);
    await Promise.all([this.udp.close(), this.nats.close()]);
  }
}
