/**
 * The rate limit of one feed client's filter changes: each change costs a walk over every entity (the snapshot of
 * the new view), so a client sending thousands of filters must not stall the gateway. Changes are coalesced: only
 * the newest waiting one is applied, at most once per interval; the ones it replaced are counted, never answered.
 */
import type { ViewFilter } from './protocol.js';

/** Shortest time between two filter changes of one client, ms: a page panning sends a few per second. */
export const FILTER_INTERVAL_MS = 200;

export class FilterGate {
  /** Filters replaced by a newer one before they were applied. */
  coalesced = 0;
  private waiting: ViewFilter | undefined;
  private lastAppliedMs = Number.NEGATIVE_INFINITY;

  constructor(readonly intervalMs = FILTER_INTERVAL_MS) {}

  /** A filter the client asked for; replaces one still waiting. */
  offer(filter: ViewFilter): void {
    if (this.waiting !== undefined) this.coalesced++;
    this.waiting = filter;
  }

  /** The filter to apply now, if one waits and the interval since the last has passed. */
  take(nowMs: number): ViewFilter | undefined {
    const filter = this.waiting;
    if (filter === undefined || nowMs - this.lastAppliedMs < this.intervalMs) return undefined;
    this.waiting = undefined;
    this.lastAppliedMs = nowMs;
    return filter;
  }
}
