/**
 * The bytes of a feed as they arrive, as rxjs streams over Node sockets, files and HTTP: a TCP client that
 * reconnects (1, 2, 4 … 30 s apart) and counts a connection that stalls as a failure, a UDP socket or a TCP server
 * that listens (at most 64 clients), standard input or a file, and an HTTP poller with a bound on the body. What
 * happens to the connection is told in `ConnectionStatus`, updated in place; only a socket that cannot listen at
 * all ends the stream with an error.
 */
import { Observable } from 'rxjs';
import type { FeedSpec } from './feed-url.js';

/** One piece of a feed: bytes of connection `stream`, or that connection's end. */
export interface Chunk {
  readonly bytes: Uint8Array;
  /** The connection (each TCP connection gets its own number; a UDP datagram is whole on its own). */
  readonly stream: number;
  /** The connection ended after these bytes (a UDP datagram always ends). */
  readonly end: boolean;
}

/** What happened to a feed's connection, updated in place. */
export interface ConnectionStatus {
  connected: boolean;
  /** Connections made (a client's) or accepted (a server's). */
  connections: number;
  /** Connections lost or refused, and stalls (no byte for `stallSeconds`). */
  failures: number;
  stalls: number;
  /** Why the last connection failed (one line), or undefined. */
  lastError: string | undefined;
  /** Where a listener listens, `ADDR:PORT` with the port bound (port 0 asks for any). */
  listening: string | undefined;
  /** Clients turned away (a server at its limit), HTTP bodies over the bound. */
  refused: number;
}

export function createConnectionStatus(): ConnectionStatus {
  return {
    connected: false,
    connections: 0,
    failures: 0,
    stalls: 0,
    lastError: undefined,
    listening: undefined,
    refused: 0,
  };
}

/** A readable stream of bytes as Node's have it (`process.stdin`, a file's stream), described without @types/node. */
export interface ByteStream {
  on(event: 'data' | 'end' | 'error', listener: (value?: unknown) => void): unknown;
  off(event: 'data' | 'end' | 'error', listener: (value?: unknown) => void): unknown;
}

/** How a feed's connection behaves: its stall bound, the poll interval, standard input. */
export interface ConnectionOptions {
  /** A client connection without a byte for this long is closed and made again. Defaults to 30 s. */
  readonly stallSeconds?: number;
  /** Seconds between polls of an aircraft.json. Defaults to 1. */
  readonly pollSeconds?: number;
  /** Standard input, for a feed of `-` (`process.stdin`). */
  readonly stdin?: ByteStream;
  /**
   * Attempts made again after a client's first fails, before it gives up (the stream ends with an error) if it
   * never connected: a wrong address or port is said, not retried forever. Once connected, it reconnects
   * forever (an outage of the source). Defaults to DEFAULT_RETRIES; 0 gives up at the first failure.
   */
  readonly retries?: number;
}

/** Connection attempts made again before a client that never connected gives up (1 + 2 + 4 + 8 + 16 s). */
export const DEFAULT_RETRIES = 5;

const MAX_CLIENTS = 64;
/** Largest aircraft.json accepted (a busy readsb serves about 1 MB). */
export const MAX_BODY_BYTES = 16 * 1024 * 1024;
const EMPTY = new Uint8Array(0);

const reason = (error: unknown): string => {
  const e = error as NodeJS.ErrnoException;
  return e?.code ?? (e instanceof Error ? e.message : String(error));
};

/** The chunks of a feed, from where its spec says. */
export function feedChunks(
  spec: FeedSpec,
  status: ConnectionStatus,
  options: ConnectionOptions = {},
): Observable<Chunk> {
  switch (spec.transport) {
    case 'tcp-client':
      return tcpClient(spec, status, options.stallSeconds ?? 30, options.retries ?? DEFAULT_RETRIES);
    case 'udp-listen':
      return udpListener(spec, status);
    case 'tcp-listen':
      return tcpListener(spec, status);
    case 'http-poll':
      return httpPoll(
        spec,
        status,
        options.pollSeconds ?? 1,
        options.stallSeconds ?? 30,
        options.retries ?? DEFAULT_RETRIES,
      );
    case 'stdin':
      if (!options.stdin) return new Observable((s) => s.error(new Error('no standard input to read')));
      return readable(options.stdin, status);
    case 'file':
      return new Observable<Chunk>((subscriber) => {
        let inner: { unsubscribe(): void } | undefined;
        let closed = false;
        void import('node:fs').then(({ createReadStream }) => {
          if (closed) return;
          const stream = createReadStream(spec.location);
          inner = readable(stream, status).subscribe(subscriber);
        });
        return () => {
          closed = true;
          inner?.unsubscribe();
        };
      });
  }
}

/**
 * A file's chunks, read 64 KiB at a time as `mayRead` allows (so that a file played at its pace is not held in
 * memory whole).
 */
export function fileChunks(path: string, status: ConnectionStatus, mayRead: () => Promise<void>): Observable<Chunk> {
  return new Observable<Chunk>((subscriber) => {
    let stopped = false;
    void (async () => {
      const { open } = await import('node:fs/promises');
      let handle: import('node:fs/promises').FileHandle | undefined;
      try {
        handle = await open(path, 'r');
        status.connected = true;
        status.connections++;
        for (;;) {
          await mayRead();
          if (stopped) return;
          const buffer = new Uint8Array(64 * 1024);
          const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
          if (stopped) return;
          if (bytesRead === 0) break;
          subscriber.next({ bytes: buffer.subarray(0, bytesRead), stream: 0, end: false });
        }
        status.connected = false;
        subscriber.next({ bytes: EMPTY, stream: 0, end: true });
        subscriber.complete();
      } catch (error) {
        if (!stopped) subscriber.error(new Error(`cannot read ${path}: ${reason(error)}`));
      } finally {
        await handle?.close().catch(() => {});
      }
    })();
    return () => {
      stopped = true;
    };
  });
}

/** The error that ends a client's stream when it never connected in 1 + `retries` attempts. */
function neverConnected(spec: FeedSpec, status: ConnectionStatus, attempts: number): Error {
  const tries = attempts === 1 ? 'one attempt' : `${attempts} attempts`;
  return new Error(`could not connect to ${spec.text} (${status.lastError ?? 'no answer'}; ${tries})`);
}

function tcpClient(spec: FeedSpec, status: ConnectionStatus, stallSeconds: number, retries: number): Observable<Chunk> {
  return new Observable<Chunk>((subscriber) => {
    let stopped = false;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let socket: import('node:net').Socket | undefined;
    let backoffSeconds = 1;
    let stream = 0;
    const connect = (net: typeof import('node:net')): void => {
      if (stopped) return;
      const mine = ++stream;
      socket = net.connect({ host: spec.host, port: spec.port });
      socket.setTimeout(stallSeconds * 1000);
      socket.on('connect', () => {
        status.connected = true;
        status.connections++;
        backoffSeconds = 1;
      });
      socket.on('data', (bytes: Buffer) => subscriber.next({ bytes, stream: mine, end: false }));
      socket.on('timeout', () => {
        status.stalls++;
        socket?.destroy(new Error(`no data for ${stallSeconds} s`));
      });
      socket.on('error', (error) => {
        status.lastError = reason(error);
      });
      socket.on('close', () => {
        if (status.connected || status.lastError !== undefined) status.failures++;
        status.connected = false;
        subscriber.next({ bytes: EMPTY, stream: mine, end: true });
        if (stopped) return;
        if (status.connections === 0 && mine > retries) {
          subscriber.error(neverConnected(spec, status, mine));
          return;
        }
        retry = setTimeout(() => connect(net), backoffSeconds * 1000);
        backoffSeconds = Math.min(backoffSeconds * 2, 30);
      });
    };
    void import('node:net').then(connect);
    return () => {
      stopped = true;
      if (retry) clearTimeout(retry);
      socket?.destroy();
    };
  });
}

function udpListener(spec: FeedSpec, status: ConnectionStatus): Observable<Chunk> {
  return new Observable<Chunk>((subscriber) => {
    let socket: import('node:dgram').Socket | undefined;
    let stopped = false;
    void import('node:dgram').then((dgram) => {
      if (stopped) return;
      socket = dgram.createSocket({ type: spec.host.includes(':') ? 'udp6' : 'udp4', reuseAddr: false });
      socket.on('message', (bytes) => subscriber.next({ bytes, stream: 0, end: true }));
      socket.on('error', (error) => {
        if (!status.listening)
          subscriber.error(new Error(`cannot listen on udp://${spec.host}:${spec.port}: ${reason(error)}`));
        else status.lastError = reason(error);
      });
      socket.bind(spec.port, spec.host, () => {
        const address = socket!.address();
        status.listening = `${spec.host.includes(':') ? `[${address.address}]` : address.address}:${address.port}`;
        status.connected = true;
      });
    });
    return () => {
      stopped = true;
      try {
        socket?.close();
      } catch {
        // already closed
      }
    };
  });
}

function tcpListener(spec: FeedSpec, status: ConnectionStatus): Observable<Chunk> {
  return new Observable<Chunk>((subscriber) => {
    let server: import('node:net').Server | undefined;
    const clients = new Set<import('node:net').Socket>();
    let stopped = false;
    let stream = 0;
    void import('node:net').then((net) => {
      if (stopped) return;
      server = net.createServer((socket) => {
        if (clients.size >= MAX_CLIENTS) {
          status.refused++;
          socket.destroy();
          return;
        }
        const mine = ++stream;
        clients.add(socket);
        status.connections++;
        status.connected = true;
        socket.on('data', (bytes: Buffer) => subscriber.next({ bytes, stream: mine, end: false }));
        socket.on('error', (error) => {
          status.lastError = reason(error);
        });
        socket.on('close', () => {
          clients.delete(socket);
          subscriber.next({ bytes: EMPTY, stream: mine, end: true });
        });
      });
      server.on('error', (error) => {
        if (!status.listening)
          subscriber.error(new Error(`cannot listen on tcp://${spec.host}:${spec.port}: ${reason(error)}`));
        else status.lastError = reason(error);
      });
      server.listen(spec.port, spec.host, () => {
        const address = server!.address() as import('node:net').AddressInfo;
        status.listening = `${spec.host.includes(':') ? `[${address.address}]` : address.address}:${address.port}`;
      });
    });
    return () => {
      stopped = true;
      for (const socket of clients) socket.destroy();
      server?.close();
    };
  });
}

function readable(stream: ByteStream, status: ConnectionStatus): Observable<Chunk> {
  return new Observable<Chunk>((subscriber) => {
    status.connected = true;
    status.connections++;
    const onData = (bytes: unknown) =>
      subscriber.next({
        bytes: typeof bytes === 'string' ? new TextEncoder().encode(bytes) : (bytes as Uint8Array),
        stream: 0,
        end: false,
      });
    const onEnd = () => {
      status.connected = false;
      subscriber.next({ bytes: EMPTY, stream: 0, end: true });
      subscriber.complete();
    };
    const onError = (error: unknown) => subscriber.error(new Error(`cannot read: ${reason(error)}`));
    stream.on('data', onData);
    stream.on('end', onEnd);
    stream.on('error', onError);
    return () => {
      stream.off('data', onData);
      stream.off('end', onEnd);
      stream.off('error', onError);
      (stream as { destroy?: () => void }).destroy?.();
    };
  });
}

function httpPoll(
  spec: FeedSpec,
  status: ConnectionStatus,
  pollSeconds: number,
  stallSeconds: number,
  retries: number,
): Observable<Chunk> {
  return new Observable<Chunk>((subscriber) => {
    let stopped = false;
    let attempts = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let abort: AbortController | undefined;
    const poll = async (): Promise<void> => {
      attempts++;
      abort = new AbortController();
      const deadline = setTimeout(() => abort?.abort(new Error(`no answer in ${stallSeconds} s`)), stallSeconds * 1000);
      try {
        const response = await fetch(spec.location, { signal: abort.signal, redirect: 'follow' });
        if (!response.ok || !response.body) throw new Error(`HTTP ${response.status}`);
        const parts: Uint8Array[] = [];
        let length = 0;
        for await (const part of response.body as AsyncIterable<Uint8Array>) {
          length += part.length;
          if (length > MAX_BODY_BYTES) {
            status.refused++;
            abort.abort();
            throw new Error(`a body over ${MAX_BODY_BYTES / 1024 / 1024} MB`);
          }
          parts.push(part);
        }
        const body = new Uint8Array(length);
        let at = 0;
        for (const part of parts) {
          body.set(part, at);
          at += part.length;
        }
        if (!status.connected) status.connections++;
        status.connected = true;
        subscriber.next({ bytes: body, stream: 0, end: true });
      } catch (error) {
        if (stopped) return;
        status.connected = false;
        status.failures++;
        const cause = (error as { cause?: unknown }).cause;
        status.lastError = cause ? reason(cause) : reason(error);
        if (status.connections === 0 && attempts > retries) {
          clearTimeout(deadline);
          subscriber.error(neverConnected(spec, status, attempts));
          return;
        }
      } finally {
        clearTimeout(deadline);
      }
      if (!stopped) timer = setTimeout(() => void poll(), pollSeconds * 1000);
    };
    void poll();
    return () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      abort?.abort();
    };
  });
}
