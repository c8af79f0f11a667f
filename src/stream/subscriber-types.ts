/**
 * The types of the subscriber's public surface, shared by `subscriber.ts` (the factory functions) and
 * `subscriber-receiver.ts` (the implementation) so that neither imports the other's module for them.
 */
import type { Observable, SchedulerLike } from 'rxjs';
import type { Config } from '../config/schema.js';
import type { Area } from '../nats/area.js';
import type { NatsStats } from '../nats/stats.js';
import type { RemoteEntityTable } from '../dr/receiver/remote-entity-table.js';
import type { CodecStatusName } from '../pdu/wire/status.js';
import type { DatagramSource, DatagramTransport, RejectReason, TransportStats } from '../transport/transport.js';
import type { EngagementEvent } from './engagement-events.js';
import type { EntityEvent } from './entity-events.js';
import type { SimulationControlStats } from './simulation-control.js';

/**
 * What `events$` emits: what happened to a remote entity (`EntityEvent`: appeared, updated, timedOut, removed,
 * frozen, resumed) and the engagements between entities (`EngagementEvent`: fire, detonation, collision). Tell
 * them apart by `type`.
 */
export type SubscriberEvent = EntityEvent | EngagementEvent;
import type { EntityFrame } from './frame.js';

/** Why a datagram or PDU was dropped: a transport filter's reason, a codec failure, or the table's refusal. */
export type DiagnosticReason = RejectReason | 'decode' | 'tableFull' | 'unknownUpdate';

/** One dropped datagram or PDU, on the opt-in `diagnostics$` stream. */
export interface Diagnostic {
  readonly reason: DiagnosticReason;
  /** What was wrong, for people. */
  readonly message: string;
  readonly source: DatagramSource;
  /** Bytes of the datagram. */
  readonly bytes: number;
  /** Where the dropped PDU starts in the datagram (0 for a datagram dropped whole: `sourceNotAllowed`). */
  readonly offset: number;
  /** Scheduler time, seconds. */
  readonly timeSeconds: number;
}

/** Options of `createSubscriber`. */
export interface SubscriberOptions {
  /**
   * Receive on this transport instead of binding a UDP socket from `config.network` (a simulated network, a test
   * double). The caller keeps ownership: it is not closed. Defaults to a UDP socket.
   */
  readonly transport?: DatagramTransport;
  /** Where time comes from (`now()` in ms; arrival times, timeouts, frames). Defaults to `asyncScheduler`. */
  readonly scheduler?: SchedulerLike;
  /** How often silent entities are looked for, seconds. Defaults to 1. */
  readonly expireIntervalSeconds?: number;
  /**
   * Over NATS (`nats.servers` set): a moving area of interest. Each area given re-subscribes to the H3 cells that
   * cover it (undefined = the whole exercise); an area that cannot be taken is an error of the streams. Defaults
   * to the fixed `nats.area`.
   */
  readonly areas$?: Observable<Area | undefined>;
}

/** Counters of a subscriber, kept across connections. */
export interface SubscriberStats {
  /** Datagrams, bytes, PDUs accepted, rejections by reason, entities held, timeouts. */
  readonly transport: TransportStats;
  /**
   * Entity State PDUs that passed the filters but were rejected, by codec status name: bytes that do not decode
   * (TRUNCATED, BAD_LENGTH, …) or values no entity can have (LOCATION_NOT_FINITE, ENTITY_ID_NONE, …).
   */
  readonly decodeErrors: Record<CodecStatusName, number>;
  /**
   * PDUs of the other types the subscriber takes (Fire, Detonation, Collision, Remove Entity, Stop/Freeze,
   * Start/Resume) rejected, by PDU type, then by codec status name: bytes that do not decode, or values that cannot
   * be shown (src/pdu/checks/validate-engagement.ts).
   */
  readonly otherDecodeErrors: Record<number, Partial<Record<CodecStatusName, number>>>;
  /** Engagement PDUs taken: Fire, Detonation, Collision (and Collision-Elastic). */
  readonly engagements: { fires: number; detonations: number; collisions: number };
  /** Remove Entity, Stop/Freeze and Start/Resume PDUs taken, and the entities they changed. */
  readonly control: SimulationControlStats;
  /**
   * Valid Entity State PDUs the table did not take: of new entities while it held `receiver.maxEntities`, and
   * Entity State Updates of entities never seen in a full Entity State PDU.
   */
  readonly notTaken: { tableFull: number; unknownUpdates: number };
}

/** The NATS side of a subscriber connected over NATS. */
export interface SubscriberNats {
  /** The area of interest, or undefined for the whole exercise. */
  readonly currentArea: Area | undefined;
  /** The H3 cells subscribed to, or undefined for the whole exercise. */
  readonly cells: readonly string[] | undefined;
  readonly subjects: { readonly prefix: string; readonly resolution: number };
  readonly natsStats: Readonly<NatsStats>;
}

/** Receives DIS and holds the remote entities (`createSubscriber`). */
export interface EntitySubscriber {
  readonly config: Config;
  /**
   * Entity events (appeared, updated, timed out, removed, frozen, resumed, each with the entity's state) and
   * engagement events (fire, detonation, collision).
   */
  readonly events$: Observable<SubscriberEvent>;
  /** `events$` without the engagements: what happened to each entity, with its state. */
  readonly entityEvents$: Observable<EntityEvent>;
  /**
   * The `timedOut` and `removed` events alone: for a consumer of frames that must not miss an entity that came and
   * went between two of them, without the cost of an event per PDU.
   */
  readonly departures$: Observable<EntityEvent>;
  /** Every dropped datagram or PDU with its reason. Opt-in: nothing is built while no one subscribes. */
  readonly diagnostics$: Observable<Diagnostic>;
  /**
   * The bound address each time the socket is bound (at once if it already is): tells a caller that asked for
   * port 0 which port it got. Over NATS: the server connected to (without credentials) and its port, once the
   * server has taken the subscriptions. Holds the socket open while subscribed, like the other streams.
   */
  readonly listening$: Observable<{ readonly address: string; readonly port: number }>;
  /**
   * Smoothed, dead-reckoned snapshots of every remote entity at a render rate, read straight from the table's
   * typed arrays (no per-entity allocation); with `receiver.display` 'interpolate', entities as they were
   * `receiver.interpolationDelay` ago, interpolated between received states (dead-reckoned past the newest).
   * The frame object and its arrays are reused: valid until the next frame.
   * @param options.rateHz - frames per second. Defaults to `receiver.renderRate` (30).
   */
  frames(options?: { rateHz?: number }): Observable<EntityFrame>;
  readonly stats: SubscriberStats;
  /** The table of remote entities while connected, else undefined. */
  readonly table: RemoteEntityTable | undefined;
  /** Over NATS while connected: the area of interest, its cells and the counters; else undefined. */
  readonly nats: SubscriberNats | undefined;
  /** The bound socket's address while connected over UDP, else undefined. */
  readonly local: { readonly address: string; readonly port: number } | undefined;
}
