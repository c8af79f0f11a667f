/**
 * The entities of a remote-entity table that a simulation management PDU addresses (its receiving id, within its
 * exercise; IEEE 1278.1-2012 §7.5): one lookup when it names one entity, a pass over the slots for a wildcard.
 */
import { entityKey } from '../../pdu/wire/entity-state-record.js';
import { addresses } from './exercise-freeze.js';
import type { RemoteEntityTable } from './remote-entity-table.js';

export function addressedSlots(
  table: RemoteEntityTable,
  exercise: number,
  id: { readonly site: number; readonly application: number; readonly entity: number },
): number[] {
  const wildcard = id.site === 0xffff || id.application === 0xffff || id.entity === 0xffff || id.entity === 0;
  if (!wildcard) {
    const slot = table.slotOf(entityKey(id.site, id.application, id.entity));
    return slot >= 0 && table.exerciseId[slot] === exercise ? [slot] : [];
  }
  const slots: number[] = [];
  const ids = table.entityId;
  for (let slot = 0; slot < table.highWater; slot++) {
    const s3 = 3 * slot;
    if (
      table.active[slot] === 1 &&
      table.exerciseId[slot] === exercise &&
      addresses(id, ids[s3]!, ids[s3 + 1]!, ids[s3 + 2]!)
    ) {
      slots.push(slot);
    }
  }
  return slots;
}
