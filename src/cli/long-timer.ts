/**
 * Timers for durations a user gives. Node fires a `setTimeout` longer than 2³¹−1 ms (24.8 days) after 1 ms, with a
 * warning, so `--duration "30 days"` would stop at once; these chain timers of at most that length instead.
 */

/** Node's longest timer, ms (a signed 32-bit count). */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** The clock and timers a long timer runs on: Node's by default (a test gives its own). */
export interface TimerHost {
  now(): number;
  setTimeout(callback: () => void, ms: number): { unref(): unknown };
  clearTimeout(timer: { unref(): unknown } | undefined): void;
}

const NODE_TIMERS: TimerHost = {
  now: () => performance.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (timer) => clearTimeout(timer as NodeJS.Timeout | undefined),
};

/** A pending long timer; `clear` cancels it (a no-op once fired). */
export interface LongTimer {
  clear(): void;
}

/**
 * Calls `callback` once after `ms` (any length, `Infinity` for never), through as many chained timers as it takes.
 * @param unref - whether the timer may not keep the process alive (as `timer.unref()`). Defaults to false.
 * @param host - the clock and timers. Defaults to Node's.
 */
export function setLongTimeout(callback: () => void, ms: number, unref = false, host = NODE_TIMERS): LongTimer {
  const dueMs = host.now() + Math.max(0, ms);
  let timer: { unref(): unknown } | undefined;
  const arm = (): void => {
    const leftMs = dueMs - host.now();
    if (leftMs <= MAX_TIMER_MS) timer = host.setTimeout(callback, Math.max(0, leftMs));
    else timer = host.setTimeout(arm, MAX_TIMER_MS);
    if (unref) timer.unref();
  };
  if (Number.isFinite(dueMs)) arm();
  return { clear: () => host.clearTimeout(timer) };
}

/** Resolves after `ms` (any length), or at once when `signal` aborts. */
export function sleep(ms: number, signal: AbortSignal, host = NODE_TIMERS): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = (): void => {
      timer.clear();
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setLongTimeout(done, ms, false, host);
    signal.addEventListener('abort', done, { once: true });
  });
}
