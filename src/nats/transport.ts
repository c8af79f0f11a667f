/**
 * DIS over NATS (docs/nats.md): a `DatagramTransport` whose datagrams are NATS messages. On send, each datagram is
 * split into its PDUs, each PDU is routed to its subject (H3 cell, kind and domain for Entity State; a per-exercise
 * subject for the rest) and the PDUs of one subject are bundled into one message, sent at the end of the tick.
 * When an entity's cell changes, a copy of its PDU also goes to the cell it left, marked with the header
 * `Reckon-Left-Cell: 1`; a receiver that takes the old cell but not the new one turns that copy into a leave
 * notice (appearance Deactivated), so the entity leaves its area at once instead of timing out.
 *
 * On receive, the transport subscribes to the cells that cover its area of interest (or to the whole exercise),
 * re-subscribes when the area changes, and counts disconnects, reconnects, the time spent disconnected and slow
 * consumer events. The NATS client reconnects by itself; nothing here throws on wire data.
 */
import {
  connect,
  credsAuthenticator,
  type Msg,
  type NatsConnection,
  type NodeConnectionOptions,
  type Subscription,
} from '@nats-io/transport-node';
import type { Observable, Subscription as RxSubscription } from 'rxjs';
import { APPEARANCE_DEACTIVATED } from '../dr/models/algorithm.js';
import { EntityStateOffset, EntityStateUpdateOffset, HeaderOffset, PduType } from '../pdu/wire/constants.js';
import {
  createTransportStats,
  type DatagramReceiver,
  type DatagramSource,
  type DatagramTransport,
  type TransportStats,
} from '../transport/transport.js';
import { TransportLifecycle } from '../transport/lifecycle.js';
import { cellsCoveringArea, type Area } from './area.js';
import { watchReader } from './reader-watch.js';
import { credentialsFromUrls, redactUrl } from './url-credentials.js';
import { GLOBAL_TOKEN, LEFT_CELL_HEADER, NEW_CELL_HEADER } from './subject-names.js';
import type { SubjectRouter } from './subjects.js';
import { BundleSender, BundlingRouter, HEADER_BYTES } from './bundle-sender.js';
import { explainConnectError, readNatsFile } from './connect-error.js';
import { createNatsStats, type NatsStats } from './stats.js';
import {
  natsOptionsFromConfig,
  type NatsReceiveOptions,
  type NatsSubjectOptions,
  type NatsTransportOptions,
} from './transport-options.js';
import type { NatsConfig } from '../config/schema.js';

/**
 * The source of a datagram from NATS: the subject it came on. `leaveNotice` marks a left-cell copy turned into a
 * leave notice (docs/nats.md, "Crossing a cell boundary"), so a receiver can tell that leave from a deactivation.
 */
export interface NatsDatagramSource extends DatagramSource {
  readonly family: 'nats';
  readonly leaveNotice?: true;
}

/** What changed when the area of interest moved (`NatsTransport.onAreaChange`). */
export interface NatsAreaChange {
  /** Subjects no longer subscribed to (cell subjects `PREFIX.EXERCISE.CELL.>`, or `PREFIX.EXERCISE.>`). */
  readonly dropped: readonly string[];
  /** Subjects newly subscribed to. */
  readonly added: readonly string[];
}

/** A `DatagramTransport` over NATS: each PDU on the subject of its H3 cell; open it with `openNatsTransport`. */
export class NatsTransport implements DatagramTransport {
  readonly stats: TransportStats;
  readonly natsStats: NatsStats = createNatsStats();
  /** The open connection (for JetStream, or publishing other data on it). */
  readonly connection: NatsConnection;
  private readonly router: SubjectRouter;
  private readonly sender: BundleSender;
  private readonly receiveOptions: NatsReceiveOptions | undefined;
  private receiver: DatagramReceiver | undefined;
  private readonly lifecycle = new TransportLifecycle();
  private readonly unwatchReader: () => void;
  /** Subscriptions by subject. */
  private readonly subscriptions = new Map<string, Subscription>();
  /** The ids of those subscriptions: a message for any other id is late, for a subscription already dropped. */
  private readonly liveSids = new Set<number>();
  private readonly areaListeners: Array<(change: NatsAreaChange) => void> = [];
  /** Cells subscribed to, or undefined when the whole exercise is. */
  private cellSet: Set<string> | undefined;
  private area: Area | undefined;
  private disconnectedAtMs: number | undefined;
  private leaveScratch = new Uint8Array(1024);
  private areaSubscription: RxSubscription | undefined;

  private constructor(connection: NatsConnection, options: NatsSubjectOptions) {
    this.connection = connection;
    this.stats = options.stats ?? createTransportStats();
    const router = new BundlingRouter(options.subjectPrefix ?? 'dis', options.h3Resolution ?? 5);
    this.router = router;
    this.sender = new BundleSender(connection, router, options.maxMessageBytes ?? 16384, this.stats, this.natsStats);
    this.receiveOptions = options.receive;
    void this.watchStatus();
    this.unwatchReader = watchReader(connection, (error) => void this.end(error));
    connection.closed().then(
      (error) =>
        void this.end(error instanceof Error ? new Error(`NATS connection closed: ${error.message}`) : undefined),
      (error: unknown) => void this.end(error instanceof Error ? error : new Error(String(error))),
    );
    if (options.receive) this.setArea(options.receive.area);
  }

  /**
   * A transport over a connection already open (and subscribes, with `receive`). The transport owns it from then
   * on: `close` drains it.
   */
  static over(connection: NatsConnection, options: NatsSubjectOptions = {}): NatsTransport {
    return new NatsTransport(connection, options);
  }

  /**
   * Connects to the servers (and subscribes, with `receive`).
   * @throws Error naming the servers (without credentials) and what to do, when no server can be reached or the
   *   credentials are refused.
   */
  static async open(options: NatsTransportOptions): Promise<NatsTransport> {
    if (options.servers.length === 0)
      throw new Error('no NATS server given: pass --nats nats://HOST:4222 (nats.servers)');
    // Credentials in a URL are used (the client ignores them); the settings, when given, take precedence.
    const inUrl = credentialsFromUrls(options.servers);
    const token = options.token ?? inUrl.token;
    const user = options.user ?? inUrl.user;
    const password = options.password ?? inUrl.password;
    const connectOptions: NodeConnectionOptions = {
      servers: inUrl.servers,
      name: options.name ?? 'reckon',
      reconnect: true,
      maxReconnectAttempts: -1,
      reconnectTimeWait: options.reconnectTimeWaitMs ?? 250,
      ...(options.connectTimeoutMs !== undefined ? { timeout: options.connectTimeoutMs } : {}),
      // A bridge both publishes and subscribes: it must not get its own messages back.
      noEcho: true,
      ...(token !== undefined ? { token } : {}),
      ...(user !== undefined ? { user } : {}),
      ...(password !== undefined ? { pass: password } : {}),
    };
    // Read here, as every input file is (a regular file within a bound, without blocking), not by the client.
    if (options.credsFile !== undefined) {
      const creds = await readNatsFile(options.credsFile, 'NATS credentials file', 'nats.credsFile', '--nats-creds');
      connectOptions.authenticator = credsAuthenticator(creds);
    }
    const tls: { ca?: string; cert?: string; key?: string } = {};
    for (const [file, what, field, setting, flag] of [
      [options.tlsCa, 'NATS CA certificate file', 'ca', 'nats.tlsCa', '--nats-tls-ca'],
      [options.tlsCert, 'NATS certificate file', 'cert', 'nats.tlsCert', '--nats-tls-cert'],
      [options.tlsKey, 'NATS key file', 'key', 'nats.tlsKey', '--nats-tls-key'],
    ] as const) {
      if (file !== undefined) tls[field] = (await readNatsFile(file, what, setting, flag)).toString('utf8');
    }
    if (Object.keys(tls).length > 0) connectOptions.tls = tls;
    let connection: NatsConnection;
    try {
      connection = await connect(connectOptions);
    } catch (error) {
      const tls = connectOptions.tls !== undefined || options.servers.some((url) => /^tls:/i.test(url));
      throw explainConnectError(error, options.servers, tls);
    }
    try {
      return new NatsTransport(connection, options);
    } catch (error) {
      // The area could not be subscribed to (too many cells): nothing may stay open.
      await connection.close().catch(() => {});
      throw error;
    }
  }

  /** The server this client is connected to, without credentials. */
  get server(): string {
    return redactUrl(this.connection.getServer());
  }

  /** Where the transport is connected: the server URL (without credentials) and its port, as `listening$` says. */
  get local(): { readonly address: string; readonly port: number; readonly family: string } {
    const server = this.server;
    const port = Number(/:(\d+)\/?$/.exec(server)?.[1] ?? 4222);
    return { address: server, port, family: 'nats' };
  }

  /**
   * Resolves when the server has taken every subscription asked for so far (a round trip to it); rejects with the
   * failure when the transport closes first (a reader that died never sees the answer).
   */
  settled(): Promise<void> {
    if (this.lifecycle.ended) return Promise.reject(this.failure ?? new Error('the NATS connection is closed'));
    return new Promise<void>((resolve, reject) => {
      const onClose = (error?: Error) => reject(error ?? new Error('the NATS connection is closed'));
      this.lifecycle.onClose(onClose);
      const done = () => this.lifecycle.offClose(onClose);
      this.connection.flush().then(
        () => {
          done();
          resolve();
        },
        (error: unknown) => {
          done();
          reject(error);
        },
      );
    });
  }

  /** The cells subscribed to (sorted), or undefined when the whole exercise is. */
  get cells(): readonly string[] | undefined {
    return this.cellSet ? [...this.cellSet].sort() : undefined;
  }

  /** The subject prefix and resolution in use. */
  get subjects(): { readonly prefix: string; readonly resolution: number } {
    return { prefix: this.router.prefix, resolution: this.router.resolution };
  }

  private async watchStatus(): Promise<void> {
    try {
      for await (const status of this.connection.status()) {
        switch (status.type) {
          case 'disconnect':
            this.natsStats.disconnects++;
            this.disconnectedAtMs ??= Date.now();
            break;
          case 'reconnect':
            this.natsStats.reconnects++;
            if (this.disconnectedAtMs !== undefined)
              this.natsStats.gapSeconds += (Date.now() - this.disconnectedAtMs) / 1000;
            this.disconnectedAtMs = undefined;
            break;
          case 'slowConsumer':
            this.natsStats.slowConsumers++;
            break;
          case 'error':
            this.natsStats.serverErrors++;
            break;
          default:
            break;
        }
      }
    } catch {
      // The status stream ends with the connection; its end is reported by `closed()`.
    }
  }

  /**
   * Subscribes to the cells covering `area` (the whole exercise when undefined), keeping the subscriptions that
   * stay and dropping the others. Synchronous: the new subjects are asked for before it returns.
   * @throws RangeError for an area that needs too many cells; Error when the transport only sends.
   */
  setArea(area: Area | undefined): void {
    const receive = this.receiveOptions;
    if (!receive) throw new Error('this NATS transport only sends: open it with `receive` to subscribe');
    if (this.lifecycle.ended) return;
    const prefix = `${this.router.prefix}.${receive.exercise}`;
    const wanted = new Set<string>();
    let cells: Set<string> | undefined;
    if (area === undefined) {
      wanted.add(`${prefix}.>`);
    } else {
      cells = new Set(cellsCoveringArea(area, this.router.resolution));
      for (const cell of cells) wanted.add(`${prefix}.${cell}.>`);
      if (receive.global) wanted.add(`${prefix}.${GLOBAL_TOKEN}.>`);
    }
    const dropped: string[] = [];
    const added: string[] = [];
    for (const [subject, subscription] of this.subscriptions) {
      if (wanted.has(subject)) continue;
      // Synchronous: from here on no message of this subscription reaches the receiver, even one the server sent
      // before it saw the UNSUB (docs/nats.md, "Area of interest").
      subscription.unsubscribe();
      this.liveSids.delete(subscription.getID());
      this.subscriptions.delete(subject);
      dropped.push(subject);
    }
    for (const subject of wanted) {
      if (this.subscriptions.has(subject)) continue;
      const subscription = this.connection.subscribe(subject, {
        callback: this.onMessage,
        ...(receive.queue !== undefined ? { queue: receive.queue } : {}),
      });
      this.subscriptions.set(subject, subscription);
      this.liveSids.add(subscription.getID());
      added.push(subject);
    }
    this.area = area;
    this.cellSet = cells;
    this.natsStats.subscriptions = this.subscriptions.size;
    const notCells = [`${prefix}.>`, `${prefix}.${GLOBAL_TOKEN}.>`];
    this.natsStats.cellsDropped += dropped.filter((subject) => !notCells.includes(subject)).length;
    if (dropped.length === 0) return;
    const change: NatsAreaChange = { dropped, added };
    for (const listener of [...this.areaListeners]) listener(change);
  }

  /**
   * Whether the subscriptions take `subject`: the whole exercise, a cell of the area, or (with `receive.global`)
   * the per-exercise subject of the other PDU types.
   */
  covers(subject: string): boolean {
    const receive = this.receiveOptions;
    if (!receive || this.lifecycle.ended) return false;
    const prefix = `${this.router.prefix}.${receive.exercise}.`;
    if (!subject.startsWith(prefix)) return false;
    const cells = this.cellSet;
    if (cells === undefined) return true;
    const end = subject.indexOf('.', prefix.length);
    const token = subject.slice(prefix.length, end < 0 ? undefined : end);
    return token === GLOBAL_TOKEN ? receive.global === true : cells.has(token);
  }

  /**
   * Calls `listener` synchronously each time a change of area drops subscriptions, after the new ones are asked
   * for: the entities of the dropped subjects get no more PDUs here, so a holder of an entity table removes them
   * at once (`createSubscriber` does, docs/nats.md). @returns a function that stops the calls.
   */
  onAreaChange(listener: (change: NatsAreaChange) => void): () => void {
    this.areaListeners.push(listener);
    return () => {
      const at = this.areaListeners.indexOf(listener);
      if (at >= 0) this.areaListeners.splice(at, 1);
    };
  }

  /** The area subscribed to, or undefined for the whole exercise. */
  get currentArea(): Area | undefined {
    return this.area;
  }

  /**
   * Follows a moving area of interest: re-subscribes on each area `areas$` gives (undefined = the whole exercise).
   * An area the transport cannot take (too many cells) is skipped and reported to `onError`.
   * @returns the subscription; unsubscribing stops following (the last area stays).
   */
  followArea(areas$: Observable<Area | undefined>, onError: (error: unknown) => void = () => {}): RxSubscription {
    this.areaSubscription?.unsubscribe();
    this.areaSubscription = areas$.subscribe({
      next: (area) => {
        try {
          this.setArea(area);
        } catch (error) {
          onError(error);
        }
      },
      error: onError,
    });
    return this.areaSubscription;
  }

  private readonly onMessage = (error: Error | null, message: Msg): void => {
    if (error) {
      this.natsStats.serverErrors++;
      return;
    }
    // A message of a subscription already dropped (sent before the server saw the UNSUB) must not bring an entity
    // of a dropped cell back: the client (nats.js 3) hands none over; this check keeps it so whatever the client.
    if (!this.liveSids.has(message.sid)) return;
    const data = message.data;
    this.natsStats.messagesIn++;
    this.stats.datagramsIn++;
    this.stats.bytesIn += data.length;
    const receiver = this.receiver;
    if (!receiver) return;
    const left = message.headers?.get(LEFT_CELL_HEADER);
    if (left !== undefined && left !== '') {
      // Receivers of both cells get the entity's PDU in its new cell: only the others see it leave.
      const newCell = message.headers!.get(NEW_CELL_HEADER);
      if (this.cellSet === undefined || this.cellSet.has(newCell)) {
        this.natsStats.leftCellIgnored++;
        return;
      }
      const notice = this.leaveNotice(data);
      if (notice === undefined) return;
      this.natsStats.leftArea++;
      const source: NatsDatagramSource = { address: message.subject, port: 0, family: 'nats', leaveNotice: true };
      receiver(notice, source);
      return;
    }
    const source: NatsDatagramSource = { address: message.subject, port: 0, family: 'nats' };
    receiver(data, source);
  };

  /** A copy of the Entity State (Update) PDU in `data` with its appearance marked Deactivated (IEEE 1278.1 §6.2.26). */
  private leaveNotice(data: Uint8Array): Uint8Array | undefined {
    if (data.length < HEADER_BYTES) return undefined;
    const type = data[HeaderOffset.PDU_TYPE];
    const at =
      type === PduType.ENTITY_STATE
        ? EntityStateOffset.APPEARANCE
        : type === PduType.ENTITY_STATE_UPDATE
          ? EntityStateUpdateOffset.APPEARANCE
          : -1;
    if (at < 0 || data.length < at + 4) return undefined;
    if (this.leaveScratch.length < data.length) this.leaveScratch = new Uint8Array(data.length);
    const copy = this.leaveScratch.subarray(0, data.length);
    copy.set(data);
    // Appearance is a big-endian 32-bit record; Deactivated is bit 23, in its second byte.
    copy[at + 1] = copy[at + 1]! | ((APPEARANCE_DEACTIVATED >>> 16) & 0xff);
    return copy;
  }

  send(datagram: Uint8Array, length = datagram.length): void {
    if (this.lifecycle.ended) {
      this.sender.failed('the transport is closed');
      return;
    }
    this.sender.send(datagram, length);
  }

  /** Publishes what waits in the bundles, then the left-cell copies. Called at the end of each tick. */
  readonly flush = (): void => this.sender.flush();

  onDatagram(receiver: DatagramReceiver | undefined): void {
    this.receiver = receiver;
  }

  onClose(listener: (error?: Error) => void): void {
    this.lifecycle.onClose(listener);
  }

  /** The failure that ended the transport, if one did. */
  get failure(): Error | undefined {
    return this.lifecycle.failure;
  }

  /** Publishes what waits, lets the client write it out (drain), and closes the connection. Idempotent. */
  close(): Promise<void> {
    if (!this.lifecycle.ended) this.flush();
    return this.end(undefined, true);
  }

  private end(error: Error | undefined, drain = false): Promise<void> {
    return this.lifecycle.end(error, () => {
      this.receiver = undefined;
      this.unwatchReader();
      this.areaSubscription?.unsubscribe();
      return this.release(drain);
    });
  }

  private async release(drain: boolean): Promise<void> {
    const connection = this.connection;
    if (connection.isClosed()) return;
    try {
      if (drain) await connection.drain();
      else await connection.close();
    } catch {
      // Already closing or closed: nothing more to release.
    }
  }
}

/**
 * Opens a NATS transport for a configuration. With `receive`, it subscribes to the configured area (`nats.area`)
 * or the whole exercise.
 */
export function openNatsTransport(
  nats: NatsConfig,
  receive?: NatsReceiveOptions,
  stats?: TransportStats,
): Promise<NatsTransport> {
  return NatsTransport.open({ ...natsOptionsFromConfig(nats, receive), ...(stats ? { stats } : {}) });
}
