/**
 * The owner's edge: local entities' true states in, Entity State PDUs out on a datagram transport (UDP by
 * default), sent only when the emitter says receivers need one, bundled per tick up to the MTU.
 */
import { Observable, type MonoTypeOperatorFunction } from 'rxjs';
import type { Config } from '../config/schema.js';
import type { TruthState } from '../dr/owner/truth-state.js';
import { APPEARANCE_DEACTIVATED, isDeactivated } from '../dr/models/algorithm.js';
import { PduType } from '../pdu/wire/constants.js';
import { decodeEntityStateInto } from '../pdu/wire/entity-state-decoder.js';
import {
  MAX_ENTITY_STATE_BYTES,
  encodeEntityStateInto,
  encodedEntityStateLength,
} from '../pdu/wire/entity-state-encoder.js';
import { EntityStateRecord, entityKey } from '../pdu/wire/entity-state-record.js';
import {
  advanceTimestamp,
  isAbsoluteTimestamp,
  isNewerTimestamp,
  timestampFromSeconds,
} from '../pdu/wire/timestamp.js';
import { codecStatusMessage } from '../pdu/wire/status.js';
import { PduBundler } from '../transport/bundler.js';
import type { DatagramTransport, TransportStats } from '../transport/transport.js';
import { openUdpTransport } from '../transport/udp.js';
import type { OwnedEntityTable } from '../dr/owner/owned-entity-table.js';
import { fleetOver, fleetTable, type Fleet, type FleetOptions } from './fleet.js';
import { LocalEntities, type EmittedPdu, type LocalEntity } from './local-entities.js';
import { resolveConfig, type StreamConfig } from './settings.js';

/** Options of `createPublisher`. */
export interface PublisherOptions {
  /**
   * Send on this transport instead of opening a UDP socket from `config.network` (a simulated network, a test
   * double). The caller keeps ownership: `close()` does not close it. Defaults to a UDP socket.
   */
  readonly transport?: DatagramTransport;
  /** Stamp PDUs absolute: times must be Unix epoch seconds (UTC). Defaults to false (relative timestamps). */
  readonly absoluteTimestamps?: boolean;
  /** Entities declared up front. Defaults to none (declared on first `update`). */
  readonly entities?: readonly LocalEntity[];
}

/** Sends Entity State PDUs of local entities (`createPublisher`). */
export interface Publisher {
  /** The validated configuration in use. */
  readonly config: Config;
  /**
   * Traffic counters of the transport (datagrams and bytes out, send errors and why the first failed), updated in
   * place.
   */
  readonly stats: TransportStats;
  /** PDUs sent so far, and their bytes (PDU bytes only, without UDP/IP headers). */
  readonly sent: { pdus: number; bytes: number };
  /** Declares a local entity's identity (marking, type, algorithm). Replacing one makes its next update send. */
  define(entity: LocalEntity): void;
  /**
   * Runs the entity's emitter on its true state and sends a PDU if one is needed.
   * @param entity - entity number, or the entity with its identity (declared on first sight).
   * @param state - ECEF truth at `timeSeconds`.
   * @param timeSeconds - seconds on any steady axis (Unix epoch seconds with absolute timestamps).
   * @param appearance - appearance bits; a change is sent at once. Defaults to 0.
   * @returns why a PDU was sent (`EMIT_*` bits), 0 when none was.
   */
  update(entity: number | LocalEntity, state: TruthState, timeSeconds: number, appearance?: number): number;
  /**
   * Sends one complete PDU as is (bundled with the others of this tick). The record is kept by reference for the
   * entity's leave notice at `close`: use one record per entity, as `update` and `deadReckonEmit` do.
   */
  send(record: EntityStateRecord): void;
  /** An operator that sends every PDU of a `deadReckonEmit` stream and passes it on. */
  transmit(): MonoTypeOperatorFunction<EmittedPdu>;
  /**
   * A fleet of these entities, published together from a simulation loop: write every entity's truth into the
   * fleet's typed arrays (or one entity at a time with `set`), then `fleet.publish(t)` decides them all in one pass
   * and sends the PDUs needed. Their leave notices go at `close`. Entity numbers must not repeat those of other
   * fleets or of `update`.
   * @throws RangeError for an entity number outside 1–65534 or repeated.
   */
  fleet(entities: readonly LocalEntity[], options?: FleetOptions): Fleet;
  /** Sends the datagram being filled now (otherwise it leaves at the end of the current tick). */
  flush(): void;
  /**
   * Sends each entity's leave notice (appearance Deactivated, so receivers drop it at once) unless told not to,
   * waits for queued datagrams, and releases the socket. Idempotent.
   * @param options.deactivate - send the leave notices. Defaults to true.
   * @param options.timeSeconds - time of the notices. Defaults to the latest `update` time (else the wall clock).
   */
  close(options?: { deactivate?: boolean; timeSeconds?: number }): Promise<void>;
}

/**
 * Opens a publisher: a UDP socket that sends to `network.address` (default 127.0.0.1), the multicast group or
 * broadcast, on `network.port`; or, with `nats.servers` set, a NATS connection that publishes each PDU to the
 * subject of its H3 cell (docs/nats.md).
 *
 * @param config - a `Config` or part of one (`{ network: { port: 3001 }, dis: { exercise: 2 } }`).
 * @param options - transport, timestamps, entities; see `PublisherOptions`.
 * @throws ConfigError for an invalid configuration; Error when the socket cannot be opened.
 *
 * ## Example
 * ```ts
 * import { createPublisher, createTruthState } from 'reckon';
 * import { tankRoadCourse } from 'reckon/truth';
 *
 * const publisher = await createPublisher({ network: { port: 3000 } });
 * publisher.define({ entity: 1, marking: 'TANK 1', entityType: { kind: 1, domain: 1, country: 225 } });
 * const trajectory = tankRoadCourse();
 * const truth = createTruthState();
 * const timer = setInterval(() => {
 *   const t = performance.now() / 1000;
 *   trajectory.sample(t, truth);
 *   publisher.update(1, truth, t);
 * }, 50);
 * setTimeout(() => {
 *   clearInterval(timer);
 *   void publisher.close(); // leave notices, then the socket closes
 * }, 60_000);
 * ```
 */
export async function createPublisher(config: StreamConfig = {}, options: PublisherOptions = {}): Promise<Publisher> {
  const resolved = resolveConfig(config);
  const transport: DatagramTransport =
    options.transport ??
    (resolved.nats.servers.length > 0
      ? // Loaded only when configured: UDP users never load the NATS client.
        await import('../nats/transport.js').then(({ openNatsTransport }) => openNatsTransport(resolved.nats))
      : await openUdpTransport(resolved.network, 'send'));
  const owned = options.transport === undefined;
  const locals = new LocalEntities(resolved, options.absoluteTimestamps);
  for (const entity of options.entities ?? []) locals.define(entity);
  const bundler = new PduBundler(transport, resolved.network.mtu);
  const sent = { pdus: 0, bytes: 0 };
  // The last PDU of each entity, for the leave notices: a record given to `send` (reused per entity, so it stays
  // current), or the slot of an entity of `update` (its table holds its last PDU).
  const lastSent = new Map<number, EntityStateRecord | number>();
  const fleets: OwnedEntityTable[] = [];
  let flushQueued = false;
  let latestSeconds = Number.NEGATIVE_INFINITY;
  let closing: Promise<void> | undefined;

  const flush = (): void => {
    flushQueued = false;
    bundler.flush();
  };
  // PDUs sent in one synchronous burst (one simulation tick) share datagrams.
  const flushAtEndOfTick = (): void => {
    if (flushQueued) return;
    flushQueued = true;
    queueMicrotask(flush);
  };
  const counted = (pdus: number, bytes: number, timeSeconds: number): void => {
    if (timeSeconds > latestSeconds) latestSeconds = timeSeconds;
    if (pdus === 0) return;
    sent.pdus += pdus;
    sent.bytes += bytes;
    flushAtEndOfTick();
  };
  const send = (record: EntityStateRecord): void => {
    if (closing) return;
    const length = encodedEntityStateLength(record);
    const at = bundler.claim(length);
    const written = encodeEntityStateInto(bundler.buffer, record, at);
    if (written < 0)
      throw new RangeError(`cannot encode the PDU of entity ${record.entity}: ${codecStatusMessage(-written)}`);
    sent.pdus++;
    sent.bytes += written;
    if (record.pduType === PduType.ENTITY_STATE && !isDeactivated(record.appearance)) {
      lastSent.set(entityKey(record.site, record.application, record.entity), record);
    } else if (isDeactivated(record.appearance)) {
      lastSent.delete(entityKey(record.site, record.application, record.entity));
    }
    flushAtEndOfTick();
  };

  return {
    config: resolved,
    stats: transport.stats,
    sent,
    define(entity) {
      locals.define(entity);
    },
    update(entity, state, timeSeconds, appearance = 0) {
      const slot = locals.slot(entity);
      const reasons = locals.update(slot, state, timeSeconds, appearance);
      if (reasons === 0 || closing) {
        if (timeSeconds > latestSeconds) latestSeconds = timeSeconds;
        return reasons;
      }
      counted(1, locals.table.encodeLast(slot, bundler), timeSeconds);
      const key = entityKey(resolved.dis.site, resolved.dis.application, locals.entity(slot).entity);
      if (isDeactivated(appearance)) lastSent.delete(key);
      else lastSent.set(key, slot);
      return reasons;
    },
    fleet(entities, fleetOptions = {}) {
      const table = fleetTable(resolved, entities, fleetOptions, options.absoluteTimestamps ?? false);
      fleets.push(table);
      return fleetOver(table, entities, bundler, counted, () => closing !== undefined);
    },
    send,
    transmit() {
      return (source) =>
        new Observable<EmittedPdu>((subscriber) =>
          source.subscribe({
            next(pdu) {
              if (pdu.timeSeconds > latestSeconds) latestSeconds = pdu.timeSeconds;
              try {
                send(pdu.record);
              } catch (error) {
                subscriber.error(error);
                return;
              }
              subscriber.next(pdu);
            },
            error: (error: unknown) => subscriber.error(error),
            complete: () => subscriber.complete(),
          }),
        );
    },
    flush,
    close(closeOptions = {}) {
      if (closing) return closing;
      if (closeOptions.deactivate ?? true) {
        const t = closeOptions.timeSeconds ?? (Number.isFinite(latestSeconds) ? latestSeconds : Date.now() / 1000);
        const notice = new EntityStateRecord();
        const scratch = new Uint8Array(MAX_ENTITY_STATE_BYTES);
        for (const table of fleets) {
          for (let k = 0; k < table.capacity; k++) {
            const bytes = table.writeLeaveNotice(k, t, bundler);
            if (bytes > 0) counted(1, bytes, t);
          }
        }
        for (const record of lastSent.values()) {
          if (typeof record === 'number') {
            const bytes = locals.table.writeLeaveNotice(record, t, bundler);
            if (bytes > 0) counted(1, bytes, t);
            continue;
          }
          // A copy through the codec, so the caller's record is left as it was.
          encodeEntityStateInto(scratch, record, 0);
          decodeEntityStateInto(notice, scratch);
          notice.appearance = (notice.appearance | APPEARANCE_DEACTIVATED) >>> 0;
          const raw = timestampFromSeconds(t, isAbsoluteTimestamp(record.timestampRaw));
          // Receivers drop a PDU that is not newer than the one they hold.
          notice.timestampRaw = isNewerTimestamp(raw, record.timestampRaw)
            ? raw
            : advanceTimestamp(record.timestampRaw, 1e-3);
          send(notice);
        }
      }
      flush();
      closing = owned ? transport.close() : Promise.resolve();
      return closing;
    },
  };
}
