/**
 * The receiver's edge: Entity State PDUs from a datagram transport (UDP by default) into a remote-entity table,
 * exposed as rxjs Observables — entity events, render-rate frames and opt-in diagnostics — that share one
 * socket. The socket is bound when the first of them is subscribed and closed when the last subscriber leaves.
 * Bad datagrams are counted (and reported on `diagnostics$` to whoever asked); they never reach an error channel.
 */
import { Observable, asyncScheduler, type SchedulerAction, type SchedulerLike, type Subscriber } from 'rxjs';
import type { Config } from '../config/schema.js';
import { APPLY_TABLE_FULL, APPLY_UNKNOWN_UPDATE, RemoteEntityTable, TABLE_APPEARED, TABLE_UPDATED } from '../dr/table.js';
import { PduType } from '../pdu/constants.js';
import { decodeEntityStateOrUpdateInto } from '../pdu/entity-state-codec.js';
import { entityStateRecordToPdu } from '../pdu/entity-state-json.js';
import { EntityStateRecord } from '../pdu/entity-state-record.js';
import { CODEC_STATUS_NAMES, CodecStatus, codecStatusMessage, type CodecStatusName } from '../pdu/status.js';
import { PduReceiver, receiveFilterFromConfig } from '../transport/pdu-receiver.js';
import {
  REJECT_REASONS,
  createTransportStats,
  type DatagramSource,
  type DatagramTransport,
  type RejectReason,
  type TransportStats,
} from '../transport/transport.js';
import { openUdpTransport } from '../transport/udp.js';
import { entityStateFromSlot } from './entity-state-from-slot.js';
import { createFrame, renderFrame, type EntityFrame } from './frame.js';
import { entityEvent, type EntityEvent } from './entity-events.js';
import { resolveConfig, tableOptionsFromConfig, type StreamConfig } from './settings.js';

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
}

/** Counters of a subscriber, kept across connections. */
export interface SubscriberStats {
  /** Datagrams, bytes, PDUs accepted, rejections by reason, entities held, timeouts. */
  readonly transport: TransportStats;
  /** Entity State PDUs that passed the filters but failed to decode, by codec status name. */
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
   * port 0 which port it got. Holds the socket open while subscribed, like the other streams.
   */
  readonly listening$: Observable<{ readonly address: string; readonly port: number }>;
  /**
   * Smoothed, dead-reckoned snapshots of every remote entity at a render rate, read straight from the table's
   * typed arrays (no per-entity allocation). The frame object and its arrays are reused: valid until the next frame.
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
 *   `filter`, `receiver` (smoothing, table bound, latency compensation, render rate), `heartbeat` (timeouts).
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

type Listener<T> = (value: T) => void;

const REJECT_REASON_LIST = Object.keys(REJECT_REASONS) as RejectReason[];

/** One shared connection: socket, receiver, table; reference-counted by the Observables' subscriptions. */
class Connection implements EntitySubscriber {
  readonly events$: Observable<EntityEvent>;
  readonly diagnostics$: Observable<Diagnostic>;
  readonly listening$: Observable<{ readonly address: string; readonly port: number }>;
  readonly stats: SubscriberStats;
  table: RemoteEntityTable | undefined;
  private transport: DatagramTransport | undefined;
  private refs = 0;
  /** Bumped on every connect and disconnect, so a socket that finishes opening late knows it is unwanted. */
  private generation = 0;
  private expiry: { unsubscribe(): void } | undefined;
  private readonly scheduler: SchedulerLike;
  private readonly eventListeners = new Set<Listener<EntityEvent>>();
  private readonly diagnosticListeners = new Set<Listener<Diagnostic>>();
  private readonly errorListeners = new Set<Listener<unknown>>();
  private readonly listeningListeners = new Set<Listener<{ address: string; port: number }>>();
  private readonly record = new EntityStateRecord();
  private readonly slotRecord = new EntityStateRecord(0);
  private readonly receiver: PduReceiver;
  private readonly rejectedBefore = new Float64Array(REJECT_REASON_LIST.length);
  /** The full Entity State PDU being applied (its record is the event's state), else null. */
  private applying: EntityStateRecord | null = null;
  private source: DatagramSource = { address: '', port: 0, family: '' };

  constructor(
    readonly config: Config,
    private readonly options: SubscriberOptions,
  ) {
    this.scheduler = options.scheduler ?? asyncScheduler;
    const decodeErrors = {} as Record<CodecStatusName, number>;
    for (const name of CODEC_STATUS_NAMES) decodeErrors[name] = 0;
    this.stats = { transport: options.transport?.stats ?? createTransportStats(), decodeErrors };
    this.receiver = new PduReceiver(this.consume, { ...receiveFilterFromConfig(config), pduTypes: [PduType.ENTITY_STATE, PduType.ENTITY_STATE_UPDATE] }, this.stats.transport);
    this.events$ = this.stream(this.eventListeners);
    this.diagnostics$ = this.stream(this.diagnosticListeners);
    this.listening$ = new Observable((subscriber) => {
      const bound = this.transport !== undefined; // otherwise `attach` announces it
      const subscription = this.stream(this.listeningListeners).subscribe(subscriber);
      const local = this.local;
      if (bound && local) subscriber.next(local);
      return subscription;
    });
  }

  get local(): { address: string; port: number } | undefined {
    const local = (this.transport as { local?: { address: string; port: number } } | undefined)?.local;
    return local ? { address: local.address, port: local.port } : undefined;
  }

  frames(options: { rateHz?: number } = {}): Observable<EntityFrame> {
    const rateHz = options.rateHz ?? this.config.receiver.renderRate;
    if (!(rateHz > 0)) throw new RangeError(`rateHz must be positive, got ${rateHz}`);
    const periodMs = 1000 / rateHz;
    return new Observable<EntityFrame>((subscriber) => {
      const frame = createFrame();
      const teardown = this.acquire(subscriber);
      const action = this.scheduler.schedule(
        function (this: SchedulerAction<Connection>, connection?: Connection) {
          const table = connection!.table;
          if (table) subscriber.next(renderFrame(frame, table, connection!.scheduler.now() / 1000));
          this.schedule(connection, periodMs);
        },
        periodMs,
        this,
      );
      return () => {
        action.unsubscribe();
        teardown();
      };
    });
  }

  private stream<T>(listeners: Set<Listener<T>>): Observable<T> {
    return new Observable<T>((subscriber) => {
      const listener: Listener<T> = (value) => subscriber.next(value);
      listeners.add(listener);
      const teardown = this.acquire(subscriber);
      return () => {
        listeners.delete(listener);
        teardown();
      };
    });
  }

  /** Counts one subscription in: the first one connects. @returns its teardown. */
  private acquire(subscriber: Subscriber<unknown>): () => void {
    const onError: Listener<unknown> = (error) => subscriber.error(error);
    this.errorListeners.add(onError);
    if (this.refs++ === 0) this.connect();
    return () => {
      this.errorListeners.delete(onError);
      if (--this.refs === 0) this.disconnect();
    };
  }

  private connect(): void {
    const generation = ++this.generation;
    const table = new RemoteEntityTable({ ...tableOptionsFromConfig(this.config), onEvent: this.onTableEvent });
    this.table = table;
    const periodMs = (this.options.expireIntervalSeconds ?? 1) * 1000;
    this.expiry = this.scheduler.schedule(
      function (this: SchedulerAction<Connection>, connection?: Connection) {
        connection!.expire();
        this.schedule(connection, periodMs);
      },
      periodMs,
      this,
    );
    if (this.options.transport) return this.attach(this.options.transport);
    openUdpTransport(this.config.network, 'receive', this.stats.transport).then(
      (transport) => {
        if (generation !== this.generation) void transport.close();
        else this.attach(transport);
      },
      (error: unknown) => {
        if (generation === this.generation) this.fail(error);
      },
    );
  }

  private attach(transport: DatagramTransport): void {
    this.transport = transport;
    transport.onDatagram(this.receive);
    transport.onClose((error) => {
      if (error && this.transport === transport) this.fail(error);
    });
    const local = this.local;
    if (local) for (const listener of [...this.listeningListeners]) listener(local);
  }

  private disconnect(): void {
    this.generation++;
    this.expiry?.unsubscribe();
    this.expiry = undefined;
    const transport = this.transport;
    this.transport = undefined;
    this.table = undefined;
    this.stats.transport.entities = 0;
    if (!transport) return;
    transport.onDatagram(undefined);
    if (transport !== this.options.transport) void transport.close();
  }

  private fail(error: unknown): void {
    for (const listener of [...this.errorListeners]) listener(error);
  }

  private expire(): void {
    const table = this.table;
    if (!table) return;
    const n = table.expire(this.scheduler.now() / 1000);
    this.stats.transport.timeouts += n;
    this.stats.transport.entities = table.size;
  }

  private readonly receive = (datagram: Uint8Array, source: DatagramSource): void => {
    this.source = source;
    if (this.diagnosticListeners.size === 0) return this.receiver.receive(datagram, source);
    // Which counters moved tells why this datagram (or a PDU in it) was dropped.
    const rejected = this.stats.transport.rejected;
    for (let i = 0; i < REJECT_REASON_LIST.length; i++) this.rejectedBefore[i] = rejected[REJECT_REASON_LIST[i]!];
    this.receiver.receive(datagram, source);
    for (let i = 0; i < REJECT_REASON_LIST.length; i++) {
      const reason = REJECT_REASON_LIST[i]!;
      if (rejected[reason] !== this.rejectedBefore[i]) this.diagnose(reason, REJECT_REASONS[reason], datagram.length);
    }
  };

  private readonly consume = (bytes: Uint8Array, offset: number, length: number): void => {
    const table = this.table;
    if (!table) return;
    const status = decodeEntityStateOrUpdateInto(this.record, bytes, offset, offset + length);
    if (status !== CodecStatus.OK) {
      this.stats.decodeErrors[CODEC_STATUS_NAMES[status]!]++;
      if (this.diagnosticListeners.size > 0) this.diagnose('decode', codecStatusMessage(status), bytes.length);
      return;
    }
    this.applying = this.record.pduType === PduType.ENTITY_STATE ? this.record : null;
    const result = table.apply(this.record, this.scheduler.now() / 1000);
    this.applying = null;
    this.stats.transport.entities = table.size;
    if (this.diagnosticListeners.size === 0) return;
    if (result === APPLY_TABLE_FULL) this.diagnose('tableFull', `the table holds its maximum of ${table.capacity} entities (receiver.maxEntities)`, bytes.length);
    else if (result === APPLY_UNKNOWN_UPDATE) this.diagnose('unknownUpdate', 'an Entity State Update PDU for an entity never seen in a full Entity State PDU', bytes.length);
  };

  private diagnose(reason: DiagnosticReason, message: string, bytes: number): void {
    const diagnostic: Diagnostic = { reason, message, source: this.source, bytes, timeSeconds: this.scheduler.now() / 1000 };
    for (const listener of this.diagnosticListeners) listener(diagnostic);
  }

  private readonly onTableEvent = (kind: number, slot: number, key: number): void => {
    if (this.eventListeners.size === 0 || !this.table) return;
    const fromPdu = (kind === TABLE_APPEARED || kind === TABLE_UPDATED) && this.applying !== null;
    const record = fromPdu ? this.applying! : entityStateFromSlot(this.slotRecord, this.table, slot);
    const event = entityEvent(kind, key, entityStateRecordToPdu(record), this.scheduler.now() / 1000);
    for (const listener of this.eventListeners) listener(event);
  };
}
