/**
 * A fleet: many local entities published together from a simulation loop. The truth of every entity goes into
 * typed arrays (or one entity at a time with `set`), and `publish(t)` decides every entity in one pass of an
 * emitter bank and sends the PDUs it needs, bundled, through the publisher's transport. Made by `Publisher.fleet`.
 */
import type { Config } from '../config/schema.js';
import type { BankAttitude, BankTruth } from '../dr/owner/emitter-bank.js';
import { OwnedEntityTable, type PduSink } from '../dr/owner/owned-entity-table.js';
import type { TruthState } from '../dr/owner/truth-state.js';
import { checkEntityNumber, defineLocalEntity, type LocalEntity } from './local-entities.js';

/** Options of `publisher.fleet`. */
export interface FleetOptions {
  /**
   * How each entity's attitude is given: 'angles' (ψθφ in `truth.orientation`) or 'matrix' (R_wb row-major in
   * `truth.worldToBody`, which spares the decisions six sines and cosines each). Defaults to 'angles'.
   */
  readonly attitude?: BankAttitude;
}

/** Many local entities sent from a simulation loop, their truth in typed arrays (`publisher.fleet`). */
export interface Fleet {
  /** The entities, in the order of the arrays: entity k is `entities[k]`. */
  readonly entities: readonly LocalEntity[];
  readonly count: number;
  /**
   * The truth of every entity, written before each `publish`: entity k's ECEF location at `location[3k…3k+2]`,
   * likewise its velocity (m/s), acceleration (m/s²), ψθφ (rad) and body rates (rad/s); R_wb at
   * `worldToBody[9k…9k+8]` with attitude 'matrix'; appearance bits at `appearance[k]` (a change is sent at once).
   */
  readonly truth: BankTruth;
  /**
   * Why each entity sent at the last `publish` (a bit set of `EMIT_*`; 0: it sent nothing). Valid until the next
   * `publish`.
   */
  readonly reasons: Uint8Array;
  /** Copies entity k's truth from one record (with its R_wb in 'matrix' mode) instead of writing the arrays. */
  set(k: number, state: TruthState, appearance?: number, worldToBody?: ArrayLike<number>): void;
  /** Makes entity k's next `publish` send it (reason `change`), e.g. after its marking changed. */
  requestUpdate(k: number): void;
  /**
   * Decides every entity at `timeSeconds` and sends the PDUs needed (bundled with the others of this tick).
   * @returns PDUs sent.
   */
  publish(timeSeconds: number): number;
}

/** The table behind a fleet: its entities' identities and emitters, with the configuration's settings. */
export function fleetTable(
  config: Config,
  entities: readonly LocalEntity[],
  options: FleetOptions,
  absoluteTimestamps: boolean,
): OwnedEntityTable {
  const table = new OwnedEntityTable({
    capacity: entities.length,
    attitude: options.attitude ?? 'angles',
    exercise: config.dis.exercise,
    protocolVersion: config.dis.protocolVersion,
    absoluteTimestamps,
  });
  const numbers = new Set<number>();
  entities.forEach((entity, k) => {
    checkEntityNumber(entity.entity);
    if (numbers.has(entity.entity)) throw new RangeError(`entity number ${entity.entity} is in the fleet twice`);
    numbers.add(entity.entity);
    defineLocalEntity(table, k, entity, config);
  });
  return table;
}

/**
 * A fleet over `table` whose PDUs go to `sink`; `sent(pdus, bytes)` is told of each publish that sent any, and
 * `stopped()` says when the publisher is closing (the fleet then sends nothing).
 */
export function fleetOver(
  table: OwnedEntityTable,
  entities: readonly LocalEntity[],
  sink: PduSink,
  sent: (pdus: number, bytes: number, timeSeconds: number) => void,
  stopped: () => boolean,
): Fleet {
  const bank = table.bank;
  return {
    entities,
    count: entities.length,
    truth: bank.truth,
    reasons: bank.reasons,
    set(k, state, appearance = 0, worldToBody) {
      bank.setTruth(k, state, appearance, worldToBody ?? null);
    },
    requestUpdate(k) {
      bank.requestUpdate(k);
    },
    publish(timeSeconds) {
      if (stopped()) return 0;
      const pdus = table.stats.pdus,
        bytes = table.stats.bytes;
      table.tick(timeSeconds, sink);
      const n = table.stats.pdus - pdus;
      sent(n, table.stats.bytes - bytes, timeSeconds);
      return n;
    },
  };
}
