/**
 * What the remote-entity table reports: the result of `apply` for each PDU, and the events its listener is called
 * with. Codes never change meaning; new ones are appended.
 */

/** What `RemoteEntityTable.apply` did with a PDU. */
export const ApplyResult = {
  APPEARED: 1,
  UPDATED: 2,
  /** A Deactivated PDU removed the entity. */
  REMOVED: 3,
  /** The same timestamp as the entity's last PDU. */
  DUPLICATE: 4,
  /** Older than the entity's last PDU by less than its timeout. */
  OUT_OF_ORDER: 5,
  /** An Entity State Update (type 67) for an entity never seen in a full Entity State PDU. */
  UNKNOWN_UPDATE: 6,
  /** A new entity while the table holds its capacity. */
  TABLE_FULL: 7,
  /** Neither an Entity State (type 1) nor an Entity State Update (type 67) PDU. */
  NOT_ENTITY_STATE: 8,
  /** A deactivated entity the table did not hold. */
  IGNORED: 9,
} as const;
export type ApplyResult = (typeof ApplyResult)[keyof typeof ApplyResult];

/** What happened to an entity, as the table's `onEvent` listener is told. */
export const TableEvent = {
  APPEARED: 1,
  UPDATED: 2,
  TIMED_OUT: 3,
  REMOVED: 4,
  /** Held by a Stop/Freeze PDU (`RemoteEntityTable.freeze`). */
  FROZEN: 5,
  /** Running again after a Start/Resume PDU (`RemoteEntityTable.resume`). */
  RESUMED: 6,
} as const;
export type TableEvent = (typeof TableEvent)[keyof typeof TableEvent];
