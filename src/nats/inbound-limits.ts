/**
 * What the NATS client may take from a server, bounded. nats.js buffers a message whole before handing it over,
 * whatever size its `MSG` or `HMSG` line announces (up to 64 MiB), and a protocol line until it ends; once its parser
 * throws, its reader stops and the socket's data piles up unread until the connection is closed (a hostile server
 * announcing 1 GiB and streaming it took `subscribe --nats` to 2.36 GB). So its parser is wrapped, once per process:
 * a message line announcing more than the server's `max_payload` (from its INFO; never more than
 * `MAX_NATS_MESSAGE_BYTES`) and a protocol line longer than `MAX_CONTROL_LINE_BYTES` are refused before anything of
 * them is buffered, and whatever makes the parser throw is told at once to the connection it belongs to.
 */
import { NatsConnectionImpl, Parser, type NatsConnection } from '@nats-io/transport-node';

/** Most bytes a message from the server may announce, whatever its `max_payload` says (reckon sends 16 KiB). */
export const MAX_NATS_MESSAGE_BYTES = 8 * 1024 * 1024;
/** Most bytes of one protocol line from the server (nats-server's own limit is 4 KiB; an INFO can run longer). */
export const MAX_CONTROL_LINE_BYTES = 64 * 1024;

/** An error the wrapped parser raised or saw, already told to its connection. */
const told = new WeakSet<object>();
/** By the protocol handler the parser dispatches to (one per connection, across its reconnects). */
const listeners = new WeakMap<object, (error: Error) => void>();
let installed = false;

/** The number a message line ends with (its size), or −1. */
function announcedBytes(arg: Uint8Array): number {
  let end = arg.length;
  while (end > 0 && (arg[end - 1] === 0x20 || arg[end - 1] === 0x09 || arg[end - 1] === 0x0d)) end--;
  let start = end;
  while (start > 0 && arg[start - 1]! >= 0x30 && arg[start - 1]! <= 0x39) start--;
  if (start === end) return -1;
  let n = 0;
  for (let i = start; i < end; i++) n = n * 10 + (arg[i]! - 0x30);
  return n;
}

/** What a connection takes at most: its server's `max_payload`, within `MAX_NATS_MESSAGE_BYTES`. */
function limitOf(dispatcher: unknown): number {
  const maxPayload = (dispatcher as { info?: { max_payload?: unknown } }).info?.max_payload;
  return typeof maxPayload === 'number' && maxPayload > 0
    ? Math.min(maxPayload, MAX_NATS_MESSAGE_BYTES)
    : MAX_NATS_MESSAGE_BYTES;
}

function install(): void {
  if (installed) return;
  installed = true;
  const proto = Parser.prototype;
  const parse = proto.parse;
  proto.parse = function (this: Parser, buf: Uint8Array): void {
    try {
      parse.call(this, buf);
      const line = this.argBuf?.length ?? 0;
      if (line > MAX_CONTROL_LINE_BYTES) {
        throw new Error(`the NATS server sent a protocol line over ${MAX_CONTROL_LINE_BYTES} bytes long`);
      }
    } catch (error) {
      const listener = listeners.get(this.dispatcher);
      if (listener !== undefined && error instanceof Error && !told.has(error)) {
        told.add(error);
        listener(error);
      }
      throw error;
    }
  };
  for (const name of ['processMsgArgs', 'processHeaderMsgArgs'] as const) {
    const original = proto[name];
    proto[name] = function (this: Parser, arg: Uint8Array): void {
      const limit = limitOf(this.dispatcher);
      const announced = announcedBytes(arg);
      if (announced > limit) {
        throw new Error(
          `the NATS server announced a message of ${announced} bytes, more than the ${limit} it may send ` +
            '(its max_payload)',
        );
      }
      original.call(this, arg);
    };
  }
}

/**
 * Calls `listener` at once, with the error, when `connection`'s parser refuses or cannot read what its server sent
 * (its reader then stops). @returns a function that stops listening.
 */
export function onReaderFailure(connection: NatsConnection, listener: (error: Error) => void): () => void {
  install();
  if (!(connection instanceof NatsConnectionImpl)) return () => {};
  const protocol = connection.protocol;
  listeners.set(protocol, listener);
  return () => listeners.delete(protocol);
}

/** Whether an error was told to its connection already (so nothing else need find out which connection it was). */
export function toldToConnection(error: unknown): boolean {
  return typeof error === 'object' && error !== null && told.has(error);
}
