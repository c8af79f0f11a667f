/**
 * Collision PDU (type 4, IEEE 1278.1-2012 §7.2.3) and Collision-Elastic PDU (type 66, §7.2.4): decoded into reused
 * records and encoded into a caller's buffer, nothing allocated. Collision is the same in v5 (1278.1-1995 §5.3.3.2),
 * v6 and v7; Collision-Elastic was added in v6 (1278.1A-1998).
 */
import { DataViewCache } from './bytes.js';
import * as fields from './pdu-fields.js';
import { EntityIdFields, EventIdFields, PduHeaderFields } from './pdu-fields.js';
import * as status from './status.js';

const { checkFixedSize, encodeRefusal, readHeader, readEntityId, readEventId, readVec3F32 } = fields;
const { writeHeader, writeEntityId, writeEventId, writeVec3F32 } = fields;
const { CodecStatus } = status;
type CodecStatus = status.CodecStatus;

export const COLLISION_PDU_BYTES = 60;
export const COLLISION_ELASTIC_PDU_BYTES = 100;

/** Collision PDU: an entity tells that it collided with another entity or with something not an entity. */
export class CollisionRecord extends PduHeaderFields {
  /** The entity that sends the PDU. */
  readonly issuingEntityId = new EntityIdFields();
  /** What it collided with; 0:0:0 (NO_ENTITY) for terrain or an object that is not an entity. */
  readonly collidingEntityId = new EntityIdFields();
  readonly eventId = new EventIdFields();
  /** SISO-REF-010 UID 189: 0 inelastic, 1 elastic, 55 boom nozzle … */
  collisionType = 0;
  /** Of the issuing entity at the collision, m/s, ECEF. */
  readonly velocity = new Float64Array(3);
  /** Of the issuing entity, kg. */
  mass = 0;
  /** Where it collided, in the issuing entity's coordinates, metres. */
  readonly location = new Float64Array(3);

  constructor() {
    super(4, 1);
  }
}

/** Collision-Elastic PDU: the results of an elastic collision, for the other entity to apply. */
export class CollisionElasticRecord extends PduHeaderFields {
  readonly issuingEntityId = new EntityIdFields();
  readonly collidingEntityId = new EntityIdFields();
  readonly eventId = new EventIdFields();
  /** m/s, relative, in the issuing entity's coordinates. */
  readonly contactVelocity = new Float64Array(3);
  /** kg. */
  mass = 0;
  /** Metres, in the issuing entity's coordinates. */
  readonly locationOfImpact = new Float64Array(3);
  /** The collision's intermediate results xx, xy, xz, yy, yz, zz (§7.2.4). */
  readonly intermediateResults = new Float64Array(6);
  readonly unitSurfaceNormal = new Float64Array(3);
  coefficientOfRestitution = 0;

  constructor() {
    super(66, 1);
  }
}

const readViews = new DataViewCache();
const writeViews = new DataViewCache();

/** @returns OK, TRUNCATED, UNSUPPORTED_VERSION, WRONG_PDU_TYPE or BAD_LENGTH (the Length field is not 60). */
export function decodeCollisionInto(
  out: CollisionRecord,
  bytes: Uint8Array,
  offset = 0,
  end = bytes.length,
): CodecStatus {
  const check = checkFixedSize(bytes, offset, end, 4, COLLISION_PDU_BYTES);
  if (check !== CodecStatus.OK) return check;
  const v = readViews.of(bytes);
  const p = offset;
  readHeader(out, v, p, COLLISION_PDU_BYTES);
  readEntityId(out.issuingEntityId, v, p + 12);
  readEntityId(out.collidingEntityId, v, p + 18);
  readEventId(out.eventId, v, p + 24);
  out.collisionType = bytes[p + 30]!;
  readVec3F32(out.velocity, v, p + 32);
  out.mass = v.getFloat32(p + 44);
  readVec3F32(out.location, v, p + 48);
  return CodecStatus.OK;
}

/** @returns the bytes written (60), or `-UNSUPPORTED_VERSION` / `-BUFFER_TOO_SMALL`. */
export function encodeCollisionInto(out: Uint8Array, record: CollisionRecord, offset = 0): number {
  const refusal = encodeRefusal(out, record, offset, COLLISION_PDU_BYTES);
  if (refusal !== 0) return refusal;
  const v = writeViews.of(out);
  const p = offset;
  writeHeader(v, p, record, 4, COLLISION_PDU_BYTES);
  writeEntityId(v, p + 12, record.issuingEntityId);
  writeEntityId(v, p + 18, record.collidingEntityId);
  writeEventId(v, p + 24, record.eventId);
  v.setUint16(p + 30, (record.collisionType & 0xff) << 8);
  writeVec3F32(v, p + 32, record.velocity);
  v.setFloat32(p + 44, record.mass);
  writeVec3F32(v, p + 48, record.location);
  return COLLISION_PDU_BYTES;
}

/** @returns OK, TRUNCATED, UNSUPPORTED_VERSION, WRONG_PDU_TYPE or BAD_LENGTH (the Length field is not 100). */
export function decodeCollisionElasticInto(
  out: CollisionElasticRecord,
  bytes: Uint8Array,
  offset = 0,
  end = bytes.length,
): CodecStatus {
  const check = checkFixedSize(bytes, offset, end, 66, COLLISION_ELASTIC_PDU_BYTES);
  if (check !== CodecStatus.OK) return check;
  const v = readViews.of(bytes);
  const p = offset;
  readHeader(out, v, p, COLLISION_ELASTIC_PDU_BYTES);
  readEntityId(out.issuingEntityId, v, p + 12);
  readEntityId(out.collidingEntityId, v, p + 18);
  readEventId(out.eventId, v, p + 24);
  readVec3F32(out.contactVelocity, v, p + 32);
  out.mass = v.getFloat32(p + 44);
  readVec3F32(out.locationOfImpact, v, p + 48);
  const results = out.intermediateResults;
  for (let i = 0; i < 6; i++) results[i] = v.getFloat32(p + 60 + 4 * i);
  readVec3F32(out.unitSurfaceNormal, v, p + 84);
  out.coefficientOfRestitution = v.getFloat32(p + 96);
  return CodecStatus.OK;
}

/** @returns the bytes written (100), or `-UNSUPPORTED_VERSION` / `-BUFFER_TOO_SMALL`. */
export function encodeCollisionElasticInto(out: Uint8Array, record: CollisionElasticRecord, offset = 0): number {
  const refusal = encodeRefusal(out, record, offset, COLLISION_ELASTIC_PDU_BYTES);
  if (refusal !== 0) return refusal;
  const v = writeViews.of(out);
  const p = offset;
  writeHeader(v, p, record, 66, COLLISION_ELASTIC_PDU_BYTES);
  writeEntityId(v, p + 12, record.issuingEntityId);
  writeEntityId(v, p + 18, record.collidingEntityId);
  writeEventId(v, p + 24, record.eventId);
  v.setUint16(p + 30, 0);
  writeVec3F32(v, p + 32, record.contactVelocity);
  v.setFloat32(p + 44, record.mass);
  writeVec3F32(v, p + 48, record.locationOfImpact);
  const results = record.intermediateResults;
  for (let i = 0; i < 6; i++) v.setFloat32(p + 60 + 4 * i, results[i]!);
  writeVec3F32(v, p + 84, record.unitSurfaceNormal);
  v.setFloat32(p + 96, record.coefficientOfRestitution);
  return COLLISION_ELASTIC_PDU_BYTES;
}
