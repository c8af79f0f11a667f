/**
 * reckon — DIS (IEEE 1278.1) dead reckoning for Node.js. Explicit named exports grouped by area.
 */

// pdu — the DIS wire
export {
  EntityStatePduSchema,
  EntityIdSchema,
  EntityTypeSchema,
  VariableParameterSchema,
  type EntityStatePdu,
  type EntityId,
  type EntityType,
  type DisTimestamp,
  type VariableParameter,
  type Vec3Tuple,
} from './pdu/schema.js';
export {
  EntityStateRecord,
  MAX_VARIABLE_PARAMETERS,
  entityKey,
  entityIdFromKey,
} from './pdu/entity-state-record.js';
