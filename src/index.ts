/**
 * `reckon`: DIS (IEEE 1278.1) dead reckoning for Node.js — the PDU codecs, dead reckoning, the rxjs streams over
 * UDP, the SISO names, configuration and the math they use. The rest is by subpath: `reckon/truth`,
 * `reckon/experiment`, `reckon/lockstep`, `reckon/compression`, `reckon/pcap`, `reckon/nats`, `reckon/cot`,
 * `reckon/view` (docs/api.md).
 */

// pdu — the DIS wire
export {
  EntityStatePduSchema,
  EntityIdSchema,
  EntityTypeSchema,
  VariableParameterSchema,
  type EntityStatePdu,
  type EntityId,
  type EntityType,
  type DisTimestamp,
  type VariableParameter,
  type Vec3Tuple,
} from './pdu/schema.js';
export {
  EntityStateRecord,
  MAX_VARIABLE_PARAMETERS,
  entityKey,
  entityIdFromKey,
  setMarkingText,
  markingText,
} from './pdu/entity-state-record.js';
export {
  PduType,
  ProtocolFamily,
  PDU_TYPE_NAMES,
  HEADER_BYTES,
  ENTITY_STATE_BYTES,
  ENTITY_STATE_UPDATE_BYTES,
  PARAMETER_RECORD_BYTES,
  MAX_PDU_BYTES,
} from './pdu/constants.js';
export {
  CodecStatus,
  CODEC_STATUS_NAMES,
  CODEC_STATUS_MESSAGES,
  codecStatusName,
  codecStatusMessage,
  isValidationStatus,
  PduDecodeError,
  type CodecStatusName,
} from './pdu/status.js';
export {
  validateEntityState,
  MAX_LOCATION_METERS,
  MAX_SPEED_METERS_PER_SECOND,
  MAX_DR_ALGORITHM,
} from './pdu/validate.js';
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
} from './pdu/timestamp.js';
export {
  forEachPdu,
  looksLikeDis,
  type PduVisitor,
} from './pdu/header.js';
export {
  decodeEntityStateInto,
  decodeEntityStateUpdateInto,
  decodeEntityStateOrUpdateInto,
} from './pdu/entity-state-decoder.js';
export {
  encodeEntityStateInto,
  encodedEntityStateLength,
  EntityStateEncoder,
  MAX_ENTITY_STATE_BYTES,
} from './pdu/entity-state-encoder.js';
export {
  decodeEntityState,
  encodeEntityState,
  entityStateRecordToPdu,
  entityStateRecordFromPdu,
} from './pdu/entity-state-json.js';

// names — SISO-REF-010 names for DIS numbers (reprinted with permission from SISO Inc.)
export {
  SISO_ATTRIBUTION,
  SISO_VERSION,
  EnumerationUid,
  countryCode,
  countryName,
  deadReckoningAlgorithmName,
  domainName,
  entityKindName,
  entityTypeFields,
  entityTypeName,
  entityTypeNameOf,
  entityTypeText,
  enumerationName,
  enumerationOf,
  forceName,
  isListed,
  pduTypeName,
  unknownName,
  appearanceDamage,
  appearanceRecord,
  appearanceRecordName,
  appearanceSummary,
  decodeAppearance,
  decodeBitRecord,
  setAppearanceFields,
  bitRecordNames,
  articulatedPartName,
  articulatedPartValue,
  attachedPartStation,
  variableParameterNames,
  entityStatePduNames,
  symbolFunction,
  sidcOf,
  type EntityStatePduNames,
  type SymbolFunction,
  type BattleDimension,
  type ArticulatedPartNames,
  type ArticulatedPartUnit,
  type BitFieldValue,
  type DecodedAppearance,
  type PartValue,
  type VariableParameterNames,
  type BitField,
  type BitRecord,
  type Enumeration,
  type EntityTypeLike,
  type EntityTypeNames,
} from './names/index.js';
// pdu — every other PDU type: reused records, zero-allocation codecs, JSON forms
export {
  PduRecords,
  OtherPduRecord,
  encodeAnyPduInto,
  decodeOtherPduInto,
  encodeOtherPduInto,
  isDecodedPduType,
  DECODED_PDU_TYPES,
  type AnyPduRecord,
} from './pdu/any-pdu.js';
export { PduHeaderFields, EntityIdFields, EventIdFields, ClockTimeFields } from './pdu/pdu-fields.js';
export { pduStatusBits, type PduStatusBits } from './pdu/pdu-status.js';
export {
  FireRecord,
  DetonationRecord,
  MunitionDescriptorFields,
  decodeFireInto,
  decodeDetonationInto,
  encodeFireInto,
  encodeDetonationInto,
  encodedDetonationLength,
  FIRE_PDU_BYTES,
  DETONATION_PDU_BYTES,
} from './pdu/warfare.js';
export {
  CollisionRecord,
  CollisionElasticRecord,
  decodeCollisionInto,
  decodeCollisionElasticInto,
  encodeCollisionInto,
  encodeCollisionElasticInto,
} from './pdu/collision.js';
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
} from './pdu/simulation-management.js';
export {
  DatumPduRecord,
  decodeDatumPduInto,
  encodeDatumPduInto,
  encodedDatumPduLength,
  addVariableDatum,
  variableDatumValue,
} from './pdu/datum-pdus.js';
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
} from './pdu/radio.js';
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
} from './pdu/emission.js';
export {
  EnvironmentalProcessRecord,
  decodeEnvironmentalProcessInto,
  encodeEnvironmentalProcessInto,
} from './pdu/environmental-process.js';
export {
  decodePdu,
  encodePdu,
  pduRecordToJson,
  pduRecordFromJson,
  pduJsonSchema,
  type DisPdu,
} from './pdu/pdu-json.js';
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
} from './pdu/pdu-schemas.js';

// config — one zod schema for every setting; file, RECKON_* environment and flags
export {
  ConfigSchema,
  CONFIG_SECTIONS,
  HEARTBEAT_CLASSES,
  defaultConfig,
  type Config,
  type ConfigInput,
  type ConfigSection,
  type NetworkConfig,
  type DisConfig,
  type FilterConfig,
  type EmitterConfig,
  type HeartbeatConfig,
  type HeartbeatClass,
  type ReceiverConfig,
} from './config/schema.js';
export { loadConfig, ConfigError, formatConfigIssue, type ConfigIssue, type ConfigSources } from './config/load.js';
export {
  heartbeatSeconds,
  entityTimeoutSeconds,
  heartbeatClass,
  heartbeatTableFromConfig,
  HEARTBEAT_TABLES,
} from './config/heartbeat.js';
export { readQuantity, quantity, type Dimension } from './config/units.js';

// math — Float64Array vectors (out-parameter style), rotations, WGS-84 geodesy
import * as vec3 from './math/vec3.js';
import * as mat3 from './math/mat3.js';
import * as quat from './math/quat.js';
export { vec3, mat3, quat };
export type { Vec3, ReadonlyVec3 } from './math/vec3.js';
export type { Mat3, ReadonlyMat3 } from './math/mat3.js';
export type { Quat, ReadonlyQuat } from './math/quat.js';
export {
  worldToBodyFromEuler,
  worldToBodyFromEulerVec,
  eulerFromWorldToBody,
  eulerRatesFromBodyRates,
  bodyRatesFromEulerRates,
} from './math/euler.js';
export {
  WGS84_A,
  WGS84_B,
  WGS84_F,
  WGS84_E2,
  WGS84_EP2,
  geodeticToEcef,
  geodeticDegreesToEcef,
  ecefToGeodetic,
  ecefToGeodeticDegrees,
  ecefToEnuMatrix,
  ecefToNedMatrix,
  ecefToLocal,
  localToEcef,
  eulerFromHeadingPitchRoll,
  headingPitchRollFromEuler,
} from './math/geodesy.js';
export { createRandom, createRandomFromState, type Random } from './math/random.js';

// dr — the nine DIS dead-reckoning models
export {
  DR_OTHER,
  DR_STATIC,
  DR_FPW,
  DR_RPW,
  DR_RVW,
  DR_FVW,
  DR_FPB,
  DR_RPB,
  DR_RVB,
  DR_FVB,
  DR_ALGORITHM_NAMES,
  APPEARANCE_FROZEN,
  APPEARANCE_DEACTIVATED,
  isKnownAlgorithm,
  isRotatingAlgorithm,
  isBodyAlgorithm,
  usesAcceleration,
  isFrozen,
  isDeactivated,
} from './dr/algorithm.js';
export { drMatrix, r1Matrix, r2Matrix } from './dr/rotation.js';
export {
  deadReckon,
  DeadReckoningModel,
  type DeadReckoningInput,
  type DeadReckoningResult,
} from './dr/model.js';
export { createTruthState, type TruthState } from './dr/truth-state.js';
export { EmitterBank, type EmitterBankOptions, type BankTruth, type BankAttitude } from './dr/emitter-bank.js';
export {
  OwnedEntityTable,
  createOwnedEntityStats,
  type OwnedEntityTableOptions,
  type OwnedEntityIdentity,
  type OwnedEntityStats,
  type PduSink,
} from './dr/owned-entity-table.js';

// transport — datagrams over UDP (or any DatagramTransport); bundling, splitting, filtering, counters
export {
  REJECT_REASONS,
  createTransportStats,
  totalRejected,
  formatRejections,
  type DatagramTransport,
  type DatagramReceiver,
  type DatagramSource,
  type TransportStats,
  type RejectReason,
  type RejectCounts,
} from './transport/transport.js';
export { PduBundler, DEFAULT_MTU } from './transport/bundler.js';
export {
  PduReceiver,
  receivePdus,
  receiveFilterFromConfig,
  type PduConsumer,
  type ReceiveFilterOptions,
  type RejectionSink,
} from './transport/pdu-receiver.js';
export {
  UdpTransport,
  openUdpTransport,
  udpOptionsFromConfig,
  DIS_PORT,
  type UdpTransportOptions,
  type UdpRole,
} from './transport/udp.js';
export {
  DeadReckoningEmitter,
  EMIT_FIRST,
  EMIT_POSITION,
  EMIT_ORIENTATION,
  EMIT_HEARTBEAT,
  EMIT_CHANGE,
  EMIT_REASON_NAMES,
  emitReasonNames,
  type EmitterOptions,
  type AdaptiveThreshold,
} from './dr/emitter.js';
export { PoseRateEstimator } from './dr/pose-rates.js';
export {
  HEARTBEAT_IEEE_TABLE_25,
  HEARTBEAT_KDIS,
  HEARTBEAT_TIMEOUT_MULTIPLIER,
  HEARTBEAT_STATIONARY_SECONDS,
  heartbeatSecondsFor,
  isStationaryState,
  type HeartbeatTable,
} from './dr/heartbeat.js';

export {
  SnapshotInterpolationBuffer,
  InterpolationStatus,
  type InterpolationOptions,
} from './dr/snapshot-interpolation.js';
export { RemoteEntityTable, type RemoteEntityTableOptions } from './dr/remote-entity-table.js';
export { ApplyResult, TableEvent, type TableEventListener, type TableStats } from './dr/table-results.js';
export {
  SMOOTH_SNAP,
  SMOOTH_LINEAR,
  SMOOTH_PROJECTIVE,
  SMOOTH_CONVERGENCE,
  SMOOTHING_METHODS,
  type SmoothingOptions,
  type SmoothingMethodName,
} from './dr/position-smoothing.js';

// stream — rxjs publish/subscribe over UDP (or any DatagramTransport)
export {
  createPublisher,
  type Publisher,
  type PublisherOptions,
} from './stream/publisher.js';
export {
  createSubscriber,
  subscribeEntities,
  entityFrames,
  type EntitySubscriber,
  type SubscriberEvent,
  type SubscriberNats,
  type SubscriberOptions,
  type SubscriberStats,
  type Diagnostic,
  type DiagnosticReason,
} from './stream/subscriber.js';
export {
  deadReckonEmit,
  sampleTrajectory,
  type TruthSample,
  type DeadReckonEmitOptions,
  type SampleTrajectoryOptions,
} from './stream/operators.js';
export type { LocalEntity, EmittedPdu } from './stream/local-entities.js';
export type { Fleet, FleetOptions } from './stream/fleet.js';
export type { EntityEvent, EntityEventType, LeaveReason } from './stream/entity-events.js';
export type {
  EngagementEvent,
  FireEvent,
  DetonationEvent,
  CollisionEvent,
  EntityRef,
  Munition,
  Place,
} from './stream/engagement-events.js';
export { markingAt, type EntityFrame } from './stream/frame.js';
export type { StreamConfig } from './stream/settings.js';
