/**
 * What the stream API reads from a configuration: the validated `Config` from whatever the caller passed, and the
 * emitter, heartbeat and table settings derived from it.
 */
import { heartbeatSeconds } from '../config/heartbeat.js';
import { loadConfig } from '../config/load.js';
import type { Config, ConfigInput } from '../config/schema.js';
import type { EmitterOptions } from '../dr/emitter.js';
import type { HeartbeatTable } from '../dr/heartbeat.js';
import type { RemoteEntityTableOptions } from '../dr/table.js';
import type { SmoothingMethodName } from '../dr/smoothing.js';

/**
 * A configuration as the stream functions take it: a whole `Config` (from `loadConfig`), or any part of a
 * configuration file's content (`{ network: { port: 3001 } }`), which is validated and completed with defaults.
 */
export type StreamConfig = Config | ConfigInput;

/**
 * The validated configuration.
 * @throws ConfigError listing every problem, each with its path.
 */
export function resolveConfig(input: StreamConfig = {}): Config {
  return loadConfig({ overrides: input as Record<string, unknown> });
}

/**
 * Emitter options for an entity of the given kind and domain: thresholds from `emitter`, heartbeat from
 * `heartbeat` (table, per-class overrides).
 */
export function emitterOptionsFromConfig(config: Config, kind: number, domain: number): EmitterOptions {
  return {
    positionThresholdMeters: config.emitter.positionThreshold,
    orientationThresholdRad: config.emitter.orientationThreshold,
    heartbeatSeconds: heartbeatSeconds(config.heartbeat, kind, domain),
  };
}

/** The table's heartbeat lookup built from the `heartbeat` section (table choice and per-class overrides). */
export function heartbeatTableFromConfig(config: Config): HeartbeatTable {
  const byKind: Record<number, number> = {};
  const platformByDomain: Record<number, number> = {};
  // Entity kinds 0–9 and platform domains 0–5 are the ones `heartbeatClass` tells apart.
  for (let kind = 0; kind <= 9; kind++) if (kind !== 1) byKind[kind] = heartbeatSeconds(config.heartbeat, kind, 0);
  for (let domain = 0; domain <= 5; domain++) platformByDomain[domain] = heartbeatSeconds(config.heartbeat, 1, domain);
  return { defaultSeconds: heartbeatSeconds(config.heartbeat, 255, 0), byKind, platformByDomain };
}

/**
 * `receiver.smoothing` → the table's method: `none` snaps, `linear` blends straight, `smoothstep` uses projective
 * velocity blending, the table's method whose displayed velocity is continuous (C¹) at both ends of the blend.
 */
const SMOOTHING_BY_NAME: Readonly<Record<Config['receiver']['smoothing'], SmoothingMethodName>> = {
  none: 'snap',
  linear: 'linear',
  smoothstep: 'projective',
};

/** Remote-entity table options from the `receiver` and `heartbeat` sections. */
export function tableOptionsFromConfig(config: Config): RemoteEntityTableOptions {
  const r = config.receiver;
  return {
    capacity: r.maxEntities,
    timeReference: r.latencyCompensation,
    heartbeatTable: heartbeatTableFromConfig(config),
    timeoutMultiplier: config.heartbeat.timeoutMultiplier,
    smoothing: { method: SMOOTHING_BY_NAME[r.smoothing], durationSeconds: r.smoothingTime, teleportMeters: r.teleportDistance },
  };
}
