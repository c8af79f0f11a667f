// Helpers for the view tests: Entity State PDUs placed on the globe, a gateway with its HTTP server on 127.0.0.1,
// and a `ws` client that collects what the feed sends, with bounded waits.
import { createSocket, type Socket } from 'node:dgram';
import type { Server } from 'node:http';
import { connect } from 'node:net';
import WebSocket from 'ws';
import { resolveConfig } from '../../src/stream/settings.js';
import type { StreamConfig } from '../../src/stream/settings.js';
import { geodeticDegreesToEcef } from '../../src/math/geodesy.js';
import { decodeEntityStateOrUpdateInto } from '../../src/pdu/wire/entity-state-decoder.js';
import { encodeEntityStateInto } from '../../src/pdu/wire/entity-state-encoder.js';
import { EntityStateRecord, setMarkingText } from '../../src/pdu/wire/entity-state-record.js';
import { openUdpTransport, type UdpTransport } from '../../src/transport/udp.js';
import type { GatewayOptions } from '../../src/view/gateway-options.js';
import { ViewGateway } from '../../src/view/gateway.js';
import { createViewServer, listenView, pageUrl } from '../../src/view/http.js';
import type { HostAllowed } from '../../src/view/host-check.js';
import { parseServerMessage, readFeedMessage, type ServerMessage } from '../../src/view/protocol.js';
import { within } from '../support/binary.js';

export interface EntitySpec {
  readonly entity: number;
  readonly force?: number;
  readonly kind?: number;
  readonly domain?: number;
  readonly latDeg?: number;
  readonly lonDeg?: number;
  readonly exercise?: number;
  /** An Entity State Update PDU (type 67) instead of a full one. */
  readonly update?: boolean;
  /** Appearance Deactivated (a leave notice). */
  readonly deactivated?: boolean;
  /** Velocity east, m/s (so successive PDUs differ). Defaults to 0. */
  readonly speed?: number;
}

const record = new EntityStateRecord();

/** One Entity State (or Update) PDU, site 1, application 1. */
export function entityPdu(spec: EntitySpec): Uint8Array {
  record.protocolVersion = 7;
  record.pduType = spec.update ? 67 : 1;
  record.exerciseId = spec.exercise ?? 1;
  record.site = 1;
  record.application = 1;
  record.entity = spec.entity;
  record.forceId = spec.force ?? 1;
  record.entityType.set([spec.kind ?? 1, spec.domain ?? 1, 225, 1, 1, 0, 0]);
  geodeticDegreesToEcef(record.location, spec.latDeg ?? 50, spec.lonDeg ?? 8, 100);
  record.linearVelocity.set([0, spec.speed ?? 0, 0]);
  record.orientation.set([0, 0, 0]);
  record.appearance = spec.deactivated ? 1 << 23 : 0;
  record.drAlgorithm = 2;
  setMarkingText(record, `E${spec.entity}`);
  const out = new Uint8Array(144);
  const length = encodeEntityStateInto(out, record);
  if (length < 0) throw new Error(`encode failed: ${length}`);
  return out.slice(0, length);
}

/** The entity number of a PDU (decoded with the project's codec). */
export function entityOfPdu(bytes: Uint8Array, offset = 0, length = bytes.length - offset): number {
  const r = new EntityStateRecord();
  const status = decodeEntityStateOrUpdateInto(r, bytes, offset, offset + length);
  if (status !== 0) throw new Error(`feed record does not decode: status ${status}`);
  return r.entity;
}

export interface FeedRecord {
  readonly arrivalTimeMs: number;
  readonly pdu: Uint8Array;
  readonly entity: number;
  /** JSON messages received before it (to tell snapshot from stream, before or after `filter-ok`). */
  readonly afterJson: number;
}

/** A `ws` client of the feed that keeps every message. */
export class FeedClient {
  readonly json: ServerMessage[] = [];
  readonly records: FeedRecord[] = [];
  readonly binaryMessages: number[] = [];
  closeCode: number | undefined;
  private readonly checks = new Set<() => void>();
  readonly opened: Promise<void>;
  readonly closed: Promise<number>;

  constructor(readonly socket: WebSocket) {
    socket.on('message', (data, isBinary) => {
      const buffer = Buffer.isBuffer(data) ? data : Buffer.concat(data as Buffer[]);
      if (isBinary) {
        this.binaryMessages.push(buffer.length);
        const status = readFeedMessage(new Uint8Array(buffer), (arrivalTimeMs, bytes, offset, length) => {
          const pdu = bytes.slice(offset, offset + length);
          this.records.push({ arrivalTimeMs, pdu, entity: entityOfPdu(pdu), afterJson: this.json.length });
        });
        if (status < 0) throw new Error('malformed feed message');
      } else {
        const message = parseServerMessage(buffer.toString('utf8'));
        if (message) this.json.push(message);
      }
      for (const check of [...this.checks]) check();
    });
    this.opened = new Promise((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    this.closed = new Promise((resolve) =>
      socket.once('close', (code) => {
        this.closeCode = code;
        resolve(code);
      }),
    );
    socket.on('error', () => {});
  }

  static async connect(url: string, options: WebSocket.ClientOptions = {}): Promise<FeedClient> {
    const client = new FeedClient(new WebSocket(url, options));
    await within(client.opened, 5000, `WebSocket open ${url}`);
    return client;
  }

  /** Resolves when `predicate` holds (checked now and after each message), or rejects after `ms`. */
  waitFor(predicate: () => boolean, what: string, ms = 5000): Promise<void> {
    return within(
      new Promise<void>((resolve) => {
        const check = () => {
          if (predicate()) {
            this.checks.delete(check);
            resolve();
          }
        };
        this.checks.add(check);
        check();
      }),
      ms,
      what,
    );
  }

  /** The first JSON message of `type` after the first `skip` of them, waited for. */
  async next<T extends ServerMessage['type']>(type: T, after = 0): Promise<Extract<ServerMessage, { type: T }>> {
    let found: ServerMessage | undefined;
    await this.waitFor(
      () => (found = this.json.slice(after).find((m) => m.type === type)) !== undefined,
      `a ${type} message`,
    );
    return found as Extract<ServerMessage, { type: T }>;
  }

  send(message: unknown): void {
    this.socket.send(typeof message === 'string' ? message : JSON.stringify(message));
  }

  /**
   * A ping answered: every binary message the gateway queued for this client before it read the ping has arrived
   * (one TCP stream keeps the order).
   */
  async sync(): Promise<void> {
    const pongs = this.json.filter((m) => m.type === 'pong').length;
    this.send({ type: 'ping' });
    await this.waitFor(() => this.json.filter((m) => m.type === 'pong').length > pongs, 'pong');
  }

  entities(from = 0): number[] {
    return [...new Set(this.records.slice(from).map((r) => r.entity))].sort((a, b) => a - b);
  }

  close(): void {
    this.socket.terminate();
  }
}

export interface TestGateway {
  readonly gateway: ViewGateway;
  readonly server: Server;
  /** http://127.0.0.1:PORT/ */
  readonly url: string;
  /** ws://127.0.0.1:PORT/feed */
  readonly feedUrl: string;
  readonly udp: UdpTransport;
  /** Sends datagrams to the gateway's UDP port. */
  send(...pdus: Uint8Array[]): void;
  close(): Promise<void>;
}

/** A gateway receiving UDP on a free port of 127.0.0.1, serving HTTP and the feed on another. */
export async function startGateway(
  options: Omit<Partial<GatewayOptions>, 'config'> & {
    readonly config?: StreamConfig;
    readonly pageDir?: string;
    readonly hostAllowed?: HostAllowed;
    readonly headersTimeoutMs?: number;
  } = {},
): Promise<TestGateway> {
  const config = resolveConfig({ ...options.config, network: { port: 0, address: '127.0.0.1' } });
  const gateway = new ViewGateway({ tickMs: 20, ...options, config });
  const server = createViewServer({
    gateway,
    tiles: options.tiles ?? null,
    ...(options.pageDir ? { pageDir: options.pageDir } : {}),
    ...(options.hostAllowed ? { hostAllowed: options.hostAllowed } : {}),
    ...(options.headersTimeoutMs ? { headersTimeoutMs: options.headersTimeoutMs } : {}),
  });
  const address = await listenView(server, '127.0.0.1', 0);
  const udp = await openUdpTransport(config.network, 'receive');
  gateway.listen(udp);
  const sender: Socket = createSocket('udp4');
  const url = pageUrl(address);
  return {
    gateway,
    server,
    url,
    feedUrl: `${url.replace('http:', 'ws:')}feed`,
    udp,
    send(...pdus) {
      for (const pdu of pdus) sender.send(pdu, udp.local.port, '127.0.0.1');
    },
    async close() {
      gateway.close();
      sender.close();
      await udp.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A WebSocket text frame as a client must send it: masked (RFC 6455 §5.3), payload under 126 bytes. */
export function maskedTextFrame(text: string): Buffer {
  const payload = Buffer.from(text);
  if (payload.length >= 126) throw new Error('payload too long for this helper');
  const mask = [0x12, 0x34, 0x56, 0x78];
  return Buffer.concat([Buffer.from([0x81, 0x80 | payload.length, ...mask]), payload.map((b, i) => b ^ mask[i % 4]!)]);
}

/** A raw TCP client that does the WebSocket upgrade by hand, then never reads. */
export async function rawClient(port: number) {
  const raw = connect(port, '127.0.0.1');
  raw.on('error', () => {});
  await within(new Promise<void>((resolve) => raw.once('connect', () => resolve())), 5000, 'TCP connect');
  raw.write(
    'GET /feed HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n' +
      'Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n',
  );
  await within(new Promise<void>((resolve) => raw.once('data', () => resolve())), 5000, 'the 101 response');
  raw.pause();
  return raw;
}

/** Waits (yielding to I/O) until `condition` holds; fails after 5 s. */
export async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}
