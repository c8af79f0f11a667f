/**
 * What a subscriber does with the simulation management PDUs that speak to the entities it holds (IEEE 1278.1-2012
 * §7.5): Remove Entity removes the entities addressed at once; Stop/Freeze holds those of its exercise addressed
 * at the PDU's real-world time (no dead reckoning, no timeouts); Start/Resume lets them run again from where they
 * stood. A time in the near future is waited for on the scheduler.
 */
import type { SchedulerLike } from 'rxjs';
import { addressedSlots } from '../dr/addressed-slots.js';
import { actionTimeSeconds } from '../dr/exercise-freeze.js';
import type { RemoteEntityTable } from '../dr/remote-entity-table.js';
import type { EntityManagementRecord, StartResumeRecord, StopFreezeRecord } from '../pdu/simulation-management.js';

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
}

export function createSimulationControlStats(): SimulationControlStats {
  return {
    removeEntityPdus: 0,
    removedEntities: 0,
    stopFreezePdus: 0,
    frozenEntities: 0,
    startResumePdus: 0,
    resumedEntities: 0,
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
 * Freezes (Stop/Freeze) or resumes (Start/Resume) the entities the PDU addresses, at its real-world time when that
 * is near now (`actionTimeSeconds`): at once when it has come, on the scheduler when it is still ahead.
 * @param nowSeconds - the table's time now (scheduler time, seconds).
 * @param onDone - told how many entities changed, when they did.
 */
export function freezeOrResume(
  getTable: () => RemoteEntityTable | undefined,
  record: StopFreezeRecord | StartResumeRecord,
  nowSeconds: number,
  scheduler: SchedulerLike,
  onDone: (entities: number) => void,
): void {
  const freeze = record.pduType === 14;
  const time = record.realWorldTime;
  const atSeconds = actionTimeSeconds(time.hour, time.timePastHour, nowSeconds);
  // Copied now: the record is reused for the next PDU.
  const exercise = record.exerciseId;
  const id = { ...record.receivingId };
  const act = (): void => {
    const table = getTable();
    if (!table) return;
    let n = 0;
    for (const slot of addressedSlots(table, exercise, id)) {
      if (freeze ? table.freeze(slot, atSeconds) : table.resume(slot, atSeconds)) n++;
    }
    onDone(n);
  };
  if (atSeconds <= nowSeconds) act();
  else scheduler.schedule(act, (atSeconds - nowSeconds) * 1000);
}
