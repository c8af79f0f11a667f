/**
 * The map page's HTTP server (`node:http`): the page's static files from the build output (`dist/view/page`),
 * `/healthz`, and the WebSocket feed's upgrades handed to the gateway; a request whose `Host` is not this server's
 * gets 403 (`host-check.ts`). Every response carries the security headers
 * (a Content-Security-Policy that lets the page talk only to this server and, if given, the tile server).
 */
import { createReadStream, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ViewGateway } from './gateway.js';
import { HOST_REFUSED, hostPolicy, type HostAllowed } from './host-check.js';

/** The default address of the page: this host only. */
export const DEFAULT_HTTP_HOST = '127.0.0.1';
/** The default port of the page. */
export const DEFAULT_HTTP_PORT = 8080;

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.pbf': 'application/x-protobuf',
  '.txt': 'text/plain; charset=utf-8',
};

/** Where the built page is: `dist/view/page`, also when this module runs from `src/` (tests, tsx). */
export function defaultPageDir(): string {
  const here = fileURLToPath(new URL('.', import.meta.url));
  const fromSources = here.endsWith(`${sep}src${sep}view${sep}`);
  return fromSources ? resolve(here, '..', '..', 'dist', 'view', 'page') : join(here, 'page');
}

/** Options of `createViewServer`. */
export interface ViewServerOptions {
  /** Serves the feed's upgrades. */
  readonly gateway: ViewGateway;
  /** The built page. Defaults to `defaultPageDir()`. */
  readonly pageDir?: string;
  /** Tile URL template: its origin is added to the Content-Security-Policy. Defaults to none. */
  readonly tiles?: string | null;
  /**
   * Which `Host` headers are answered (every path and the feed's upgrade; 403 otherwise). Defaults to
   * `hostPolicy()`: IP addresses and localhost.
   */
  readonly hostAllowed?: HostAllowed;
  /** How long a connection may take to send a request's headers, ms. Defaults to 10 s. */
  readonly headersTimeoutMs?: number;
}

/** The Content-Security-Policy of every response; `tiles` adds its origin to what the page may load and fetch. */
export function contentSecurityPolicy(tiles: string | null = null): string {
  let tileOrigin = '';
  if (tiles !== null) {
    try {
      // A template such as https://tile.example.org/{z}/{x}/{y}.png: its braces are not part of the origin.
      tileOrigin = ` ${new URL(tiles.replace(/[{}]/g, '')).origin}`;
    } catch {
      tileOrigin = '';
    }
  }
  return (
    // 'wasm-unsafe-eval' lets the page compile the dead-reckoning kernel's WebAssembly module (no eval of scripts).
    `default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; img-src 'self' data: blob:${tileOrigin}; ` +
    `style-src 'self' 'unsafe-inline'; ` +
    `worker-src 'self' blob:; connect-src 'self' ws: wss:${tileOrigin}`
  );
}

/** An HTTP server for the page and the feed (not yet listening; see `listenView`). */
export function createViewServer(options: ViewServerOptions): Server {
  const pageDir = resolve(options.pageDir ?? defaultPageDir());
  const csp = contentSecurityPolicy(options.tiles ?? null);
  const hostAllowed = options.hostAllowed ?? hostPolicy();
  const gateway = options.gateway;
  const headersTimeoutMs = options.headersTimeoutMs ?? 10_000;
  // Timeouts are looked for every half of the allowance (node:http's default is every 30 s).
  const checkingIntervalMs = Math.max(1, Math.floor(headersTimeoutMs / 2));
  const server = createServer({ connectionsCheckingInterval: checkingIntervalMs }, (request, response) => {
    if (!hostAllowed(request.headers.host)) return send(response, 403, `${HOST_REFUSED}\n`, csp);
    serve(request, response, pageDir, csp);
  });
  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (hostAllowed(request.headers.host)) gateway.handleUpgrade(request, socket, head);
    else gateway.refuseUpgrade(socket, 403, 'Forbidden', HOST_REFUSED);
  });
  // A client that sends garbage gets 400; one that sends no request in time (a browser's connection opened ahead
  // of need) 408, on which browsers send the request again (RFC 9110 §15.5.9). Neither reaches the process.
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    if (!socket.writable) return void socket.destroy();
    const status = error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? '408 Request Timeout' : '400 Bad Request';
    socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\n\r\n`);
  });
  // Requests' headers must arrive in time; idle keep-alive sockets close after 5 s (node:http's default).
  server.headersTimeout = headersTimeoutMs;
  server.requestTimeout = 30_000;
  return server;
}

function send(response: ServerResponse, status: number, body: string, csp: string, head = false): void {
  response.writeHead(status, {
    'Content-Type': 'text/plain; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
    'Content-Security-Policy': csp,
    'X-Content-Type-Options': 'nosniff',
    'Cache-Control': 'no-store',
  });
  response.end(head ? undefined : body);
}

function serve(request: IncomingMessage, response: ServerResponse, pageDir: string, csp: string): void {
  const head = request.method === 'HEAD';
  if (request.method !== 'GET' && !head) {
    response.setHeader('Allow', 'GET, HEAD');
    return send(response, 405, 'method not allowed: the page is read with GET\n', csp);
  }
  let path: string;
  try {
    path = decodeURIComponent(new URL(request.url ?? '/', 'http://localhost').pathname);
  } catch {
    return send(response, 400, 'bad request path\n', csp, head);
  }
  if (path === '/healthz') return send(response, 200, 'ok\n', csp, head);
  if (path === '/' || path === '/index.html') path = '/index.html';
  // Only files inside the page folder: no "..", no NUL, no hidden files.
  const file = normalize(join(pageDir, path));
  if (path.includes('\0') || !file.startsWith(pageDir + sep) || /[\\/]\./.test(path)) {
    return send(response, 404, 'not found\n', csp, head);
  }
  let size: number;
  try {
    const stat = statSync(file);
    if (!stat.isFile()) throw new Error('not a file');
    size = stat.size;
  } catch {
    if (path === '/index.html') return send(response, 404, 'page not built: run npm run build\n', csp, head);
    return send(response, 404, 'not found\n', csp, head);
  }
  response.writeHead(200, {
    'Content-Type': CONTENT_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream',
    'Content-Length': size,
    'Content-Security-Policy': csp,
    'X-Content-Type-Options': 'nosniff',
    'Cache-Control': path === '/index.html' ? 'no-cache' : 'max-age=60',
  });
  if (head) return void response.end();
  const stream = createReadStream(file);
  stream.on('error', () => response.destroy());
  stream.pipe(response);
}

/** Parses `HOST:PORT` (`[::1]:8080` for IPv6; a bare port means `127.0.0.1`). @returns it, or what is wrong. */
export function parseHttpAddress(text: string): { host: string; port: number } | string {
  const usage = `expected HOST:PORT, e.g. 127.0.0.1:8080, 0.0.0.0:8080 (every interface) or [::1]:8080; got "${text}"`;
  let host: string, portText: string;
  const v6 = /^\[([^\]]+)\]:(\d+)$/.exec(text);
  if (v6) [host, portText] = [v6[1]!, v6[2]!];
  else if (/^\d+$/.test(text)) [host, portText] = [DEFAULT_HTTP_HOST, text];
  else {
    const colon = text.lastIndexOf(':');
    if (colon <= 0 || text.indexOf(':') !== colon) return usage;
    [host, portText] = [text.slice(0, colon), text.slice(colon + 1)];
  }
  if (!/^\d+$/.test(portText)) return usage;
  const port = Number(portText);
  if (port > 65535 || host.length === 0) return usage;
  return { host, port };
}

/** The URL a browser on this host opens for a bound address (all interfaces → the loopback address). */
export function pageUrl(address: AddressInfo): string {
  let host = address.address;
  if (host === '0.0.0.0') host = '127.0.0.1';
  else if (host === '::') host = '[::1]';
  else if (host.includes(':')) host = `[${host}]`;
  return `http://${host}:${address.port}/`;
}

/**
 * Starts listening.
 * @param fallbackToFreePort - when the port is taken, take any free one instead (the default address's behaviour,
 *   so the demo runs beside whatever holds 8080). Defaults to false.
 * @throws Error naming the address and what to do when it cannot be bound.
 */
export async function listenView(
  server: Server,
  host: string,
  port: number,
  fallbackToFreePort = false,
): Promise<AddressInfo> {
  try {
    return await listenOnce(server, host, port);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE' && fallbackToFreePort && port !== 0) return listenOnce(server, host, 0);
    const hint =
      code === 'EADDRINUSE'
        ? 'another program uses this port; pick another with --http HOST:PORT (port 0 = any free port)'
        : code === 'EADDRNOTAVAIL'
          ? 'this address does not belong to this host; use 127.0.0.1 or one of its addresses'
          : code === 'EACCES'
            ? 'permission denied; ports below 1024 need privileges'
            : undefined;
    const message = `serving the page on ${host} port ${port} failed: ${(error as Error).message}`;
    throw new Error(`${message}${hint ? ` — ${hint}` : ''}`, { cause: error });
  }
}

function listenOnce(server: Server, host: string, port: number): Promise<AddressInfo> {
  return new Promise((resolvePromise, reject) => {
    const onError = (error: Error) => reject(error);
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolvePromise(server.address() as AddressInfo);
    });
  });
}
