/**
 * Entity frames → CoT events: one event per remote entity at a modest rate (default 1 Hz), at once when an
 * entity appears or changes its CoT type, and one stale event when it leaves. Positions are the frame's
 * dead-reckoned (smoothed) locations; the stale time is when the receiver would time the entity out (last PDU's
 * arrival + its timeout), so TAK shows an entity exactly as long as reckon still believes in it. An entity that
 * falls silent gets its stale event at that advertised time, not a second one when the table drops it; one that
 * deactivates gets it at once. Given the subscriber's departures, an entity that came and went between two
 * frames is still announced (appeared, then removed). The frame scan allocates nothing for entities that are not
 * due; only the events themselves allocate.
 */
import { Observable, type OperatorFunction } from 'rxjs';
import { worldVelocity } from '../dr/models/store.js';
import { worldToBodyFromEuler } from '../math/euler.js';
import { ecefToGeodetic } from '../math/geodesy.js';
import { entityTypeNameOf } from '../names/entity-type-names.js';
import type { EntityStatePdu } from '../pdu/schema/schema.js';
import type { EntityEvent } from '../stream/entity-events.js';
import type { EntityFrame } from '../stream/frame.js';
import { encodeCotEvent, type CotEventFields } from './event.js';
import { affiliationForForce, cotDimensionFor, cotUid, courseAndSpeed, stripControlCharacters } from './mapping.js';

/** Why an event was sent. */
export type CotEventReason = 'appeared' | 'typeChanged' | 'periodic' | 'removed';

/** One CoT event for one entity. */
export interface CotEvent {
  readonly reason: CotEventReason;
  /** The entity's `entityKey`. */
  readonly key: number;
  readonly fields: CotEventFields;
  /** The XML document (UTF-8 text with its declaration), ready to send. */
  readonly xml: string;
}

/** Options of `cotEvents`. */
export interface CotEventsOptions {
  /** Events per entity per second while nothing changes. Defaults to 1. */
  readonly rateHz?: number;
  /** First part of every uid (`<prefix>.<exercise>.<site>.<application>.<entity>`). Defaults to `DIS`. */
  readonly uidPrefix?: string;
  /**
   * The subscriber's departures (`subscriber.departures$`, or its `events$`; on the frames' clock): an entity that
   * appears and leaves between two frames (a few PDUs in one capture second, its deactivation among them) is then
   * still sent, as an appearance and its removal. Without them such an entity is never seen.
   */
  readonly departures?: Observable<EntityEvent>;
}

/** What the operator remembers of one entity. */
interface Track {
  readonly key: number;
  readonly uid: string;
  readonly exercise: number;
  kind: number;
  domain: number;
  category: number;
  force: number;
  /** Time the next periodic event is due, epoch seconds. */
  dueSeconds: number;
  /** Frame counter when last seen. */
  seen: number;
  /** Last displayed location, ECEF metres (for the removal event). */
  x: number;
  y: number;
  z: number;
  /** The last event sent, for the removal event. */
  last: CotEventFields;
  /** Its stale event was sent when its advertised stale time passed; the table has not dropped it yet. */
  stale: boolean;
}

/** Checks the options. @returns problems as text, empty when they are valid. */
export function cotEventsOptionProblems(options: CotEventsOptions): string[] {
  const problems: string[] = [];
  const rate = options.rateHz;
  if (rate !== undefined && !(rate > 0 && Number.isFinite(rate))) {
    problems.push(`rateHz must be a positive number, got ${rate}`);
  }
  const prefix = options.uidPrefix;
  const printable = prefix !== undefined && prefix === stripControlCharacters(prefix) && !/\s/.test(prefix);
  if (prefix !== undefined && (prefix.length === 0 || prefix.length > 64 || !printable)) {
    problems.push(`uidPrefix must be 1–64 printable characters without spaces, got ${JSON.stringify(prefix)}`);
  }
  return problems;
}

/**
 * An rxjs operator from entity frames (`subscriber.frames()`, `entityFrames()`) to CoT events. Frames must be on
 * the Unix epoch (the default scheduler's clock): `frame.timeSeconds` becomes the event's `time` and `start`.
 * Appearance, type changes and departures are seen at the next frame, so the frame rate bounds how soon they are
 * sent; use at least `rateHz` frames per second (10 Hz is a good choice for 1 Hz events). Per-entity state lives
 * in the subscription, so one operator can serve several.
 *
 * @param options - rate and uid prefix; see `CotEventsOptions`.
 * @throws RangeError (when the operator is created) for an invalid option.
 *
 * ## Example
 * ```ts
 * import { createSocket } from 'node:dgram';
 * import { createSubscriber } from 'reckon';
 * import { cotEvents } from 'reckon/cot';
 *
 * const socket = createSocket('udp4');
 * createSubscriber({ network: { port: 3000 } })
 *   .frames({ rateHz: 10 })
 *   .pipe(cotEvents({ rateHz: 1 }))
 *   .subscribe((e) => socket.send(e.xml, 6969, '127.0.0.1'));
 * ```
 */
export function cotEvents(options: CotEventsOptions = {}): OperatorFunction<EntityFrame, CotEvent> {
  const problems = cotEventsOptionProblems(options);
  if (problems.length > 0) throw new RangeError(problems.join('; '));
  const periodSeconds = 1 / (options.rateHz ?? 1);
  const prefix = options.uidPrefix ?? 'DIS';
  return (source) =>
    new Observable<CotEvent>((subscriber) => {
      const tracks: Track[] = [];
      const byKey = new Map<number, Track>();
      const geodetic = new Float64Array(3);
      const velocity = new Float64Array(3);
      const cs = new Float64Array(2);
      let frameCount = 0;

      /**
       * The fields of an event for `track` at `t`, located at ECEF (x, y, z) and moving with the ECEF `velocity`;
       * `type` holds the entity type's seven fields at `at`.
       */
      const fieldsOf = (
        track: Track,
        t: number,
        staleSeconds: number,
        x: number,
        y: number,
        z: number,
        idText: string,
        type: ArrayLike<number>,
        at: number,
        marking: string,
      ): CotEventFields => {
        ecefToGeodetic(geodetic, x, y, z);
        courseAndSpeed(cs, geodetic[0]!, geodetic[1]!, velocity[0]!, velocity[1]!, velocity[2]!);
        const seven = [
          type[at]!,
          type[at + 1]!,
          type[at + 2]!,
          type[at + 3]!,
          type[at + 4]!,
          type[at + 5]!,
          type[at + 6]!,
        ];
        const names = entityTypeNameOf(seven[0]!, seven[1]!, seven[2]!, seven[3]!, seven[4]!, seven[5]!, seven[6]!);
        return {
          uid: track.uid,
          type: `a-${affiliationForForce(track.force)}-${cotDimensionFor(track.kind, track.domain, track.category)}`,
          how: 'm-s',
          timeSeconds: t,
          startSeconds: t,
          staleSeconds,
          latitudeDeg: (geodetic[0]! * 180) / Math.PI,
          longitudeDeg: (geodetic[1]! * 180) / Math.PI,
          haeM: geodetic[2]!,
          callsign: stripControlCharacters(marking) || `DIS ${idText}`,
          courseDeg: cs[0]!,
          speedMps: cs[1]!,
          dis: {
            exercise: track.exercise,
            id: idText,
            entityType: seven.join(':'),
            force: track.force,
            typeName: names.path,
            label: names.label,
          },
        };
      };

      const emit = (frame: EntityFrame, slot: number, track: Track, reason: CotEventReason, t: number): void => {
        const table = frame.table,
          l = 3 * slot;
        // The velocity the entity is dead-reckoned with at the frame time (world frame; body models turned by
        // the displayed orientation).
        worldVelocity(table.store, slot, t, table.displayWorldToBody, slot, velocity, 0, table.referenceSeconds);
        const id = frame.entityId;
        let marking = '';
        for (let i = 11 * slot, end = i + 11; i < end && frame.marking[i] !== 0; i++) {
          marking += String.fromCharCode(frame.marking[i]!);
        }
        // Honest staleness: when the receiver drops the entity unless another PDU arrives (never before now).
        const stale = Math.max(t, table.arrivalSeconds[slot]! + table.timeoutSeconds[slot]!);
        const location = frame.location;
        const idText = `${id[l]}:${id[l + 1]}:${id[l + 2]}`;
        const fields = fieldsOf(
          track,
          t,
          stale,
          location[l]!,
          location[l + 1]!,
          location[l + 2]!,
          idText,
          frame.entityType,
          7 * slot,
          marking,
        );
        track.last = fields;
        // Periodic events keep their cadence (frames rarely fall on the due time); after a stall, or any other
        // event, the next one is due a period from now.
        const next = track.dueSeconds + periodSeconds;
        track.dueSeconds = reason === 'periodic' && next > t ? next : t + periodSeconds;
        subscriber.next({ reason, key: track.key, fields, xml: encodeCotEvent(fields) });
      };

      const onFrame = (frame: EntityFrame): void => {
        const seen = ++frameCount;
        const t = frame.timeSeconds;
        const table = frame.table;
        for (let slot = 0; slot < frame.slotCount; slot++) {
          if (frame.active[slot] !== 1) continue;
          const key = frame.key[slot]!;
          const kind = frame.entityType[7 * slot]!,
            domain = frame.entityType[7 * slot + 1]!,
            category = frame.entityType[7 * slot + 3]!;
          const force = table.forceId[slot]!;
          let track = byKey.get(key);
          let reason: CotEventReason | undefined;
          if (track === undefined) {
            const l = 3 * slot;
            const exercise = table.exerciseId[slot]!;
            const uid = cotUid(prefix, exercise, frame.entityId[l]!, frame.entityId[l + 1]!, frame.entityId[l + 2]!);
            // `last` is set by the 'appeared' event emitted below.
            const last = undefined as unknown as CotEventFields;
            track = {
              key,
              uid,
              exercise,
              kind,
              domain,
              category,
              force,
              dueSeconds: t,
              seen,
              x: 0,
              y: 0,
              z: 0,
              last,
              stale: false,
            };
            byKey.set(key, track);
            tracks.push(track);
            reason = 'appeared';
          } else if (
            track.kind !== kind ||
            track.domain !== domain ||
            track.category !== category ||
            track.force !== force
          ) {
            const dimensionChanged =
              cotDimensionFor(kind, domain, category) !== cotDimensionFor(track.kind, track.domain, track.category);
            const affiliationChanged = affiliationForForce(force) !== affiliationForForce(track.force);
            if (dimensionChanged || affiliationChanged) reason = 'typeChanged';
            track.kind = kind;
            track.domain = domain;
            track.category = category;
            track.force = force;
          }
          track.seen = seen;
          track.x = frame.location[3 * slot]!;
          track.y = frame.location[3 * slot + 1]!;
          track.z = frame.location[3 * slot + 2]!;
          // Silent past the stale time it was advertised with: its one stale event now, at that time; nothing more
          // unless a PDU brings it back before the table drops it.
          const staleAt = table.arrivalSeconds[slot]! + table.timeoutSeconds[slot]!;
          if (t >= staleAt) {
            if (!track.stale) {
              if (reason === 'appeared') emit(frame, slot, track, reason, t);
              track.stale = true;
              removed(track, Math.min(t, track.last.staleSeconds));
            }
            continue;
          }
          if (track.stale) {
            track.stale = false;
            reason = 'appeared';
          }
          if (reason === undefined && t >= track.dueSeconds) reason = 'periodic';
          if (reason !== undefined) emit(frame, slot, track, reason, t);
        }
        // Entities no longer in the table: removed (deactivated) or timed out.
        for (let i = 0; i < tracks.length; ) {
          const track = tracks[i]!;
          if (track.seen === seen) {
            i++;
            continue;
          }
          tracks[i] = tracks[tracks.length - 1]!;
          tracks.pop();
          byKey.delete(track.key);
          if (!track.stale) removed(track, t);
        }
      };

      /** An entity that appeared and left between two frames: its appearance and its removal, from its last state. */
      const cameAndWent = (event: EntityEvent): void => {
        if ((event.type !== 'removed' && event.type !== 'timedOut') || byKey.has(event.key)) return;
        const state = event.state;
        const t = event.timeSeconds;
        const { site, application, entity } = state.entityId;
        const type = state.entityType;
        const seven = [
          type.kind,
          type.domain,
          type.country,
          type.category,
          type.subcategory,
          type.specific,
          type.extra,
        ];
        const track: Track = {
          key: event.key,
          uid: cotUid(prefix, state.exerciseId, site, application, entity),
          exercise: state.exerciseId,
          kind: type.kind,
          domain: type.domain,
          category: type.category,
          force: state.forceId,
          dueSeconds: t,
          seen: frameCount,
          x: state.location[0],
          y: state.location[1],
          z: state.location[2],
          last: undefined as unknown as CotEventFields,
          stale: false,
        };
        worldVelocityOf(state, velocity);
        const [x, y, z] = state.location;
        track.last = fieldsOf(track, t, t, x, y, z, `${site}:${application}:${entity}`, seven, 0, state.marking.text);
        subscriber.next({ reason: 'appeared', key: track.key, fields: track.last, xml: encodeCotEvent(track.last) });
        removed(track, t);
      };

      const removed = (track: Track, t: number): void => {
        ecefToGeodetic(geodetic, track.x, track.y, track.z);
        const fields: CotEventFields = {
          ...track.last,
          timeSeconds: t,
          startSeconds: t,
          staleSeconds: t,
          latitudeDeg: (geodetic[0]! * 180) / Math.PI,
          longitudeDeg: (geodetic[1]! * 180) / Math.PI,
          haeM: geodetic[2]!,
          courseDeg: 0,
          speedMps: 0,
        };
        subscriber.next({ reason: 'removed', key: track.key, fields, xml: encodeCotEvent(fields) });
      };

      const side = options.departures?.subscribe({
        next(event) {
          try {
            cameAndWent(event);
          } catch (error) {
            subscriber.error(error);
          }
        },
        error: (error: unknown) => subscriber.error(error),
      });
      const main = source.subscribe({
        next(frame) {
          try {
            onFrame(frame);
          } catch (error) {
            subscriber.error(error); // a programming error: wire data cannot reach here unchecked
          }
        },
        error: (error: unknown) => subscriber.error(error),
        complete: () => subscriber.complete(),
      });
      return () => {
        side?.unsubscribe();
        main.unsubscribe();
      };
    });
}

/** The ECEF velocity of a PDU's state: as sent for the world-frame models, turned out of the body frame for 6–9. */
function worldVelocityOf(state: EntityStatePdu, out: Float64Array): void {
  const [vx, vy, vz] = state.linearVelocity;
  if (state.deadReckoning.algorithm < 6) {
    out[0] = vx;
    out[1] = vy;
    out[2] = vz;
    return;
  }
  const [psi, theta, phi] = state.orientation;
  const m = worldToBodyFromEuler(new Float64Array(9), psi, theta, phi);
  // v_world = R_wbᵀ · v_body (R_wb row-major: row i is body axis i in world coordinates).
  for (let k = 0; k < 3; k++) out[k] = m[k]! * vx + m[3 + k]! * vy + m[6 + k]! * vz;
}
