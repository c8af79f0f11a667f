/**
 * The page's end of the `/feed` WebSocket (src/view/protocol.ts): connects, reconnects by itself with a growing
 * delay (0.25 s doubling to 5 s) after the server goes away, parses text messages without ever throwing, and keeps
 * the page's estimate of the server clock.
 */
import { encodeMessage, parseServerMessage, type ClientMessage, type ServerMessage } from '../protocol.js';

export type ConnectionState = 'connecting' | 'open' | 'closed';

export interface FeedHandlers {
  message(message: ServerMessage): void;
  binary(bytes: Uint8Array): void;
  state(state: ConnectionState): void;
}

const MIN_RETRY_MS = 250;
const MAX_RETRY_MS = 5000;

export class Feed {
  state: ConnectionState = 'closed';
  /** Text messages that were not JSON objects with a type. */
  badMessages = 0;
  reconnects = 0;
  /** Bytes received, binary and text. */
  bytesReceived = 0;
  private socket: WebSocket | null = null;
  private retryMs = MIN_RETRY_MS;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private stopped = false;

  constructor(
    private readonly url: string,
    private readonly handlers: FeedHandlers,
  ) {}

  start(): void {
    this.stopped = false;
    this.connect();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    this.socket?.close();
  }

  /** Sends a message when connected. @returns false when not connected (it is not queued). */
  send(message: ClientMessage): boolean {
    if (this.socket === null || this.socket.readyState !== WebSocket.OPEN) return false;
    this.socket.send(encodeMessage(message));
    return true;
  }

  private setState(state: ConnectionState): void {
    this.state = state;
    this.handlers.state(state);
  }

  private connect(): void {
    this.setState('connecting');
    let socket: WebSocket;
    try {
      socket = new WebSocket(this.url);
    } catch {
      this.retry();
      return;
    }
    socket.binaryType = 'arraybuffer';
    this.socket = socket;
    socket.onopen = () => {
      this.retryMs = MIN_RETRY_MS;
      this.setState('open');
    };
    socket.onmessage = (event: MessageEvent) => {
      const data: unknown = event.data;
      if (typeof data === 'string') {
        this.bytesReceived += data.length;
        const message = parseServerMessage(data);
        if (message === undefined) this.badMessages++;
        else this.handlers.message(message);
      } else if (data instanceof ArrayBuffer) {
        this.bytesReceived += data.byteLength;
        this.handlers.binary(new Uint8Array(data));
      }
    };
    socket.onclose = () => {
      if (this.socket !== socket) return;
      this.socket = null;
      this.setState('closed');
      if (!this.stopped) this.retry();
    };
    // An error is followed by close, which retries.
    socket.onerror = () => {};
  }

  private retry(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.reconnects++;
      this.connect();
    }, this.retryMs);
    this.retryMs = Math.min(MAX_RETRY_MS, this.retryMs * 2);
  }
}

/**
 * The server's clock as seen from the page. A message stamped at server time S arrives at local time L ≥ S − offset
 * (it took some time to come), so S − L never exceeds the true offset: the estimate is the largest S − L of the
 * last `window` observations (the least delayed message), which follows slow drift.
 */
export class ServerClock {
  private readonly samples: Float64Array;
  private next = 0;
  private count = 0;
  private offsetMs = 0;

  constructor(window = 64) {
    this.samples = new Float64Array(window);
  }

  /** Starts over (a new server: it may be another machine or have restarted). */
  reset(): void {
    this.count = this.next = 0;
  }

  /** One message stamped `serverTimeMs` on the server, received at `localMs` (performance.now()). */
  observe(serverTimeMs: number, localMs: number): void {
    if (!Number.isFinite(serverTimeMs)) return;
    this.samples[this.next] = serverTimeMs - localMs;
    this.next = (this.next + 1) % this.samples.length;
    if (this.count < this.samples.length) this.count++;
    let best = -Infinity;
    for (let i = 0; i < this.count; i++) if (this.samples[i]! > best) best = this.samples[i]!;
    this.offsetMs = best;
  }

  get synced(): boolean {
    return this.count > 0;
  }

  /** Server time at local time `localMs`, ms since the Unix epoch. */
  serverMs(localMs: number): number {
    return localMs + this.offsetMs;
  }
}
