/**
 * The owner's side for many local entities, declared one by one: an `OwnedEntityTable` (the emitter bank with
 * identities) that grows as entities are declared, each entity in a slot of it. Shared by `deadReckonEmit` and
 * `Publisher.update`. Nothing here knows sockets or clocks.
 */
import type { Config } from '../config/schema.js';
import type { EmitterOptions } from '../dr/owner/emitter.js';
import { OwnedEntityTable } from '../dr/owner/owned-entity-table.js';
import type { TruthState } from '../dr/owner/truth-state.js';
import type { EntityStateRecord } from '../pdu/wire/entity-state-record.js';
import type { EntityType } from '../pdu/schema/schema.js';
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

/** @throws RangeError for an entity number outside 1–65534. */
export function checkEntityNumber(entity: number): void {
  if (!Number.isInteger(entity) || entity < 1 || entity > 0xfffe) {
    throw new RangeError(`entity number must be a whole number from 1 to 65534, got ${entity}`);
  }
}

/**
 * Puts a local entity in a table's slot: its identity (site and application from `dis`), its emitter settings
 * (the configuration's for its kind and domain, its algorithm, its own overrides); it sends afresh.
 */
export function defineLocalEntity(table: OwnedEntityTable, slot: number, entity: LocalEntity, config: Config): void {
  const type = { ...DEFAULT_TYPE, ...entity.entityType };
  const profile = table.bank.addProfile({
    ...emitterOptionsFromConfig(config, type.kind, type.domain),
    algorithm: entity.algorithm ?? 4,
    ...entity.emitter,
  });
  table.define(
    slot,
    {
      site: config.dis.site,
      application: config.dis.application,
      entity: entity.entity,
      forceId: entity.forceId ?? 1,
      entityType: [type.kind, type.domain, type.country, type.category, type.subcategory, type.specific, type.extra],
      marking: entity.marking ?? '',
    },
    profile,
  );
}

/** Whether two declarations say the same of an entity (so that a new object of the same entity changes nothing). */
function sameIdentity(a: LocalEntity, b: LocalEntity): boolean {
  if (a.marking !== b.marking || a.forceId !== b.forceId || a.algorithm !== b.algorithm || a.emitter !== b.emitter) {
    return false;
  }
  const ta = a.entityType,
    tb = b.entityType;
  if (ta === tb) return true;
  if (ta === undefined || tb === undefined) return false;
  return (
    ta.kind === tb.kind &&
    ta.domain === tb.domain &&
    ta.country === tb.country &&
    ta.category === tb.category &&
    ta.subcategory === tb.subcategory &&
    ta.specific === tb.specific &&
    ta.extra === tb.extra
  );
}

/** The first capacity of a table of declared entities; it doubles as they come. */
const FIRST_CAPACITY = 16;

/** Every local entity of one owner, by entity number, each in a slot of one table. */
export class LocalEntities {
  readonly table: OwnedEntityTable;
  private readonly slots = new Map<number, number>();
  /** The declarations, by slot. */
  private readonly declared: LocalEntity[] = [];

  /**
   * @param config - `dis` (ids, exercise, version), `emitter` and `heartbeat` are read.
   * @param absoluteTimestamps - stamp PDUs as absolute (times must then be Unix epoch seconds, UTC). Defaults to false.
   */
  constructor(
    private readonly config: Config,
    absoluteTimestamps = false,
  ) {
    this.table = new OwnedEntityTable({
      capacity: FIRST_CAPACITY,
      exercise: config.dis.exercise,
      protocolVersion: config.dis.protocolVersion,
      absoluteTimestamps,
    });
  }

  /** Declares an entity (or replaces its identity: the next update then sends at once). @returns its slot. */
  define(entity: LocalEntity): number {
    checkEntityNumber(entity.entity);
    let slot = this.slots.get(entity.entity);
    if (slot === undefined) {
      slot = this.declared.length;
      if (slot === this.table.capacity) this.table.grow(2 * slot);
      this.slots.set(entity.entity, slot);
    }
    this.declared[slot] = entity;
    defineLocalEntity(this.table, slot, entity, this.config);
    return slot;
  }

  /**
   * The entity's slot, declaring it with defaults when it is new, and again when it comes with an identity that
   * differs from the one declared (a live vehicle's callsign arrived): its next PDU then carries it.
   */
  slot(entity: number | LocalEntity): number {
    const number = typeof entity === 'number' ? entity : entity.entity;
    const slot = this.slots.get(number);
    if (slot === undefined) return this.define(typeof entity === 'number' ? { entity } : entity);
    if (typeof entity !== 'number' && entity !== this.declared[slot] && !sameIdentity(entity, this.declared[slot]!)) {
      return this.define(entity);
    }
    return slot;
  }

  /** The declaration of the entity in `slot`. */
  entity(slot: number): LocalEntity {
    return this.declared[slot]!;
  }

  /**
   * Runs the entity's emitter on its true state at `timeSeconds`.
   * @returns the reason bits (0: nothing to send); when non-zero the slot's PDU is ready (`table.encodeLast`,
   *   `record`).
   */
  update(slot: number, truth: TruthState, timeSeconds: number, appearance = 0): number {
    this.table.bank.setTruth(slot, truth, appearance);
    return this.table.update(slot, timeSeconds);
  }

  /** Writes the slot's last PDU, complete, into `out`. */
  record(slot: number, out: EntityStateRecord): EntityStateRecord {
    return this.table.writeRecord(slot, out);
  }
}
