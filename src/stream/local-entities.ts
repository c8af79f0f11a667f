/**
 * The owner's side for many local entities: one `DeadReckoningEmitter` and one reusable `EntityStateRecord` per
 * entity, with the identity (site, application, entity, type, marking, force) and header (exercise, version,
 * timestamp) filled in. Shared by `deadReckonEmit` and `Publisher.update`. Nothing here knows sockets or clocks.
 */
import type { Config } from '../config/schema.js';
import { ENTITY_STATE_BYTES } from '../pdu/constants.js';
import { DeadReckoningEmitter, type EmitterOptions } from '../dr/emitter.js';
import type { TruthState } from '../dr/truth-state.js';
import { EntityStateRecord, setMarkingText } from '../pdu/entity-state-record.js';
import type { EntityType } from '../pdu/schema.js';
import { timestampFromSeconds } from '../pdu/timestamp.js';
import { emitterOptionsFromConfig } from './settings.js';

/** A local entity's identity and how it is dead-reckoned. */
export interface LocalEntity {
  /** Entity number (1–65534); site and application come from `dis.site` / `dis.application`. */
  readonly entity: number;
  /** Up to 11 ASCII characters. Defaults to none. */
  readonly marking?: string;
  /** Defaults to kind 1 (platform), every other field 0. */
  readonly entityType?: Partial<EntityType>;
  /** 0 other, 1 friendly, 2 opposing, 3 neutral. Defaults to 1. */
  readonly forceId?: number;
  /** DR algorithm (1–9) or 'auto' (see `EmitterOptions.algorithm`). Defaults to 4 (RVW). */
  readonly algorithm?: number | 'auto';
  /** Emitter settings that override the configuration's (thresholds, heartbeat, rate cap). Defaults to none. */
  readonly emitter?: EmitterOptions;
}

/** One PDU decided by the emitter. */
export interface EmittedPdu {
  /** Entity number. */
  readonly entity: number;
  /**
   * The PDU to send, complete (header, identity, kinematics as the emitter rounded them). The entity's own
   * record, reused: valid until that entity's next PDU; copy what you keep.
   */
  readonly record: EntityStateRecord;
  /** Why it was sent: a bit set of `EMIT_*` (see `emitReasonNames`). */
  readonly reasons: number;
  /** When it was decided, seconds on the caller's time axis. */
  readonly timeSeconds: number;
}

const DEFAULT_TYPE: EntityType = { kind: 1, domain: 0, country: 0, category: 0, subcategory: 0, specific: 0, extra: 0 };

/** The emitter and record of one entity. */
export class LocalEntityState {
  readonly emitter: DeadReckoningEmitter;
  readonly record = new EntityStateRecord(0);

  constructor(
    readonly entity: LocalEntity,
    config: Config,
  ) {
    const type = { ...DEFAULT_TYPE, ...entity.entityType };
    this.emitter = new DeadReckoningEmitter({
      ...emitterOptionsFromConfig(config, type.kind, type.domain),
      algorithm: entity.algorithm ?? 4,
      ...entity.emitter,
    });
    const r = this.record;
    r.protocolVersion = config.dis.protocolVersion;
    r.length = ENTITY_STATE_BYTES; // no variable parameter records
    r.exerciseId = config.dis.exercise;
    r.site = config.dis.site;
    r.application = config.dis.application;
    r.entity = entity.entity;
    r.forceId = entity.forceId ?? 1;
    r.entityType.set([
      type.kind,
      type.domain,
      type.country,
      type.category,
      type.subcategory,
      type.specific,
      type.extra,
    ]);
    setMarkingText(r, entity.marking ?? '');
  }
}

/** Every local entity of one owner, by entity number. */
export class LocalEntities {
  private readonly byNumber = new Map<number, LocalEntityState>();

  /**
   * @param config - `dis` (ids, exercise, version), `emitter` and `heartbeat` are read.
   * @param absoluteTimestamps - stamp PDUs as absolute (times must then be Unix epoch seconds, UTC). Defaults to false.
   */
  constructor(
    private readonly config: Config,
    private readonly absoluteTimestamps = false,
  ) {}

  /** Declares an entity (or replaces its identity: the next update then sends at once). */
  define(entity: LocalEntity): LocalEntityState {
    if (!Number.isInteger(entity.entity) || entity.entity < 1 || entity.entity > 0xfffe) {
      throw new RangeError(`entity number must be a whole number from 1 to 65534, got ${entity.entity}`);
    }
    const state = new LocalEntityState(entity, this.config);
    this.byNumber.set(entity.entity, state);
    return state;
  }

  /** The entity's state, declaring it with defaults when it is new. */
  get(entity: number | LocalEntity): LocalEntityState {
    if (typeof entity !== 'number') return this.byNumber.get(entity.entity) ?? this.define(entity);
    return this.byNumber.get(entity) ?? this.define({ entity });
  }

  /**
   * Runs the entity's emitter on its true state at `timeSeconds`.
   * @returns the reason bits (0: nothing to send); when non-zero the entity's record is the PDU to send.
   */
  update(local: LocalEntityState, truth: TruthState, timeSeconds: number, appearance = 0): number {
    const reasons = local.emitter.update(truth, timeSeconds, local.record, appearance);
    if (reasons !== 0) local.record.timestampRaw = timestampFromSeconds(timeSeconds, this.absoluteTimestamps);
    return reasons;
  }
}
