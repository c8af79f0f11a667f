/**
 * Heartbeat intervals of the Entity State PDU by entity kind and platform domain (docs/dis-reference.md §4). The two public
 * readings disagree, so both are exported: IEEE 1278.1-2012 Table 25 (5 s for every kind) and KDIS
 * `KSymbolicNames.hpp` (55 s for land, surface and subsurface platforms; 60 s for life forms, cultural features
 * and environmentals). Receivers time an entity out after heartbeat × HBT_TIMEOUT_MPLIER (2.4). An entity
 * that does not move heartbeats every HBT_STATIONARY (60 s) instead; see `isStationaryState`. The settings
 * (`heartbeat` in the configuration) choose a table and override it per class of entity (`HEARTBEAT_CLASSES`).
 */
import { DR_STATIC, isRotatingAlgorithm, usesAcceleration } from '../models/algorithm.js';

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

/** Classes of entity with a heartbeat of their own, as the settings name them (the keys of `heartbeatOverrides`). */
export const HEARTBEAT_CLASSES = [
  'platformOther',
  'platformLand',
  'platformAir',
  'platformSurface',
  'platformSubsurface',
  'platformSpace',
  'munition',
  'lifeForm',
  'environmental',
  'culturalFeature',
  'supply',
  'radio',
  'expendable',
  'sensorEmitter',
  'other',
] as const;
/** A class of entity with its own heartbeat. */
export type HeartbeatClass = (typeof HEARTBEAT_CLASSES)[number];

/** By platform domain (0 other, 1 land, 2 air, 3 surface, 4 subsurface, 5 space). */
const PLATFORM_CLASSES: readonly HeartbeatClass[] = [
  'platformOther',
  'platformLand',
  'platformAir',
  'platformSurface',
  'platformSubsurface',
  'platformSpace',
];
// Indexed by Entity Kind (IEEE 1278.1 / SISO-REF-010 UID 7); kind 1 is split by domain above.
const KIND_CLASSES: readonly HeartbeatClass[] = [
  'other',
  'platformOther',
  'munition',
  'lifeForm',
  'environmental',
  'culturalFeature',
  'supply',
  'radio',
  'expendable',
  'sensorEmitter',
];

/** The heartbeat tables by the names the settings give them. */
export const HEARTBEAT_TABLES: Readonly<Record<'ieee' | 'kdis', HeartbeatTable>> = {
  ieee: HEARTBEAT_IEEE_TABLE_25,
  kdis: HEARTBEAT_KDIS,
};

/** The heartbeat settings: the `heartbeat` section of the configuration, times in seconds. */
export interface HeartbeatSettings {
  /** The table of heartbeats by kind and domain. */
  readonly heartbeatTable: keyof typeof HEARTBEAT_TABLES;
  /** Seconds per class of entity, in place of the table's. */
  readonly heartbeatOverrides: Readonly<Partial<Record<HeartbeatClass, number>>>;
  /** Heartbeat of an entity that does not move (HBT_STATIONARY), seconds; 0 turns it off. */
  readonly stationaryHeartbeat: number;
  /** A remote entity times out after heartbeat × this (HBT_TIMEOUT_MPLIER). */
  readonly timeoutMultiplier: number;
}

/** The heartbeat class of an entity type. Unknown kinds and domains fall back to `other` / `platformOther`. */
export function heartbeatClass(kind: number, domain: number): HeartbeatClass {
  if (kind === 1) return PLATFORM_CLASSES[domain] ?? 'platformOther';
  return KIND_CLASSES[kind] ?? 'other';
}

/**
 * The heartbeat interval of an entity, in seconds: the class's override, else the chosen table's figure.
 * @param settings - the `heartbeat` section of the configuration.
 * @param kind - Entity Type kind (1 = platform, 2 = munition, …).
 * @param domain - Entity Type domain (for platforms: 1 land, 2 air, 3 surface, 4 subsurface, 5 space).
 */
export function heartbeatSeconds(settings: HeartbeatSettings, kind: number, domain: number): number {
  return (
    settings.heartbeatOverrides[heartbeatClass(kind, domain)] ??
    heartbeatSecondsFor(HEARTBEAT_TABLES[settings.heartbeatTable], kind, domain)
  );
}

/**
 * Seconds without an update after which a remote entity is dropped: heartbeat × timeout multiplier (2.4), where
 * the heartbeat of a stationary entity is the longer of `stationaryHeartbeat` (when on) and its class's heartbeat.
 * @param stationary - the entity's last update is stationary (`isStationaryState`). Defaults to false.
 */
export function entityTimeoutSeconds(
  settings: HeartbeatSettings,
  kind: number,
  domain: number,
  stationary = false,
): number {
  const heartbeat = heartbeatSeconds(settings, kind, domain);
  return (stationary ? Math.max(heartbeat, settings.stationaryHeartbeat) : heartbeat) * settings.timeoutMultiplier;
}

/**
 * The chosen table with the overrides applied, in the form the remote-entity table looks heartbeats up in:
 * `heartbeatSecondsFor(heartbeatTableFromConfig(s), kind, domain)` equals `heartbeatSeconds(s, kind, domain)` for
 * every kind and domain.
 */
export function heartbeatTableFromConfig(settings: HeartbeatSettings): HeartbeatTable {
  const base = HEARTBEAT_TABLES[settings.heartbeatTable];
  if (Object.keys(settings.heartbeatOverrides).length === 0) return base;
  const byKind: Record<number, number> = {};
  const platformByDomain: Record<number, number> = {};
  // Every kind and domain that has a class of its own; the rest are `other` (kinds) or `platformOther` (domains).
  for (let kind = 0; kind < KIND_CLASSES.length; kind++)
    if (kind !== 1) byKind[kind] = heartbeatSeconds(settings, kind, 0);
  for (let domain = 0; domain < PLATFORM_CLASSES.length; domain++)
    platformByDomain[domain] = heartbeatSeconds(settings, 1, domain);
  byKind[1] = heartbeatSeconds(settings, 1, PLATFORM_CLASSES.length);
  return { defaultSeconds: heartbeatSeconds(settings, KIND_CLASSES.length, 0), byKind, platformByDomain };
}
