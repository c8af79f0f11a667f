/**
 * Heartbeat intervals per entity kind and domain. Two readings exist (DIS.md §4): IEEE 1278.1-2012 Table 25 gives
 * 5 s for every kind; KDIS gives 55 s to land, surface and subsurface platforms and 60 s to life forms, cultural
 * features and environmentals. Both are selectable (`heartbeat.heartbeatTable`), and any class can be overridden.
 */
import type { HeartbeatClass, HeartbeatConfig } from './schema.js';

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

/** HBT_ESPDU_* in seconds, by table. Unlisted classes use 5 s in both readings. */
export const HEARTBEAT_TABLES: Readonly<Record<'ieee' | 'kdis', Partial<Record<HeartbeatClass, number>>>> = {
  ieee: {},
  kdis: { platformLand: 55, platformSurface: 55, platformSubsurface: 55, lifeForm: 60, culturalFeature: 60, environmental: 60 },
};
export const DEFAULT_HEARTBEAT_SECONDS = 5;

/** The heartbeat class of an entity type. Unknown kinds and domains fall back to `other` / `platformOther`. */
export function heartbeatClass(kind: number, domain: number): HeartbeatClass {
  if (kind === 1) return PLATFORM_CLASSES[domain] ?? 'platformOther';
  return KIND_CLASSES[kind] ?? 'other';
}

/**
 * The heartbeat interval of an entity, in seconds.
 * @param config - the `heartbeat` section of the configuration.
 * @param kind - Entity Type kind (1 = platform, 2 = munition, …).
 * @param domain - Entity Type domain (for platforms: 1 land, 2 air, 3 surface, 4 subsurface, 5 space).
 * @param stationary - true when the entity is not moving: the stationary heartbeat applies (HBT_STATIONARY).
 */
export function heartbeatSeconds(config: HeartbeatConfig, kind: number, domain: number, stationary = false): number {
  if (stationary) return config.stationaryHeartbeat;
  const cls = heartbeatClass(kind, domain);
  return config.heartbeatOverrides[cls] ?? HEARTBEAT_TABLES[config.heartbeatTable][cls] ?? DEFAULT_HEARTBEAT_SECONDS;
}

/** Seconds without an update after which a remote entity is dropped: heartbeat × timeout multiplier (2.4). */
export function entityTimeoutSeconds(config: HeartbeatConfig, kind: number, domain: number, stationary = false): number {
  return heartbeatSeconds(config, kind, domain, stationary) * config.timeoutMultiplier;
}
