/**
 * rxjs operators and sources of the owner's side: true states in, PDUs out. Per-subscription state lives inside
 * the subscribe callback (rxjs `map` style), so one operator instance can serve several subscriptions.
 */
import { Observable, asyncScheduler, type OperatorFunction, type SchedulerLike } from 'rxjs';
import { createTruthState, type TruthState } from '../dr/owner/truth-state.js';
import type { Trajectory } from '../truth/trajectory.js';
import { EntityStateRecord } from '../pdu/wire/entity-state-record.js';
import { LocalEntities, type EmittedPdu, type LocalEntity } from './local-entities.js';
import { resolveConfig, type StreamConfig } from './settings.js';

/** The true state of one local entity at one instant. */
export interface TruthSample {
  /** Entity number, or the entity with its identity (declared on first sight). */
  readonly entity: number | LocalEntity;
  /** ECEF state; read during the call only, so a source may reuse one object. */
  readonly state: TruthState;
  /** Seconds on any steady axis (Unix epoch seconds with absolute timestamps). */
  readonly timeSeconds: number;
  /** Appearance bits; a change is sent at once. Defaults to 0. */
  readonly appearance?: number;
}

/** Options of `deadReckonEmit`. */
export interface DeadReckonEmitOptions {
  /** `dis` (ids, exercise, version), `emitter` (thresholds) and `heartbeat` are read. Defaults to the defaults. */
  readonly config?: StreamConfig;
  /** Entities declared up front (marking, type, algorithm); others get defaults on first sight. Defaults to none. */
  readonly entities?: readonly LocalEntity[];
  /** Stamp PDUs absolute: `timeSeconds` must then be Unix epoch seconds (UTC). Defaults to false (relative). */
  readonly absoluteTimestamps?: boolean;
}

/**
 * Runs each entity's dead-reckoning emitter on a stream of true states and emits a PDU exactly when the emitter
 * decides one is needed (first sight, position or orientation threshold, heartbeat, change of appearance).
 * Nothing is sent: pipe the result into `publisher.transmit()`, or inspect it.
 *
 * @param options - configuration and entities; see `DeadReckonEmitOptions`.
 * @throws ConfigError (when the operator is created) for an invalid configuration.
 *
 * ## Example
 * ```ts
 * import { createPublisher, deadReckonEmit, emitReasonNames, sampleTrajectory } from 'reckon';
 * import { tankRoadCourse } from 'reckon/truth';
 *
 * const publisher = await createPublisher({ network: { port: 3000 } });
 * const truth$ = sampleTrajectory(tankRoadCourse(), { entity: 1, rateHz: 30, durationSeconds: 60 });
 * truth$
 *   .pipe(deadReckonEmit({ entities: [{ entity: 1, marking: 'TANK', algorithm: 'auto' }] }), publisher.transmit())
 *   .subscribe({
 *     next: (pdu) => console.log(pdu.entity, emitReasonNames(pdu.reasons)),
 *     complete: () => void publisher.close(),
 *   });
 * ```
 */
export function deadReckonEmit(options: DeadReckonEmitOptions = {}): OperatorFunction<TruthSample, EmittedPdu> {
  const config = resolveConfig(options.config);
  return (source) =>
    new Observable<EmittedPdu>((subscriber) => {
      const locals = new LocalEntities(config, options.absoluteTimestamps);
      for (const entity of options.entities ?? []) locals.define(entity);
      // Each entity's own record, made at its first PDU (an `EmittedPdu` stays valid until the entity's next one).
      const records: EntityStateRecord[] = [];
      return source.subscribe({
        next(sample) {
          let pdu: EmittedPdu | undefined;
          try {
            const slot = locals.slot(sample.entity);
            const reasons = locals.update(slot, sample.state, sample.timeSeconds, sample.appearance);
            if (reasons !== 0) {
              const record = locals.record(slot, (records[slot] ??= new EntityStateRecord(0)));
              pdu = { entity: record.entity, record, reasons, timeSeconds: sample.timeSeconds };
            }
          } catch (error) {
            subscriber.error(error); // e.g. an entity number out of range: a programming error, not wire data
            return;
          }
          if (pdu) subscriber.next(pdu);
        },
        error: (error: unknown) => subscriber.error(error),
        complete: () => subscriber.complete(),
      });
    });
}

/** Options of `sampleTrajectory`. */
export interface SampleTrajectoryOptions {
  /** The entity the samples belong to. */
  readonly entity: number | LocalEntity;
  /** Samples per second. Defaults to 30. */
  readonly rateHz?: number;
  /** Trajectory time of the first sample, seconds (to start part-way along). Defaults to 0. */
  readonly startSeconds?: number;
  /** Complete after this many seconds. Defaults to the trajectory's remaining duration. */
  readonly durationSeconds?: number;
  /** Where time comes from (`now()` in ms). Defaults to `asyncScheduler` (the wall clock). */
  readonly scheduler?: SchedulerLike;
  /** Scheduler time (ms) at which the trajectory is at `startSeconds`. Defaults to the time of subscription. */
  readonly originMs?: number;
}

/**
 * True states of an entity moving along a trajectory, sampled at a steady rate on the scheduler's clock:
 * `timeSeconds` is `scheduler.now() / 1000`. One `TruthState` per subscription is reused for every sample.
 *
 * ## Example
 * ```ts
 * import { createPublisher, deadReckonEmit, sampleTrajectory } from 'reckon';
 * import { tankRoadCourse } from 'reckon/truth';
 *
 * const publisher = await createPublisher({ network: { port: 3000 } });
 * sampleTrajectory(tankRoadCourse(), { entity: 1, rateHz: 20, durationSeconds: 60 })
 *   .pipe(deadReckonEmit(), publisher.transmit())
 *   .subscribe({ complete: () => void publisher.close() });
 * ```
 */
export function sampleTrajectory(trajectory: Trajectory, options: SampleTrajectoryOptions): Observable<TruthSample> {
  const scheduler = options.scheduler ?? asyncScheduler;
  const periodMs = 1000 / (options.rateHz ?? 30);
  const start = options.startSeconds ?? 0;
  const duration = options.durationSeconds ?? Math.max(0, trajectory.durationSeconds - start);
  return new Observable<TruthSample>((subscriber) => {
    const state = createTruthState();
    const sample = { entity: options.entity, state, timeSeconds: 0 };
    const t0Ms = options.originMs ?? scheduler.now();
    const tick = (): boolean => {
      const nowMs = scheduler.now();
      const elapsed = Math.max(0, (nowMs - t0Ms) / 1000);
      trajectory.sample(start + Math.min(elapsed, duration), state);
      sample.timeSeconds = nowMs / 1000;
      subscriber.next(sample);
      if (elapsed < duration) return true;
      subscriber.complete();
      return false;
    };
    if (!tick()) return undefined;
    return scheduler.schedule(function () {
      if (tick()) this.schedule(undefined, periodMs);
    }, periodMs);
  });
}
