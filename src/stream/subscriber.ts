/**
 * The receiver's edge: Entity State PDUs from a datagram transport (UDP by default) into a remote-entity table,
 * exposed as rxjs Observables — entity events, render-rate frames and opt-in diagnostics — that share one
 * socket. The socket is bound when the first of them is subscribed and closed when the last subscriber leaves.
 * Bad datagrams are counted (and reported on `diagnostics$` to whoever asked); they never reach an error channel.
 */
import type { Observable } from 'rxjs';
import type { EntityEvent } from './entity-events.js';
import type { EntityFrame } from './frame.js';
import { resolveConfig, type StreamConfig } from './settings.js';
import { SubscriberReceiver } from './subscriber-receiver.js';
import type { EntitySubscriber, SubscriberOptions } from './subscriber-types.js';

export type {
  Diagnostic,
  DiagnosticReason,
  EntitySubscriber,
  SubscriberEvent,
  SubscriberNats,
  SubscriberOptions,
  SubscriberStats,
} from './subscriber-types.js';

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
 * import { createSubscriber } from 'reckon';
 *
 * const subscriber = createSubscriber({ network: { port: 3000 } });
 * subscriber.diagnostics$.subscribe((d) => console.warn(d.reason, d.source.address));
 * // Entity events and engagements, told apart by `type`.
 * subscriber.events$.subscribe((e) => {
 *   if (e.type === 'fire') console.log('fire', e.shooter.marking, e.munition.name, e.target?.marking, e.range);
 *   else if (e.type === 'detonation') console.log('detonation', e.munition.name, e.resultName);
 *   else if (e.type === 'collision') console.log('collision', e.issuing.marking, e.colliding?.marking);
 *   else console.log(e.type, e.marking, e.state.location);
 * });
 * ```
 */
export function createSubscriber(config: StreamConfig = {}, options: SubscriberOptions = {}): EntitySubscriber {
  return new SubscriberReceiver(resolveConfig(config), options);
}

/**
 * Entity events from the Entity State PDUs received on `config.network`: `appeared`, `updated`, `timedOut`,
 * `removed`, `frozen`, `resumed`, each with the decoded state (engagements are on `createSubscriber(...).events$`). Binds the socket on subscribe; closes it when the last subscriber
 * leaves (the port is free again at once). Socket failures (e.g. the port is taken) are errors; bad datagrams
 * are not (see `createSubscriber(...).diagnostics$`).
 *
 * ## Example
 * ```ts
 * import { subscribeEntities } from 'reckon';
 *
 * const subscription = subscribeEntities({ network: { port: 3000 }, dis: { exercise: 1 } })
 *   .subscribe((event) => console.log(event.type, event.marking, event.state.location));
 * setTimeout(() => subscription.unsubscribe(), 60_000); // closes the socket
 * ```
 */
export function subscribeEntities(config: StreamConfig = {}, options: SubscriberOptions = {}): Observable<EntityEvent> {
  return createSubscriber(config, options).entityEvents$;
}

/**
 * Render-rate snapshots of every remote entity (smoothed, dead-reckoned to the frame time), from the struct-of-
 * arrays table without per-entity allocation. The frame object is reused: valid until the next frame.
 *
 * ## Example
 * ```ts
 * import { entityFrames } from 'reckon';
 * import { ecefToGeodeticDegrees } from 'reckon/math';
 *
 * const lla = new Float64Array(3);
 * entityFrames({ network: { port: 3000 } }, { rateHz: 30 }).subscribe((frame) => {
 *   for (let slot = 0; slot < frame.slotCount; slot++) {
 *     if (frame.active[slot] !== 1) continue;
 *     const l = frame.location;
 *     ecefToGeodeticDegrees(lla, l[3 * slot]!, l[3 * slot + 1]!, l[3 * slot + 2]!);
 *     console.log(frame.key[slot], lla[0], lla[1], lla[2]); // latitude°, longitude°, height m
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
