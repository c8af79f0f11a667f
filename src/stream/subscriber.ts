/**
 * The receiver's edge: Entity State PDUs from a datagram transport (UDP by default) into a remote-entity table,
 * exposed as rxjs Observables — entity events, render-rate frames and opt-in diagnostics — that share one
 * socket. The socket is bound when the first of them is subscribed and closed when the last subscriber leaves.
 * Bad datagrams are counted (and reported on `diagnostics$` to whoever asked); they never reach an error channel.
 */
import type { Observable, SchedulerLike } from 'rxjs';
import type { Config } from '../config/schema.js';
import type { Area } from '../nats/area.js';
import type { RemoteEntityTable } from '../dr/table.js';
import type { CodecStatusName } from '../pdu/status.js';
import type { DatagramSource, DatagramTransport, RejectReason, TransportStats } from '../transport/transport.js';
import { Connection } from './connection.js';
import type { EntityEvent } from './entity-events.js';
import type { EntityFrame } from './frame.js';
import { resolveConfig, type StreamConfig } from './settings.js';

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
  /** Scheduler time, seconds. */
  readonly timeSeconds: number;
}

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
}

export interface EntitySubscriber {
  readonly config: Config;
  /** Entity events: appeared, updated, timed out, removed (each with the entity's state). */
  readonly events$: Observable<EntityEvent>;
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
  /** The bound socket's address while connected over UDP, else undefined. */
  readonly local: { readonly address: string; readonly port: number } | undefined;
}

/**
 * A subscriber to the Entity State PDUs of one port (or multicast group) and exercise. Nothing is bound until one
 * of its Observables is subscribed; all of them share one socket and one table.
 *
 * @param config - a `Config` or part of one: `network` (port, address, group), `dis` (exercise, versions),
 *   `filter`, `receiver` (smoothing, table bound, latency compensation, render rate, display), `heartbeat` (timeouts).
 * @param options - transport, scheduler; see `SubscriberOptions`.
 * @throws ConfigError for an invalid configuration.
 *
 * ## Example
 * ```ts
 * const subscriber = createSubscriber({ network: { port: 3000 } });
 * subscriber.diagnostics$.subscribe((d) => console.warn(d.reason, d.source.address));
 * subscriber.events$.subscribe((e) => console.log(e.type, e.marking, e.state.location));
 * ```
 */
export function createSubscriber(config: StreamConfig = {}, options: SubscriberOptions = {}): EntitySubscriber {
  return new Connection(resolveConfig(config), options);
}

/**
 * Entity events from the Entity State PDUs received on `config.network`: `appeared`, `updated`, `timedOut`,
 * `removed`, each with the decoded state. Binds the socket on subscribe; closes it when the last subscriber
 * leaves (the port is free again at once). Socket failures (e.g. the port is taken) are errors; bad datagrams
 * are not (see `createSubscriber(...).diagnostics$`).
 *
 * ## Example
 * ```ts
 * const subscription = subscribeEntities({ network: { port: 3000 }, dis: { exercise: 1 } })
 *   .subscribe((event) => console.log(event.type, event.marking, event.state.location));
 * // later: subscription.unsubscribe(); // closes the socket
 * ```
 */
export function subscribeEntities(config: StreamConfig = {}, options: SubscriberOptions = {}): Observable<EntityEvent> {
  return createSubscriber(config, options).events$;
}

/**
 * Render-rate snapshots of every remote entity (smoothed, dead-reckoned to the frame time), from the struct-of-
 * arrays table without per-entity allocation. The frame object is reused: valid until the next frame.
 *
 * ## Example
 * ```ts
 * entityFrames({ network: { port: 3000 } }, { rateHz: 30 }).subscribe((frame) => {
 *   for (let slot = 0; slot < frame.slotCount; slot++) {
 *     if (frame.active[slot] !== 1) continue;
 *     draw(frame.location[3 * slot], frame.location[3 * slot + 1], frame.location[3 * slot + 2]);
 *   }
 * });
 * ```
 */
export function entityFrames(
  config: StreamConfig = {},
  options: SubscriberOptions & { readonly rateHz?: number } = {},
): Observable<EntityFrame> {
  return createSubscriber(config, options).frames(options.rateHz === undefined ? {} : { rateHz: options.rateHz });
}
