/**
 * `reckon/pdu`: every PDU type's record and zero-allocation codec, the zod schemas of their JSON forms, header and
 * timestamp helpers, sizes and validation (docs/pdu-families.md). The Entity State PDU's record and codec, `PduType`,
 * `CodecStatus`, `decodePdu` and `PduRecords` are at the root, `reckon`.
 */

// Entity State: the schema of its JSON form, sizes, the Entity State Update PDU, validation
export {
  EntityStatePduSchema,
  EntityIdSchema,
  EntityTypeSchema,
  VariableParameterSchema,
} from './schema/schema.js';
export { MAX_VARIABLE_PARAMETERS } from './wire/entity-state-record.js';
export {
  ProtocolFamily,
  PDU_TYPE_NAMES,
  HEADER_BYTES,
  ENTITY_STATE_BYTES,
  ENTITY_STATE_UPDATE_BYTES,
  PARAMETER_RECORD_BYTES,
  MAX_PDU_BYTES,
} from './wire/constants.js';
export { CODEC_STATUS_NAMES, CODEC_STATUS_MESSAGES, isValidationStatus } from './wire/status.js';
export {
  validateEntityState,
  MAX_LOCATION_METERS,
  MAX_SPEED_METERS_PER_SECOND,
  MAX_DR_ALGORITHM,
} from './checks/validate.js';
export {
  timestampFromSeconds,
  timestampFromEpochMillis,
  secondsPastHourFromTimestamp,
  timestampUnits,
  isAbsoluteTimestamp,
  timestampUnitsDelta,
  timestampDeltaSeconds,
  isNewerTimestamp,
  advanceTimestamp,
  TIMESTAMP_UNITS_PER_HOUR,
  SECONDS_PER_TIMESTAMP_UNIT,
} from './wire/timestamp.js';
export { decodeEntityStateUpdateInto, decodeEntityStateOrUpdateInto } from './wire/entity-state-decoder.js';
export { encodedEntityStateLength, MAX_ENTITY_STATE_BYTES } from './wire/entity-state-encoder.js';
export { entityStateRecordToPdu, entityStateRecordFromPdu } from './json/entity-state-json.js';

// every other PDU type: reused records, zero-allocation codecs, JSON forms
export {
  OtherPduRecord,
  encodeAnyPduInto,
  decodeOtherPduInto,
  encodeOtherPduInto,
  isDecodedPduType,
  DECODED_PDU_TYPES,
} from './wire/any-pdu.js';
export { pduStatusBits, type PduStatusBits } from './wire/pdu-status.js';
export {
  FireRecord,
  DetonationRecord,
  decodeFireInto,
  decodeDetonationInto,
  encodeFireInto,
  encodeDetonationInto,
  encodedDetonationLength,
  FIRE_PDU_BYTES,
  DETONATION_PDU_BYTES,
} from './wire/warfare.js';
export {
  CollisionRecord,
  CollisionElasticRecord,
  decodeCollisionInto,
  decodeCollisionElasticInto,
  encodeCollisionInto,
  encodeCollisionElasticInto,
} from './wire/collision.js';
export {
  EntityManagementRecord,
  StartResumeRecord,
  StopFreezeRecord,
  AcknowledgeRecord,
  FrozenBehavior,
  decodeEntityManagementInto,
  decodeStartResumeInto,
  decodeStopFreezeInto,
  decodeAcknowledgeInto,
  encodeEntityManagementInto,
  encodeStartResumeInto,
  encodeStopFreezeInto,
  encodeAcknowledgeInto,
} from './wire/simulation-management.js';
export {
  DatumPduRecord,
  decodeDatumPduInto,
  encodeDatumPduInto,
  encodedDatumPduLength,
  addVariableDatum,
  variableDatumValue,
} from './wire/datum-pdus.js';
export {
  TransmitterRecord,
  SignalRecord,
  ReceiverRecord,
  decodeTransmitterInto,
  decodeSignalInto,
  decodeReceiverInto,
  encodeTransmitterInto,
  encodeSignalInto,
  encodeReceiverInto,
  encodedTransmitterLength,
  encodedSignalLength,
  signalData,
  signalDataBytes,
  transmitterParts,
} from './wire/radio.js';
export {
  ElectromagneticEmissionRecord,
  DesignatorRecord,
  IffRecord,
  decodeElectromagneticEmissionInto,
  decodeDesignatorInto,
  decodeIffInto,
  encodeElectromagneticEmissionInto,
  encodeDesignatorInto,
  encodeIffInto,
} from './wire/emission.js';
export {
  EnvironmentalProcessRecord,
  decodeEnvironmentalProcessInto,
  encodeEnvironmentalProcessInto,
} from './wire/environmental-process.js';
export { pduRecordToJson, pduRecordFromJson, pduJsonSchema } from './json/pdu-json.js';
export {
  PduStatusBitsSchema,
  EventIdSchema,
  MunitionDescriptorSchema,
  FirePduSchema,
  DetonationPduSchema,
  CollisionPduSchema,
  CollisionElasticPduSchema,
  ClockTimeSchema,
  EntityManagementPduSchema,
  StartResumePduSchema,
  StopFreezePduSchema,
  AcknowledgePduSchema,
  FixedDatumSchema,
  VariableDatumSchema,
  DatumPduSchema,
  DataQueryPduSchema,
  RadioTypeSchema,
  ModulationTypeSchema,
  TransmitterPduSchema,
  SignalPduSchema,
  ReceiverPduSchema,
  EmissionBeamSchema,
  ElectromagneticEmissionPduSchema,
  DesignatorPduSchema,
  IffPduSchema,
  EnvironmentalProcessPduSchema,
  OtherPduSchema,
  type EventId,
  type ClockTime,
  type PduStatusBitsJson,
  type MunitionDescriptor,
  type FirePdu,
  type DetonationPdu,
  type CollisionPdu,
  type CollisionElasticPdu,
  type EntityManagementPdu,
  type StartResumePdu,
  type StopFreezePdu,
  type AcknowledgePdu,
  type DatumPdu,
  type DataQueryPdu,
  type TransmitterPdu,
  type SignalPdu,
  type ReceiverPdu,
  type ElectromagneticEmissionPdu,
  type DesignatorPdu,
  type IffPdu,
  type EnvironmentalProcessPdu,
  type OtherPdu,
} from './schema/pdu-schemas.js';
