/**
 * UDP over `node:dgram`: unicast, broadcast and multicast, IPv4 and IPv6. A `DatagramTransport`: one socket, an
 * `'error'` handler always attached, failures reported once and clearly, counters for everything.
 */
import { createSocket, type RemoteInfo, type Socket } from 'node:dgram';
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import type { NetworkConfig } from '../config/schema.js';
import {
  createTransportStats,
  type DatagramReceiver,
  type DatagramTransport,
  type TransportStats,
} from './transport.js';
import { TransportLifecycle } from './lifecycle.js';

/** DIS's UDP port (Wireshark `DEFAULT_DIS_UDP_PORT`). */
export const DIS_PORT = 3000;

/** Options of `openUdpTransport`. */
export interface UdpTransportOptions {
  /**
   * Use udp6. Defaults to false (udp4); an IPv6 address given (bind address, destination, group), or a host name
   * that resolves only to IPv6, turns it on whatever this says, since a udp4 socket cannot reach one.
   */
  readonly ipv6?: boolean;
  /** Local address (or host name, resolved once at open) to bind. Defaults to all interfaces (`0.0.0.0` / `::`). */
  readonly bindAddress?: string;
  /** Local port to bind; 0 picks a free one. Defaults to 0. */
  readonly bindPort?: number;
  /** Where `send` goes: an address (or host name, resolved once at open) and port. Defaults to none (receive only). */
  readonly destination?: { readonly address: string; readonly port: number };
  /** Multicast group to join (receiving) — send to it by making it the destination. Defaults to none. */
  readonly multicastGroup?: string;
  /** Local interface address for multicast. Defaults to the OS's choice. */
  readonly multicastInterface?: string;
  /** Multicast TTL in hops. Defaults to 1. */
  readonly multicastTtl?: number;
  /** Receive this host's own multicast. Defaults to true. */
  readonly multicastLoopback?: boolean;
  /** Allow sending to broadcast addresses. Defaults to false. */
  readonly broadcast?: boolean;
  /** Requested receive buffer in bytes (the OS may cap it: Linux at net.core.rmem_max). Defaults to 4 MiB. */
  readonly receiveBufferSize?: number;
  /**
   * Share the port with other sockets that also ask to (SO_REUSEADDR): several receivers on one port. Each gets
   * every multicast and broadcast datagram; a unicast datagram reaches only one of them (on Linux the socket bound
   * last). Defaults to true when joining a group, else false.
   */
  readonly reuseAddress?: boolean;
  /** Counters to update. Defaults to new ones. */
  readonly stats?: TransportStats;
}

/** The role of a socket built from the `network` config. */
export type UdpRole = 'receive' | 'send' | 'both';

/**
 * Transport options for a configuration and role.
 * - `receive`: bind `address` (default all interfaces) : `port`, join `multicast` if set.
 * - `send`: bind an ephemeral port; send to `address`, else the `multicast` group, else 255.255.255.255 with
 *   `broadcast`, else the loopback address, on `port`.
 * - `both`: bind all interfaces : `port` (shared), join the group, send as `send` does.
 */
export function udpOptionsFromConfig(network: NetworkConfig, role: UdpRole): UdpTransportOptions {
  const loopback = network.ipv6 ? '::1' : '127.0.0.1';
  const destinationAddress =
    network.address ?? network.multicast ?? (network.broadcast && !network.ipv6 ? '255.255.255.255' : loopback);
  const common = {
    ipv6: network.ipv6,
    multicastTtl: network.ttl,
    multicastLoopback: network.multicastLoopback,
    broadcast: network.broadcast,
    receiveBufferSize: network.receiveBufferSize,
    ...(network.interface ? { multicastInterface: network.interface } : {}),
  };
  const group = network.multicast ? { multicastGroup: network.multicast } : {};
  if (role === 'receive') {
    const share = network.reuseAddress ? { reuseAddress: true } : {};
    const bind = network.address ? { bindAddress: network.address } : {};
    return { ...common, ...group, ...share, bindPort: network.port, ...bind };
  }
  const destination = { address: destinationAddress, port: network.port };
  if (role === 'send') return { ...common, destination };
  return { ...common, ...group, bindPort: network.port, destination, reuseAddress: true };
}

/** What to do about a failed bind, join or lookup, by error code. */
const HINTS: Record<string, string> = {
  EADDRINUSE:
    'another program is using this port; stop it, pick another --port, or let both share it with --reuse-address ' +
    '(network.reuseAddress) in each of them: both then get every multicast and broadcast datagram, but a unicast ' +
    'datagram reaches only one of them (on Linux the one bound last)',
  EACCES: 'permission denied; ports below 1024 need privileges',
  EADDRNOTAVAIL: 'this address does not belong to this host; use one of its own addresses or leave --address out',
  EAFNOSUPPORT: 'address family not supported here (IPv6 disabled?)',
  ENODEV: 'no interface can join this multicast group; set --interface or add a multicast route',
  EINVAL: 'invalid address or option for this socket family',
  ENOTFOUND: 'no such host; check the name, or give an IP address',
  EAI_AGAIN: 'the name server did not answer; give an IP address, or try again',
};

/** Why a send failed, by error code: what `sendFailure` says after the code. */
const SEND_HINTS: Record<string, string> = {
  EACCES: 'sending to a broadcast address needs --broadcast (network.broadcast)',
  ENETUNREACH: 'no route to this network; check --address, or that an interface on it is up',
  EHOSTUNREACH: 'no route to this host; check --address, or that an interface on its network is up',
  EMSGSIZE: 'the datagram is larger than the network takes (publish bundles PDUs up to --mtu bytes)',
  EINVAL: 'this destination is invalid for the socket (an IPv4 address with --ipv6?)',
  EADDRNOTAVAIL: 'this destination cannot be sent to from this host (0.0.0.0 or a wrong interface?)',
  ERR_SOCKET_BAD_PORT: "port 0 is not a destination; give the receiver's port with --port",
};

const SHARED_PORT_IN_USE =
  'the program holding this port does not share it; start that one with --reuse-address too, or pick another --port';

function explain(action: string, error: unknown, hintOverride?: string): Error {
  const code = (error as NodeJS.ErrnoException).code ?? '';
  const hint = hintOverride ?? HINTS[code];
  return new Error(`${action} failed: ${(error as Error).message}${hint ? ` — ${hint}` : ''}`, { cause: error });
}

/** `CODE: what to do` for a refused send, e.g. "EACCES: sending to a broadcast address needs --broadcast …". */
export function explainSendError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  const hint = code === undefined ? undefined : SEND_HINTS[code];
  const message = error instanceof Error ? error.message : String(error);
  return code === undefined ? message : `${code}: ${hint ?? message}`;
}

/**
 * The address of a host name (an IP address is returned as is): its first IPv4 address unless `ipv6`, else the
 * first IPv6 one; a name with addresses of the other family only gets one of those.
 */
async function resolveHost(host: string, ipv6: boolean): Promise<string> {
  if (isIP(host)) return host;
  try {
    const addresses = await lookup(host, { all: true });
    const wanted = addresses.find((a) => a.family === (ipv6 ? 6 : 4)) ?? addresses[0];
    if (!wanted) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return wanted.address;
  } catch (error) {
    throw explain(`looking up "${host}"`, error);
  }
}

/** A `DatagramTransport` over one UDP socket (unicast, broadcast or multicast); open it with `openUdpTransport`. */
export class UdpTransport implements DatagramTransport {
  readonly stats: TransportStats;
  /** The bound local address and port (an ephemeral port is resolved here). */
  readonly local: { readonly address: string; readonly port: number; readonly family: string };
  /** The receive buffer the OS granted, in bytes (Linux reports twice the usable size). */
  readonly receiveBufferBytes: number;
  private readonly socket: Socket;
  private readonly destinationAddress: string | undefined;
  private readonly destinationPort: number;
  private receiver: DatagramReceiver | undefined;
  private readonly lifecycle = new TransportLifecycle();
  private sendsInFlight = 0;
  private drained: (() => void) | undefined;
  // One callback for every send, so a send allocates no closure.
  private readonly onSent = (error: Error | null): void => {
    if (error) this.sendFailed(error);
    if (--this.sendsInFlight === 0) this.drained?.();
  };

  private constructor(
    socket: Socket,
    stats: TransportStats,
    destination: { address: string; port: number } | undefined,
  ) {
    this.socket = socket;
    this.stats = stats;
    this.destinationAddress = destination?.address;
    this.destinationPort = destination?.port ?? 0;
    this.local = socket.address();
    let granted = 0;
    try {
      granted = socket.getRecvBufferSize();
    } catch {
      // Not available on every platform; 0 = unknown.
    }
    this.receiveBufferBytes = granted;
    socket.on('message', (datagram: Buffer, source: RemoteInfo) => {
      this.stats.datagramsIn++;
      this.stats.bytesIn += datagram.length;
      this.receiver?.(datagram, source);
    });
    socket.on('error', (error) => void this.end(explain('UDP socket', error)));
    // Closed by anything but `close()` (code holding the socket, a runtime shutting it): a failure, not a silent stop.
    socket.on('close', () => {
      if (this.lifecycle.ended) return;
      void this.end(new Error('UDP socket closed while in use: nothing more can be received or sent on it'));
    });
  }

  /**
   * Opens a socket: binds, joins the multicast group, applies TTL, loopback, broadcast and buffer sizes.
   * @throws Error naming what failed (bind, join, name lookup) and what to do about it; the socket is closed.
   */
  static async open(options: UdpTransportOptions = {}): Promise<UdpTransport> {
    const given = [options.bindAddress, options.destination?.address, options.multicastGroup];
    const wantsIpv6 = options.ipv6 === true || given.some((a) => a !== undefined && isIP(a) === 6);
    let destination: { address: string; port: number } | undefined;
    if (options.destination) {
      const { address, port } = options.destination;
      if (!(Number.isInteger(port) && port >= 1 && port <= 65535)) {
        throw new RangeError(`cannot send to port ${port}: a sender needs the receiver's port, 1 to 65535`);
      }
      destination = { address: await resolveHost(address, wantsIpv6), port };
    }
    const bindHost = options.bindAddress === undefined ? undefined : await resolveHost(options.bindAddress, wantsIpv6);
    const ipv6 = wantsIpv6 || [bindHost, destination?.address].some((a) => a !== undefined && isIP(a) === 6);
    const group = options.multicastGroup;
    const socket = createSocket({
      type: ipv6 ? 'udp6' : 'udp4',
      reuseAddr: options.reuseAddress ?? group !== undefined,
    });
    const bindAddress = bindHost ?? (ipv6 ? '::' : '0.0.0.0');
    const bindPort = options.bindPort ?? 0;
    await new Promise<void>((resolve, reject) => {
      const onError = (error: Error) => {
        // This socket asked to share the port, so the one holding it did not.
        const shared = (error as NodeJS.ErrnoException).code === 'EADDRINUSE' && options.reuseAddress === true;
        reject(explain(`binding UDP ${bindAddress} port ${bindPort}`, error, shared ? SHARED_PORT_IN_USE : undefined));
      };
      socket.once('error', onError);
      socket.bind(bindPort, bindAddress, () => {
        socket.off('error', onError);
        resolve();
      });
    }).catch((error: unknown) => {
      socket.close();
      throw error;
    });
    let step = 'setting socket options';
    try {
      const receiveBufferSize = options.receiveBufferSize ?? 4 * 1024 * 1024;
      if (receiveBufferSize > 0) socket.setRecvBufferSize(receiveBufferSize);
      if (options.broadcast) socket.setBroadcast(true);
      if (options.multicastInterface) socket.setMulticastInterface(options.multicastInterface);
      socket.setMulticastTTL(options.multicastTtl ?? 1);
      socket.setMulticastLoopback(options.multicastLoopback ?? true);
      if (group !== undefined) {
        step = `joining multicast group ${group}`;
        socket.addMembership(group, options.multicastInterface);
      }
    } catch (error) {
      socket.close();
      throw explain(step, error);
    }
    return new UdpTransport(socket, options.stats ?? createTransportStats(), destination);
  }

  send(datagram: Uint8Array, length = datagram.length): void {
    if (this.destinationAddress === undefined || this.lifecycle.ended) {
      this.sendFailed(
        this.lifecycle.ended ? 'the transport is closed' : 'no destination: this transport only receives',
      );
      return;
    }
    this.stats.datagramsOut++;
    this.stats.bytesOut += length;
    this.sendsInFlight++;
    try {
      this.socket.send(datagram, 0, length, this.destinationPort, this.destinationAddress, this.onSent);
    } catch (error) {
      // dgram throws for what it checks itself (port, length); the contract is to count, never to throw.
      this.sendsInFlight--;
      this.sendFailed(error);
    }
  }

  /** Counts a failed send; the first one is explained (`error` a string is the explanation itself). */
  private sendFailed(error: unknown): void {
    this.stats.sendErrors++;
    if (this.stats.sendFailure !== undefined) return;
    this.stats.sendFailure = typeof error === 'string' ? error : explainSendError(error);
  }

  onDatagram(receiver: DatagramReceiver | undefined): void {
    this.receiver = receiver;
  }

  onClose(listener: (error?: Error) => void): void {
    this.lifecycle.onClose(listener);
  }

  /** The failure that ended the transport, if one did. */
  get failure(): Error | undefined {
    return this.lifecycle.failure;
  }

  /** Stops receiving, lets sends already queued complete, then releases the socket. */
  close(): Promise<void> {
    return this.end(undefined);
  }

  private end(error: Error | undefined): Promise<void> {
    return this.lifecycle.end(error, () => {
      this.receiver = undefined;
      // After a failure the socket is gone; otherwise queued datagrams still leave before it closes.
      const drained =
        error || this.sendsInFlight === 0
          ? Promise.resolve()
          : new Promise<void>((resolve) => (this.drained = resolve));
      return drained.then(
        () =>
          new Promise<void>((resolve) => {
            try {
              this.socket.close(() => resolve());
            } catch {
              resolve(); // already closed
            }
          }),
      );
    });
  }
}

/** Opens a UDP transport for the `network` section of a configuration; see `udpOptionsFromConfig` for the roles. */
export function openUdpTransport(network: NetworkConfig, role: UdpRole, stats?: TransportStats): Promise<UdpTransport> {
  return UdpTransport.open({ ...udpOptionsFromConfig(network, role), ...(stats ? { stats } : {}) });
}
