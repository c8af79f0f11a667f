/**
 * Timers for durations a user gives. Node fires a `setTimeout` longer than 2³¹−1 ms (24.8 days) after 1 ms, with a
 * warning, so `--duration "30 days"` would stop at once; these chain timers of at most that length instead.
 */

/** Node's longest timer, ms (a signed 32-bit count). */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** A pending long timer; `clear` cancels it (a no-op once fired). */
export interface LongTimer {
  clear(): void;
}

/**
 * Calls `callback` once after `ms` (any length, `Infinity` for never), through as many chained timers as it takes.
 * @param unref - whether the timer may not keep the process alive (as `timer.unref()`). Defaults to false.
 */
export function setLongTimeout(callback: () => void, ms: number, unref = false): LongTimer {
  const dueMs = performance.now() + Math.max(0, ms);
  let timer: NodeJS.Timeout | undefined;
  const arm = (): void => {
    const leftMs = dueMs - performance.now();
    if (leftMs <= MAX_TIMER_MS) timer = setTimeout(callback, Math.max(0, leftMs));
    else timer = setTimeout(arm, MAX_TIMER_MS);
    if (unref) timer.unref();
  };
  if (Number.isFinite(dueMs)) arm();
  return { clear: () => clearTimeout(timer) };
}

/** Resolves after `ms` (any length), or at once when `signal` aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = (): void => {
      timer.clear();
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setLongTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
