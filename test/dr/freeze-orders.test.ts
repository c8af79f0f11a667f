// The Stop/Freeze and Start/Resume orders in force: an entity is held when the newest order addressing it is a
// freeze; a resume of part of a frozen exercise lets that part run; orders covered by a newer one go. Orders dated
// ahead wait, bounded and merged per exercise and receiving id.
import { describe, expect, it } from 'vitest';
import { FreezeOrders } from '../../src/dr/receiver/freeze-orders.js';
import { PendingOrders, PendingResult } from '../../src/dr/receiver/pending-orders.js';

const ALL = { site: 0xffff, application: 0xffff, entity: 0xffff };
const order = (freeze: boolean, receiving: typeof ALL, atSeconds = 10, exercise = 1) => ({
  freeze,
  exercise,
  receiving,
  atSeconds,
});

describe('FreezeOrders', () => {
  it('holds what a freeze addresses, in its exercise only, from its time', () => {
    const orders = new FreezeOrders();
    orders.add(order(true, { site: 5, application: 9, entity: 0 }, 12));
    expect(orders.heldFrom(1, 5, 9, 4)).toBe(12);
    expect(orders.heldFrom(1, 5, 8, 4)).toBeNaN();
    expect(orders.heldFrom(2, 5, 9, 4)).toBeNaN();
  });

  it('lets the part a resume addresses run while the rest of a frozen exercise stays held', () => {
    const orders = new FreezeOrders();
    orders.add(order(true, ALL, 10));
    orders.add(order(false, { site: 5, application: 9, entity: 0 }, 20));
    expect(orders.heldFrom(1, 5, 9, 1)).toBeNaN();
    expect(orders.heldFrom(1, 6, 1, 1)).toBe(10);
    expect(orders.orders).toHaveLength(2);
    // A resume of everything leaves nothing in force.
    orders.add(order(false, ALL, 30));
    expect(orders.orders).toEqual([]);
    expect(orders.heldFrom(1, 6, 1, 1)).toBeNaN();
  });

  it('keeps no resume without a freeze under it, and at most its capacity of orders', () => {
    const orders = new FreezeOrders(3);
    orders.add(order(false, ALL));
    expect(orders.orders).toEqual([]);
    for (let entity = 1; entity <= 5; entity++) orders.add(order(true, { site: 1, application: 1, entity }, entity));
    expect(orders.orders.map((o) => o.atSeconds)).toEqual([3, 4, 5]);
    // A freeze of a whole simulation replaces the single-entity ones it covers.
    orders.add(order(true, { site: 1, application: 1, entity: 0 }, 7));
    expect(orders.orders.map((o) => o.atSeconds)).toEqual([7]);
  });
});

describe('PendingOrders', () => {
  it('keeps the newest order per exercise and receiving id, at most its capacity, and counts the rest', () => {
    const pending = new PendingOrders(3);
    const one = { site: 1, application: 1, entity: 1 };
    expect(pending.add(order(true, one, 5))).toBe(PendingResult.WAITING);
    expect(pending.add(order(false, one, 8))).toBe(PendingResult.REPLACED);
    expect(pending.add(order(true, one, 8, 2))).toBe(PendingResult.WAITING); // another exercise
    expect(pending.add(order(true, ALL, 9))).toBe(PendingResult.WAITING);
    expect(pending.add(order(true, { ...one, entity: 2 }, 1))).toBe(PendingResult.DROPPED);
    expect([pending.size, pending.replaced, pending.dropped, pending.nextDueSeconds()]).toEqual([3, 1, 1, 8]);
  });

  it('hands over the orders due, earliest first, those due together in the order received', () => {
    const pending = new PendingOrders();
    pending.add(order(true, { site: 1, application: 1, entity: 1 }, 6));
    pending.add(order(true, { site: 1, application: 1, entity: 2 }, 4));
    pending.add(order(false, { site: 1, application: 1, entity: 3 }, 4));
    pending.add(order(true, { site: 1, application: 1, entity: 4 }, 9));
    expect(pending.takeDue(3)).toEqual([]);
    expect(pending.takeDue(6).map((o) => o.receiving.entity)).toEqual([2, 3, 1]);
    expect([pending.size, pending.nextDueSeconds()]).toEqual([1, 9]);
    pending.clear();
    expect(pending.nextDueSeconds()).toBe(Number.POSITIVE_INFINITY);
  });
});
