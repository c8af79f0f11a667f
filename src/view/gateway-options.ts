/** What a `ViewGateway` is given, and the counters it keeps. */
import type { Config } from '../config/schema.js';

/** Options of a `ViewGateway`. */
export interface GatewayOptions {
  /** Receive settings (`dis`, `filter`, `receiver`, `heartbeat`); what the page is told in `hello`. */
  readonly config: Config;
  /** How often PDUs are bundled and sent, ms. Defaults to 50. */
  readonly tickMs?: number;
  /** Unsent bytes on a client's socket above which it gets only the newest PDU per entity. Defaults to 1 MiB. */
  readonly highWaterBytes?: number;
  /** Origins (e.g. `http://localhost:5173`) accepted besides the page's own. Defaults to none. */
  readonly allowOrigins?: readonly string[];
  /** Map tile URL template for the page. Defaults to null (none). */
  readonly tiles?: string | null;
  /** Whether this is `reckon demo` (the page then expects `truth`). Defaults to false. */
  readonly demo?: boolean;
  /**
   * Forward every exercise (the page filters per client), not only `dis.exercise`. Defaults to false: the gateway
   * receives what `reckon subscribe` would.
   */
  readonly allExercises?: boolean;
  /** Most clients at once; further upgrades are refused with 503. Defaults to 100. */
  readonly maxClients?: number;
  /** The clock, ms since the Unix epoch. Defaults to `Date.now`. */
  readonly now?: () => number;
}

/** Counters of a gateway (read at any time). */
export interface GatewayStats {
  /** Entity State (and Update) PDUs accepted and forwarded. */
  pdus: number;
  /** Their bytes. */
  bytes: number;
  /** Entity State PDUs that do not decode or carry values no entity can have (`validateEntityState`). */
  rejected: number;
  /** Entity State Update PDUs of an entity never seen in a full Entity State PDU (nothing to filter them by). */
  unknownUpdates: number;
  /** PDUs of new entities dropped because the gateway holds `receiver.maxEntities` already. */
  tableFull: number;
  /** Entities dropped for silence. */
  timeouts: number;
  /** Clients connected now. */
  clients: number;
  /** Messages clients sent (good or bad). */
  clientMessages: number;
  /** Malformed, unknown or oversized client messages. */
  clientErrors: number;
  /** WebSocket upgrades refused: wrong path, foreign origin, too many clients. */
  upgradesRefused: number;
  /** Clients disconnected because they kept sending requests while reading nothing (4 × the high-water mark). */
  clientsDropped: number;
  /** PDUs some client did not get because a newer one of the same entity replaced it (backpressure). */
  skipped: number;
  /** Engagement messages (shots, entity control, radios) some client did not get while congested (backpressure). */
  messagesSkipped: number;
  /** Clients greeted again (hello, state, snapshot) after missing entity control or radios while congested. */
  greetedAgain: number;
  /** WebSocket clients accepted in all. */
  connections: number;
  /** Feed messages sent, over all clients: binary messages of PDUs and text messages (JSON). */
  messagesSent: number;
  /** Their bytes (payloads). */
  bytesSent: number;
}
