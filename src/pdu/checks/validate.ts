/**
 * Plausibility of a decoded Entity State (or Entity State Update) PDU: values that no entity can have are rejected
 * with their own status code before they reach a remote-entity table, an event or a display. The codec itself
 * decodes whatever is on the wire (so `reckon decode --json` can show it); receivers apply this step after it.
 * The bounds and their reasons: docs/pdu-validation.md. Nothing here allocates.
 */
import { PduType } from '../wire/constants.js';
import type { EntityStateRecord } from '../wire/entity-state-record.js';
import * as status from '../wire/status.js';

const { CodecStatus } = status;
type CodecStatus = status.CodecStatus;

/** Largest |coordinate| of an ECEF location, metres: 24 × the geostationary orbit's radius (4.2e7 m). */
export const MAX_LOCATION_METERS = 1e9;
/** Largest linear speed, m/s: nine times Earth's escape velocity (1.12e4 m/s); no DIS entity moves faster. */
export const MAX_SPEED_METERS_PER_SECOND = 1e5;
/** Highest dead-reckoning algorithm (9 = DRM(F,V,B)); 0 is Other, 1 Static. */
export const MAX_DR_ALGORITHM = 9;
/** Entity id value meaning "none" (NO_SITE, NO_APPLIC, NO_ENTITY). */
export const ENTITY_ID_NONE = 0;
/** Entity id value meaning "all" (ALL_SITES, ALL_APPLIC, ALL_ENTITIES). */
export const ENTITY_ID_ALL = 0xffff;

const MAX_LOCATION = MAX_LOCATION_METERS;
const MAX_SPEED_SQUARED = MAX_SPEED_METERS_PER_SECOND * MAX_SPEED_METERS_PER_SECOND;

/**
 * Checks a record that `decodeEntityStateOrUpdateInto` returned OK for, in wire order: entity id, location,
 * velocity, orientation, then (full Entity State PDUs only) DR algorithm, acceleration, angular velocity.
 * @returns `CodecStatus.OK`, or the first reason the PDU cannot describe an entity.
 */
export function validateEntityState(record: EntityStateRecord): CodecStatus {
  const site = record.site,
    application = record.application,
    entity = record.entity;
  if (site === ENTITY_ID_NONE || application === ENTITY_ID_NONE || entity === ENTITY_ID_NONE) {
    return CodecStatus.ENTITY_ID_NONE;
  }
  if (site === ENTITY_ID_ALL || application === ENTITY_ID_ALL || entity === ENTITY_ID_ALL) {
    return CodecStatus.ENTITY_ID_ALL;
  }
  // `!(|x| <= bound)` is true for NaN too: one comparison per value on the accepting path, the cause sorted out after.
  const l = record.location;
  if (!(Math.abs(l[0]!) <= MAX_LOCATION && Math.abs(l[1]!) <= MAX_LOCATION && Math.abs(l[2]!) <= MAX_LOCATION)) {
    return allFinite(l) ? CodecStatus.LOCATION_OUT_OF_RANGE : CodecStatus.LOCATION_NOT_FINITE;
  }
  const v = record.linearVelocity;
  if (!(v[0]! * v[0]! + v[1]! * v[1]! + v[2]! * v[2]! <= MAX_SPEED_SQUARED)) {
    return allFinite(v) ? CodecStatus.VELOCITY_OUT_OF_RANGE : CodecStatus.VELOCITY_NOT_FINITE;
  }
  if (!allFinite(record.orientation)) return CodecStatus.ORIENTATION_NOT_FINITE;
  // An Entity State Update carries no DR block (the codec zeroes it); a receiver keeps the last full PDU's.
  if (record.pduType !== PduType.ENTITY_STATE) return CodecStatus.OK;
  if (record.drAlgorithm > MAX_DR_ALGORITHM) return CodecStatus.DR_ALGORITHM_INVALID;
  if (!allFinite(record.linearAcceleration)) return CodecStatus.ACCELERATION_NOT_FINITE;
  if (!allFinite(record.angularVelocity)) return CodecStatus.ANGULAR_VELOCITY_NOT_FINITE;
  return CodecStatus.OK;
}

function allFinite(xyz: Float64Array): boolean {
  // x - x is 0 for a finite x and NaN for NaN and ±Infinity.
  return xyz[0]! - xyz[0]! === 0 && xyz[1]! - xyz[1]! === 0 && xyz[2]! - xyz[2]! === 0;
}
