/**
 * Plausibility of an engagement PDU before it becomes an event: a Fire or Detonation PDU whose location or velocity
 * is not a number (or beyond what `validateEntityState` allows an entity), a Collision whose numbers are not
 * finite, a radio of no entity or with its antenna nowhere, never reaches an event, a map or a report
 * (docs/pdu-validation.md). Nothing here allocates.
 */
import { PduType } from '../wire/constants.js';
import type { CollisionElasticRecord, CollisionRecord } from '../wire/collision.js';
import type { EntityIdFields } from '../wire/pdu-fields.js';
import type { SignalRecord, TransmitterRecord } from '../wire/radio.js';
import * as status from '../wire/status.js';
import { ENTITY_ID_ALL, ENTITY_ID_NONE, MAX_LOCATION_METERS, MAX_SPEED_METERS_PER_SECOND } from './validate.js';
import type { DetonationRecord, FireRecord } from '../wire/warfare.js';

const { CodecStatus } = status;
type CodecStatus = status.CodecStatus;
const MAX_SPEED_SQUARED = MAX_SPEED_METERS_PER_SECOND * MAX_SPEED_METERS_PER_SECOND;

function finite3(v: Float64Array): boolean {
  return v[0]! - v[0]! === 0 && v[1]! - v[1]! === 0 && v[2]! - v[2]! === 0;
}

function location(l: Float64Array): CodecStatus {
  const max = MAX_LOCATION_METERS;
  if (Math.abs(l[0]!) <= max && Math.abs(l[1]!) <= max && Math.abs(l[2]!) <= max) return CodecStatus.OK;
  return finite3(l) ? CodecStatus.LOCATION_OUT_OF_RANGE : CodecStatus.LOCATION_NOT_FINITE;
}

function velocity(v: Float64Array): CodecStatus {
  if (v[0]! * v[0]! + v[1]! * v[1]! + v[2]! * v[2]! <= MAX_SPEED_SQUARED) return CodecStatus.OK;
  return finite3(v) ? CodecStatus.VELOCITY_OUT_OF_RANGE : CodecStatus.VELOCITY_NOT_FINITE;
}

/**
 * A Fire or Detonation PDU: its location and velocity as an entity's would be checked; a Fire PDU's range and a
 * Detonation PDU's location in the target's coordinates finite.
 * @returns OK, or the first reason it cannot be shown.
 */
export function validateShot(record: FireRecord | DetonationRecord): CodecStatus {
  const where = location(record.location);
  if (where !== CodecStatus.OK) return where;
  const speed = velocity(record.velocity);
  if (speed !== CodecStatus.OK) return speed;
  if ('range' in record) return record.range - record.range === 0 ? CodecStatus.OK : CodecStatus.LOCATION_NOT_FINITE;
  return finite3(record.locationInEntity) ? CodecStatus.OK : CodecStatus.LOCATION_NOT_FINITE;
}

/** A Collision or Collision-Elastic PDU: its offset from the issuing entity and its velocity finite. */
export function validateCollision(record: CollisionRecord | CollisionElasticRecord): CodecStatus {
  const elastic = record.pduType === PduType.COLLISION_ELASTIC;
  const offset = elastic ? (record as CollisionElasticRecord).locationOfImpact : (record as CollisionRecord).location;
  if (
    !finite3(offset) ||
    !(Math.abs(offset[0]!) + Math.abs(offset[1]!) + Math.abs(offset[2]!) <= MAX_LOCATION_METERS)
  ) {
    return finite3(offset) ? CodecStatus.LOCATION_OUT_OF_RANGE : CodecStatus.LOCATION_NOT_FINITE;
  }
  return velocity(elastic ? (record as CollisionElasticRecord).contactVelocity : (record as CollisionRecord).velocity);
}

/** An entity id that names one entity: no part 0 (none) or 65535 (all), as `validateEntityState` asks. */
function entityId(id: EntityIdFields): CodecStatus {
  if (id.site === ENTITY_ID_NONE || id.application === ENTITY_ID_NONE || id.entity === ENTITY_ID_NONE) {
    return CodecStatus.ENTITY_ID_NONE;
  }
  if (id.site === ENTITY_ID_ALL || id.application === ENTITY_ID_ALL || id.entity === ENTITY_ID_ALL) {
    return CodecStatus.ENTITY_ID_ALL;
  }
  return CodecStatus.OK;
}

/**
 * A Transmitter or Signal PDU: the entity its radio belongs to is one entity (0:0:0 is none), and a Transmitter
 * PDU's antenna location (ECEF; all zero for "not given") is where an entity could be.
 */
export function validateRadio(record: TransmitterRecord | SignalRecord): CodecStatus {
  const id = entityId(record.entityId);
  if (id !== CodecStatus.OK || !('antennaLocation' in record)) return id;
  return location(record.antennaLocation);
}
