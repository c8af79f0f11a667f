/**
 * `reckon`: DIS (IEEE 1278.1) dead reckoning for Node.js — the Entity State PDU and its codec, dead reckoning, the
 * rxjs streams over UDP and configuration. The rest is by subpath: `reckon/pdu` (every PDU's codec and schema),
 * `reckon/names`, `reckon/math`, `reckon/truth`, `reckon/experiment`, `reckon/lockstep`, `reckon/compression`,
 * `reckon/pcap`, `reckon/nats`, `reckon/cot`, `reckon/view` (docs/api.md). What each exports is listed in
 * test/fixtures/api/.
 */

// pdu — the Entity State PDU, the codec's results and the way into every other PDU (more in `reckon/pdu`)
export type {
  EntityStatePdu,
  EntityId,
  EntityType,
  DisTimestamp,
  VariableParameter,
  Vec3Tuple,
} from './pdu/schema/schema.js';
export {
  EntityStateRecord,
  entityKey,
  entityIdFromKey,
  setMarkingText,
  markingText,
} from './pdu/wire/entity-state-record.js';
export { PduType } from './pdu/wire/constants.js';
export {
  CodecStatus,
  codecStatusName,
  codecStatusMessage,
  PduDecodeError,
  type CodecStatusName,
} from './pdu/wire/status.js';
export { forEachPdu, looksLikeDis, type PduVisitor } from './pdu/wire/header.js';
export { decodeEntityStateInto } from './pdu/wire/entity-state-decoder.js';
export { encodeEntityStateInto, EntityStateEncoder } from './pdu/wire/entity-state-encoder.js';
export { decodeEntityState, encodeEntityState } from './pdu/json/entity-state-json.js';
export { PduRecords, type AnyPduRecord } from './pdu/wire/any-pdu.js';
export { decodePdu, encodePdu, type DisPdu } from './pdu/json/pdu-json.js';

// config — one zod schema for every setting; file, RECKON_* environment and flags
export { ConfigSchema, defaultConfig, type Config, type ConfigInput } from './config/schema.js';
export { loadConfig, ConfigError, type ConfigIssue, type ConfigSources } from './config/load.js';

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
} from './dr/models/algorithm.js';
export {
  deadReckon,
  DeadReckoningModel,
  type DeadReckoningInput,
  type DeadReckoningResult,
} from './dr/models/model.js';
export { createTruthState, type TruthState } from './dr/owner/truth-state.js';
export { EmitterBank, type EmitterBankOptions } from './dr/owner/emitter-bank.js';
export {
  OwnedEntityTable,
  type OwnedEntityTableOptions,
  type OwnedEntityStats,
  type PduSink,
} from './dr/owner/owned-entity-table.js';
export { DeadReckoningEmitter, emitReasonNames, type EmitterOptions } from './dr/owner/emitter.js';
export {
  HEARTBEAT_IEEE_TABLE_25,
  HEARTBEAT_KDIS,
  heartbeatSecondsFor,
  type HeartbeatTable,
} from './dr/owner/heartbeat.js';
export {
  SnapshotInterpolationBuffer,
  InterpolationStatus,
  type InterpolationOptions,
} from './dr/receiver/snapshot-interpolation.js';
export { RemoteEntityTable, type RemoteEntityTableOptions } from './dr/receiver/remote-entity-table.js';
export { ApplyResult, TableEvent, type TableEventListener, type TableStats } from './dr/receiver/table-results.js';
export type { SmoothingOptions, SmoothingMethodName } from './dr/receiver/position-smoothing.js';

// transport — datagrams over UDP (or any DatagramTransport); bundling, splitting, filtering, counters
export type { DatagramTransport, DatagramReceiver, DatagramSource, TransportStats } from './transport/transport.js';
export { PduBundler } from './transport/bundler.js';
export { PduReceiver, type PduConsumer, type RejectionSink } from './transport/pdu-receiver.js';
export { UdpTransport, openUdpTransport, DIS_PORT, type UdpTransportOptions, type UdpRole } from './transport/udp.js';

// stream — rxjs publish/subscribe over UDP (or any DatagramTransport)
export { createPublisher, type Publisher, type PublisherOptions } from './stream/publisher.js';
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
