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
  headers as natsHeaders,
  type Msg,
  type MsgHdrs,
  type NatsConnection,
  type NodeConnectionOptions,
  type Subscription,
} from '@nats-io/transport-node';
import type { Observable, Subscription as RxSubscription } from 'rxjs';
import type { NatsConfig } from '../config/schema.js';
import { InputFileError, readInputFile } from '../files/input-file.js';
import { APPEARANCE_DEACTIVATED } from '../dr/algorithm.js';
import { EntityStateOffset, EntityStateUpdateOffset, HeaderOffset, PduType } from '../pdu/constants.js';
import {
  createTransportStats,
  type DatagramReceiver,
  type DatagramSource,
  type DatagramTransport,
  type TransportStats,
} from '../transport/transport.js';
import { areaFromConfig, cellsCoveringArea, type Area } from './area.js';
import { watchReader } from './reader-watch.js';
import { credentialsFromUrls, redactUrl } from './url-credentials.js';
import { SLOT_STATE_INTS, createRoute, type SubjectSlot } from './route.js';
import { GLOBAL_TOKEN, LEFT_CELL_HEADER, NEW_CELL_HEADER } from './subject-names.js';
import { SubjectRouter } from './subjects.js';
import type { NatsStats } from './stats.js';

export type { NatsStats } from './stats.js';

/** Zeroed counters for a `NatsTransport`. */
export function createNatsStats(): NatsStats {
  return {
    messagesOut: 0,
    messagesIn: 0,
    leftCellCopiesOut: 0,
    leftArea: 0,
    leftCellIgnored: 0,
    unroutable: 0,
    disconnects: 0,
    reconnects: 0,
    gapSeconds: 0,
    slowConsumers: 0,
    serverErrors: 0,
    subscriptions: 0,
    cellsDropped: 0,
    leftWithCell: 0,
  };
}

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

/** What a transport subscribes to. */
export interface NatsReceiveOptions {
  /** Exercise whose subjects are taken. */
  readonly exercise: number;
  /** Only the cells covering this area. Defaults to the whole exercise. */
  readonly area?: Area;
  /** Also take the per-exercise subject of the other PDU types (`PREFIX.EXERCISE.all.>`). Defaults to false. */
  readonly global?: boolean;
  /** Share the messages with the other members of this NATS queue group (one of them gets each). Defaults to none. */
  readonly queue?: string;
}

/** Options of `openNatsTransport`. */
export interface NatsTransportOptions {
  /** NATS server URLs (one cluster). */
  readonly servers: readonly string[];
  readonly token?: string;
  readonly user?: string;
  readonly password?: string;
  /** Credentials file (JWT + NKey seed). */
  readonly credsFile?: string;
  readonly tlsCa?: string;
  readonly tlsCert?: string;
  readonly tlsKey?: string;
  /** First subject tokens. Defaults to `dis`. */
  readonly subjectPrefix?: string;
  /** H3 resolution of the cells. Defaults to 5. */
  readonly h3Resolution?: number;
  /** Most bytes of PDUs per message. Defaults to 16384. */
  readonly maxMessageBytes?: number;
  /** Subscribe as described; leave out for a transport that only sends. */
  readonly receive?: NatsReceiveOptions;
  /** Client name the server shows (`nats server report connections`). Defaults to `reckon`. */
  readonly name?: string;
  /** Counters to update. Defaults to new ones. */
  readonly stats?: TransportStats;
  /** Wait for each reconnect attempt this long, ms. Defaults to 250. */
  readonly reconnectTimeWaitMs?: number;
  /** Give up the first connection after this long without the server's answer, ms. Defaults to 20000 (the client's). */
  readonly connectTimeoutMs?: number;
}

/** The options of a transport that do not concern connecting. */
export type NatsSubjectOptions = Pick<
  NatsTransportOptions,
  'subjectPrefix' | 'h3Resolution' | 'maxMessageBytes' | 'receive' | 'stats'
>;

/** Transport options for the `nats` section of a configuration. */
export function natsOptionsFromConfig(nats: NatsConfig, receive?: NatsReceiveOptions): NatsTransportOptions {
  const optional = <K extends keyof NatsConfig>(key: K) => (nats[key] === undefined ? {} : { [key]: nats[key] });
  return {
    servers: nats.servers,
    ...optional('token'),
    ...optional('user'),
    ...optional('password'),
    ...optional('credsFile'),
    ...optional('tlsCa'),
    ...optional('tlsCert'),
    ...optional('tlsKey'),
    connectTimeoutMs: nats.connectTimeout * 1000,
    subjectPrefix: nats.subjectPrefix,
    h3Resolution: nats.h3Resolution,
    maxMessageBytes: nats.maxMessageBytes,
    ...(receive
      ? {
          receive: {
            ...receive,
            ...(nats.area !== undefined && !receive.area ? { area: areaFromConfig(nats.area) } : {}),
          },
        }
      : {}),
  };
}

/**
 * A subject's bundle, the PDUs waiting to be published together to it, in its slot's state
 * (`SubjectRouter.slotState`): while `BUNDLE_TICK` is the transport's tick, they are the transport's message
 * `BUNDLE_MESSAGE` of this tick (`NatsTransport.messageBytes`…); `BUNDLE_LAST_BYTES` is the bytes of the subject's
 * message so far, or of its last: the room reserved for its next one.
 */
const BUNDLE_TICK = 0,
  BUNDLE_MESSAGE = 1,
  BUNDLE_LAST_BYTES = 2;
/** The last tick before they start again from 1 (`NatsTransport.nextTick`). */
const MAX_TICK = 0x7fffffff;

/** A subject's slot (made by `BundlingRouter`). */
interface Bundle extends SubjectSlot {
  /**
   * The publish options of a left-cell copy whose entity is now in this slot's cell (`leftCopyOptions`), made at
   * the first such copy. The client encodes the headers when it is called and never changes them, so one object
   * serves every copy: making and filling a header object is the dearest step of a copy.
   */
  leftCopyOptions: { headers: MsgHdrs } | undefined;
  /** The subjects of the left-cell copies of this slot's entities, by the cell left (made at the first one). */
  leftSubjects: Map<string, string> | undefined;
}

/** A router whose subject slots are bundles. */
class BundlingRouter extends SubjectRouter {
  protected override newSlot(subject: string, cell: string | undefined): Bundle {
    return { subject, cell, leftCopyOptions: undefined, leftSubjects: undefined };
  }
}

/** A copy bound for the cell its entity left. */
interface LeftCopy {
  subject: string;
  options: { headers: MsgHdrs };
  /** Where its bytes lie: the chunk (its place in the tick's chunks), start and length. */
  chunk: number;
  start: number;
  length: number;
}

/** Left-cell subjects a bundle keeps at most (`Bundle.leftSubjects`): a cell has six neighbours. */
const MAX_LEFT_SUBJECTS = 16;

/** Publish options of a copy sent to the cell its entity left for `newCell` (docs/nats.md). */
function leftCopyOptions(newCell: string): { headers: MsgHdrs } {
  const headers = natsHeaders();
  headers.set(LEFT_CELL_HEADER, '1');
  headers.set(NEW_CELL_HEADER, newCell);
  return { headers };
}

const HEADER_BYTES = 12;
/** First length of the per-message lists of a tick; they grow as a tick needs. */
const FIRST_MESSAGES = 1024;
/**
 * Size of the buffers PDUs are copied into. The client holds each payload until it writes it out, so a buffer
 * whose bytes were handed out is not written over until the server has answered a flush (PING) sent after them:
 * the client writes in order, so by then it has written them out. Below the size the C library serves from its
 * heap rather than from fresh pages of the system, which would fault on first touch.
 */
const CHUNK_BYTES = 64 * 1024;
/**
 * Full chunks are reused in groups of this many: one flush (a round trip to the server) per 512 KiB of PDUs.
 * Reusing them spares the allocation of a chunk, its first touch and the work of collecting it.
 */
const CHUNKS_PER_FLUSH = 8;
/**
 * Chunks kept for reuse at most (32 MiB), enough for a burst of 100 000 Entity State PDUs, which frees none of its
 * chunks before it ends; beyond, full ones are left to the garbage collector (docs/nats.md, "Cost per PDU").
 */
const MAX_FREE_CHUNKS = 512;

/** A chunk of `size` bytes, not zeroed (every byte published is written first), as a plain Uint8Array. */
function newChunk(size: number): Uint8Array {
  return new Uint8Array(Buffer.allocUnsafeSlow(size).buffer, 0, size);
}

/**
 * Copies `length` bytes from `source[from…]` to `target[to…]` (`target` starts its ArrayBuffer). Four bytes at a
 * time through Int32Array views of the whole buffers when both ends are 4-aligned (a quarter of the steps of a
 * byte loop, and unlike `set(subarray(…))` no view is made per copy), else byte by byte.
 * @param source32 - an Int32Array over the start of `source.buffer`.
 */
function copyBytes(
  source: Uint8Array,
  source32: Int32Array<ArrayBufferLike>,
  from: number,
  target: Uint8Array,
  target32: Int32Array<ArrayBufferLike>,
  to: number,
  length: number,
): void {
  let k = 0;
  const absolute = source.byteOffset + from;
  if (((absolute | to) & 3) === 0 && absolute + length <= source32.length * 4) {
    const words = length >> 2,
      s = absolute >> 2,
      t = to >> 2;
    let w = 0;
    // Four words a step: fewer loop checks per PDU (docs/benchmarks.md).
    for (; w + 4 <= words; w += 4) {
      target32[t + w] = source32[s + w]!;
      target32[t + w + 1] = source32[s + w + 1]!;
      target32[t + w + 2] = source32[s + w + 2]!;
      target32[t + w + 3] = source32[s + w + 3]!;
    }
    for (; w < words; w++) target32[t + w] = source32[s + w]!;
    k = words << 2;
  }
  for (; k < length; k++) target[to + k] = source[from + k]!;
}

/** Largest NATS credentials or TLS (PEM) file read, bytes. */
const MAX_NATS_FILE_BYTES = 1 << 20;

/** A credentials or PEM file, read by the input-file rule; @throws Error naming the file, the problem and the setting. */
async function readNatsFile(path: string, what: string, setting: string, flag: string): Promise<Buffer> {
  try {
    return await readInputFile(path, what, MAX_NATS_FILE_BYTES);
  } catch (error) {
    if (!(error instanceof InputFileError)) throw error;
    throw new Error(`${error.message}; check ${setting} (${flag})`);
  }
}

/** The explanation of a failed connect, without the credentials. */
function explainConnectError(error: unknown, servers: readonly string[], tls: boolean): Error {
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: string }).code ?? '';
  const where = servers.map(redactUrl).join(', ');
  const name = error instanceof Error ? error.name : '';
  let hint: string;
  if (/authoriz|authenticat/i.test(`${name} ${message} ${code}`)) {
    hint =
      'the server refused the credentials: check nats.token, nats.user/nats.password or nats.credsFile ' +
      '(--nats-token, --nats-user, --nats-password, --nats-creds or RECKON_NATS_*)';
  } else if (/ECONNREFUSED|connection refused/i.test(`${message} ${code}`)) {
    hint = 'nothing listens there: start nats-server, or check the URL given to --nats (nats.servers)';
  } else if (/ENOTFOUND|EAI_AGAIN/i.test(`${message} ${code}`)) {
    hint = 'no such host: check the URL given to --nats (nats.servers)';
  } else if (/unable to parse credentials/i.test(message)) {
    hint =
      'the credentials file is not a NATS creds file (a user JWT and its NKey seed, as `nsc generate creds` writes ' +
      'it): check nats.credsFile (--nats-creds)';
  } else if (/does not support 'tls'|tls.*not available/i.test(message)) {
    hint = 'the server does not speak TLS: leave out nats.tlsCa/tlsCert/tlsKey (--nats-tls-*), or enable TLS on it';
  } else if (/certificate|self.signed|verify|altnames|hostname/i.test(`${message} ${code}`)) {
    hint =
      "TLS failed: the server's certificate is not signed by a CA this client trusts, or is not for this host: " +
      'give the CA that signed it with nats.tlsCa (--nats-tls-ca), and connect by a name or address it is made for';
  } else if (/tls|ssl/i.test(`${message} ${code}`)) {
    hint =
      'TLS failed: check nats.tlsCa, nats.tlsCert and nats.tlsKey (--nats-tls-ca, --nats-tls-cert, --nats-tls-key)';
  } else if (tls && /timeout/i.test(`${name} ${message}`)) {
    // A server that asks for a client certificate (tls verify) drops a connection without one after the TLS
    // handshake, which the client sees only as no answer.
    hint =
      'no answer after the TLS handshake: a server that asks for a client certificate drops connections without ' +
      'one, so give nats.tlsCert and nats.tlsKey (--nats-tls-cert, --nats-tls-key); else check that it is running';
  } else if (/timeout/i.test(`${name} ${message}`)) {
    // A server over its connection limits sends an error and closes; the client tries again until its timeout.
    hint =
      'no answer: check --nats (nats.servers) and that the servers are running; a server over its connection ' +
      "limits (max_connections, or the account's) drops new connections the same way, and says so in its log";
  } else {
    hint = 'check --nats (nats.servers) and that the servers are running';
  }
  // The client's message may quote the URL as given: hide any user info in it.
  const clean = servers.reduce((text, url) => text.split(url).join(redactUrl(url)), message);
  return new Error(`connecting to NATS at ${where} failed: ${clean} — ${hint}`, { cause: error });
}

/** A `DatagramTransport` over NATS: each PDU on the subject of its H3 cell; open it with `openNatsTransport`. */
export class NatsTransport implements DatagramTransport {
  readonly stats: TransportStats;
  readonly natsStats: NatsStats = createNatsStats();
  /** The open connection (for JetStream, or publishing other data on it). */
  readonly connection: NatsConnection;
  private readonly router: SubjectRouter;
  private readonly maxMessageBytes: number;
  private readonly receiveOptions: NatsReceiveOptions | undefined;
  private receiver: DatagramReceiver | undefined;
  private readonly closeListeners: Array<(error?: Error) => void> = [];
  private readonly unwatchReader: () => void;
  private closing: Promise<void> | undefined;
  failure: Error | undefined;
  /**
   * Where PDUs are copied as they are sent (the caller may reuse its buffer once `send` returns), each into the room
   * its bundle reserved: `chunk[chunkUsed…]` is free; the bytes before may be payloads the client holds.
   */
  private chunk = newChunk(CHUNK_BYTES);
  /** Full chunks not yet flushed, and chunks free again (`CHUNKS_PER_FLUSH`). */
  private readonly fullChunks: Uint8Array[] = [];
  private readonly freeChunks: Uint8Array[] = [];
  private readonly freeChunks32: Int32Array[] = [];
  private chunk32 = new Int32Array(this.chunk.buffer, 0, CHUNK_BYTES >> 2);
  private chunkUsed = 0;
  /**
   * The chunks PDUs of this tick were copied into (the current one last), an Int32Array over each (`copyBytes`)
   * and the buffer of each (a message's payload is a view of it, `publishMessage`). A message names its chunk by
   * its place here.
   */
  private readonly tickChunks: Uint8Array[] = [this.chunk];
  private readonly tickChunks32: Int32Array[] = [this.chunk32];
  private readonly tickBuffers: ArrayBufferLike[] = [this.chunk.buffer];
  /**
   * The caller's last buffer, and an Int32Array over it for `copyBytes` (made again when the buffer changes; asked
   * once per datagram: reading `.buffer` of a typed array is a call).
   */
  private sourceBuffer: ArrayBufferLike | undefined;
  private source32: Int32Array<ArrayBufferLike> = new Int32Array(0);
  /**
   * The messages of this tick, one per subject in the order of its first PDU: subject, chunk, start, bytes and room
   * reserved (its PDUs lie next to each other at `start`). Lists rather than fields of the bundles, so publishing
   * them reads memory in order.
   */
  private tick = 1;
  private messageCount = 0;
  private readonly messageSubjects: string[] = [];
  private messageChunk = new Int32Array(FIRST_MESSAGES);
  private messageStart = new Int32Array(FIRST_MESSAGES);
  private messageBytes = new Int32Array(FIRST_MESSAGES);
  private messageRoom = new Int32Array(FIRST_MESSAGES);
  private readonly leftCopies: LeftCopy[] = [];
  private flushQueued = false;
  private readonly route = createRoute();
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
    this.router = new BundlingRouter(options.subjectPrefix ?? 'dis', options.h3Resolution ?? 5);
    this.maxMessageBytes = options.maxMessageBytes ?? 16384;
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
    if (this.closing) return Promise.reject(this.failure ?? new Error('the NATS connection is closed'));
    return new Promise<void>((resolve, reject) => {
      const onClose = (error?: Error) => reject(error ?? new Error('the NATS connection is closed'));
      this.closeListeners.push(onClose);
      const done = () => {
        const at = this.closeListeners.indexOf(onClose);
        if (at >= 0) this.closeListeners.splice(at, 1);
      };
      this.connection.flush().then(
        () => (done(), resolve()),
        (error: unknown) => (done(), reject(error)),
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
    if (this.closing) return;
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
    if (!receive || this.closing) return false;
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
    if (this.closing) {
      this.sendFailed('the transport is closed');
      return;
    }
    const route = this.route;
    if (datagram.buffer !== this.sourceBuffer) {
      this.sourceBuffer = datagram.buffer;
      this.source32 = new Int32Array(datagram.buffer, 0, datagram.buffer.byteLength >> 2);
    }
    let offset = 0;
    while (offset < length) {
      const remaining = length - offset;
      const pduLength = remaining >= HEADER_BYTES ? (datagram[offset + 8]! << 8) | datagram[offset + 9]! : 0;
      if (pduLength < HEADER_BYTES || pduLength > remaining) {
        // Not a whole PDU (the caller's bug, not wire data): counted, and the rest of the datagram is not sent.
        this.stats.sendErrors++;
        this.stats.sendFailure ??= 'a datagram to send holds a PDU whose Length field does not fit the datagram';
        return;
      }
      const slot = this.router.routeSlot(datagram, offset, pduLength, route);
      if (route.cell === undefined) {
        const type = datagram[offset + HeaderOffset.PDU_TYPE];
        if (type === PduType.ENTITY_STATE || type === PduType.ENTITY_STATE_UPDATE) this.natsStats.unroutable++;
      } else if (route.leftCell !== undefined) {
        this.queueLeftCopy(datagram, offset, pduLength, slot, route.cell, route.leftCell);
      }
      this.stage(slot, datagram, offset, pduLength);
      offset += pduLength;
    }
    if (!this.flushQueued) {
      this.flushQueued = true;
      queueMicrotask(this.flush);
    }
  }

  /** Queues a copy of the PDU for the cell its entity left (sent after the bundles, docs/nats.md). */
  private queueLeftCopy(
    bytes: Uint8Array,
    offset: number,
    length: number,
    slot: number,
    cell: string,
    leftCell: string,
  ): void {
    // The router is a BundlingRouter: its slots are bundles.
    const bundle = this.router.slot(slot) as Bundle;
    const subjects = (bundle.leftSubjects ??= new Map());
    let oldSubject = subjects.get(leftCell);
    if (oldSubject === undefined) {
      // The old cell's subject differs from the new one only in its CELL token.
      const subject = bundle.subject;
      const prefixEnd = this.router.prefix.length + 1;
      const exerciseEnd = subject.indexOf('.', prefixEnd);
      const rest = subject.slice(exerciseEnd + 1 + cell.length);
      oldSubject = `${subject.slice(0, exerciseEnd + 1)}${leftCell}${rest}`;
      if (subjects.size >= MAX_LEFT_SUBJECTS) subjects.clear();
      subjects.set(leftCell, oldSubject);
    }
    // Copied into the chunk as the bundles' PDUs (`send` made `source32` for this datagram's buffer).
    const start = this.reserve(length);
    copyBytes(bytes, this.source32, offset, this.chunk, this.chunk32, start, length);
    bundle.leftCopyOptions ??= leftCopyOptions(cell);
    this.leftCopies.push({
      subject: oldSubject,
      options: bundle.leftCopyOptions,
      chunk: this.tickChunks.length - 1,
      start,
      length,
    });
  }

  /**
   * Copies a PDU to the end of its subject's message. A message's first PDU reserves room for as many bytes as the
   * subject's last message had (mostly the same number of PDUs each tick); a message that outgrows its room moves
   * to room twice as large.
   */
  private stage(slot: number, bytes: Uint8Array, offset: number, length: number): void {
    const state = this.router.slotState,
      k = slot * SLOT_STATE_INTS;
    let m = state[k + BUNDLE_MESSAGE]!,
      used = 0;
    if (state[k + BUNDLE_TICK] !== this.tick) {
      m = this.messageCount++;
      if (m === this.messageStart.length) this.growMessages();
      state[k + BUNDLE_TICK] = this.tick;
      state[k + BUNDLE_MESSAGE] = m;
      this.messageSubjects[m] = this.router.subjectOf(slot);
      this.messageBytes[m] = 0;
      this.messageRoom[m] = 0;
    } else {
      used = this.messageBytes[m]!;
      // A full message goes out now; the subject's next PDUs start another in its place.
      if (used > 0 && used + length > this.maxMessageBytes) {
        this.publishMessage(m);
        used = 0;
      }
    }
    let chunk: number, start: number;
    if (used + length > this.messageRoom[m]!) {
      const room = used === 0 ? Math.max(length, state[k + BUNDLE_LAST_BYTES]!) : Math.max(used + length, 2 * used);
      start = this.reserve(room);
      chunk = this.tickChunks.length - 1;
      if (used > 0) {
        const from = this.messageChunk[m]!;
        copyBytes(
          this.tickChunks[from]!,
          this.tickChunks32[from]!,
          this.messageStart[m]!,
          this.chunk,
          this.chunk32,
          start,
          used,
        );
      }
      this.messageChunk[m] = chunk;
      this.messageStart[m] = start;
      this.messageRoom[m] = room;
    } else {
      chunk = this.messageChunk[m]!;
      start = this.messageStart[m]!;
    }
    // `send` made `source32` for this datagram's buffer.
    copyBytes(bytes, this.source32, offset, this.tickChunks[chunk]!, this.tickChunks32[chunk]!, start + used, length);
    this.messageBytes[m] = used + length;
    state[k + BUNDLE_LAST_BYTES] = used + length;
  }

  /**
   * Starts the next tick. Ticks are 32-bit integers in the slots' state: at the last one, every bundle's tick is
   * cleared and they start again from 1 (a slot made since is at 0, so not in any tick).
   */
  private nextTick(): void {
    if (this.tick < MAX_TICK) {
      this.tick++;
      return;
    }
    this.tick = 1;
    const state = this.router.slotState;
    for (let k = 0; k < state.length; k += SLOT_STATE_INTS) state[k + BUNDLE_TICK] = 0;
  }

  private growMessages(): void {
    const size = this.messageStart.length * 2;
    const grow = (from: Int32Array) => {
      const to = new Int32Array(size);
      to.set(from);
      return to;
    };
    this.messageChunk = grow(this.messageChunk);
    this.messageStart = grow(this.messageStart);
    this.messageBytes = grow(this.messageBytes);
    this.messageRoom = grow(this.messageRoom);
  }

  /** Where in the chunk `length` bytes go (4-aligned, for `copyBytes`); takes a new chunk when it is full. */
  private reserve(length: number): number {
    const at = (this.chunkUsed + 3) & ~3;
    if (at + length <= this.chunk.length) {
      this.chunkUsed = at + length;
      return at;
    }
    const size = Math.max(CHUNK_BYTES, (length + 3) & ~3);
    const free = size === CHUNK_BYTES ? this.freeChunks.pop() : undefined;
    if (free !== undefined) {
      this.chunk = free;
      this.chunk32 = this.freeChunks32.pop()!;
    } else {
      this.chunk = newChunk(size);
      this.chunk32 = new Int32Array(this.chunk.buffer, 0, size >> 2);
    }
    this.tickChunks.push(this.chunk);
    this.tickChunks32.push(this.chunk32);
    this.tickBuffers.push(this.chunk.buffer);
    this.chunkUsed = length;
    return 0;
  }

  /**
   * Keeps a full chunk, all of whose payloads the client has been handed, for reuse: each `CHUNKS_PER_FLUSH` of
   * them are free again once the server has answered a flush asked after that (the client writes in order, so it
   * has written them out). A flush that fails (the connection closed) leaves them to the garbage collector.
   */
  private retire(chunk: Uint8Array): void {
    const full = this.fullChunks;
    full.push(chunk);
    if (full.length < CHUNKS_PER_FLUSH) return;
    const group = full.splice(0);
    let flushed: Promise<void>;
    try {
      flushed = this.connection.flush();
    } catch {
      return;
    }
    flushed.then(
      () => {
        for (const c of group) {
          if (this.freeChunks.length >= MAX_FREE_CHUNKS) break;
          this.freeChunks.push(c);
          this.freeChunks32.push(new Int32Array(c.buffer, 0, CHUNK_BYTES >> 2));
        }
      },
      () => {},
    );
  }

  /** Publishes message `m` of this tick, a view of its chunk, and empties it. */
  private publishMessage(m: number): void {
    const bytes = this.messageBytes[m]!;
    const start = this.messageStart[m]!;
    // Made by the constructor rather than `subarray`, which looks up the constructor of the species first (half
    // the cost of a view per message). A chunk starts its ArrayBuffer (`newChunk`).
    const payload = new Uint8Array(this.tickBuffers[this.messageChunk[m]!]!, start, bytes);
    this.messageBytes[m] = 0;
    this.messageRoom[m] = 0;
    this.publish(this.messageSubjects[m]!, payload);
  }

  private publish(subject: string, payload: Uint8Array, options?: Parameters<NatsConnection['publish']>[2]): void {
    try {
      this.connection.publish(subject, payload, options);
      this.natsStats.messagesOut++;
      this.stats.datagramsOut++;
      this.stats.bytesOut += payload.length;
    } catch (error) {
      // The connection is closed or draining: counted, never thrown.
      this.sendFailed(error instanceof Error ? error.message : String(error));
    }
  }

  /**
   * Publishes what waits in the bundles, then the left-cell copies. Called at the end of each tick.
   * Each message is a view of a chunk (`CHUNK_BYTES`): nothing is allocated per PDU.
   */
  readonly flush = (): void => {
    this.flushQueued = false;
    const count = this.messageCount;
    for (let m = 0; m < count; m++) if (this.messageBytes[m]! > 0) this.publishMessage(m);
    this.messageCount = 0;
    this.nextTick();
    for (const copy of this.leftCopies) {
      this.publish(copy.subject, new Uint8Array(this.tickBuffers[copy.chunk]!, copy.start, copy.length), copy.options);
      this.natsStats.leftCellCopiesOut++;
    }
    this.leftCopies.length = 0;
    // The chunks of the tick but the current one are full, and every payload in them has been handed to the client.
    const chunks = this.tickChunks;
    for (let k = 0; k < chunks.length - 1; k++) if (chunks[k]!.length === CHUNK_BYTES) this.retire(chunks[k]!);
    this.tickChunks.length = 0;
    this.tickChunks.push(this.chunk);
    this.tickChunks32.length = 0;
    this.tickChunks32.push(this.chunk32);
    this.tickBuffers.length = 0;
    this.tickBuffers.push(this.chunk.buffer);
  };

  private sendFailed(reason: string): void {
    this.stats.sendErrors++;
    this.stats.sendFailure ??= reason;
  }

  onDatagram(receiver: DatagramReceiver | undefined): void {
    this.receiver = receiver;
  }

  onClose(listener: (error?: Error) => void): void {
    if (this.closing) listener(this.failure);
    else this.closeListeners.push(listener);
  }

  /** Publishes what waits, lets the client write it out (drain), and closes the connection. Idempotent. */
  close(): Promise<void> {
    if (!this.closing) this.flush();
    return this.end(undefined, true);
  }

  private end(error: Error | undefined, drain = false): Promise<void> {
    if (this.closing) return this.closing;
    this.failure = error;
    this.receiver = undefined;
    this.unwatchReader();
    this.areaSubscription?.unsubscribe();
    const connection = this.connection;
    this.closing = (async () => {
      if (connection.isClosed()) return;
      try {
        if (drain) await connection.drain();
        else await connection.close();
      } catch {
        // Already closing or closed: nothing more to release.
      }
    })();
    for (const listener of this.closeListeners.splice(0)) listener(error);
    return this.closing;
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
