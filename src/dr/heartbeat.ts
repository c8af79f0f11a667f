/**
 * Heartbeat intervals of the Entity State PDU by entity kind and platform domain (docs/dis-reference.md §4). The two public
 * readings disagree, so both are exported: IEEE 1278.1-2012 Table 25 (5 s for every kind) and KDIS
 * `KSymbolicNames.hpp` (55 s for land, surface and subsurface platforms; 60 s for life forms, cultural features
 * and environmentals). Receivers time an entity out after heartbeat × HBT_TIMEOUT_MPLIER (2.4). An entity
 * that does not move heartbeats every HBT_STATIONARY (60 s) instead; see `isStationaryState`.
 */
import { DR_STATIC, isRotatingAlgorithm, usesAcceleration } from './algorithm.js';

/** Heartbeat intervals by entity kind and domain, seconds. */
export interface HeartbeatTable {
  /** Seconds for kinds and domains not listed. */
  readonly defaultSeconds: number;
  /** Seconds by Entity Kind (0 other, 1 platform, 2 munition, 3 life form, 4 environmental, 5 cultural feature, …). */
  readonly byKind: Readonly<Record<number, number>>;
  /** Seconds for platforms (kind 1) by domain (1 land, 2 air, 3 surface, 4 subsurface, 5 space). */
  readonly platformByDomain: Readonly<Record<number, number>>;
}

/** IEEE 1278.1-2012 Table 25 (HBT_ESPDU_*): 5 s for all. */
export const HEARTBEAT_IEEE_TABLE_25: HeartbeatTable = { defaultSeconds: 5, byKind: {}, platformByDomain: {} };

/** KDIS `KSymbolicNames.hpp` reading of HBT_ESPDU_*. */
export const HEARTBEAT_KDIS: HeartbeatTable = {
  defaultSeconds: 5,
  byKind: { 3: 60, 4: 60, 5: 60 },
  platformByDomain: { 1: 55, 3: 55, 4: 55 },
};

/** HBT_TIMEOUT_MPLIER: a remote entity times out after heartbeat × 2.4 without a PDU. */
export const HEARTBEAT_TIMEOUT_MULTIPLIER = 2.4;

/** HBT_STATIONARY: heartbeat of an entity that does not move, seconds (IEEE 1278.1-2012 Table 25; KDIS). */
export const HEARTBEAT_STATIONARY_SECONDS = 60;

/**
 * True when an entity dead-reckoned from this PDU state does not move: the algorithm is static (1), or the velocity
 * is zero, the acceleration is zero or unused (P models) and the angular velocity is zero or unused (F models).
 * This is what decides between the stationary heartbeat (HBT_STATIONARY) and the regular one, on both sides: the
 * owner tests what it sent, the receiver what it got, so both agree on the interval. Exact zeros: a velocity of
 * 1 mm/s still moves the entity 6 cm in a minute. Allocates nothing.
 * @param velocity - linear velocity at `velocityAt` (3 values), m/s, world or body frame.
 * @param acceleration - linear acceleration at `accelerationAt`, m/s².
 * @param angularVelocity - body angular velocity at `angularVelocityAt`, rad/s.
 */
export function isStationaryState(
  algorithm: number,
  velocity: ArrayLike<number>,
  velocityAt: number,
  acceleration: ArrayLike<number>,
  accelerationAt: number,
  angularVelocity: ArrayLike<number>,
  angularVelocityAt: number,
): boolean {
  if (algorithm === DR_STATIC) return true;
  if (velocity[velocityAt] !== 0 || velocity[velocityAt + 1] !== 0 || velocity[velocityAt + 2] !== 0) return false;
  const a = acceleration,
    i = accelerationAt;
  if (usesAcceleration(algorithm) && (a[i] !== 0 || a[i + 1] !== 0 || a[i + 2] !== 0)) return false;
  const w = angularVelocity,
    j = angularVelocityAt;
  return !isRotatingAlgorithm(algorithm) || (w[j] === 0 && w[j + 1] === 0 && w[j + 2] === 0);
}

/**
 * Heartbeat interval of an entity type in seconds.
 * @param kind - Entity Type kind.
 * @param domain - Entity Type domain (used for platforms).
 */
export function heartbeatSecondsFor(table: HeartbeatTable, kind: number, domain: number): number {
  if (kind === 1) return table.platformByDomain[domain] ?? table.byKind[1] ?? table.defaultSeconds;
  return table.byKind[kind] ?? table.defaultSeconds;
}
