/**
 * nats.js reports a failure of its reader (a line from the server it cannot parse, such as a `MSG` with a bad
 * size) with `console.log("reader closed", error)`: on stdout, with a stack trace, and then it reads nothing more
 * while the connection looks open. This takes those lines out of `console.log` and closes the connection whose
 * reader failed with the error as its failure (one line, no stack): at once when its parser told it
 * (src/nats/inbound-limits.ts), else once it no longer answers a PING (each connection of the process checks itself).
 */
import type { NatsConnection } from '@nats-io/transport-node';
import { onReaderFailure, toldToConnection } from './inbound-limits.js';

type Listener = (error: Error) => void;
const listeners = new Set<Listener>();
let installed = false;

/** How long a connection has to answer a PING before its reader counts as gone, ms. */
const PING_WAIT_MS = 5000;

function install(): void {
  if (installed) return;
  installed = true;
  const log = console.log;
  console.log = (...args: unknown[]) => {
    if (args[0] === 'reader closed' && (listeners.size > 0 || toldToConnection(args[1]))) {
      if (toldToConnection(args[1])) return;
      const error = args[1] instanceof Error ? args[1] : new Error(String(args[1]));
      for (const listener of listeners) {
        try {
          listener(error);
        } catch {
          // One connection that cannot check itself must not keep the others from checking.
        }
      }
      return;
    }
    log.apply(console, args);
  };
}

/** Text from the server, made safe for a terminal: printable ASCII only, at most 120 characters. */
function printable(text: string): string {
  const clean = text.replace(/[^ -~]/g, '?');
  return clean.length > 120 ? `${clean.slice(0, 119)}…` : clean;
}

/**
 * Calls `fail` with a one-line error when `connection`'s reader dies. @returns a function that stops watching.
 */
export function watchReader(connection: NatsConnection, fail: (error: Error) => void): () => void {
  install();
  const stopTold = onReaderFailure(connection, (error) => {
    const what = printable(error.message.split('\n')[0] ?? '');
    fail(
      new Error(
        what.startsWith('the NATS server ')
          ? `${what}; the connection is closed`
          : `the NATS server sent what the client cannot read (${what}); the connection is closed`,
      ),
    );
  });
  const listener: Listener = (error) => {
    let timer: NodeJS.Timeout | undefined;
    const silent = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(true), PING_WAIT_MS);
    });
    const answered = Promise.resolve()
      .then(() => connection.flush())
      .then(() => false);
    void Promise.race([answered, silent])
      .catch(() => false)
      .then((gone) => {
        clearTimeout(timer);
        if (!gone) return;
        const what = printable(error.message.split('\n')[0] ?? '');
        fail(new Error(`the NATS server sent what the client cannot read (${what}); the connection is closed`));
      });
  };
  listeners.add(listener);
  return () => {
    stopTold();
    listeners.delete(listener);
  };
}
