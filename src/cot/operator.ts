/**
 * Entity frames → CoT events: one event per remote entity at a modest rate (default 1 Hz), at once when an
 * entity appears or changes its CoT type, and a stale-now event when it leaves (removed or timed out). Positions
 * are the frame's dead-reckoned (smoothed) locations; the stale time is when the receiver would time the entity
 * out (last PDU's arrival + its timeout), so TAK shows an entity exactly as long as reckon still believes in it.
 * The frame scan allocates nothing for entities that are not due; only the events themselves allocate.
 */
import { Observable, type OperatorFunction } from 'rxjs';
import { worldVelocity } from '../dr/store.js';
import { ecefToGeodetic } from '../math/geodesy.js';
import { entityTypeNameOf } from '../names/entity-type-names.js';
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

export interface CotEventsOptions {
  /** Events per entity per second while nothing changes. Defaults to 1. */
  readonly rateHz?: number;
  /** First part of every uid (`<prefix>.<exercise>.<site>.<application>.<entity>`). Defaults to `DIS`. */
  readonly uidPrefix?: string;
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
 * const subscriber = createSubscriber({ network: { port: 3000 } });
 * subscriber.frames({ rateHz: 10 })
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

      const emit = (frame: EntityFrame, slot: number, track: Track, reason: CotEventReason, t: number): void => {
        const table = frame.table,
          l = 3 * slot,
          e = 7 * slot;
        ecefToGeodetic(geodetic, frame.location[l]!, frame.location[l + 1]!, frame.location[l + 2]!);
        // The velocity the entity is dead-reckoned with at the frame time (world frame; body models turned by
        // the displayed orientation).
        worldVelocity(table.store, slot, t, table.displayWorldToBody, slot, velocity, 0, table.referenceSeconds);
        courseAndSpeed(cs, geodetic[0]!, geodetic[1]!, velocity[0]!, velocity[1]!, velocity[2]!);
        const id = frame.entityId;
        const type = frame.entityType;
        const names = entityTypeNameOf(
          type[e]!,
          type[e + 1]!,
          type[e + 2]!,
          type[e + 3]!,
          type[e + 4]!,
          type[e + 5]!,
          type[e + 6]!,
        );
        let marking = '';
        for (let i = 11 * slot, end = i + 11; i < end && frame.marking[i] !== 0; i++) {
          marking += String.fromCharCode(frame.marking[i]!);
        }
        const callsign = stripControlCharacters(marking) || `DIS ${id[l]}:${id[l + 1]}:${id[l + 2]}`;
        // Honest staleness: when the receiver drops the entity unless another PDU arrives (never before now).
        const stale = Math.max(t, table.arrivalSeconds[slot]! + table.timeoutSeconds[slot]!);
        const fields: CotEventFields = {
          uid: track.uid,
          type: `a-${affiliationForForce(track.force)}-${cotDimensionFor(track.kind, track.domain, track.category)}`,
          how: 'm-s',
          timeSeconds: t,
          startSeconds: t,
          staleSeconds: stale,
          latitudeDeg: (geodetic[0]! * 180) / Math.PI,
          longitudeDeg: (geodetic[1]! * 180) / Math.PI,
          haeM: geodetic[2]!,
          callsign,
          courseDeg: cs[0]!,
          speedMps: cs[1]!,
          dis: {
            exercise: track.exercise,
            id: `${id[l]}:${id[l + 1]}:${id[l + 2]}`,
            entityType: type.subarray(e, e + 7).join(':'),
            force: track.force,
            typeName: names.path,
            label: names.label,
          },
        };
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
            track = { key, uid, exercise, kind, domain, category, force, dueSeconds: t, seen, x: 0, y: 0, z: 0, last };
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
          if (reason === undefined && t >= track.dueSeconds) reason = 'periodic';
          track.seen = seen;
          track.x = frame.location[3 * slot]!;
          track.y = frame.location[3 * slot + 1]!;
          track.z = frame.location[3 * slot + 2]!;
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
          removed(track, t);
        }
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

      return source.subscribe({
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
    });
}
