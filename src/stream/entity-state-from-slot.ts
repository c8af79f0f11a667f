/**
 * The last state a remote-entity table holds for one slot, as an `EntityStateRecord`: for events that no full
 * Entity State PDU carries (an Entity State Update merged into the table, a timeout, a removal).
 */
import type { RemoteEntityTable } from '../dr/receiver/remote-entity-table.js';
import { ENTITY_STATE_BYTES, PduType } from '../pdu/wire/constants.js';
import { VARIABLE_PARAMETER_BYTES, type EntityStateRecord } from '../pdu/wire/entity-state-record.js';

/**
 * Fills `out` from the table's slot: identity, type, marking, appearance, capabilities, and the DR model as last
 * received (location, velocity, orientation, acceleration and rates at the last PDU). Alternative entity type,
 * DR other parameters and variable parameter records are not kept by the table and are left zero.
 * @returns out.
 */
export function entityStateFromSlot(out: EntityStateRecord, table: RemoteEntityTable, slot: number): EntityStateRecord {
  const s3 = 3 * slot,
    m = table.store;
  out.protocolVersion = table.protocolVersion[slot]!;
  out.exerciseId = table.exerciseId[slot]!;
  out.pduType = PduType.ENTITY_STATE;
  out.protocolFamily = 1;
  out.timestampRaw = table.timestampRaw[slot]!;
  out.length = ENTITY_STATE_BYTES;
  out.pduStatus = 0;
  out.site = table.entityId[s3]!;
  out.application = table.entityId[s3 + 1]!;
  out.entity = table.entityId[s3 + 2]!;
  out.forceId = table.forceId[slot]!;
  for (let k = 0; k < 7; k++) out.entityType[k] = table.entityType[7 * slot + k]!;
  out.alternativeEntityType.fill(0);
  for (let k = 0; k < 3; k++) {
    out.location[k] = m.location0[s3 + k]!;
    out.linearVelocity[k] = m.velocity[s3 + k]!;
    out.orientation[k] = m.orientation0[s3 + k]!;
    out.linearAcceleration[k] = m.acceleration[s3 + k]!;
    out.angularVelocity[k] = m.angularVelocity[s3 + k]!;
  }
  out.appearance = table.appearance[slot]!;
  out.drAlgorithm = m.algorithm[slot]!;
  out.drOtherParameters.fill(0);
  out.markingCharacterSet = table.markingCharacterSet[slot]!;
  for (let k = 0; k < 11; k++) out.markingBytes[k] = table.marking[11 * slot + k]!;
  out.capabilities = table.capabilities[slot]!;
  out.variableParameterCount = 0;
  return out;
}

/**
 * Completes a decoded Entity State Update PDU (type 67) in place into the full Entity State PDU it stands for: the
 * update carries identity, location, velocity, orientation, appearance and variable parameters; entity type, force,
 * DR algorithm, acceleration and rates, marking and capabilities are those of the entity's last full PDU, taken from
 * the table's slot (IEEE 1278.1-2012, Entity State Update PDU). For a leave notice sent as an update, which the
 * table never takes in.
 * @returns update, now a type-1 record.
 */
export function completeUpdateFromSlot(
  update: EntityStateRecord,
  table: RemoteEntityTable,
  slot: number,
): EntityStateRecord {
  const s3 = 3 * slot,
    m = table.store;
  update.pduType = PduType.ENTITY_STATE;
  update.length = ENTITY_STATE_BYTES + VARIABLE_PARAMETER_BYTES * update.variableParameterCount;
  update.forceId = table.forceId[slot]!;
  for (let k = 0; k < 7; k++) update.entityType[k] = table.entityType[7 * slot + k]!;
  for (let k = 0; k < 3; k++) {
    update.linearAcceleration[k] = m.acceleration[s3 + k]!;
    update.angularVelocity[k] = m.angularVelocity[s3 + k]!;
  }
  update.drAlgorithm = m.algorithm[slot]!;
  update.markingCharacterSet = table.markingCharacterSet[slot]!;
  for (let k = 0; k < 11; k++) update.markingBytes[k] = table.marking[11 * slot + k]!;
  update.capabilities = table.capabilities[slot]!;
  return update;
}
