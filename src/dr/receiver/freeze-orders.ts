/**
 * The Stop/Freeze and Start/Resume orders in force (IEEE 1278.1-2012 §7.5.4, §7.5.5), in order of arrival: an entity
 * is held when the newest order that addresses it is a Stop/Freeze. Kept by a receiver that must hold entities
 * arriving after the order (a viewer joining during a freeze, entities sent again after a filter change). An order
 * that addresses every entity an older one does replaces it, so a whole-exercise resume leaves nothing behind; at
 * most `capacity` orders are kept, the oldest going first.
 */
import { addresses } from './exercise-freeze.js';

export interface FreezeOrder {
  /** Stop/Freeze (true) or Start/Resume (false). */
  readonly freeze: boolean;
  readonly exercise: number;
  /** The receiving id: 65535 in a part means all; entity 0, every entity of the simulation. */
  readonly receiving: { readonly site: number; readonly application: number; readonly entity: number };
  /** When it takes effect, seconds on the caller's time axis. */
  readonly atSeconds: number;
}

export class FreezeOrders {
  private list: FreezeOrder[] = [];

  constructor(readonly capacity = 64) {}

  /** The orders in force, oldest first. */
  get orders(): readonly FreezeOrder[] {
    return this.list;
  }

  add(order: FreezeOrder): void {
    const r = order.receiving;
    const kept = this.list.filter(
      (o) =>
        o.exercise !== order.exercise || !addresses(r, o.receiving.site, o.receiving.application, o.receiving.entity),
    );
    // A resume matters only over a freeze still in force.
    if (order.freeze || kept.some((o) => o.freeze)) kept.push(order);
    if (kept.length > this.capacity) kept.shift();
    this.list = kept;
  }

  /** When the entity is held from (the newest order addressing it is a freeze), or NaN when it runs. */
  heldFrom(exercise: number, site: number, application: number, entity: number): number {
    for (let k = this.list.length - 1; k >= 0; k--) {
      const o = this.list[k]!;
      if (o.exercise === exercise && addresses(o.receiving, site, application, entity)) {
        return o.freeze ? o.atSeconds : Number.NaN;
      }
    }
    return Number.NaN;
  }

  clear(): void {
    this.list = [];
  }
}
