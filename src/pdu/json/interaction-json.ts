/**
 * JSON forms of the entity interaction, warfare and simulation management PDUs (`src/pdu/schema/pdu-schemas.ts`): record
 * to JSON and back. Used through `pduRecordToJson` / `pduRecordFromJson` (src/pdu/json/pdu-json.ts).
 */
import { CollisionElasticRecord, CollisionRecord } from '../wire/collision.js';
import { PARAMETER_RECORD_BYTES, PduType } from '../wire/constants.js';
import { addVariableDatum, DatumPduRecord, variableDatumValueBytes } from '../wire/datum-pdus.js';
import type { EntityIdFields } from '../wire/pdu-fields.js';
import {
  clockTimeInto,
  clockTimeJson,
  entityIdInto,
  entityIdJson,
  entityTypeInto,
  entityTypeJson,
  eventIdInto,
  eventIdJson,
  headerFromJson,
  headerToJson,
  hexIntoChecked,
  hexOf,
  printableText,
  vec3Into,
  vec3Json,
} from './pdu-json-parts.js';
import type {
  AcknowledgePdu,
  CollisionElasticPdu,
  CollisionPdu,
  DataQueryPdu,
  DatumPdu,
  DetonationPdu,
  EntityManagementPdu,
  FirePdu,
  MunitionDescriptor,
  StartResumePdu,
  StopFreezePdu,
} from '../schema/pdu-schemas.js';
import type { EntityId } from '../schema/schema.js';
import {
  AcknowledgeRecord,
  EntityManagementRecord,
  StartResumeRecord,
  StopFreezeRecord,
} from '../wire/simulation-management.js';
import { parameterRecordFromJson, parameterRecordToJson } from './variable-parameter.js';
import { DetonationRecord, FireRecord, type MunitionDescriptorFields } from '../wire/warfare.js';

function descriptorJson(d: MunitionDescriptorFields): MunitionDescriptor {
  return {
    munitionType: entityTypeJson(d.munitionType),
    warhead: d.warhead,
    fuse: d.fuse,
    quantity: d.quantity,
    rate: d.rate,
  };
}

function descriptorInto(out: MunitionDescriptorFields, d: MunitionDescriptor): void {
  entityTypeInto(out.munitionType, d.munitionType);
  out.warhead = d.warhead;
  out.fuse = d.fuse;
  out.quantity = d.quantity;
  out.rate = d.rate;
}

export function fireToJson(r: FireRecord): FirePdu {
  return {
    ...headerToJson(r),
    pduType: 2,
    firingEntityId: entityIdJson(r.firingEntityId),
    targetEntityId: entityIdJson(r.targetEntityId),
    munitionId: entityIdJson(r.munitionId),
    eventId: eventIdJson(r.eventId),
    fireMissionIndex: r.fireMissionIndex,
    location: vec3Json(r.location),
    descriptor: descriptorJson(r.descriptor),
    velocity: vec3Json(r.velocity),
    range: r.range,
  };
}

export function fireFromJson(p: FirePdu): FireRecord {
  const r = new FireRecord();
  headerFromJson(r, p);
  entityIdInto(r.firingEntityId, p.firingEntityId);
  entityIdInto(r.targetEntityId, p.targetEntityId);
  entityIdInto(r.munitionId, p.munitionId);
  eventIdInto(r.eventId, p.eventId);
  r.fireMissionIndex = p.fireMissionIndex;
  vec3Into(r.location, p.location);
  descriptorInto(r.descriptor, p.descriptor);
  vec3Into(r.velocity, p.velocity);
  r.range = p.range;
  return r;
}

export function detonationToJson(r: DetonationRecord): DetonationPdu {
  const variableParameters = [];
  for (let i = 0; i < r.variableParameterCount; i++) {
    variableParameters.push(parameterRecordToJson(r.variableParameters, i * PARAMETER_RECORD_BYTES));
  }
  return {
    ...headerToJson(r),
    pduType: 3,
    firingEntityId: entityIdJson(r.firingEntityId),
    targetEntityId: entityIdJson(r.targetEntityId),
    munitionId: entityIdJson(r.munitionId),
    eventId: eventIdJson(r.eventId),
    velocity: vec3Json(r.velocity),
    location: vec3Json(r.location),
    descriptor: descriptorJson(r.descriptor),
    locationInEntity: vec3Json(r.locationInEntity),
    result: r.result,
    variableParameters,
  };
}

export function detonationFromJson(p: DetonationPdu): DetonationRecord {
  const r = new DetonationRecord(p.variableParameters.length);
  headerFromJson(r, p);
  entityIdInto(r.firingEntityId, p.firingEntityId);
  entityIdInto(r.targetEntityId, p.targetEntityId);
  entityIdInto(r.munitionId, p.munitionId);
  eventIdInto(r.eventId, p.eventId);
  vec3Into(r.velocity, p.velocity);
  vec3Into(r.location, p.location);
  descriptorInto(r.descriptor, p.descriptor);
  vec3Into(r.locationInEntity, p.locationInEntity);
  r.result = p.result;
  r.variableParameterCount = p.variableParameters.length;
  p.variableParameters.forEach((vp, i) =>
    parameterRecordFromJson(r.variableParameters, i * PARAMETER_RECORD_BYTES, vp),
  );
  return r;
}

export function collisionToJson(r: CollisionRecord): CollisionPdu {
  return {
    ...headerToJson(r),
    pduType: 4,
    issuingEntityId: entityIdJson(r.issuingEntityId),
    collidingEntityId: entityIdJson(r.collidingEntityId),
    eventId: eventIdJson(r.eventId),
    collisionType: r.collisionType,
    velocity: vec3Json(r.velocity),
    mass: r.mass,
    location: vec3Json(r.location),
  };
}

export function collisionFromJson(p: CollisionPdu): CollisionRecord {
  const r = new CollisionRecord();
  headerFromJson(r, p);
  entityIdInto(r.issuingEntityId, p.issuingEntityId);
  entityIdInto(r.collidingEntityId, p.collidingEntityId);
  eventIdInto(r.eventId, p.eventId);
  r.collisionType = p.collisionType;
  vec3Into(r.velocity, p.velocity);
  r.mass = p.mass;
  vec3Into(r.location, p.location);
  return r;
}

export function collisionElasticToJson(r: CollisionElasticRecord): CollisionElasticPdu {
  const i = r.intermediateResults;
  return {
    ...headerToJson(r),
    pduType: 66,
    issuingEntityId: entityIdJson(r.issuingEntityId),
    collidingEntityId: entityIdJson(r.collidingEntityId),
    eventId: eventIdJson(r.eventId),
    contactVelocity: vec3Json(r.contactVelocity),
    mass: r.mass,
    locationOfImpact: vec3Json(r.locationOfImpact),
    intermediateResults: [i[0]!, i[1]!, i[2]!, i[3]!, i[4]!, i[5]!],
    unitSurfaceNormal: vec3Json(r.unitSurfaceNormal),
    coefficientOfRestitution: r.coefficientOfRestitution,
  };
}

export function collisionElasticFromJson(p: CollisionElasticPdu): CollisionElasticRecord {
  const r = new CollisionElasticRecord();
  headerFromJson(r, p);
  entityIdInto(r.issuingEntityId, p.issuingEntityId);
  entityIdInto(r.collidingEntityId, p.collidingEntityId);
  eventIdInto(r.eventId, p.eventId);
  vec3Into(r.contactVelocity, p.contactVelocity);
  r.mass = p.mass;
  vec3Into(r.locationOfImpact, p.locationOfImpact);
  r.intermediateResults.set(p.intermediateResults);
  vec3Into(r.unitSurfaceNormal, p.unitSurfaceNormal);
  r.coefficientOfRestitution = p.coefficientOfRestitution;
  return r;
}

type Ids = { originatingId: EntityIdFields; receivingId: EntityIdFields };

function idsJson(r: Ids) {
  return { originatingId: entityIdJson(r.originatingId), receivingId: entityIdJson(r.receivingId) };
}

function idsInto(r: Ids, p: { originatingId: EntityId; receivingId: EntityId }): void {
  entityIdInto(r.originatingId, p.originatingId);
  entityIdInto(r.receivingId, p.receivingId);
}

export function simulationManagementToJson(
  r: EntityManagementRecord | StartResumeRecord | StopFreezeRecord | AcknowledgeRecord,
): EntityManagementPdu | StartResumePdu | StopFreezePdu | AcknowledgePdu {
  const head = { ...headerToJson(r), ...idsJson(r) };
  if (r instanceof EntityManagementRecord) {
    return {
      ...head,
      pduType: r.pduType === PduType.CREATE_ENTITY ? PduType.CREATE_ENTITY : PduType.REMOVE_ENTITY,
      requestId: r.requestId,
    };
  }
  if (r instanceof StartResumeRecord) {
    return {
      ...head,
      pduType: 13,
      realWorldTime: clockTimeJson(r.realWorldTime),
      simulationTime: clockTimeJson(r.simulationTime),
      requestId: r.requestId,
    };
  }
  if (r instanceof StopFreezeRecord) {
    return {
      ...head,
      pduType: 14,
      realWorldTime: clockTimeJson(r.realWorldTime),
      reason: r.reason,
      frozenBehavior: r.frozenBehavior,
      requestId: r.requestId,
    };
  }
  return {
    ...head,
    pduType: 15,
    acknowledgeFlag: r.acknowledgeFlag,
    responseFlag: r.responseFlag,
    requestId: r.requestId,
  };
}

export function simulationManagementFromJson(
  p: EntityManagementPdu | StartResumePdu | StopFreezePdu | AcknowledgePdu,
): EntityManagementRecord | StartResumeRecord | StopFreezeRecord | AcknowledgeRecord {
  let r: EntityManagementRecord | StartResumeRecord | StopFreezeRecord | AcknowledgeRecord;
  if (p.pduType === PduType.START_RESUME) {
    const s = (r = new StartResumeRecord());
    clockTimeInto(s.realWorldTime, p.realWorldTime);
    clockTimeInto(s.simulationTime, p.simulationTime);
  } else if (p.pduType === PduType.STOP_FREEZE) {
    const s = (r = new StopFreezeRecord());
    clockTimeInto(s.realWorldTime, p.realWorldTime);
    s.reason = p.reason;
    s.frozenBehavior = p.frozenBehavior;
  } else if (p.pduType === PduType.ACKNOWLEDGE) {
    const a = (r = new AcknowledgeRecord());
    a.acknowledgeFlag = p.acknowledgeFlag;
    a.responseFlag = p.responseFlag;
  } else {
    r = new EntityManagementRecord(p.pduType);
  }
  headerFromJson(r, p);
  idsInto(r, p);
  r.requestId = p.requestId;
  return r;
}

export function datumToJson(r: DatumPduRecord): DatumPdu | DataQueryPdu {
  const head = { ...headerToJson(r), ...idsJson(r) };
  const type = r.pduType;
  if (type === PduType.DATA_QUERY) {
    return {
      ...head,
      pduType: 18,
      requestId: r.requestId,
      timeInterval: r.timeInterval,
      fixedDatumIds: Array.from(r.fixedDatumIds.subarray(0, r.fixedDatumCount)),
      variableDatumIds: Array.from(r.variableDatumIds.subarray(0, r.variableDatumCount)),
    };
  }
  const fixedDatums = [];
  for (let i = 0; i < r.fixedDatumCount; i++)
    fixedDatums.push({ id: r.fixedDatumIds[i]!, value: r.fixedDatumValues[i]! });
  const variableDatums = [];
  for (let i = 0; i < r.variableDatumCount; i++) {
    const bits = r.variableDatumBits[i]!;
    const at = r.variableDatumOffsets[i]!;
    const n = variableDatumValueBytes(bits);
    const text = printableText(r.variableDatumValues, at, n);
    const value = hexOf(r.variableDatumValues, at, n);
    variableDatums.push({
      id: r.variableDatumIds[i]!,
      lengthBits: bits,
      value,
      ...(text === undefined ? {} : { text }),
    });
  }
  return {
    ...head,
    pduType: type as DatumPdu['pduType'],
    ...(type <= 20 ? { requestId: r.requestId } : {}),
    ...(type === PduType.ACTION_REQUEST ? { actionId: r.actionId } : {}),
    ...(type === PduType.ACTION_RESPONSE ? { requestStatus: r.requestStatus } : {}),
    ...(type === PduType.EVENT_REPORT ? { eventType: r.eventType } : {}),
    fixedDatums,
    variableDatums,
  };
}

export function datumFromJson(p: DatumPdu | DataQueryPdu): DatumPduRecord {
  if (p.pduType === PduType.DATA_QUERY) {
    const r = new DatumPduRecord(18, Math.max(p.fixedDatumIds.length, p.variableDatumIds.length), 0);
    headerFromJson(r, p);
    idsInto(r, p);
    r.requestId = p.requestId;
    r.timeInterval = p.timeInterval;
    r.fixedDatumIds.set(p.fixedDatumIds);
    r.fixedDatumCount = p.fixedDatumIds.length;
    r.variableDatumIds.set(p.variableDatumIds);
    r.variableDatumCount = p.variableDatumIds.length;
    return r;
  }
  const valueBytes = p.variableDatums.reduce((n, d) => n + (d.value.length >>> 1), 0);
  const r = new DatumPduRecord(p.pduType, Math.max(p.fixedDatums.length, p.variableDatums.length), valueBytes);
  headerFromJson(r, p);
  idsInto(r, p);
  r.requestId = p.requestId ?? 0;
  r.actionId = p.actionId ?? 0;
  r.requestStatus = p.requestStatus ?? 0;
  r.eventType = p.eventType ?? 0;
  p.fixedDatums.forEach((d, i) => {
    r.fixedDatumIds[i] = d.id;
    r.fixedDatumValues[i] = d.value;
  });
  r.fixedDatumCount = p.fixedDatums.length;
  const scratch = new Uint8Array(valueBytes);
  for (const d of p.variableDatums) {
    const n = hexIntoChecked(scratch, 0, d.value, `variable datum ${d.id}`);
    if (variableDatumValueBytes(d.lengthBits) !== n) {
      throw new RangeError(
        `variable datum ${d.id}: ${d.lengthBits} bits need ${variableDatumValueBytes(d.lengthBits)} bytes, the value has ${n}`,
      );
    }
    addVariableDatum(r, d.id, scratch.subarray(0, n), d.lengthBits);
  }
  return r;
}
