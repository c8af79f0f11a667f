/**
 * A clock and timers of their own for code that takes a `TimerHost` (src/cli/long-timer.ts): time moves only by
 * `advance`, and no other code's timers run on them (vitest's fake timers are global, so a timer another test file
 * left behind in the same worker would fire through weeks of fake time).
 */
import { MAX_TIMER_MS, type TimerHost } from '../../src/cli/long-timer.js';

interface FakeTimer {
  id: number;
  atMs: number;
  callback: () => void;
  unref(): undefined;
}

export class FakeTimerHost implements TimerHost {
  private nowMs = 0;
  private nextId = 1;
  private readonly pending = new Map<number, FakeTimer>();

  now(): number {
    return this.nowMs;
  }

  /** As Node's: a delay past 2³¹−1 ms fires after 1 ms. */
  setTimeout(callback: () => void, ms: number): FakeTimer {
    const delayMs = ms > MAX_TIMER_MS ? 1 : Math.max(1, ms);
    const timer: FakeTimer = { id: this.nextId++, atMs: this.nowMs + delayMs, callback, unref: () => undefined };
    this.pending.set(timer.id, timer);
    return timer;
  }

  clearTimeout(timer: { unref(): unknown } | undefined): void {
    if (timer !== undefined) this.pending.delete((timer as FakeTimer).id);
  }

  /** Timers pending. */
  get count(): number {
    return this.pending.size;
  }

  /** Moves the clock on by `ms`, firing the timers due on the way, in time order. */
  advance(ms: number): void {
    const endMs = this.nowMs + ms;
    for (;;) {
      let next: FakeTimer | undefined;
      for (const timer of this.pending.values())
        if (timer.atMs <= endMs && (!next || timer.atMs < next.atMs)) next = timer;
      if (next === undefined) break;
      this.pending.delete(next.id);
      this.nowMs = next.atMs;
      next.callback();
    }
    this.nowMs = endMs;
  }
}
