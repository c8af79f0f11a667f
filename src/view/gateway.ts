/**
 * The `reckon view` gateway: forwards the Entity State (and Update) PDUs the network carries, as they came, to the
 * map pages over WebSocket (`src/view/protocol.ts`). The page dead-reckons; the gateway only filters and fans out.
 *
 * - Receive: datagrams → `PduReceiver` (framing, exercise and allow-lists) → decode + validate (for the entity id,
 *   force, kind/domain and location the filters need) → the tick buffer and the
 *   latest-PDU map (bounded by `receiver.maxEntities`).
 * - Every tick (50 ms by default): one bundle encoded once and sent to every client with the empty filter; for a
 *   filtered client, the matching records only.
 * - Backpressure: a client whose socket holds more than `highWaterBytes` unsent gets nothing more until it drains;
 *   meanwhile the gateway remembers which entities it missed (one mark per entity slot, `slot-marks.ts`) and then
 *   sends their newest PDUs, counting each PDU it never got as skipped.
 * - Snapshots (after connecting or a filter change) go out the same way: every slot marked, then sent in batches
 *   within the client's high-water mark, each as soon as the socket has taken the last (`gateway-snapshots.ts`).
 *   Filter changes are coalesced and applied at most every `FILTER_INTERVAL_MS` per client (`filter-gate.ts`).
 * - Shots, entity control and radios (text messages) go in the same tick and write, in arrival order among the
 *   PDUs, and are held back from a congested client the same way (`engagement-tick.ts`).
 * - The entities' newest PDUs are held as struct-of-arrays (`gateway-entities.ts`): about 200 bytes per entity.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import type { Config } from '../config/schema.js';
import { entityTimeoutSeconds } from '../dr/owner/heartbeat.js';
import { isDeactivated } from '../dr/models/algorithm.js';
import { HeaderOffset, PduType } from '../pdu/wire/constants.js';
import { decodeEntityStateOrUpdateInto } from '../pdu/wire/entity-state-decoder.js';
import { EntityStateRecord, entityIdFromKey, entityKey } from '../pdu/wire/entity-state-record.js';
import { CodecStatus } from '../pdu/wire/status.js';
import { validateEntityState } from '../pdu/checks/validate.js';
import { PduReceiver, receiveFilterFromConfig } from '../transport/pdu-receiver.js';
import { ArrivalRate } from './arrival-rate.js';
import {
  createTransportStats,
  type DatagramReceiver,
  type DatagramTransport,
  type TransportStats,
} from '../transport/transport.js';
import { compile } from './compiled-filter.js';
import {
  FEED_PATH,
  MAX_CLIENT_MESSAGE_BYTES,
  VIEW_PROTOCOL_VERSION,
  encodeMessage,
  parseClientMessage,
  type ServerMessage,
  type TruthEntity,
  type ViewConfig,
  type ViewErrorCode,
  type ViewFilter,
} from './protocol.js';
import { TICK_BYTES, TickBuffer } from './tick-buffer.js';
import { ViewClient, type ClientState } from './view-client.js';
import { GatewayEntities } from './gateway-entities.js';
import { SnapshotSender } from './gateway-snapshots.js';
import type { GatewayOptions, GatewayStats } from './gateway-options.js';
import { originAllowed } from './origin-check.js';
import type { TickFrames } from './ws-frames.js';
import { FeedMessages } from './feed-messages.js';
import { EngagementTick } from './engagement-tick.js';
import { ENGAGEMENT_PDU_TYPES, EngagementFeed } from './engagement-feed.js';
import type { EngagementMessage } from './engagement-messages.js';
import { addresses } from '../dr/receiver/exercise-freeze.js';

/** The gateway. `receive` takes datagrams; `handleUpgrade` takes WebSocket upgrades from an HTTP server. */
export class ViewGateway {
  readonly stats: GatewayStats = {
    pdus: 0,
    bytes: 0,
    rejected: 0,
    unknownUpdates: 0,
    tableFull: 0,
    timeouts: 0,
    clients: 0,
    clientMessages: 0,
    clientErrors: 0,
    upgradesRefused: 0,
    clientsDropped: 0,
    skipped: 0,
    messagesSkipped: 0,
    greetedAgain: 0,
    connections: 0,
    messagesSent: 0,
    bytesSent: 0,
  };
  /** Datagrams, PDUs and rejections of the receive path. */
  readonly transportStats: TransportStats;
  /** Shots, entity control and radios, as text messages (src/view/engagement-feed.ts). */
  readonly engagements: EngagementFeed;
  private readonly config: Config;
  private readonly tickMs: number;
  private readonly highWaterBytes: number;
  private readonly allowOrigins: readonly string[];
  private readonly maxClients: number;
  private readonly maxEntities: number;
  private readonly now: () => number;
  private readonly viewConfig: ViewConfig;
  private readonly receiver: PduReceiver;
  private readonly wss: WebSocketServer;
  private readonly clients = new Set<ViewClient>();
  private readonly entities: GatewayEntities;
  private readonly snapshots: SnapshotSender;
  private readonly record = new EntityStateRecord();
  /** Site, application and entity of a slot's key (`entityIdFromKey`), reused. */
  private readonly entityId = new Uint16Array(3);
  private readonly pending = new TickBuffer();
  /** The engagement messages of this tick, sent with its PDUs. */
  private readonly messages = new EngagementTick();
  /**
   * Arrival time of the datagram being received, ms since the Unix epoch: one clock read per datagram, kept in a
   * typed array so that passing it along boxes no number.
   */
  private readonly arrivalMs = new Float64Array(1);
  /** Builds the feed messages of each write. */
  private readonly out = new FeedMessages();
  private timers: Array<ReturnType<typeof setInterval>> = [];
  /** Every PDU taken, Entity State or not: what the panel's PDUs/s and bytes/s show. */
  private readonly rate = new ArrivalRate();
  private closed = false;

  constructor(options: GatewayOptions) {
    this.config = options.config;
    this.tickMs = options.tickMs ?? 50;
    this.highWaterBytes = options.highWaterBytes ?? 1024 * 1024;
    this.allowOrigins = options.allowOrigins ?? [];
    this.maxClients = options.maxClients ?? 100;
    this.maxEntities = options.config.receiver.maxEntities;
    this.entities = new GatewayEntities(this.maxEntities);
    this.snapshots = new SnapshotSender(
      this.entities,
      this.highWaterBytes,
      (client, frames, messages, bytes) => this.writeFrames(client, { frames, messages, bytes }),
      (client) => !this.closed && client.socket.readyState === client.socket.OPEN,
    );
    this.engagements = new EngagementFeed((exercise, site, application, entity) => {
      const slot = this.entities.slotOf(entityKey(site, application, entity));
      return slot >= 0 && this.entities.exercise[slot] === exercise;
    });
    this.now = options.now ?? Date.now;
    const r = options.config.receiver;
    this.viewConfig = {
      exercise: options.allExercises ? null : options.config.dis.exercise,
      smoothing: { method: r.smoothing, timeSeconds: r.smoothingTime },
      positionThresholdMeters: options.config.emitter.positionThreshold,
      orientationThresholdDeg: (options.config.emitter.orientationThreshold * 180) / Math.PI,
      // One bound for every entity on the page: a land platform's, at rest (the longer one), as the gateway keeps
      // them; entities that leave say so with a leave notice and are gone at once.
      entityTimeoutSeconds: entityTimeoutSeconds(options.config.heartbeat, 1, 1, true),
      // The page's table holds what the gateway can forward (docs/view.md, "Design").
      maxEntities: this.maxEntities,
      tiles: options.tiles ?? null,
      demo: options.demo ?? false,
    };
    this.transportStats = createTransportStats();
    const filter = receiveFilterFromConfig(options.config);
    this.receiver = new PduReceiver(
      this.consume,
      {
        ...filter,
        exercise: options.allExercises ? undefined : filter.exercise,
        pduTypes: [PduType.ENTITY_STATE, PduType.ENTITY_STATE_UPDATE, ...ENGAGEMENT_PDU_TYPES],
      },
      this.transportStats,
    );
    this.wss = new WebSocketServer({
      noServer: true,
      maxPayload: MAX_CLIENT_MESSAGE_BYTES,
      perMessageDeflate: false,
      clientTracking: false,
    });
    this.timers = [setInterval(() => this.tick(), this.tickMs), setInterval(() => this.everySecond(), 1000)];
    for (const timer of this.timers) timer.unref();
  }

  /** Takes one datagram (hand it to a transport: `transport.onDatagram(gateway.receive)`). Never throws. */
  readonly receive: DatagramReceiver = (datagram, source) => {
    this.arrivalMs[0] = this.now();
    this.transportStats.datagramsIn++;
    this.transportStats.bytesIn += datagram.length;
    this.receiver.receive(datagram, source);
  };

  /** Receives from `transport` (the caller keeps ownership). */
  listen(transport: DatagramTransport): void {
    transport.onDatagram(this.receive);
  }

  /** Entities held for snapshots. */
  get entityCount(): number {
    return this.entities.size;
  }

  /** Unsent bytes and missed entities of each client, for tests and diagnostics. */
  clientStates(): ClientState[] {
    return [...this.clients].map((c) => ({
      bufferedBytes: c.socket.bufferedAmount,
      pendingEntities: c.marks.count,
      congested: c.congested,
      skipped: c.skipped,
      skippedMessages: c.skippedMessages,
      filtersCoalesced: c.filters.coalesced,
    }));
  }

  /**
   * Sends a message about shots, entity control or radios, with this tick's PDUs, to every client whose filter takes
   * its exercise; a Remove Entity also drops the entities from the snapshot the gateway keeps.
   */
  private readonly broadcast = (message: EngagementMessage): void => {
    if (message.type === 'entity-control' && message.action === 'remove') this.removeAddressed(message);
    const text = EngagementTick.encode(message);
    if (this.messages.isFull(text.length, this.pending.byteLength, TICK_BYTES)) this.tick();
    this.messages.add(message, text, this.pending.count);
  };

  private removeAddressed(message: EngagementMessage & { type: 'entity-control' }): void {
    const e = this.entities;
    for (let slot = 0; slot < e.highWater; slot++) {
      if (e.active[slot] !== 1 || e.exercise[slot] !== message.exercise) continue;
      const id = entityIdFromKey(this.entityId, e.key[slot]!);
      if (addresses(message.receiving, id[0]!, id[1]!, id[2]!)) e.delete(slot);
    }
  }

  private readonly consume = (bytes: Uint8Array, offset: number, length: number): void => {
    this.rate.count(length);
    const type = bytes[offset + HeaderOffset.PDU_TYPE];
    if (type !== PduType.ENTITY_STATE && type !== PduType.ENTITY_STATE_UPDATE) {
      this.engagements.consume(bytes, offset, length, this.arrivalMs[0]!, this.broadcast);
      return;
    }
    const record = this.record;
    let status = decodeEntityStateOrUpdateInto(record, bytes, offset, offset + length);
    // Values no entity can have never reach a page: docs/pdu-validation.md.
    if (status === CodecStatus.OK) status = validateEntityState(record);
    if (status !== CodecStatus.OK) {
      this.stats.rejected++;
      return;
    }
    const nowMs = this.arrivalMs[0]!;
    const key = entityKey(record.site, record.application, record.entity);
    const full = record.pduType === PduType.ENTITY_STATE;
    const e = this.entities;
    let slot = e.slotOf(key);
    if (slot < 0) {
      if (!full) {
        this.stats.unknownUpdates++;
        return;
      }
      slot = e.add(key);
      if (slot < 0) {
        this.stats.tableFull++;
        return;
      }
    }
    if (full) {
      e.force[slot] = record.forceId;
      const kind = record.entityType[0]!,
        domain = record.entityType[1]!;
      if (e.timeoutMs[slot] === 0 || kind !== e.kind[slot] || domain !== e.domain[slot]) {
        // The longest of the stationary and moving timeouts: the snapshot never forgets a live entity early.
        e.timeoutMs[slot] = 1000 * entityTimeoutSeconds(this.config.heartbeat, kind, domain, true);
      }
      e.kind[slot] = kind;
      e.domain[slot] = domain;
      e.storeFull(slot, bytes, offset, length, nowMs);
    } else e.storeUpdate(slot, bytes, offset, length, nowMs);
    e.exercise[slot] = record.exerciseId;
    e.lastSeenMs[slot] = nowMs;
    // A leave notice (appearance State = Deactivated, docs/dis-reference.md) is forwarded, then forgotten.
    const leaving = isDeactivated(record.appearance);
    if (leaving) e.delete(slot);
    this.stats.pdus++;
    this.stats.bytes += length;
    if (this.pending.isFull(length) || this.messages.isFull(length, this.pending.byteLength, TICK_BYTES)) this.tick();
    this.pending.add(leaving ? -1 : slot, e, slot, record.location, bytes, offset, length, nowMs);
  };

  /**
   * Sends the PDUs and engagement messages of this tick to every client (or marks them missed for a congested one),
   * after a filter change that is due, a greeting for a client that missed what its page holds, and the next part
   * of a snapshot or of what a client missed.
   */
  tick(): void {
    if (this.closed) return;
    const pending = this.pending;
    const count = pending.count;
    const messages = this.messages;
    const nowMs = this.now();
    let shared: TickFrames | undefined;
    for (const client of this.clients) {
      if (client.socket.readyState !== client.socket.OPEN) continue;
      const filter = client.filters.take(nowMs);
      if (filter !== undefined) this.applyFilter(client, filter);
      if (!client.congested && client.socket.bufferedAmount > this.highWaterBytes) client.congested = true;
      // Drained (half the mark, so it is not toggled on every tick): the stream resumes.
      if (client.congested && client.socket.bufferedAmount <= this.highWaterBytes / 2) client.congested = false;
      if (client.congested) {
        for (let i = 0; i < count; i++) {
          if (pending.matches(client.compiled, i)) this.miss(client, pending.slots[i]!);
        }
        this.missMessages(client);
        continue;
      }
      if (client.greetAgain) this.greet(client);
      if (client.marks.count > 0) {
        // What this tick carries of a marked entity's full PDU goes out with it: not again from the marks.
        for (let i = 0; i < count; i++) {
          const slot = pending.slots[i]!;
          if (slot >= 0 && pending.full[i] === 1 && pending.matches(client.compiled, i)) client.marks.unmark(slot);
        }
        this.snapshots.send(client);
      }
      if (count === 0 && messages.count === 0) continue;
      if (client.compiled.all) {
        // Encoded and framed once per tick and shared: clients with the empty filter cost one write each.
        shared ??= this.out.tick(pending, messages, undefined, null);
        this.writeFrames(client, shared);
      } else {
        this.writeFrames(client, this.out.tick(pending, messages, client.compiled, client.filter.exercise));
      }
    }
    pending.clear();
    messages.clear();
    this.entities.endTick();
  }

  /** Counts the engagement messages of this tick a congested client does not get; see `greet`. */
  private missMessages(client: ViewClient): void {
    const missed = this.messages.missed(client.filter.exercise);
    client.skippedMessages += missed;
    this.stats.messagesSkipped += missed;
    if (missed > 0 && this.messages.missedChangesState) client.greetAgain = true;
  }

  /**
   * Writes a tick's frames straight to the client's connection: one write, where `WebSocket.send` would make two
   * per message (header, payload) plus its own bookkeeping, for every client. ws writes its own frames (JSON
   * replies, snapshots) to the same connection synchronously (no permessage-deflate, so nothing of it waits in a
   * queue), so frames stay in order, and `bufferedAmount` counts these bytes too.
   */
  private writeFrames(client: ViewClient, tick: TickFrames): void {
    if (tick.messages === 0) return;
    this.stats.messagesSent += tick.messages;
    this.stats.bytesSent += tick.bytes;
    client.connection.write(tick.frames);
  }

  /** Marks an entity a congested client missed (−1: one dropped): its newest PDU goes out when it drains. */
  private miss(client: ViewClient, slot: number): void {
    if (slot >= 0 && client.marks.mark(slot)) return;
    client.skipped++;
    this.stats.skipped++;
  }

  /** Applies a filter: confirmed with `filter-ok`, then the snapshot of the new view (sent by the tick applying it). */
  private applyFilter(client: ViewClient, filter: ViewFilter): void {
    client.filter = filter;
    client.compiled = compile(filter);
    this.sendJson(client, { type: 'filter-ok', filter });
    this.snapshots.markAll(client);
  }

  private sendJson(client: ViewClient, message: ServerMessage): void {
    const socket = client.socket;
    if (socket.readyState !== socket.OPEN) return;
    // Replies are small, but a client that keeps asking and never reads would pile them up: it is dropped.
    if (socket.bufferedAmount > 4 * this.highWaterBytes) {
      this.stats.clientsDropped++;
      socket.terminate();
      return;
    }
    const text = encodeMessage(message);
    this.stats.messagesSent++;
    this.stats.bytesSent += Buffer.byteLength(text);
    socket.send(text);
  }

  /**
   * Refuses or accepts a WebSocket upgrade (hand it the HTTP server's `upgrade` events): 404 off `/feed`, 403 for
   * a foreign origin, 503 when full.
   */
  readonly handleUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer): void => {
    socket.on('error', () => socket.destroy());
    let path = '';
    try {
      path = new URL(request.url ?? '/', 'http://localhost').pathname;
    } catch {
      // An unparseable target is not the feed.
    }
    if (this.closed) return this.refuseUpgrade(socket, 503, 'Service Unavailable', 'the gateway is shutting down');
    if (path !== FEED_PATH) return this.refuseUpgrade(socket, 404, 'Not Found', `the feed is at ${FEED_PATH}`);
    if (!originAllowed(request.headers.origin, request.headers.host, this.allowOrigins)) {
      const why = 'this origin may not read the feed; add it with --allow-origin ORIGIN';
      return this.refuseUpgrade(socket, 403, 'Forbidden', why);
    }
    if (this.clients.size >= this.maxClients) {
      return this.refuseUpgrade(
        socket,
        503,
        'Service Unavailable',
        `the gateway serves at most ${this.maxClients} clients`,
      );
    }
    this.wss.handleUpgrade(request, socket, head, (ws) => this.connect(ws, socket));
  };

  /** Answers an upgrade with an HTTP error and closes it (counted in `upgradesRefused`). */
  refuseUpgrade(socket: Duplex, status: number, reason: string, body: string): void {
    this.stats.upgradesRefused++;
    if (socket.listenerCount('error') === 0) socket.on('error', () => socket.destroy());
    const text = `${body}\n`;
    socket.end(
      `HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(text)}\r\n\r\n${text}`,
    );
  }

  private connect(socket: WebSocket, connection: Duplex): void {
    const client = new ViewClient(socket, connection, this.maxEntities);
    this.clients.add(client);
    this.stats.clients = this.clients.size;
    this.stats.connections++;
    socket.on('error', (error: Error & { code?: string }) => {
      // ws has already closed the socket (1009 for an oversized message); count and go on.
      // (WS_ERR_UNSUPPORTED_MESSAGE_LENGTH, WS_ERR_INVALID_UTF8, a bad frame, …)
      if (error.code?.startsWith('WS_ERR_')) this.stats.clientErrors++;
    });
    socket.on('close', () => {
      this.clients.delete(client);
      this.stats.clients = this.clients.size;
    });
    socket.on('message', (data, isBinary) => this.onMessage(client, data, isBinary));
    this.greet(client);
  }

  /**
   * The hello, the radios and freezes in force, and the snapshot (sent over the next ticks): what a client gets on
   * connecting, and again once it drains after missing entity control or radios (its page then starts over).
   */
  private greet(client: ViewClient): void {
    if (client.greetAgain) this.stats.greetedAgain++;
    client.greetAgain = false;
    const serverTimeMs = this.now();
    this.sendJson(client, { type: 'hello', protocol: VIEW_PROTOCOL_VERSION, serverTimeMs, config: this.viewConfig });
    for (const message of this.engagements.state(serverTimeMs)) this.sendJson(client, message);
    // Its snapshot: the first batch now, the next ones as its socket takes them.
    this.snapshots.markAll(client);
    this.snapshots.send(client);
  }

  private onMessage(client: ViewClient, data: RawData, isBinary: boolean): void {
    this.stats.clientMessages++;
    if (isBinary) {
      const why = 'binary messages are not accepted; send JSON text, e.g. {"type":"ping"}';
      return this.clientError(client, 'BAD_MESSAGE', why);
    }
    // ws hands text over as one Buffer (binaryType 'nodebuffer', its default); the other shapes for completeness.
    const text = Buffer.isBuffer(data)
      ? data.toString('utf8')
      : Array.isArray(data)
        ? Buffer.concat(data).toString('utf8')
        : Buffer.from(new Uint8Array(data)).toString('utf8');
    const parsed = parseClientMessage(text);
    if (!parsed.ok) return this.clientError(client, parsed.error.code, parsed.error.message);
    const message = parsed.message;
    if (message.type === 'ping') return this.sendJson(client, { type: 'pong', serverTimeMs: this.now() });
    const { type: _type, ...filter } = message;
    // Applied at the next tick, at most every FILTER_INTERVAL_MS; a newer filter before then replaces this one.
    client.filters.offer(filter);
  }

  private clientError(client: ViewClient, code: ViewErrorCode, message: string): void {
    this.stats.clientErrors++;
    this.sendJson(client, { type: 'error', code, message });
  }

  /** Sends the demo's truth to every client that keeps up (a congested one skips it: the next one replaces it). */
  sendTruth(entities: readonly TruthEntity[]): void {
    const text = encodeMessage({ type: 'truth', serverTimeMs: this.now(), entities });
    for (const client of this.clients) {
      if (client.congested || client.socket.readyState !== client.socket.OPEN) continue;
      this.stats.messagesSent++;
      this.stats.bytesSent += Buffer.byteLength(text);
      client.socket.send(text);
    }
  }

  private everySecond(): void {
    const nowMs = this.now();
    this.engagements.everySecond(nowMs, this.broadcast);
    const e = this.entities;
    for (let slot = 0; slot < e.highWater; slot++) {
      if (e.active[slot] === 1 && nowMs - e.lastSeenMs[slot]! > e.timeoutMs[slot]! && !this.frozen(slot)) {
        e.delete(slot);
        this.stats.timeouts++;
      }
    }
    this.rate.roll();
    for (const client of this.clients) {
      // A congested client gets them too (its page shows what it missed), unless it has stopped reading altogether.
      if (client.socket.bufferedAmount > 4 * this.highWaterBytes) continue;
      this.sendJson(client, {
        type: 'counters',
        serverTimeMs: nowMs,
        entities: this.entities.size,
        pdusPerSecond: this.rate.pdusPerSecond,
        bytesPerSecond: this.rate.bytesPerSecond,
        skipped: client.skipped,
        clients: this.clients.size,
        clientErrors: this.stats.clientErrors,
      });
    }
  }

  /** Whether a Stop/Freeze in force holds the entity: it is not timed out (nor, on the page, dead-reckoned). */
  private frozen(slot: number): boolean {
    const id = entityIdFromKey(this.entityId, this.entities.key[slot]!);
    return this.engagements.holds(this.entities.exercise[slot]!, id[0]!, id[1]!, id[2]!);
  }

  /** Stops the timers and closes every client (1001 going away). Idempotent. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const timer of this.timers) clearInterval(timer);
    for (const client of this.clients) client.socket.close(1001, 'the gateway is shutting down');
    // A client that reads nothing never answers: cut off after a second, where ws would wait 30 s.
    setTimeout(() => this.clients.forEach((client) => client.socket.terminate()), 1000).unref();
    this.wss.close();
  }
}
