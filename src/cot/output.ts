/**
 * Where CoT events go: `udp://host:port` (unicast, or a multicast group such as TAK's default mesh
 * `udp://239.2.3.1:6969`), `tcp://host:port` (a TAK Server streaming input) and `tls://host:port` (its TLS
 * input, with a client certificate). UDP sends one event per datagram. TCP and TLS write the events one after
 * another on one connection, reconnect after a loss with a growing pause (1 s doubling to 30 s), and hold at
 * most `maxQueuedBytes` while disconnected or while the server reads slower than events come; beyond that new
 * events are dropped and counted, never buffered without bound. Sending never throws: failures are counted and
 * reported through `onStatus`.
 */
import { createSocket, type Socket as UdpSocket } from 'node:dgram';
import { lookup } from 'node:dns/promises';
import { isIP, connect as netConnect, type Socket } from 'node:net';
import { connect as tlsConnect, type ConnectionOptions } from 'node:tls';
import { CONNECT_TIMEOUT_MS, describeConnectionError } from './connection-errors.js';

/** How CoT events are sent. */
export type CotProtocol = 'udp' | 'tcp' | 'tls';

/** A parsed output URL. */
export interface CotOutputTarget {
  readonly protocol: CotProtocol;
  /** Host name or address as given (IPv6 without brackets). */
  readonly host: string;
  readonly port: number;
  /** True for a multicast group address (224.0.0.0/4, ff00::/8); UDP only. */
  readonly multicast: boolean;
  /** Multicast time-to-live (`?ttl=N`). Defaults to 1 (the local network). */
  readonly ttl: number;
  /** Local interface address for multicast (`?interface=ADDR`). Defaults to the OS's choice. */
  readonly interface: string | undefined;
  /** The URL as given, for messages. */
  readonly text: string;
}

/** TAK's default SA multicast mesh. */
export const TAK_MESH_URL = 'udp://239.2.3.1:6969';

function isMulticast(host: string): boolean {
  if (isIP(host) === 4) {
    const first = Number(host.split('.')[0]);
    return first >= 224 && first <= 239;
  }
  return isIP(host) === 6 && /^ff/i.test(host);
}

/**
 * Parses `udp://`, `tcp://` or `tls://` `host:port` with the optional query `ttl` and `interface` (UDP
 * multicast only).
 * @returns the target, or a message saying what is wrong and what would be right.
 */
export function parseCotUrl(text: string): { ok: true; target: CotOutputTarget } | { ok: false; message: string } {
  const example = `e.g. ${TAK_MESH_URL}, udp://10.0.0.5:4242, tcp://takserver:8087 or tls://takserver:8089`;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, message: `not a URL: ${JSON.stringify(text)} (${example})` };
  }
  const protocol = url.protocol.replace(/:$/, '');
  if (protocol !== 'udp' && protocol !== 'tcp' && protocol !== 'tls') {
    const message = `unsupported scheme "${protocol}:" in ${JSON.stringify(text)}: use udp, tcp or tls (${example})`;
    return { ok: false, message };
  }
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (host === '') return { ok: false, message: `no host in ${JSON.stringify(text)} (${example})` };
  if (url.port === '') return { ok: false, message: `no port in ${JSON.stringify(text)} (${example})` };
  const port = Number(url.port);
  if (!(port >= 1 && port <= 65535)) return { ok: false, message: `port must be 1–65535 in ${JSON.stringify(text)}` };
  if (url.pathname !== '' && url.pathname !== '/') {
    return { ok: false, message: `unexpected path "${url.pathname}" in ${JSON.stringify(text)}` };
  }
  if (url.username !== '' || url.password !== '' || url.hash !== '') {
    return { ok: false, message: `no user, password or #fragment expected in ${JSON.stringify(text)}` };
  }
  const multicast = isMulticast(host);
  let ttl = 1;
  let iface: string | undefined;
  for (const [name, value] of url.searchParams) {
    if (protocol !== 'udp' || !multicast) {
      return { ok: false, message: `"?${name}=" applies to UDP multicast only, in ${JSON.stringify(text)}` };
    }
    if (name === 'ttl') {
      ttl = Number(value);
      if (!/^\d+$/.test(value) || ttl < 1 || ttl > 255) {
        return { ok: false, message: `ttl must be a whole number 1–255, got "${value}"` };
      }
    } else if (name === 'interface') {
      if (isIP(value) === 0) return { ok: false, message: `interface must be a local IP address, got "${value}"` };
      iface = value;
    } else {
      const message = `unknown option "?${name}=" in ${JSON.stringify(text)}: ttl and interface are known`;
      return { ok: false, message };
    }
  }
  if (multicast && protocol !== 'udp') {
    return { ok: false, message: `a multicast group needs udp://, got ${JSON.stringify(text)}` };
  }
  return { ok: true, target: { protocol, host, port, multicast, ttl, interface: iface, text } };
}

/** Counters of one output. */
export interface CotOutputStats {
  /** Events handed to the socket (for TCP and TLS: written on a connection). */
  events: number;
  /** Bytes handed to the socket (CoT XML, without UDP/IP or TCP/IP headers). */
  bytes: number;
  /** Events dropped: socket errors, or the queue was full. */
  dropped: number;
  /** Socket errors and lost connections. */
  errors: number;
  /** Successful (re)connections (TCP and TLS). */
  connections: number;
}

/** TLS client settings (PEM text). */
export interface CotTlsOptions {
  readonly cert?: string;
  readonly key?: string;
  readonly ca?: string;
  readonly passphrase?: string;
  /** Defaults to true: the server's certificate must chain to `ca` (or the system's roots). */
  readonly rejectUnauthorized?: boolean;
}

/** Options of `openCotOutput`. */
export interface CotOutputOptions {
  readonly tls?: CotTlsOptions;
  /** Most bytes held for a TCP or TLS connection (while disconnected or behind). Defaults to 1 MiB. */
  readonly maxQueuedBytes?: number;
  /** Connection and failure messages, for people. */
  readonly onStatus?: (message: string) => void;
  /** How long a TCP connection and TLS handshake may take before they count as failed, ms. Defaults to 10 000. */
  readonly connectTimeoutMs?: number;
}

/** One open output. */
export interface CotOutput {
  readonly target: CotOutputTarget;
  readonly stats: CotOutputStats;
  /** Sends one event document. Never throws. */
  send(xml: string): void;
  /** Flushes what it can (bounded wait) and closes. */
  close(): Promise<void>;
}

/**
 * Opens an output. A UDP output resolves its host once and binds a socket; a TCP or TLS output starts
 * connecting and returns at once (events wait in the bounded queue until it is connected).
 * @throws Error when a UDP host cannot be resolved or its socket cannot be set up (a multicast interface that
 *   is not local, for instance).
 */
export async function openCotOutput(target: CotOutputTarget, options: CotOutputOptions = {}): Promise<CotOutput> {
  const stats: CotOutputStats = { events: 0, bytes: 0, dropped: 0, errors: 0, connections: 0 };
  return target.protocol === 'udp' ? openUdp(target, stats, options) : openStream(target, stats, options);
}

async function openUdp(target: CotOutputTarget, stats: CotOutputStats, options: CotOutputOptions): Promise<CotOutput> {
  let resolved: { address: string; family: number };
  try {
    resolved = await lookup(target.host);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    throw new Error(`${target.text}: cannot resolve ${target.host} (${code})`);
  }
  const { address, family } = resolved;
  // Report each distinct failure once, not once per event.
  let lastError = '';
  const report = (message: string): void => {
    if (message !== lastError) options.onStatus?.(`${target.text}: ${message}`);
    lastError = message;
  };
  const socket: UdpSocket = createSocket({ type: family === 6 ? 'udp6' : 'udp4' });
  socket.on('error', (error) => {
    stats.errors++;
    report(error.message);
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.bind(0, () => {
      socket.off('error', reject);
      resolve();
    });
  });
  try {
    if (target.multicast) {
      socket.setMulticastTTL(target.ttl);
      if (target.interface !== undefined) socket.setMulticastInterface(target.interface);
    } else if (family === 4) {
      // The user named the address: a subnet broadcast (TAK devices on one LAN) is as intended as a unicast one.
      socket.setBroadcast(true);
    }
  } catch (error) {
    socket.close();
    throw new Error(`${target.text}: ${error instanceof Error ? error.message : String(error)}`);
  }
  let closed = false;
  return {
    target,
    stats,
    send(xml) {
      if (closed) return;
      const bytes = Buffer.from(xml, 'utf8');
      socket.send(bytes, target.port, address, (error) => {
        if (!error) return;
        stats.dropped++;
        stats.errors++;
        stats.events--;
        stats.bytes -= bytes.length;
        report(error.message);
      });
      stats.events++;
      stats.bytes += bytes.length;
    },
    close() {
      if (closed) return Promise.resolve();
      closed = true;
      return new Promise((resolve) => socket.close(() => resolve()));
    },
  };
}

const RECONNECT_FIRST_MS = 1000;
const RECONNECT_MAX_MS = 30_000;
const CLOSE_WAIT_MS = 2000;

function openStream(target: CotOutputTarget, stats: CotOutputStats, options: CotOutputOptions): CotOutput {
  const maxQueued = options.maxQueuedBytes ?? 1 << 20;
  const connectTimeoutMs = options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS;
  const queue: Buffer[] = [];
  let queuedBytes = 0;
  let socket: Socket | undefined;
  let connected = false;
  let closed = false;
  let pauseMs = RECONNECT_FIRST_MS;
  let timer: NodeJS.Timeout | undefined;
  let lastError = '';

  const connect = (): void => {
    timer = undefined;
    if (closed) return;
    const s =
      target.protocol === 'tls'
        ? tlsConnect(tlsSettings(target, options.tls))
        : netConnect({ host: target.host, port: target.port });
    socket = s;
    s.setNoDelay(true);
    // A server that takes the TCP connection but never answers the TLS handshake raises no error by itself.
    s.setTimeout(connectTimeoutMs, () => {
      if (!connected) s.destroy(Object.assign(new Error('no answer'), { code: 'CONNECT_TIMEOUT' }));
    });
    s.once(target.protocol === 'tls' ? 'secureConnect' : 'connect', () => {
      s.setTimeout(0);
      connected = true;
      pauseMs = RECONNECT_FIRST_MS;
      lastError = '';
      stats.connections++;
      options.onStatus?.(`${target.text}: connected`);
      while (queue.length > 0) {
        const chunk = queue.shift()!;
        queuedBytes -= chunk.length;
        s.write(chunk);
        stats.events++;
        stats.bytes += chunk.length;
      }
    });
    s.on('data', () => {}); // a TAK Server may talk back (pings); nothing to do with it
    s.on('error', (error: NodeJS.ErrnoException) => {
      // Report each distinct failure once while retrying, not every second.
      const message = describeConnectionError(error, target.protocol === 'tls', connectTimeoutMs);
      if (message !== lastError) options.onStatus?.(`${target.text}: ${message}${closed ? '' : '; retrying'}`);
      lastError = message;
      stats.errors++;
    });
    s.on('close', () => {
      const wasConnected = connected;
      connected = false;
      if (socket === s) socket = undefined;
      if (closed) return;
      if (wasConnected) options.onStatus?.(`${target.text}: connection lost; reconnecting`);
      timer = setTimeout(connect, pauseMs);
      pauseMs = Math.min(RECONNECT_MAX_MS, pauseMs * 2);
    });
  };
  connect();

  return {
    target,
    stats,
    send(xml) {
      if (closed) return;
      const bytes = Buffer.from(xml, 'utf8');
      if (connected && socket && socket.writableLength + bytes.length <= maxQueued) {
        socket.write(bytes);
        stats.events++;
        stats.bytes += bytes.length;
      } else if (!connected && queuedBytes + bytes.length <= maxQueued) {
        queue.push(bytes); // counted when written
        queuedBytes += bytes.length;
      } else {
        stats.dropped++;
      }
    },
    close() {
      if (closed) return Promise.resolve();
      closed = true;
      clearTimeout(timer);
      // Events still waiting for a connection are not sent.
      stats.dropped += queue.length;
      queue.length = 0;
      queuedBytes = 0;
      const s = socket;
      if (!s) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const done = setTimeout(() => {
          s.destroy();
          resolve();
        }, CLOSE_WAIT_MS);
        s.once('close', () => {
          clearTimeout(done);
          resolve();
        });
        if (connected) s.end();
        else s.destroy();
      });
    },
  };
}

function tlsSettings(target: CotOutputTarget, tls: CotTlsOptions | undefined): ConnectionOptions {
  return {
    host: target.host,
    port: target.port,
    // SNI takes host names only.
    ...(isIP(target.host) === 0 ? { servername: target.host } : {}),
    ...(tls?.cert !== undefined ? { cert: tls.cert } : {}),
    ...(tls?.key !== undefined ? { key: tls.key } : {}),
    ...(tls?.ca !== undefined ? { ca: tls.ca } : {}),
    ...(tls?.passphrase !== undefined ? { passphrase: tls.passphrase } : {}),
    rejectUnauthorized: tls?.rejectUnauthorized ?? true,
  };
}
