// A small stand-in for the `reckon view` gateway, for deterministic page tests: serves the built page
// (dist/view/page) with the gateway's security headers and speaks the feed protocol of src/view/protocol.ts on
// /feed, sending exactly what the test tells it to. Loopback only.
import { createServer, type Server } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize, resolve } from 'node:path';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { EntityStateRecord, setMarkingText } from '../../../src/pdu/wire/entity-state-record.js';
import { encodeEntityStateInto } from '../../../src/pdu/wire/entity-state-encoder.js';
import { timestampFromEpochMillis } from '../../../src/pdu/wire/timestamp.js';
import { geodeticDegreesToEcef } from '../../../src/math/geodesy.js';
import {
  EMPTY_FILTER,
  FeedWriter,
  filterMatches,
  normalizeFilter,
  type ServerMessage,
  type ViewConfig,
  type ViewFilter,
} from '../../../src/view/protocol.js';

export const PAGE_DIR = resolve(import.meta.dirname, '../../../dist/view/page');
export const CSP =
  "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; img-src 'self' data: blob:; " +
  "style-src 'self' 'unsafe-inline'; worker-src 'self' blob:; " +
  "connect-src 'self' ws: wss:";

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
};

export const DEFAULT_CONFIG: ViewConfig = {
  exercise: null,
  smoothing: { method: 'linear', timeSeconds: 0.5 },
  positionThresholdMeters: 1,
  orientationThresholdDeg: 3,
  entityTimeoutSeconds: 12,
  maxEntities: 10_000,
  tiles: null,
  demo: false,
};

/** One entity as the test publishes it: a straight course at constant speed from `lat`, `lon` at `t0Ms`. */
export interface TestEntity {
  site: number;
  application: number;
  entity: number;
  marking: string;
  force: number;
  kind: number;
  domain: number;
  lat: number;
  lon: number;
  altM: number;
  /** Velocity east and north, m/s (locally level; DR algorithm 2, FPW). */
  eastMps: number;
  northMps: number;
  /** The seven numbers of the entity type. Defaults to kind, domain, 225 (USA), 1, 1, 0, 0. */
  type?: readonly number[];
  appearance?: number;
  /** Articulated parts: parameter type (class + metric) and value, e.g. turret azimuth in radians. */
  parts?: readonly { type: number; value: number }[];
}

const DEG = Math.PI / 180;

/** An Entity State PDU of `e` at its start position (velocity in ECEF, FPW), time-stamped `nowMs`. */
export function entityStatePdu(e: TestEntity, nowMs: number, at?: { lat: number; lon: number }): Uint8Array {
  const r = new EntityStateRecord();
  r.exerciseId = 1;
  r.site = e.site;
  r.application = e.application;
  r.entity = e.entity;
  r.forceId = e.force;
  r.entityType.set(e.type ?? [e.kind, e.domain, 225, 1, 1, 0, 0]);
  r.appearance = e.appearance ?? 0;
  const parts = e.parts ?? [];
  r.variableParameterCount = parts.length;
  parts.forEach((part, i) => {
    const view = new DataView(r.variableParameters.buffer, r.variableParameters.byteOffset + 16 * i, 16);
    view.setUint8(0, 0); // articulated part
    view.setUint32(4, part.type);
    view.setFloat32(8, part.value);
  });
  r.timestampRaw = timestampFromEpochMillis(nowMs, true);
  const lat = at?.lat ?? e.lat,
    lon = at?.lon ?? e.lon;
  geodeticDegreesToEcef(r.location, lat, lon, e.altM);
  // East and north unit vectors at (lat, lon) in ECEF.
  const sl = Math.sin(lat * DEG),
    cl = Math.cos(lat * DEG),
    so = Math.sin(lon * DEG),
    co = Math.cos(lon * DEG);
  r.linearVelocity[0] = -so * e.eastMps - sl * co * e.northMps;
  r.linearVelocity[1] = co * e.eastMps - sl * so * e.northMps;
  r.linearVelocity[2] = cl * e.northMps;
  // Heading along the velocity: psi/theta from the local NED heading (pitch 0, roll 0).
  const headingRad = Math.atan2(e.eastMps, e.northMps);
  // R_wb from heading: the body x axis is the course direction; Euler angles (IEEE 1278.1 §1.3.2) of that.
  const bx = [
    -sl * co * Math.cos(headingRad) - so * Math.sin(headingRad),
    -sl * so * Math.cos(headingRad) + co * Math.sin(headingRad),
    cl * Math.cos(headingRad),
  ];
  r.orientation[0] = Math.atan2(bx[1]!, bx[0]!);
  r.orientation[1] = -Math.asin(bx[2]!);
  // Roll so that the body z axis points down as far as the heading allows (level flight).
  r.orientation[2] = rollForLevel(lat, lon, r.orientation[0], r.orientation[1]);
  r.drAlgorithm = 2;
  setMarkingText(r, e.marking);
  const out = new Uint8Array(144 + 16 * parts.length);
  const n = encodeEntityStateInto(out, r, 0);
  return out.subarray(0, n);
}

/** The roll φ that puts the body y axis in the local horizontal plane, for ψ, θ at (lat, lon). */
function rollForLevel(lat: number, lon: number, psi: number, theta: number): number {
  const down = [
    -Math.cos(lat * DEG) * Math.cos(lon * DEG),
    -Math.cos(lat * DEG) * Math.sin(lon * DEG),
    -Math.sin(lat * DEG),
  ];
  // Body y and z for roll 0 (Z-Y-X Euler); y = cos φ·y0 + sin φ·z0 is level when tan φ = −(y0·down)/(z0·down),
  // and this φ keeps z·down > 0.
  const cp = Math.cos(psi),
    sp = Math.sin(psi),
    ct = Math.cos(theta),
    st = Math.sin(theta);
  const y0 = [-sp, cp, 0];
  const z0 = [cp * st, sp * st, ct];
  const dot = (a: number[], b: number[]) => a[0]! * b[0]! + a[1]! * b[1]! + a[2]! * b[2]!;
  return Math.atan2(-dot(y0, down), dot(z0, down));
}

/** Where `e` is `dtSeconds` after its start (flat-earth step from its start, good to centimetres over minutes). */
export function positionAfter(e: TestEntity, dtSeconds: number): { lat: number; lon: number } {
  const a = 6_378_137,
    e2 = 0.00669437999014;
  const s = Math.sin(e.lat * DEG),
    w = 1 - e2 * s * s;
  const m = (a * (1 - e2)) / (w * Math.sqrt(w)),
    n = a / Math.sqrt(w);
  return {
    lat: e.lat + (e.northMps * dtSeconds) / (m + e.altM) / DEG,
    lon: e.lon + (e.eastMps * dtSeconds) / ((n + e.altM) * Math.cos(e.lat * DEG)) / DEG,
  };
}

export class PageServer {
  readonly server: Server;
  readonly wss: WebSocketServer;
  readonly clients = new Set<WebSocket>();
  /** Text messages the page sent, parsed. */
  readonly received: Array<Record<string, unknown>> = [];
  config: ViewConfig = DEFAULT_CONFIG;
  /** Latest PDU of each published entity, for snapshots after a filter, as the gateway keeps them. */
  private readonly latest = new Map<string, { entity: TestEntity; arrivalMs: number; bytes: Uint8Array }>();
  private readonly filters = new Map<WebSocket, ViewFilter>();
  private waiters: Array<() => void> = [];

  private constructor() {
    this.server = createServer((request, response) => void this.serve(request.url ?? '/', response));
    this.wss = new WebSocketServer({ server: this.server, path: '/feed', maxPayload: 16 * 1024 });
    this.wss.on('connection', (socket) => {
      this.clients.add(socket);
      socket.on('close', () => {
        this.clients.delete(socket);
        this.filters.delete(socket);
      });
      socket.on('message', (data, isBinary) => {
        if (isBinary) return;
        try {
          const message = JSON.parse(data.toString()) as Record<string, unknown>;
          this.received.push(message);
          if (message['type'] === 'filter') {
            const filter = normalizeFilter(message);
            if (typeof filter !== 'string') {
              this.filters.set(socket, filter);
              socket.send(JSON.stringify({ type: 'filter-ok', filter }));
              this.sendTo(socket, [...this.latest.values()]);
            }
          }
        } catch {
          // The page never sends anything but JSON; a test would see it missing from `received`.
        }
        this.notify();
      });
      this.send(socket, { type: 'hello', protocol: 1, serverTimeMs: Date.now(), config: this.config });
      this.notify();
    });
  }

  /** Starts on 127.0.0.1 at `port` (0: any free port). */
  static async start(port = 0): Promise<PageServer> {
    const s = new PageServer();
    await new Promise<void>((resolveListen, reject) => {
      s.server.once('error', reject);
      s.server.listen(port, '127.0.0.1', () => resolveListen());
    });
    return s;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}/`;
  }

  private async serve(url: string, response: import('node:http').ServerResponse): Promise<void> {
    const path = normalize(decodeURIComponent(url.split('?')[0]!)).replace(/^(\.\.[/\\])+/, '');
    const file = join(PAGE_DIR, path === '/' ? 'index.html' : path);
    if (!file.startsWith(PAGE_DIR)) {
      response.writeHead(403).end();
      return;
    }
    try {
      const body = await readFile(file);
      response.writeHead(200, {
        'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream',
        'Content-Security-Policy': CSP,
        'X-Content-Type-Options': 'nosniff',
      });
      response.end(body);
    } catch {
      response.writeHead(404).end();
    }
  }

  send(socket: WebSocket, message: ServerMessage | Record<string, unknown>): void {
    socket.send(JSON.stringify(message));
  }

  /**
   * As a gateway restarted with `config`: forgets every entity (no snapshot holds them any more) and says hello to
   * every client again, which starts the page over with an empty table without loading it again.
   */
  restart(config: ViewConfig = DEFAULT_CONFIG): void {
    this.config = config;
    this.latest.clear();
    this.broadcast({ type: 'hello', protocol: 1, serverTimeMs: Date.now(), config });
  }

  /** Sends a text message to every client. */
  broadcast(message: ServerMessage | Record<string, unknown> | string): void {
    const text = typeof message === 'string' ? message : JSON.stringify(message);
    for (const socket of this.clients) socket.send(text);
  }

  /** Sends raw bytes as one binary message to every client. */
  broadcastBinary(bytes: Uint8Array): void {
    for (const socket of this.clients) socket.send(bytes);
  }

  /**
   * Publishes each entity's Entity State PDU at its position `nowMs` (from its start at `t0Ms`), arriving
   * `nowMs`, to every client whose filter it matches, and keeps it for snapshots.
   */
  publish(entities: readonly TestEntity[], t0Ms: number, nowMs: number): void {
    const items = entities.map((entity) => {
      const bytes = entityStatePdu(entity, nowMs, positionAfter(entity, (nowMs - t0Ms) / 1000));
      const item = { entity, arrivalMs: nowMs, bytes };
      this.latest.set(`${entity.site}:${entity.application}:${entity.entity}`, item);
      return item;
    });
    for (const socket of this.clients) this.sendTo(socket, items);
  }

  /** Sends the items that pass the client's filter, in feed messages. */
  private sendTo(
    socket: WebSocket,
    items: ReadonlyArray<{ entity: TestEntity; arrivalMs: number; bytes: Uint8Array }>,
  ): void {
    const filter = this.filters.get(socket) ?? EMPTY_FILTER;
    const writer = new FeedWriter();
    for (const { entity: e, arrivalMs, bytes } of items) {
      if (!filterMatches(filter, 0, e.force, e.kind, e.domain, e.lat, e.lon)) continue;
      if (!writer.add(arrivalMs, bytes, 0, bytes.length)) {
        socket.send(writer.bytes().slice());
        writer.reset();
        writer.add(arrivalMs, bytes, 0, bytes.length);
      }
    }
    if (writer.records > 0) socket.send(writer.bytes().slice());
  }

  /** Resolves when `condition()` holds, checked after each client event; rejects after `timeoutMs`. */
  async until(condition: () => boolean, what: string, timeoutMs = 15_000): Promise<void> {
    if (condition()) return;
    await new Promise<void>((resolveWait, reject) => {
      const timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), timeoutMs);
      const check = () => {
        if (condition()) {
          clearTimeout(timer);
          this.waiters = this.waiters.filter((w) => w !== check);
          resolveWait();
        }
      };
      this.waiters.push(check);
    });
  }

  private notify(): void {
    for (const waiter of [...this.waiters]) waiter();
  }

  async close(): Promise<void> {
    for (const socket of this.clients) socket.terminate();
    this.wss.close();
    await new Promise<void>((resolveClose) => this.server.close(() => resolveClose()));
  }
}
