/**
 * The plain-object API: `EntityStatePdu` (the JSON form, defined by `EntityStatePduSchema`) to bytes and back.
 * Convenient and exact, but it allocates; hot paths use `decodeEntityStateInto` / `encodeEntityStateInto`.
 */
import {
  ENTITY_STATE_BYTES,
  EntityStateOffset as ES,
  HeaderOffset as H,
  PARAMETER_RECORD_BYTES,
} from '../wire/constants.js';
import { bytesToHex, hexInto } from '../wire/bytes.js';
import { decodeEntityStateInto } from '../wire/entity-state-decoder.js';
import { encodeEntityStateInto } from '../wire/entity-state-encoder.js';
import { EntityStateRecord, latin1UpToZero } from '../wire/entity-state-record.js';
import { entityTypeInto, entityTypeJson, timestampJson, vec3Json } from './pdu-json-parts.js';
import { EntityStatePduSchema, type EntityStatePdu } from '../schema/schema.js';
import { CodecStatus, PduDecodeError } from '../wire/status.js';
import { parameterRecordFromJson, parameterRecordToJson } from './variable-parameter.js';

const scratch = new EntityStateRecord();

/**
 * Decodes one Entity State PDU (type 1, DIS v5/v6/v7) into its JSON form.
 * @param bytes - the PDU, or a datagram holding it at `offset`.
 * @param offset - where the PDU starts. Defaults to 0.
 * @throws PduDecodeError with the status `code` and the byte `offset` (within the PDU) of the field found wrong.
 */
export function decodeEntityState(bytes: Uint8Array, offset = 0): EntityStatePdu {
  const status = decodeEntityStateInto(scratch, bytes, offset);
  if (status !== CodecStatus.OK) throw new PduDecodeError(status, errorOffset(status, bytes.length - offset));
  return entityStateRecordToPdu(scratch);
}

/** Where in the PDU each rejection points: the field checked, or for truncation where the bytes ran out. */
function errorOffset(status: CodecStatus, available: number): number {
  switch (status) {
    case CodecStatus.UNSUPPORTED_VERSION:
      return H.PROTOCOL_VERSION;
    case CodecStatus.NOT_ENTITY_STATE:
      return H.PDU_TYPE;
    case CodecStatus.BAD_LENGTH:
      return H.LENGTH;
    case CodecStatus.TOO_MANY_PARAMETERS:
      return ES.PARAMETER_COUNT;
    default:
      return Math.max(0, available);
  }
}

/**
 * Encodes the JSON form as exactly 144 + 16·n bytes. `length` is computed, not read; `timestamp.raw` is what is
 * sent (its `absolute` and `secondsPastHour` are derived from it on decode); float32 fields are rounded as the
 * wire does; the marking is zero-filled.
 * @throws TypeError listing every invalid field (path and problem) when `pdu` does not match the schema.
 */
export function encodeEntityState(pdu: EntityStatePdu): Uint8Array {
  const parsed = EntityStatePduSchema.safeParse(pdu);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
    throw new TypeError(`invalid Entity State PDU:\n  ${problems.join('\n  ')}`);
  }
  const record = entityStateRecordFromPdu(new EntityStateRecord(pdu.variableParameters.length), pdu);
  const out = new Uint8Array(ENTITY_STATE_BYTES + PARAMETER_RECORD_BYTES * pdu.variableParameters.length);
  encodeEntityStateInto(out, record, 0);
  return out;
}

/** The JSON form of a decoded Entity State record (pduType 1). */
export function entityStateRecordToPdu(record: EntityStateRecord): EntityStatePdu {
  const variableParameters = [];
  for (let i = 0; i < record.variableParameterCount; i++) {
    variableParameters.push(parameterRecordToJson(record.variableParameters, i * PARAMETER_RECORD_BYTES));
  }
  return {
    protocolVersion: record.protocolVersion,
    exerciseId: record.exerciseId,
    pduType: 1,
    protocolFamily: record.protocolFamily,
    timestamp: timestampJson(record.timestampRaw),
    length: record.length,
    pduStatus: record.pduStatus,
    entityId: { site: record.site, application: record.application, entity: record.entity },
    forceId: record.forceId,
    entityType: entityTypeJson(record.entityType),
    alternativeEntityType: entityTypeJson(record.alternativeEntityType),
    linearVelocity: vec3Json(record.linearVelocity),
    location: vec3Json(record.location),
    orientation: vec3Json(record.orientation),
    appearance: record.appearance,
    deadReckoning: {
      algorithm: record.drAlgorithm,
      otherParameters: bytesToHex(record.drOtherParameters),
      linearAcceleration: vec3Json(record.linearAcceleration),
      angularVelocity: vec3Json(record.angularVelocity),
    },
    marking: {
      characterSet: record.markingCharacterSet,
      text: latin1UpToZero(record.markingBytes, 0, record.markingBytes.length),
    },
    capabilities: record.capabilities,
    variableParameters,
  };
}

/**
 * Fills `out` from the JSON form (pduType 1). `out` must hold `pdu.variableParameters.length` records.
 * @throws RangeError when a marking character is outside Latin-1 or `out` has too little capacity.
 */
export function entityStateRecordFromPdu(out: EntityStateRecord, pdu: EntityStatePdu): EntityStateRecord {
  const count = pdu.variableParameters.length;
  if (count * PARAMETER_RECORD_BYTES > out.variableParameters.length) {
    throw new RangeError(
      `the record holds ${out.variableParameters.length / PARAMETER_RECORD_BYTES} parameter records, the PDU has ${count}`,
    );
  }
  out.protocolVersion = pdu.protocolVersion;
  out.exerciseId = pdu.exerciseId;
  out.pduType = 1;
  out.protocolFamily = pdu.protocolFamily;
  out.timestampRaw = pdu.timestamp.raw;
  out.length = ENTITY_STATE_BYTES + count * PARAMETER_RECORD_BYTES;
  out.pduStatus = pdu.pduStatus;
  out.site = pdu.entityId.site;
  out.application = pdu.entityId.application;
  out.entity = pdu.entityId.entity;
  out.forceId = pdu.forceId;
  entityTypeInto(out.entityType, pdu.entityType);
  entityTypeInto(out.alternativeEntityType, pdu.alternativeEntityType);
  out.linearVelocity.set(pdu.linearVelocity);
  out.location.set(pdu.location);
  out.orientation.set(pdu.orientation);
  out.appearance = pdu.appearance;
  out.drAlgorithm = pdu.deadReckoning.algorithm;
  hexInto(out.drOtherParameters, 0, pdu.deadReckoning.otherParameters, out.drOtherParameters.length);
  out.linearAcceleration.set(pdu.deadReckoning.linearAcceleration);
  out.angularVelocity.set(pdu.deadReckoning.angularVelocity);
  out.markingCharacterSet = pdu.marking.characterSet;
  const text = pdu.marking.text;
  for (let i = 0; i < out.markingBytes.length; i++) {
    const code = i < text.length ? text.charCodeAt(i) : 0;
    if (code > 0xff) throw new RangeError(`marking character ${JSON.stringify(text[i])} is not Latin-1`);
    out.markingBytes[i] = code;
  }
  out.capabilities = pdu.capabilities;
  out.variableParameterCount = count;
  for (let i = 0; i < count; i++)
    parameterRecordFromJson(out.variableParameters, i * PARAMETER_RECORD_BYTES, pdu.variableParameters[i]!);
  return out;
}
