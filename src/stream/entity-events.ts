/** Entity events: what happened to a remote entity, with its state. */
import { TableEvent } from '../dr/receiver/table-results.js';
import type { EntityId, EntityStatePdu } from '../pdu/schema/schema.js';

/** What happened to a remote entity. */
export type EntityEventType = 'appeared' | 'updated' | 'timedOut' | 'removed' | 'frozen' | 'resumed';

/**
 * Why an entity left the table:
 * - `timeout`: silent for heartbeat × 2.4 (a `timedOut` event);
 * - `deactivated`: its own PDU said so (appearance State = Deactivated);
 * - `leftArea`: over NATS, it crossed into a cell outside the area of interest (a leave notice, docs/nats.md);
 * - `areaMoved`: over NATS, the area of interest moved and no longer covers the entity's cell (docs/nats.md);
 * - `application`: the application removed it from the table;
 * - `removeEntity`: a Remove Entity PDU addressed it (IEEE 1278.1-2012 §7.5.3).
 */
export type LeaveReason = 'timeout' | 'deactivated' | 'leftArea' | 'areaMoved' | 'application' | 'removeEntity';

/** One change to the set of remote entities. */
export interface EntityEvent {
  /**
   * `appeared`: first PDU of an entity; `updated`: a newer PDU; `timedOut`: silent for heartbeat × 2.4;
   * `removed`: it left (its own PDU said so, a Remove Entity PDU, …: see `reason`); `frozen`: a Stop/Freeze PDU
   * holds it where it stands (no dead reckoning, no timeout); `resumed`: a Start/Resume PDU lets it run again.
   */
  readonly type: EntityEventType;
  /** `entityKey(site, application, entity)`. */
  readonly key: number;
  readonly entityId: EntityId;
  /** The marking text (up to 11 characters). */
  readonly marking: string;
  /** Scheduler time of the event, seconds. */
  readonly timeSeconds: number;
  /**
   * The entity's state: the PDU just received for `appeared`, `updated` and a `removed` caused by a leave notice
   * (whose appearance then says Deactivated); an Entity State Update is merged into the last full PDU. For
   * `timedOut`, `frozen`, `resumed` and a removal the application or a Remove Entity PDU asked for, the last state
   * received.
   */
  readonly state: EntityStatePdu;
  /** On `timedOut` and `removed`: why the entity left. Absent on `appeared` and `updated`. */
  readonly reason?: LeaveReason;
}

const TYPES: Readonly<Record<TableEvent, EntityEventType>> = {
  [TableEvent.APPEARED]: 'appeared',
  [TableEvent.UPDATED]: 'updated',
  [TableEvent.TIMED_OUT]: 'timedOut',
  [TableEvent.REMOVED]: 'removed',
  [TableEvent.FROZEN]: 'frozen',
  [TableEvent.RESUMED]: 'resumed',
};

/** The event for a table event kind. */
export function entityEvent(
  kind: TableEvent,
  key: number,
  state: EntityStatePdu,
  timeSeconds: number,
  reason?: LeaveReason,
): EntityEvent {
  const event = { type: TYPES[kind]!, key, entityId: state.entityId, marking: state.marking.text, timeSeconds, state };
  return reason === undefined ? event : { ...event, reason };
}

const ENTITY_EVENT_TYPES: ReadonlySet<string> = new Set(Object.values(TYPES));

/** Whether an event of `events$` is about one entity's state (rather than an engagement between entities). */
export function isEntityEvent(event: { readonly type: string }): event is EntityEvent {
  return ENTITY_EVENT_TYPES.has(event.type);
}
