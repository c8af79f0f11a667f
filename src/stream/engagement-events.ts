/**
 * Engagement events: a shot (Fire PDU), where it went off (Detonation PDU) and a collision (Collision and
 * Collision-Elastic PDUs), with the entities named as the remote-entity table knows them and the numbers named
 * from SISO-REF-010. Built only when someone listens to `events$`; they allocate.
 */
import { PduType } from '../pdu/wire/constants.js';
import type { RemoteEntityTable } from '../dr/receiver/remote-entity-table.js';
import { ecefToGeodeticDegrees } from '../math/geodesy.js';
import { enumerationName, entityTypeName } from '../names/index.js';
import type { CollisionElasticRecord, CollisionRecord } from '../pdu/wire/collision.js';
import { entityKey } from '../pdu/wire/entity-state-record.js';
import { collisionElasticToJson, collisionToJson, detonationToJson, fireToJson } from '../pdu/json/interaction-json.js';
import type { EntityIdFields } from '../pdu/wire/pdu-fields.js';
import { entityTypeJson } from '../pdu/json/pdu-json-parts.js';
import type {
  CollisionElasticPdu,
  CollisionPdu,
  DetonationPdu,
  EventId,
  FirePdu,
  MunitionDescriptor,
} from '../pdu/schema/pdu-schemas.js';
import type { EntityId, Vec3Tuple } from '../pdu/schema/schema.js';
import type { DetonationRecord, FireRecord, MunitionDescriptorFields } from '../pdu/wire/warfare.js';
import { markingAt } from './frame.js';

/** Detonation result (SISO-REF-010 UID 62). */
const DETONATION_RESULT_UID = 62;
/** Collision type (SISO-REF-010 UID 189). */
const COLLISION_TYPE_UID = 189;

/** An entity a PDU names: its id and key, and its marking when the table holds it. */
export interface EntityRef {
  readonly entityId: EntityId;
  /** `entityKey(site, application, entity)`. */
  readonly key: number;
  /** From its last Entity State PDU; undefined when the table does not hold it. */
  readonly marking: string | undefined;
}

/** A place on the Earth: ECEF metres, and the same as WGS-84 latitude and longitude (degrees) and height (m). */
export interface Place {
  readonly location: Vec3Tuple;
  readonly latitude: number;
  readonly longitude: number;
  readonly height: number;
}

/** What was fired: the burst (v5/v6) or munition (v7) descriptor, the type named. */
export interface Munition extends MunitionDescriptor {
  /** SISO-REF-010's name of the munition type, e.g. "AT-6 Spiral · Guided · RUS". */
  readonly name: string;
  /** The munition as an entity when the shooter tracks it as one, else undefined. */
  readonly entity: EntityRef | undefined;
}

/** A shot: a Fire PDU (IEEE 1278.1-2012 §7.3.2), its entities named as the table knows them, where it was fired. */
export interface FireEvent extends Place {
  readonly type: 'fire';
  /** Scheduler time of the event, seconds. */
  readonly timeSeconds: number;
  readonly shooter: EntityRef;
  /** Undefined when the shooter did not know it (0:0:0). */
  readonly target: EntityRef | undefined;
  readonly munition: Munition;
  /** Pairs the shot with its detonation. */
  readonly eventId: EventId;
  /** Of the round at launch, m/s, ECEF. */
  readonly velocity: Vec3Tuple;
  /** Range to the target the shooter used, metres (0 when none). */
  readonly range: number;
  readonly pdu: FirePdu;
}

/**
 * Where a round or munition went off and with what result: a Detonation PDU (IEEE 1278.1-2012 §7.3.3); its
 * `eventId` is the one of the fire it ends.
 */
export interface DetonationEvent extends Place {
  readonly type: 'detonation';
  readonly timeSeconds: number;
  readonly shooter: EntityRef;
  readonly target: EntityRef | undefined;
  readonly munition: Munition;
  readonly eventId: EventId;
  readonly velocity: Vec3Tuple;
  /** Detonation result (SISO-REF-010 UID 62): 1 entity impact, 3 ground impact, 5 detonation, 6 none (dud), … */
  readonly result: number;
  readonly resultName: string;
  readonly pdu: DetonationPdu;
}

/** A collision between entities, or with terrain: a Collision or Collision-Elastic PDU (IEEE 1278.1-2012 §7.2.3, §7.2.4). */
export interface CollisionEvent extends Place {
  readonly type: 'collision';
  readonly timeSeconds: number;
  /** The entity that sends the PDU. */
  readonly issuing: EntityRef;
  /** What it hit; undefined for terrain or an object that is not an entity (0:0:0). */
  readonly colliding: EntityRef | undefined;
  readonly eventId: EventId;
  /** SISO-REF-010 UID 189: 0 inelastic, 1 elastic, … */
  readonly collisionType: number;
  readonly collisionTypeName: string;
  /**
   * The place is where the table shows the issuing entity at the event plus the collision's offset in its body
   * coordinates; false when the table does not hold it, and the place is then the Earth's centre.
   */
  readonly located: boolean;
  readonly pdu: CollisionPdu | CollisionElasticPdu;
}

/** What `createSubscriber(...).events$` emits about engagements between entities; tell them apart by `type`. */
export type EngagementEvent = FireEvent | DetonationEvent | CollisionEvent;

const lla = new Float64Array(3);

function place(x: number, y: number, z: number): Place {
  ecefToGeodeticDegrees(lla, x, y, z);
  return { location: [x, y, z], latitude: lla[0]!, longitude: lla[1]!, height: lla[2]! };
}

function entityRef(id: EntityIdFields, table: RemoteEntityTable | undefined): EntityRef {
  const key = entityKey(id.site, id.application, id.entity);
  const slot = table ? table.slotOf(key) : -1;
  return {
    entityId: { site: id.site, application: id.application, entity: id.entity },
    key,
    marking: slot >= 0 ? markingAt(table!, slot) : undefined,
  };
}

/** An entity id of a PDU, or undefined for 0:0:0 (target unknown, no entity). */
function optionalRef(id: EntityIdFields, table: RemoteEntityTable | undefined): EntityRef | undefined {
  return id.site === 0 && id.application === 0 && id.entity === 0 ? undefined : entityRef(id, table);
}

function munition(d: MunitionDescriptorFields, id: EntityIdFields, table: RemoteEntityTable | undefined): Munition {
  const munitionType = entityTypeJson(d.munitionType);
  return {
    munitionType,
    warhead: d.warhead,
    fuse: d.fuse,
    quantity: d.quantity,
    rate: d.rate,
    name: entityTypeName(munitionType).label,
    entity: optionalRef(id, table),
  };
}

export function fireEvent(record: FireRecord, table: RemoteEntityTable | undefined, timeSeconds: number): FireEvent {
  const l = record.location,
    v = record.velocity;
  return {
    type: 'fire',
    timeSeconds,
    shooter: entityRef(record.firingEntityId, table),
    target: optionalRef(record.targetEntityId, table),
    munition: munition(record.descriptor, record.munitionId, table),
    eventId: { ...record.eventId },
    ...place(l[0]!, l[1]!, l[2]!),
    velocity: [v[0]!, v[1]!, v[2]!],
    range: record.range,
    pdu: fireToJson(record),
  };
}

export function detonationEvent(
  record: DetonationRecord,
  table: RemoteEntityTable | undefined,
  timeSeconds: number,
): DetonationEvent {
  const l = record.location,
    v = record.velocity;
  return {
    type: 'detonation',
    timeSeconds,
    shooter: entityRef(record.firingEntityId, table),
    target: optionalRef(record.targetEntityId, table),
    munition: munition(record.descriptor, record.munitionId, table),
    eventId: { ...record.eventId },
    ...place(l[0]!, l[1]!, l[2]!),
    velocity: [v[0]!, v[1]!, v[2]!],
    result: record.result,
    resultName: enumerationName(DETONATION_RESULT_UID, record.result),
    pdu: detonationToJson(record),
  };
}

const at = new Float64Array(3);
const worldToBody = new Float64Array(9);

/**
 * A Collision or Collision-Elastic PDU as an event, placed where the table shows the issuing entity at
 * `timeSeconds` plus the PDU's offset (in the entity's body coordinates, so R_wbᵀ · offset in ECEF).
 */
export function collisionEvent(
  record: CollisionRecord | CollisionElasticRecord,
  table: RemoteEntityTable | undefined,
  timeSeconds: number,
): CollisionEvent {
  const elastic = record.pduType === PduType.COLLISION_ELASTIC;
  const offset = elastic ? (record as CollisionElasticRecord).locationOfImpact : (record as CollisionRecord).location;
  const issuing = entityRef(record.issuingEntityId, table);
  const slot = table ? table.slotOf(issuing.key) : -1;
  let located = false;
  at.fill(0);
  if (slot >= 0 && table) {
    table.renderSlot(slot, timeSeconds, at, worldToBody);
    for (let i = 0; i < 3; i++) {
      at[i] =
        at[i]! + worldToBody[i]! * offset[0]! + worldToBody[3 + i]! * offset[1]! + worldToBody[6 + i]! * offset[2]!;
    }
    located = true;
  }
  const collisionType = elastic ? 1 : (record as CollisionRecord).collisionType;
  return {
    type: 'collision',
    timeSeconds,
    issuing,
    colliding: optionalRef(record.collidingEntityId, table),
    eventId: { ...record.eventId },
    collisionType,
    collisionTypeName: enumerationName(COLLISION_TYPE_UID, collisionType),
    ...place(at[0]!, at[1]!, at[2]!),
    located,
    pdu: elastic
      ? collisionElasticToJson(record as CollisionElasticRecord)
      : collisionToJson(record as CollisionRecord),
  };
}
