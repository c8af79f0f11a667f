/**
 * `reckon/nats`: DIS over NATS (docs/nats.md) — the transport, subjects and H3 cells, areas of interest, the
 * UDP ⇄ NATS bridge and JetStream recording. A subpath of its own, so that `import 'reckon'` never loads the NATS
 * client or H3; `createPublisher` and `createSubscriber` load it themselves when `nats.servers` is set.
 */
export { NatsTransport, openNatsTransport } from './transport.js';
export {
  natsOptionsFromConfig,
  type NatsTransportOptions,
  type NatsSubjectOptions,
  type NatsReceiveOptions,
} from './transport-options.js';
export { createNatsStats, type NatsStats } from './stats.js';
export { SubjectRouter } from './subjects.js';
export { createRoute, type PduRoute, type SubjectSlot } from './route.js';
export { cellOfSubject, GLOBAL_TOKEN, LEFT_CELL_HEADER, NEW_CELL_HEADER } from './subject-names.js';
export { redactUrl } from './url-credentials.js';
export {
  areaContains,
  areaFromConfig,
  areaOutline,
  cellsCoveringArea,
  describeArea,
  parseCircleArea,
  type Area,
  type CircleArea,
  type PolygonArea,
} from './area.js';
export { Bridge, type BridgeOptions, type BridgeStats, type BridgeDirectionStats } from './bridge.js';
export {
  ensureStream,
  readStream,
  streamInfo,
  StreamConflictError,
  type EnsuredStream,
  type StoredMessage,
  type StreamSettings,
} from './jetstream.js';
