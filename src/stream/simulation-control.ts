/**
 * What a subscriber does with the simulation management PDUs that speak to the entities it holds (IEEE 1278.1-2012
 * §7.5): Remove Entity removes the entities addressed at once; Stop/Freeze holds those of its exercise addressed
 * at the PDU's real-world time (no dead reckoning, no timeouts); Start/Resume lets them run again from where they
 * stood. A time in the near future is waited for on the scheduler, the orders waiting bounded and merged.
 */
import { PduType } from '../pdu/wire/constants.js';
import type { SchedulerLike, Subscription } from 'rxjs';
import { addressedSlots } from '../dr/receiver/addressed-slots.js';
import { actionTimeSeconds } from '../dr/receiver/exercise-freeze.js';
import type { FreezeOrder } from '../dr/receiver/freeze-orders.js';
import { PendingOrders, PendingResult } from '../dr/receiver/pending-orders.js';
import type { RemoteEntityTable } from '../dr/receiver/remote-entity-table.js';
import type { EntityManagementRecord, StartResumeRecord, StopFreezeRecord } from '../pdu/wire/simulation-management.js';

/** Counters of the simulation management PDUs a subscriber acted on. */
export interface SimulationControlStats {
  /** Remove Entity PDUs, and the entities they removed. */
  removeEntityPdus: number;
  removedEntities: number;
  /** Stop/Freeze PDUs, and the entities they froze. */
  stopFreezePdus: number;
  frozenEntities: number;
  /** Start/Resume PDUs, and the entities they resumed. */
  startResumePdus: number;
  resumedEntities: number;
  /** Orders dated ahead that gave way to a newer one for the same exercise and receiving id before their time. */
  ordersReplaced: number;
  /** Orders dated ahead not kept: `MAX_PENDING_ORDERS` (src/dr/receiver/pending-orders.ts) for other entities waited. */
  ordersDropped: number;
}

export function createSimulationControlStats(): SimulationControlStats {
  return {
    removeEntityPdus: 0,
    removedEntities: 0,
    stopFreezePdus: 0,
    frozenEntities: 0,
    startResumePdus: 0,
    resumedEntities: 0,
    ordersReplaced: 0,
    ordersDropped: 0,
  };
}

/**
 * Removes the entities a Remove Entity PDU addresses (its receiving id).
 * @param remove - removes one entity by key (so that its event says why).
 * @returns how many left.
 */
export function removeEntities(
  table: RemoteEntityTable,
  record: EntityManagementRecord,
  remove: (key: number) => boolean,
): number {
  let n = 0;
  for (const slot of addressedSlots(table, record.exerciseId, record.receivingId)) if (remove(table.key[slot]!)) n++;
  return n;
}

/**
 * Freezes (Stop/Freeze) or resumes (Start/Resume) the entities a PDU addresses, at its real-world time when that is
 * near now (`actionTimeSeconds`): at once when it has come, else when it does. Orders dated ahead wait in a bounded
 * set, merged by exercise and receiving id (`PendingOrders`), behind one scheduler action for the earliest: a flood
 * of them costs neither a timer each nor memory without bound; those replaced or dropped are counted in `stats`.
 */
export class SimulationControl {
  private readonly pending = new PendingOrders();
  private action: Subscription | undefined;
  /** When the scheduled action fires, seconds; +∞ when none is scheduled. */
  private armedAtSeconds = Number.POSITIVE_INFINITY;

  /** @param getTable - the table acted on when an order's time comes (none: the order is let go). */
  constructor(
    private readonly getTable: () => RemoteEntityTable | undefined,
    private readonly scheduler: SchedulerLike,
    private readonly stats: SimulationControlStats,
  ) {}

  /** Orders waiting for their time. */
  get waiting(): number {
    return this.pending.size;
  }

  /** @param nowSeconds - the table's time now (scheduler time, seconds). */
  take(record: StopFreezeRecord | StartResumeRecord, nowSeconds: number): void {
    const time = record.realWorldTime;
    const order: FreezeOrder = {
      freeze: record.pduType === PduType.STOP_FREEZE,
      exercise: record.exerciseId,
      // Copied: the record is reused for the next PDU.
      receiving: { ...record.receivingId },
      atSeconds: actionTimeSeconds(time.hour, time.timePastHour, nowSeconds),
    };
    if (order.atSeconds <= nowSeconds) return this.act(order);
    const result = this.pending.add(order);
    this.stats.ordersReplaced = this.pending.replaced;
    this.stats.ordersDropped = this.pending.dropped;
    if (result !== PendingResult.DROPPED && order.atSeconds < this.armedAtSeconds) this.arm(nowSeconds);
  }

  /** Forgets the orders waiting (the subscriber disconnected). */
  clear(): void {
    this.pending.clear();
    this.action?.unsubscribe();
    this.action = undefined;
    this.armedAtSeconds = Number.POSITIVE_INFINITY;
  }

  /** Schedules the one action for the earliest order waiting. */
  private arm(nowSeconds: number): void {
    this.action?.unsubscribe();
    this.action = undefined;
    const next = this.pending.nextDueSeconds();
    this.armedAtSeconds = next;
    if (next === Number.POSITIVE_INFINITY) return;
    // Rounded up: a timer never fires before its delay, so the order is due when it does.
    this.action = this.scheduler.schedule(() => this.due(), Math.ceil(Math.max(0, next - nowSeconds) * 1000));
  }

  private due(): void {
    this.action = undefined;
    const nowSeconds = this.scheduler.now() / 1000;
    for (const order of this.pending.takeDue(nowSeconds)) this.act(order);
    this.arm(nowSeconds);
  }

  private act(order: FreezeOrder): void {
    const table = this.getTable();
    if (!table) return;
    let n = 0;
    for (const slot of addressedSlots(table, order.exercise, order.receiving)) {
      if (order.freeze ? table.freeze(slot, order.atSeconds) : table.resume(slot, order.atSeconds)) n++;
    }
    if (order.freeze) this.stats.frozenEntities += n;
    else this.stats.resumedEntities += n;
  }
}
