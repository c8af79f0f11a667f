/**
 * The stop condition shared by the commands that run until told otherwise (`subscribe`, `view`, `bridge`,
 * `record`, the NATS bridge and stream recorder): Ctrl-C or SIGTERM (`io.signal`), `--duration`, or a reason of
 * the command's own (a socket that failed, a count reached). The first reason wins; the later ones are ignored.
 */
import { setLongTimeout, type TimerHost } from './long-timer.js';

export interface UntilStopped {
  /** Resolves with the first reason given, e.g. `interrupted` or `30 s elapsed`. */
  readonly stopped: Promise<string>;
  /** Stops with this reason (a no-op once stopped). */
  stop(reason: string): void;
}

/**
 * Starts watching `signal` and, when `durationSeconds` is given, a timer; both are released when the first stop
 * reason arrives, so a finished command leaves no timer holding the event loop and no listener on the signal.
 * @param host - the clock and timers of the duration. Defaults to Node's.
 */
export function untilStopped(signal: AbortSignal, durationSeconds?: number, host?: TimerHost): UntilStopped {
  let resolve: (reason: string) => void = () => {};
  const stopped = new Promise<string>((r) => (resolve = r));
  let done = false;
  const onAbort = () => stop('interrupted');
  const timer =
    durationSeconds === undefined
      ? undefined
      : setLongTimeout(() => stop(`${durationSeconds} s elapsed`), durationSeconds * 1000, false, host);
  function stop(reason: string): void {
    if (done) return;
    done = true;
    timer?.clear();
    signal.removeEventListener('abort', onAbort);
    resolve(reason);
  }
  signal.addEventListener('abort', onAbort, { once: true });
  if (signal.aborted) onAbort();
  return { stopped, stop };
}
