/**
 * What the remote-entity table reports: the result of `apply` for each PDU, the events its listener is called
 * with, and its counters. Codes never change meaning; new ones are appended.
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

/** Called synchronously for each `TableEvent` of a slot. */
export type TableEventListener = (kind: TableEvent, slot: number, key: number) => void;

/** Counters of a `RemoteEntityTable`: entities by what happened to them, PDUs by why they were not applied. */
export interface TableStats {
  appeared: number;
  updated: number;
  removed: number;
  timedOut: number;
  duplicates: number;
  outOfOrder: number;
  /** PDUs older than their entity's last by more than its timeout: its sender restarted; applied. */
  restarts: number;
  unknownUpdates: number;
  full: number;
  notEntityState: number;
  unknownAlgorithm: number;
  /** 'timestamp' mode: PDUs whose timestamp was relative or too far from the arrival, taken at their arrival. */
  untrustedTimestamps: number;
}

/** Zeroed counters. */
export function createTableStats(): TableStats {
  return {
    appeared: 0,
    updated: 0,
    removed: 0,
    timedOut: 0,
    duplicates: 0,
    outOfOrder: 0,
    restarts: 0,
    unknownUpdates: 0,
    full: 0,
    notEntityState: 0,
    unknownAlgorithm: 0,
    untrustedTimestamps: 0,
  };
}
