/**
 * Heartbeat intervals per entity class, as the configuration names them. The figures are the dr module's tables
 * (docs/dis-reference.md §4: IEEE 1278.1-2012 Table 25, 5 s for every kind, or the KDIS reading, longer for land, surface and
 * subsurface platforms, life forms, cultural features and environmentals); the configuration chooses one
 * (`heartbeat.heartbeatTable`) and may override any class (`heartbeat.heartbeatOverrides`).
 */
import { HEARTBEAT_IEEE_TABLE_25, HEARTBEAT_KDIS, heartbeatSecondsFor, type HeartbeatTable } from '../dr/heartbeat.js';
import type { HeartbeatClass, HeartbeatConfig } from './schema.js';

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

/** The dr module's heartbeat tables by their configuration names. */
export const HEARTBEAT_TABLES: Readonly<Record<HeartbeatConfig['heartbeatTable'], HeartbeatTable>> = {
  ieee: HEARTBEAT_IEEE_TABLE_25,
  kdis: HEARTBEAT_KDIS,
};

/** The heartbeat class of an entity type. Unknown kinds and domains fall back to `other` / `platformOther`. */
export function heartbeatClass(kind: number, domain: number): HeartbeatClass {
  if (kind === 1) return PLATFORM_CLASSES[domain] ?? 'platformOther';
  return KIND_CLASSES[kind] ?? 'other';
}

/**
 * The heartbeat interval of an entity, in seconds: the class's override, else the chosen table's figure.
 * @param config - the `heartbeat` section of the configuration.
 * @param kind - Entity Type kind (1 = platform, 2 = munition, …).
 * @param domain - Entity Type domain (for platforms: 1 land, 2 air, 3 surface, 4 subsurface, 5 space).
 */
export function heartbeatSeconds(config: HeartbeatConfig, kind: number, domain: number): number {
  return (
    config.heartbeatOverrides[heartbeatClass(kind, domain)] ??
    heartbeatSecondsFor(HEARTBEAT_TABLES[config.heartbeatTable], kind, domain)
  );
}

/**
 * Seconds without an update after which a remote entity is dropped: heartbeat × timeout multiplier (2.4), where
 * the heartbeat of a stationary entity is the longer of `stationaryHeartbeat` (when on) and its class's heartbeat.
 * @param stationary - the entity's last update is stationary (`isStationaryState`). Defaults to false.
 */
export function entityTimeoutSeconds(
  config: HeartbeatConfig,
  kind: number,
  domain: number,
  stationary = false,
): number {
  const heartbeat = heartbeatSeconds(config, kind, domain);
  return (stationary ? Math.max(heartbeat, config.stationaryHeartbeat) : heartbeat) * config.timeoutMultiplier;
}

/**
 * The chosen table with the overrides applied, in the dr module's form (what the remote-entity table looks
 * heartbeats up in): `heartbeatSecondsFor(heartbeatTableFromConfig(c), kind, domain)` equals
 * `heartbeatSeconds(c, kind, domain)` for every kind and domain.
 */
export function heartbeatTableFromConfig(config: HeartbeatConfig): HeartbeatTable {
  const base = HEARTBEAT_TABLES[config.heartbeatTable];
  if (Object.keys(config.heartbeatOverrides).length === 0) return base;
  const byKind: Record<number, number> = {};
  const platformByDomain: Record<number, number> = {};
  // Every kind and domain that has a class of its own; the rest are `other` (kinds) or `platformOther` (domains).
  for (let kind = 0; kind < KIND_CLASSES.length; kind++)
    if (kind !== 1) byKind[kind] = heartbeatSeconds(config, kind, 0);
  for (let domain = 0; domain < PLATFORM_CLASSES.length; domain++)
    platformByDomain[domain] = heartbeatSeconds(config, 1, domain);
  byKind[1] = heartbeatSeconds(config, 1, PLATFORM_CLASSES.length);
  return { defaultSeconds: heartbeatSeconds(config, KIND_CLASSES.length, 0), byKind, platformByDomain };
}
