/**
 * The plain-object API for every PDU: a decoded record to its JSON form (`src/pdu/schema/pdu-schemas.ts`) and back,
 * `decodePdu` (bytes → JSON, throws `PduDecodeError`) and `encodePdu` (JSON → bytes, throws on invalid input).
 * Convenient and exact, but it allocates; hot paths keep a `PduRecords` and the `…Into` codecs.
 */
import { PduType } from '../wire/constants.js';
import type { z } from 'zod';
import { type AnyPduRecord, encodeAnyPduInto, PduRecords } from '../wire/any-pdu.js';
import { CollisionElasticRecord, CollisionRecord } from '../wire/collision.js';
import { DatumPduRecord } from '../wire/datum-pdus.js';
import { DesignatorRecord, ElectromagneticEmissionRecord, IffRecord } from '../wire/emission.js';
import { entityStateRecordFromPdu, entityStateRecordToPdu } from './entity-state-json.js';
import { EntityStateRecord } from '../wire/entity-state-record.js';
import { EnvironmentalProcessRecord } from '../wire/environmental-process.js';
import * as interaction from './interaction-json.js';
import * as schemas from '../schema/pdu-schemas.js';
import type {
  AcknowledgePdu,
  CollisionElasticPdu,
  CollisionPdu,
  DataQueryPdu,
  DatumPdu,
  DesignatorPdu,
  DetonationPdu,
  ElectromagneticEmissionPdu,
  EntityManagementPdu,
  EnvironmentalProcessPdu,
  FirePdu,
  IffPdu,
  OtherPdu,
  ReceiverPdu,
  SignalPdu,
  StartResumePdu,
  StopFreezePdu,
  TransmitterPdu,
} from '../schema/pdu-schemas.js';
import * as radio from './radio-emission-json.js';
import { ReceiverRecord, SignalRecord, TransmitterRecord } from '../wire/radio.js';
import { EntityStatePduSchema, type EntityStatePdu } from '../schema/schema.js';
import {
  AcknowledgeRecord,
  EntityManagementRecord,
  StartResumeRecord,
  StopFreezeRecord,
} from '../wire/simulation-management.js';
import { pduStatusMessage } from '../wire/length-rules.js';
import { CodecStatus, PduDecodeError } from '../wire/status.js';
import { DetonationRecord, FireRecord } from '../wire/warfare.js';

/** The JSON form of any PDU. */
export type DisPdu =
  | EntityStatePdu
  | FirePdu
  | DetonationPdu
  | CollisionPdu
  | CollisionElasticPdu
  | EntityManagementPdu
  | StartResumePdu
  | StopFreezePdu
  | AcknowledgePdu
  | DatumPdu
  | DataQueryPdu
  | ElectromagneticEmissionPdu
  | DesignatorPdu
  | TransmitterPdu
  | SignalPdu
  | ReceiverPdu
  | IffPdu
  | EnvironmentalProcessPdu
  | OtherPdu;

/** The JSON form of any decoded record. */
export function pduRecordToJson(record: AnyPduRecord): DisPdu {
  if (record instanceof EntityStateRecord) {
    // The Entity State form has no place for an update's type: an update is shown as it reads.
    return entityStateRecordToPdu(record);
  }
  if (record instanceof FireRecord) return interaction.fireToJson(record);
  if (record instanceof DetonationRecord) return interaction.detonationToJson(record);
  if (record instanceof CollisionRecord) return interaction.collisionToJson(record);
  if (record instanceof CollisionElasticRecord) return interaction.collisionElasticToJson(record);
  if (
    record instanceof EntityManagementRecord ||
    record instanceof StartResumeRecord ||
    record instanceof StopFreezeRecord ||
    record instanceof AcknowledgeRecord
  ) {
    return interaction.simulationManagementToJson(record);
  }
  if (record instanceof DatumPduRecord) return interaction.datumToJson(record);
  if (record instanceof ElectromagneticEmissionRecord) return radio.emissionToJson(record);
  if (record instanceof DesignatorRecord) return radio.designatorToJson(record);
  if (record instanceof TransmitterRecord) return radio.transmitterToJson(record);
  if (record instanceof SignalRecord) return radio.signalToJson(record);
  if (record instanceof ReceiverRecord) return radio.receiverToJson(record);
  if (record instanceof IffRecord) return radio.iffToJson(record);
  if (record instanceof EnvironmentalProcessRecord) return radio.environmentalToJson(record);
  return radio.otherToJson(record);
}

/** The schema of the JSON form of a PDU of this type. */
export function pduJsonSchema(pduType: number): z.ZodType {
  switch (pduType) {
    case PduType.ENTITY_STATE:
      return EntityStatePduSchema;
    case PduType.FIRE:
      return schemas.FirePduSchema;
    case PduType.DETONATION:
      return schemas.DetonationPduSchema;
    case PduType.COLLISION:
      return schemas.CollisionPduSchema;
    case PduType.CREATE_ENTITY:
    case PduType.REMOVE_ENTITY:
      return schemas.EntityManagementPduSchema;
    case PduType.START_RESUME:
      return schemas.StartResumePduSchema;
    case PduType.STOP_FREEZE:
      return schemas.StopFreezePduSchema;
    case PduType.ACKNOWLEDGE:
      return schemas.AcknowledgePduSchema;
    case PduType.DATA_QUERY:
      return schemas.DataQueryPduSchema;
    case PduType.ACTION_REQUEST:
    case PduType.ACTION_RESPONSE:
    case PduType.SET_DATA:
    case PduType.DATA:
    case PduType.EVENT_REPORT:
    case PduType.COMMENT:
      return schemas.DatumPduSchema;
    case PduType.ELECTROMAGNETIC_EMISSION:
      return schemas.ElectromagneticEmissionPduSchema;
    case PduType.DESIGNATOR:
      return schemas.DesignatorPduSchema;
    case PduType.TRANSMITTER:
      return schemas.TransmitterPduSchema;
    case PduType.SIGNAL:
      return schemas.SignalPduSchema;
    case PduType.RECEIVER:
      return schemas.ReceiverPduSchema;
    case PduType.IFF:
      return schemas.IffPduSchema;
    case PduType.ENVIRONMENTAL_PROCESS:
      return schemas.EnvironmentalProcessPduSchema;
    case PduType.COLLISION_ELASTIC:
      return schemas.CollisionElasticPduSchema;
    default:
      return schemas.OtherPduSchema;
  }
}

/**
 * A record holding the JSON form, ready for `encodeAnyPduInto`.
 * @throws TypeError listing every invalid field when `pdu` does not match its type's schema; RangeError when a
 *   value does not fit (a datum's bytes against its bit length, a marking outside Latin-1).
 */
export function pduRecordFromJson(pdu: DisPdu): AnyPduRecord {
  const type = (pdu as { pduType?: unknown }).pduType;
  const parsed = pduJsonSchema(typeof type === 'number' ? type : -1).safeParse(pdu);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
    throw new TypeError(`invalid PDU (type ${String(type)}):\n  ${problems.join('\n  ')}`);
  }
  const p = parsed.data as DisPdu;
  switch (p.pduType) {
    case PduType.ENTITY_STATE: {
      const es = p as EntityStatePdu;
      return entityStateRecordFromPdu(new EntityStateRecord(es.variableParameters.length), es);
    }
    case PduType.FIRE:
      return interaction.fireFromJson(p as FirePdu);
    case PduType.DETONATION:
      return interaction.detonationFromJson(p as DetonationPdu);
    case PduType.COLLISION:
      return interaction.collisionFromJson(p as CollisionPdu);
    case PduType.COLLISION_ELASTIC:
      return interaction.collisionElasticFromJson(p as CollisionElasticPdu);
    case PduType.CREATE_ENTITY:
    case PduType.REMOVE_ENTITY:
    case PduType.START_RESUME:
    case PduType.STOP_FREEZE:
    case PduType.ACKNOWLEDGE:
      return interaction.simulationManagementFromJson(p as EntityManagementPdu);
    case PduType.ACTION_REQUEST:
    case PduType.ACTION_RESPONSE:
    case PduType.DATA_QUERY:
    case PduType.SET_DATA:
    case PduType.DATA:
    case PduType.EVENT_REPORT:
    case PduType.COMMENT:
      return interaction.datumFromJson(p as DatumPdu);
    case PduType.ELECTROMAGNETIC_EMISSION:
      return radio.emissionFromJson(p as ElectromagneticEmissionPdu);
    case PduType.DESIGNATOR:
      return radio.designatorFromJson(p as DesignatorPdu);
    case PduType.TRANSMITTER:
      return radio.transmitterFromJson(p as TransmitterPdu);
    case PduType.SIGNAL:
      return radio.signalFromJson(p as SignalPdu);
    case PduType.RECEIVER:
      return radio.receiverFromJson(p as ReceiverPdu);
    case PduType.IFF:
      return radio.iffFromJson(p as IffPdu);
    case PduType.ENVIRONMENTAL_PROCESS:
      return radio.environmentalFromJson(p as EnvironmentalProcessPdu);
    default:
      return radio.otherFromJson(p as OtherPdu);
  }
}

const scratch = new PduRecords();

/**
 * Decodes one PDU of any type into its JSON form.
 * @throws PduDecodeError with the status `code` when it cannot be read.
 */
export function decodePdu(bytes: Uint8Array, offset = 0): DisPdu {
  const status = scratch.decode(bytes, offset);
  if (status === CodecStatus.OK) return pduRecordToJson(scratch.record!);
  const at = status === CodecStatus.TRUNCATED ? Math.max(0, bytes.length - offset) : 0;
  throw new PduDecodeError(status, at, pduStatusMessage(status, bytes[offset + 2] ?? -1));
}

/**
 * Encodes the JSON form of any PDU (the Length computed, float32 fields rounded by the wire, padding zeroed).
 * @throws TypeError listing every invalid field; RangeError when a value does not fit.
 */
export function encodePdu(pdu: DisPdu): Uint8Array {
  const record = pduRecordFromJson(pdu);
  const out = new Uint8Array(0x10000);
  const written = encodeAnyPduInto(out, record, 0);
  if (written < 0) throw new RangeError(`cannot encode the PDU: status ${-written}`);
  return out.slice(0, written);
}
