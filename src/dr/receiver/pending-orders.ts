/**
 * Stop/Freeze and Start/Resume orders dated ahead (IEEE 1278.1-2012 §7.5.4, §7.5.5: they act at their real-world
 * time), waiting for it. Bounded and merged: one order per exercise and receiving id, the newest received replacing
 * an older one still waiting for the same entities; at most `capacity` wait, and an order for other entities
 * beyond that is dropped. Both are counted, so a flood of orders dated ahead costs a fixed amount of memory and one
 * timer, not one each. Time is a parameter.
 */
import type { FreezeOrder } from './freeze-orders.js';

/** Orders waiting at most, by default: far more than a simulation manager sends ahead of time. */
export const MAX_PENDING_ORDERS = 1024;

/** What became of an order handed to `PendingOrders.add`. */
export const PendingResult = {
  /** Waits for its time. */
  WAITING: 0,
  /** Waits for its time, in place of an older order for the same entities (counted in `replaced`). */
  REPLACED: 1,
  /** Not kept: `capacity` orders for other entities wait already (counted in `dropped`). */
  DROPPED: 2,
} as const;
export type PendingResult = (typeof PendingResult)[keyof typeof PendingResult];

const keyOf = (o: FreezeOrder): string =>
  `${o.exercise}/${o.receiving.site}:${o.receiving.application}:${o.receiving.entity}`;

export class PendingOrders {
  /** Orders that gave way to a newer one for the same exercise and receiving id. */
  replaced = 0;
  /** Orders not kept because `capacity` others were waiting. */
  dropped = 0;
  /** By exercise and receiving id; a `Map` keeps them in the order received. */
  private readonly waiting = new Map<string, FreezeOrder>();

  constructor(readonly capacity = MAX_PENDING_ORDERS) {}

  get size(): number {
    return this.waiting.size;
  }

  /** Keeps an order until its time (`order.atSeconds`); the newest for the same entities wins. */
  add(order: FreezeOrder): PendingResult {
    const key = keyOf(order);
    if (this.waiting.delete(key)) {
      this.replaced++;
      this.waiting.set(key, order);
      return PendingResult.REPLACED;
    }
    if (this.waiting.size >= this.capacity) {
      this.dropped++;
      return PendingResult.DROPPED;
    }
    this.waiting.set(key, order);
    return PendingResult.WAITING;
  }

  /** When the next order is due, seconds; +∞ when none waits. */
  nextDueSeconds(): number {
    let next = Number.POSITIVE_INFINITY;
    for (const order of this.waiting.values()) if (order.atSeconds < next) next = order.atSeconds;
    return next;
  }

  /** Removes and returns the orders due at `nowSeconds`, earliest first (in the order received when due together). */
  takeDue(nowSeconds: number): FreezeOrder[] {
    const due: FreezeOrder[] = [];
    for (const [key, order] of this.waiting) {
      if (order.atSeconds > nowSeconds) continue;
      due.push(order);
      this.waiting.delete(key);
    }
    // Array.prototype.sort is stable: orders due together stay in the order received.
    return due.sort((a, b) => a.atSeconds - b.atSeconds);
  }

  clear(): void {
    this.waiting.clear();
  }
}
