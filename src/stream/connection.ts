/**
 * The one connection behind an `EntitySubscriber`: socket, PDU receiver, remote-entity table and the listeners of
 * its streams, reference-counted by their subscriptions (the first connects, the last disconnects). The hot path
 * — datagram → split, filter, decode → table update — allocates nothing unless someone listens to events or
 * diagnostics.
 */
import { Observable, asyncScheduler, type SchedulerAction, type SchedulerLike, type Subscriber } from 'rxjs';
import type { Config } from '../config/schema.js';
import { APPLY_TABLE_FULL, APPLY_UNKNOWN_UPDATE, RemoteEntityTable, TABLE_REMOVED } from '../dr/table.js';
import { PduType } from '../pdu/constants.js';
import { decodeEntityStateOrUpdateInto } from '../pdu/entity-state-codec.js';
import { entityStateRecordToPdu } from '../pdu/entity-state-json.js';
import { EntityStateRecord } from '../pdu/entity-state-record.js';
import { CODEC_STATUS_NAMES, CodecStatus, codecStatusMessage, type CodecStatusName } from '../pdu/status.js';
import { validateEntityState } from '../pdu/validate.js';
import { PduReceiver, receiveFilterFromConfig } from '../transport/pdu-receiver.js';
import {
  REJECT_REASONS,
  createTransportStats,
  type DatagramSource,
  type DatagramTransport,
  type RejectReason,
} from '../transport/transport.js';
import { openUdpTransport } from '../transport/udp.js';
import { entityEvent, type EntityEvent } from './entity-events.js';
import { completeUpdateFromSlot, entityStateFromSlot } from './entity-state-from-slot.js';
import { createFrame, renderFrame, type EntityFrame } from './frame.js';
import { InterpolatedView } from './interpolated-view.js';
import { tableOptionsFromConfig } from './settings.js';
import type { Diagnostic, DiagnosticReason, EntitySubscriber, SubscriberOptions, SubscriberStats } from './subscriber.js';

type Listener<T> = (value: T) => void;

const REJECT_REASON_LIST = Object.keys(REJECT_REASONS) as RejectReason[];

/** One shared connection: socket, receiver, table; reference-counted by the Observables' subscriptions. */
export class Connection implements EntitySubscriber {
  readonly events$: Observable<EntityEvent>;
  readonly diagnostics$: Observable<Diagnostic>;
  readonly listening$: Observable<{ readonly address: string; readonly port: number }>;
  readonly stats: SubscriberStats;
  table: RemoteEntityTable | undefined;
  /** With `receiver.display` 'interpolate', the received states behind the frames, else undefined. */
  private view: InterpolatedView | undefined;
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
  /** The PDU being applied (the state of the events it causes), else null. */
  private applying: EntityStateRecord | null = null;
  private source: DatagramSource = { address: '', port: 0, family: '' };
  /** Size of the datagram being handled, for diagnostics (consumers see the receiver's buffer, not the datagram). */
  private datagramBytes = 0;

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
          if (table) subscriber.next(renderFrame(frame, table, connection!.scheduler.now() / 1000, connection!.view));
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
    const r = this.config.receiver;
    this.view = r.display === 'interpolate' ? new InterpolatedView(table.capacity, r.interpolationDelay) : undefined;
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
    const opening = this.config.nats.servers.length > 0 ? this.openNats() : openUdpTransport(this.config.network, 'receive', this.stats.transport);
    opening.then(
      (transport) => {
        if (generation !== this.generation) void transport.close();
        else this.attach(transport);
      },
      (error: unknown) => {
        if (generation === this.generation) this.fail(error);
      },
    );
  }

  /**
   * A NATS transport (loaded only when configured, so UDP users never load the client) subscribed to the configured
   * area, following `options.areas$` if given; resolves once the server has taken the subscriptions.
   */
  private async openNats(): Promise<DatagramTransport> {
    const { openNatsTransport } = await import('../nats/transport.js');
    const transport = await openNatsTransport(this.config.nats, { exercise: this.config.dis.exercise }, this.stats.transport);
    try {
      if (this.options.areas$) transport.followArea(this.options.areas$, (error) => this.fail(error));
      await transport.settled();
    } catch (error) {
      await transport.close();
      throw error;
    }
    return transport;
  }

  /** The NATS transport while connected over NATS (its counters, cells, connection), else undefined. */
  natsTransport: import('../nats/transport.js').NatsTransport | undefined;

  private attach(transport: DatagramTransport): void {
    this.transport = transport;
    this.natsTransport = 'natsStats' in transport ? (transport as import('../nats/transport.js').NatsTransport) : undefined;
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
    this.natsTransport = undefined;
    this.table = undefined;
    this.view = undefined;
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
    this.datagramBytes = datagram.length;
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
    let status = decodeEntityStateOrUpdateInto(this.record, bytes, offset, offset + length);
    // Values no entity can have (NaN, absurd coordinates, reserved ids) never reach the table: docs/pdu-validation.md.
    if (status === CodecStatus.OK) status = validateEntityState(this.record);
    if (status !== CodecStatus.OK) {
      this.stats.decodeErrors[CODEC_STATUS_NAMES[status]!]++;
      if (this.diagnosticListeners.size > 0) this.diagnose('decode', codecStatusMessage(status), this.datagramBytes);
      return;
    }
    this.applying = this.record;
    const result = table.apply(this.record, this.scheduler.now() / 1000);
    this.applying = null;
    this.stats.transport.entities = table.size;
    if (this.diagnosticListeners.size === 0) return;
    if (result === APPLY_TABLE_FULL) this.diagnose('tableFull', `the table holds its maximum of ${table.capacity} entities (receiver.maxEntities)`, this.datagramBytes);
    else if (result === APPLY_UNKNOWN_UPDATE) this.diagnose('unknownUpdate', 'an Entity State Update PDU for an entity never seen in a full Entity State PDU', this.datagramBytes);
  };

  private diagnose(reason: DiagnosticReason, message: string, bytes: number): void {
    const diagnostic: Diagnostic = { reason, message, source: this.source, bytes, timeSeconds: this.scheduler.now() / 1000 };
    for (const listener of this.diagnosticListeners) listener(diagnostic);
  }

  private readonly onTableEvent = (kind: number, slot: number, key: number): void => {
    if (!this.table) return;
    this.view?.onTableEvent(kind, slot, this.table);
    if (this.eventListeners.size === 0) return;
    const state = entityStateRecordToPdu(this.eventState(kind, slot));
    const event = entityEvent(kind, key, state, this.scheduler.now() / 1000);
    for (const listener of this.eventListeners) listener(event);
  };

  /**
   * The state an event carries: the PDU that caused it — a full Entity State PDU as received (for `removed`, the
   * leave notice itself, whose appearance says Deactivated), an Entity State Update merged into the entity's last
   * full PDU — else (a timeout, a removal by the application) the last state the table holds.
   */
  private eventState(kind: number, slot: number): EntityStateRecord {
    const pdu = this.applying, table = this.table!;
    if (pdu === null) return entityStateFromSlot(this.slotRecord, table, slot);
    if (pdu.pduType === PduType.ENTITY_STATE) return pdu;
    // The table takes in an update before its event; a leave notice never enters it, so it is merged here.
    if (kind === TABLE_REMOVED) return completeUpdateFromSlot(pdu, table, slot);
    return entityStateFromSlot(this.slotRecord, table, slot);
  }
}
