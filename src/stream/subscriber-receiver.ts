/**
 * The receive side behind `createSubscriber`: socket, PDU receiver and remote-entity table, shared by its streams
 * with rxjs `share` (the first subscription connects, the last one leaving disconnects; a socket failure errors
 * them all). The hot path — datagram → split, filter, decode → table update — allocates nothing unless someone
 * listens to events or diagnostics.
 */
import {
  Observable,
  asyncScheduler,
  filter,
  share,
  type SchedulerAction,
  type SchedulerLike,
  type Subscriber,
} from 'rxjs';
import type { Config } from '../config/schema.js';
import { RemoteEntityTable } from '../dr/receiver/remote-entity-table.js';
import { ApplyResult, TableEvent } from '../dr/receiver/table-results.js';
import type { NatsDatagramSource, NatsTransport } from '../nats/transport.js';
import { PduType } from '../pdu/wire/constants.js';
import { decodeEntityStateOrUpdateInto } from '../pdu/wire/entity-state-decoder.js';
import { entityStateRecordToPdu } from '../pdu/json/entity-state-json.js';
import { EntityStateRecord } from '../pdu/wire/entity-state-record.js';
import { PduRecords } from '../pdu/wire/any-pdu.js';
import { CollisionElasticRecord, CollisionRecord } from '../pdu/wire/collision.js';
import { EntityManagementRecord, StartResumeRecord, StopFreezeRecord } from '../pdu/wire/simulation-management.js';
import { DetonationRecord, FireRecord } from '../pdu/wire/warfare.js';
import { pduStatusMessage } from '../pdu/wire/length-rules.js';
import { CODEC_STATUS_NAMES, CodecStatus, type CodecStatusName } from '../pdu/wire/status.js';
import { validateEntityState } from '../pdu/checks/validate.js';
import { validateCollision, validateShot } from '../pdu/checks/validate-engagement.js';
import { PduReceiver, receiveFilterFromConfig, type RejectionSink } from '../transport/pdu-receiver.js';
import {
  REJECT_REASONS,
  createTransportStats,
  type DatagramSource,
  type DatagramTransport,
} from '../transport/transport.js';
import { openUdpTransport } from '../transport/udp.js';
import { collisionEvent, detonationEvent, fireEvent } from './engagement-events.js';
import { entityEvent, isEntityEvent, type EntityEvent, type LeaveReason } from './entity-events.js';
import { createSimulationControlStats, removeEntities, SimulationControl } from './simulation-control.js';
import { completeUpdateFromSlot, entityStateFromSlot } from './entity-state-from-slot.js';
import { createFrame, renderFrame, type EntityFrame } from './frame.js';
import { InterpolatedView } from './interpolated-view.js';
import { tableOptionsFromConfig } from './settings.js';
import type {
  SubscriberEvent,
  Diagnostic,
  DiagnosticReason,
  EntitySubscriber,
  SubscriberNats,
  SubscriberOptions,
  SubscriberStats,
} from './subscriber-types.js';

/**
 * The PDU types a subscriber takes: Entity State and its update, the engagements (Fire, Detonation, Collision,
 * Collision-Elastic) and the simulation management PDUs that speak to entities (Remove Entity, Start/Resume,
 * Stop/Freeze). Others are counted by type (`stats.transport.otherPdus`).
 */
const SUBSCRIBER_PDU_TYPES: readonly number[] = [
  PduType.ENTITY_STATE,
  PduType.ENTITY_STATE_UPDATE,
  PduType.FIRE,
  PduType.DETONATION,
  PduType.COLLISION,
  PduType.COLLISION_ELASTIC,
  PduType.REMOVE_ENTITY,
  PduType.START_RESUME,
  PduType.STOP_FREEZE,
];

/**
 * The subscribers of one stream, each also holding the shared connection. Values go straight to them: an rxjs
 * `Subject` would do the same, but its `next` allocates a closure per value (rxjs 7.8), once per PDU here.
 */
class Fanout<T> {
  // Replaced, never changed in place, so a subscriber leaving during `next` does not disturb the loop.
  private subscribers: readonly Subscriber<T>[] = [];

  constructor(private readonly connection$: Observable<never>) {}

  get observed(): boolean {
    return this.subscribers.length > 0;
  }

  next(value: T): void {
    const subscribers = this.subscribers;
    for (let i = 0; i < subscribers.length; i++) subscribers[i]!.next(value);
  }

  /**
   * The stream: its subscriber is listed before the connection is joined (a connection made at once can then
   * announce itself), and a connection failure is its error.
   */
  observable(): Observable<T> {
    return new Observable<T>((subscriber) => {
      this.subscribers = [...this.subscribers, subscriber];
      const connection = this.connection$.subscribe({ error: (error: unknown) => subscriber.error(error) });
      return () => {
        this.subscribers = this.subscribers.filter((s) => s !== subscriber);
        connection.unsubscribe();
      };
    });
  }
}

/** A subscriber's receive side: socket, receiver, table; connected while any of its Observables is subscribed. */
export class SubscriberReceiver implements EntitySubscriber {
  readonly events$: Observable<SubscriberEvent>;
  readonly entityEvents$: Observable<EntityEvent>;
  readonly departures$: Observable<EntityEvent>;
  readonly diagnostics$: Observable<Diagnostic>;
  readonly listening$: Observable<{ readonly address: string; readonly port: number }>;
  readonly stats: SubscriberStats;
  table: RemoteEntityTable | undefined;
  /** With `receiver.display` 'interpolate', the received states behind the frames, else undefined. */
  private view: InterpolatedView | undefined;
  private transport: DatagramTransport | undefined;
  /**
   * Connects on its first subscription and disconnects when its last one leaves; errors with a socket failure.
   * Every stream includes it: this is the reference count.
   */
  private readonly connection$: Observable<never>;
  /** Bumped on every connect and disconnect, so a socket that finishes opening late knows it is unwanted. */
  private generation = 0;
  private expiry: { unsubscribe(): void } | undefined;
  private readonly scheduler: SchedulerLike;
  private readonly events: Fanout<SubscriberEvent>;
  private readonly departures: Fanout<EntityEvent>;
  private readonly diagnostics: Fanout<Diagnostic>;
  private readonly listening: Fanout<{ readonly address: string; readonly port: number }>;
  private readonly record = new EntityStateRecord();
  /** The records of the other PDU types the subscriber acts on. */
  private readonly records = new PduRecords();
  private readonly slotRecord = new EntityStateRecord(0);
  private readonly receiver: PduReceiver;
  /** Stop/Freeze and Start/Resume orders, those dated ahead waiting for their time. */
  private readonly control: SimulationControl;
  /** The PDU being applied (the state of the events it causes), else null. */
  private applying: EntityStateRecord | null = null;
  /** Where that PDU came from. */
  private applyingSource: DatagramSource | null = null;
  /** Why the entities being removed by the subscriber itself leave (an area that moved), else undefined. */
  private removing: LeaveReason | undefined;
  /**
   * Over NATS: the subject of each slot's last PDU (its H3 cell), so that the entities of a cell the area no longer
   * covers can be removed when the area moves (docs/nats.md, "Area of interest"). Undefined over UDP.
   */
  private slotSubjects: string[] | undefined;
  /** Stops the area-change calls of the NATS transport attached. */
  private stopAreaChanges: (() => void) | undefined;

  constructor(
    readonly config: Config,
    private readonly options: SubscriberOptions,
  ) {
    this.scheduler = options.scheduler ?? asyncScheduler;
    const decodeErrors = {} as Record<CodecStatusName, number>;
    for (const name of CODEC_STATUS_NAMES) decodeErrors[name] = 0;
    this.stats = {
      transport: options.transport?.stats ?? createTransportStats(),
      decodeErrors,
      otherDecodeErrors: {},
      engagements: { fires: 0, detonations: 0, collisions: 0 },
      control: createSimulationControlStats(),
      notTaken: { tableFull: 0, unknownUpdates: 0 },
    };
    this.control = new SimulationControl(() => this.table, this.scheduler, this.stats.control);
    this.receiver = new PduReceiver(
      this.consume,
      {
        ...receiveFilterFromConfig(config),
        pduTypes: SUBSCRIBER_PDU_TYPES,
        rejectionSink: this.rejections,
      },
      this.stats.transport,
    );
    this.connection$ = new Observable<never>((subscriber) => {
      this.connect(subscriber);
      return () => this.disconnect();
    }).pipe(share());
    this.events = new Fanout(this.connection$);
    this.departures = new Fanout(this.connection$);
    this.diagnostics = new Fanout(this.connection$);
    this.listening = new Fanout(this.connection$);
    this.events$ = this.events.observable();
    this.departures$ = this.departures.observable();
    this.entityEvents$ = this.events$.pipe(filter(isEntityEvent));
    this.diagnostics$ = this.diagnostics.observable();
    this.listening$ = new Observable((subscriber) => {
      const bound = this.transport !== undefined; // otherwise `attach` announces it
      const subscription = this.listening.observable().subscribe(subscriber);
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
      const connection = this.connection$.subscribe({ error: (error: unknown) => subscriber.error(error) });
      const action = this.scheduler.schedule(
        function (this: SchedulerAction<SubscriberReceiver>, receiver?: SubscriberReceiver) {
          const table = receiver!.table;
          if (table) subscriber.next(renderFrame(frame, table, receiver!.scheduler.now() / 1000, receiver!.view));
          this.schedule(receiver, periodMs);
        },
        periodMs,
        this,
      );
      return () => {
        action.unsubscribe();
        connection.unsubscribe();
      };
    });
  }

  /** Builds the table and binds (or attaches to the given transport); a failure is reported to `connection`. */
  private connect(connection: Subscriber<never>): void {
    const generation = ++this.generation;
    const table = new RemoteEntityTable({ ...tableOptionsFromConfig(this.config), onEvent: this.onTableEvent });
    this.table = table;
    const r = this.config.receiver;
    this.view = r.display === 'interpolate' ? new InterpolatedView(table.capacity, r.interpolationDelay) : undefined;
    const periodMs = (this.options.expireIntervalSeconds ?? 1) * 1000;
    this.expiry = this.scheduler.schedule(
      function (this: SchedulerAction<SubscriberReceiver>, receiver?: SubscriberReceiver) {
        receiver!.expire();
        this.schedule(receiver, periodMs);
      },
      periodMs,
      this,
    );
    if (this.options.transport) return this.attach(this.options.transport, connection);
    const opening =
      this.config.nats.servers.length > 0
        ? this.openNats(connection)
        : openUdpTransport(this.config.network, 'receive', this.stats.transport);
    opening.then(
      (transport) => {
        if (generation !== this.generation) void transport.close();
        else this.attach(transport, connection);
      },
      (error: unknown) => {
        if (generation === this.generation) connection.error(error);
      },
    );
  }

  /**
   * A NATS transport (loaded only when configured, so UDP users never load the client) subscribed to the configured
   * area, following `options.areas$` if given; resolves once the server has taken the subscriptions.
   */
  private async openNats(connection: Subscriber<never>): Promise<DatagramTransport> {
    const { openNatsTransport } = await import('../nats/transport.js');
    const transport = await openNatsTransport(
      this.config.nats,
      { exercise: this.config.dis.exercise },
      this.stats.transport,
    );
    try {
      if (this.options.areas$) transport.followArea(this.options.areas$, (error) => connection.error(error));
      await transport.settled();
    } catch (error) {
      await transport.close();
      throw error;
    }
    return transport;
  }

  /** The NATS transport while connected over NATS (its counters, cells, connection), else undefined. */
  natsTransport: NatsTransport | undefined;

  get nats(): SubscriberNats | undefined {
    return this.natsTransport;
  }

  private attach(transport: DatagramTransport, connection: Subscriber<never>): void {
    this.transport = transport;
    const nats = 'natsStats' in transport ? (transport as NatsTransport) : undefined;
    this.natsTransport = nats;
    if (nats && this.table) {
      this.slotSubjects = new Array<string>(this.table.capacity).fill('');
      this.stopAreaChanges = nats.onAreaChange(this.onAreaChange);
    }
    transport.onDatagram(this.receiver.receive);
    transport.onClose((error) => {
      if (error && this.transport === transport) connection.error(error);
    });
    const local = this.local;
    if (local) this.listening.next(local);
  }

  private disconnect(): void {
    this.generation++;
    this.expiry?.unsubscribe();
    this.expiry = undefined;
    this.control.clear();
    const transport = this.transport;
    this.transport = undefined;
    this.natsTransport = undefined;
    this.stopAreaChanges?.();
    this.stopAreaChanges = undefined;
    this.slotSubjects = undefined;
    this.table = undefined;
    this.view = undefined;
    this.stats.transport.entities = 0;
    if (!transport) return;
    transport.onDatagram(undefined);
    if (transport !== this.options.transport) void transport.close();
  }

  private expire(): void {
    const table = this.table;
    if (!table) return;
    const n = table.expire(this.scheduler.now() / 1000);
    this.stats.transport.timeouts += n;
    this.stats.transport.entities = table.size;
  }

  /** The receiver's rejections, as diagnostics for whoever listens. */
  private readonly rejections: RejectionSink = {
    onRejected: (reason, offset, datagramBytes, source) => {
      if (!this.diagnostics.observed) return;
      this.diagnose(reason, REJECT_REASONS[reason], source, datagramBytes, offset);
    },
  };

  private readonly consume = (
    bytes: Uint8Array,
    offset: number,
    length: number,
    source: DatagramSource,
    datagramBytes: number,
  ): void => {
    const table = this.table;
    if (!table) return;
    const type = bytes[offset + 2];
    if (type !== PduType.ENTITY_STATE && type !== PduType.ENTITY_STATE_UPDATE) {
      return this.consumeOther(table, bytes, offset, length, source, datagramBytes);
    }
    let status = decodeEntityStateOrUpdateInto(this.record, bytes, offset, offset + length);
    // Values no entity can have (NaN, absurd coordinates, reserved ids) never reach the table: docs/pdu-validation.md.
    if (status === CodecStatus.OK) status = validateEntityState(this.record);
    if (status !== CodecStatus.OK) {
      this.stats.decodeErrors[CODEC_STATUS_NAMES[status]!]++;
      if (this.diagnostics.observed) {
        this.diagnose('decode', pduStatusMessage(status, type!), source, datagramBytes, offset);
      }
      return;
    }
    this.applying = this.record;
    this.applyingSource = source;
    const result = table.apply(this.record, this.scheduler.now() / 1000);
    this.applying = null;
    this.applyingSource = null;
    this.stats.transport.entities = table.size;
    if (result === ApplyResult.TABLE_FULL) this.stats.notTaken.tableFull++;
    else if (result === ApplyResult.UNKNOWN_UPDATE) this.stats.notTaken.unknownUpdates++;
    if (!this.diagnostics.observed) return;
    if (result === ApplyResult.TABLE_FULL) {
      const message = `the table holds its maximum of ${table.capacity} entities (receiver.maxEntities)`;
      this.diagnose('tableFull', message, source, datagramBytes, offset);
    } else if (result === ApplyResult.UNKNOWN_UPDATE) {
      const message = 'an Entity State Update PDU for an entity never seen in a full Entity State PDU';
      this.diagnose('unknownUpdate', message, source, datagramBytes, offset);
    }
  };

  /**
   * A PDU of another type it takes: an engagement (an event for whoever listens) or a simulation management PDU
   * for the entities it holds (src/stream/simulation-control.ts).
   */
  private consumeOther(
    table: RemoteEntityTable,
    bytes: Uint8Array,
    offset: number,
    length: number,
    source: DatagramSource,
    datagramBytes: number,
  ): void {
    const records = this.records;
    let status = records.decode(bytes, offset, offset + length);
    const decoded = records.record;
    // As for Entity State: values no entity has never reach an event (src/pdu/checks/validate-engagement.ts).
    if (status === CodecStatus.OK && (decoded instanceof FireRecord || decoded instanceof DetonationRecord)) {
      status = validateShot(decoded);
    } else if (
      status === CodecStatus.OK &&
      (decoded instanceof CollisionRecord || decoded instanceof CollisionElasticRecord)
    ) {
      status = validateCollision(decoded);
    }
    if (status !== CodecStatus.OK) {
      const type = bytes[offset + 2]!;
      const counts = (this.stats.otherDecodeErrors[type] ??= {});
      const name = CODEC_STATUS_NAMES[status]!;
      counts[name] = (counts[name] ?? 0) + 1;
      if (this.diagnostics.observed) {
        this.diagnose('decode', pduStatusMessage(status, type), source, datagramBytes, offset);
      }
      return;
    }
    const record = records.record!;
    const nowSeconds = this.scheduler.now() / 1000;
    const { engagements, control } = this.stats;
    if (record instanceof FireRecord) {
      engagements.fires++;
      if (this.events.observed) this.events.next(fireEvent(record, table, nowSeconds));
    } else if (record instanceof DetonationRecord) {
      engagements.detonations++;
      if (this.events.observed) this.events.next(detonationEvent(record, table, nowSeconds));
    } else if (record instanceof CollisionRecord || record instanceof CollisionElasticRecord) {
      engagements.collisions++;
      if (this.events.observed) this.events.next(collisionEvent(record, table, nowSeconds));
    } else if (record instanceof EntityManagementRecord && record.pduType === PduType.REMOVE_ENTITY) {
      control.removeEntityPdus++;
      this.removing = 'removeEntity';
      try {
        control.removedEntities += removeEntities(table, record, (key) => table.remove(key));
      } finally {
        this.removing = undefined;
      }
      this.stats.transport.entities = table.size;
    } else if (record instanceof StopFreezeRecord || record instanceof StartResumeRecord) {
      if (record instanceof StopFreezeRecord) control.stopFreezePdus++;
      else control.startResumePdus++;
      this.control.take(record, nowSeconds);
    }
  }

  private diagnose(
    reason: DiagnosticReason,
    message: string,
    source: DatagramSource,
    bytes: number,
    offset: number,
  ): void {
    const timeSeconds = this.scheduler.now() / 1000;
    const diagnostic: Diagnostic = { reason, message, source, bytes, offset, timeSeconds };
    this.diagnostics.next(diagnostic);
  }

  /**
   * The area of interest moved: the entities whose last PDU came on a subject the transport no longer takes leave
   * at once (`removed`, reason `areaMoved`) instead of timing out; those of the cells still covered are untouched.
   * PDUs of a dropped cell that arrive later are not handed over by the transport, so they cannot bring an entity
   * back (docs/nats.md, "Area of interest").
   */
  private readonly onAreaChange = (): void => {
    const table = this.table,
      nats = this.natsTransport,
      subjects = this.slotSubjects;
    if (!table || !nats || !subjects) return;
    const covered = new Map<string, boolean>();
    const leaving: number[] = [];
    for (let slot = 0; slot < table.highWater; slot++) {
      if (table.active[slot] !== 1) continue;
      const subject = subjects[slot]!;
      let takes = covered.get(subject);
      if (takes === undefined) covered.set(subject, (takes = nats.covers(subject)));
      if (!takes) leaving.push(table.key[slot]!);
    }
    this.removing = 'areaMoved';
    try {
      for (const key of leaving) table.remove(key);
    } finally {
      this.removing = undefined;
    }
    nats.natsStats.leftWithCell += leaving.length;
    this.stats.transport.entities = table.size;
  };

  private readonly onTableEvent = (kind: TableEvent, slot: number, key: number): void => {
    if (!this.table) return;
    if (this.slotSubjects && this.applyingSource && (kind === TableEvent.APPEARED || kind === TableEvent.UPDATED))
      this.slotSubjects[slot] = this.applyingSource.address;
    this.view?.onTableEvent(kind, slot, this.table);
    const departing = kind === TableEvent.TIMED_OUT || kind === TableEvent.REMOVED;
    if (!this.events.observed && !(departing && this.departures.observed)) return;
    const state = entityStateRecordToPdu(this.eventState(kind, slot));
    const event = entityEvent(kind, key, state, this.scheduler.now() / 1000, this.leaveReason(kind));
    this.events.next(event);
    if (departing) this.departures.next(event);
  };

  /** Why an entity leaves, for the events of a timeout or a removal; undefined for the others. */
  private leaveReason(kind: TableEvent): LeaveReason | undefined {
    if (kind === TableEvent.TIMED_OUT) return 'timeout';
    if (kind !== TableEvent.REMOVED) return undefined;
    if (this.removing !== undefined) return this.removing;
    if (this.applying === null) return 'application';
    return (this.applyingSource as NatsDatagramSource | null)?.leaveNotice === true ? 'leftArea' : 'deactivated';
  }

  /**
   * The state an event carries: the PDU that caused it — a full Entity State PDU as received (for `removed`, the
   * leave notice itself, whose appearance says Deactivated), an Entity State Update merged into the entity's last
   * full PDU — else (a timeout, a removal by the application) the last state the table holds.
   */
  private eventState(kind: TableEvent, slot: number): EntityStateRecord {
    const pdu = this.applying,
      table = this.table!;
    if (pdu === null) return entityStateFromSlot(this.slotRecord, table, slot);
    if (pdu.pduType === PduType.ENTITY_STATE) return pdu;
    // The table takes in an update before its event; a leave notice never enters it, so it is merged here.
    if (kind === TableEvent.REMOVED) return completeUpdateFromSlot(pdu, table, slot);
    return entityStateFromSlot(this.slotRecord, table, slot);
  }
}
