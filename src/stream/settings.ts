/**
 * What the stream API reads from a configuration: the validated `Config` from whatever the caller passed, and the
 * emitter and table options derived from it.
 */
import { heartbeatSeconds, heartbeatTableFromConfig } from '../dr/owner/heartbeat.js';
import { loadConfig } from '../config/load.js';
import type { Config, ConfigInput } from '../config/schema.js';
import type { EmitterOptions } from '../dr/owner/emitter.js';
import type { RemoteEntityTableOptions } from '../dr/receiver/remote-entity-table.js';

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
 * Emitter options for an entity of the given kind and domain: thresholds (fixed or speed-proportional) from
 * `emitter`, heartbeats from `heartbeat` (table, per-class overrides, stationary heartbeat).
 */
export function emitterOptionsFromConfig(config: Config, kind: number, domain: number): EmitterOptions {
  const e = config.emitter;
  return {
    positionThresholdMeters: e.positionThreshold,
    orientationThresholdRad: e.orientationThreshold,
    heartbeatSeconds: heartbeatSeconds(config.heartbeat, kind, domain),
    stationaryHeartbeatSeconds: config.heartbeat.stationaryHeartbeat,
    adaptiveThreshold: e.adaptiveThresholds
      ? { secondsOfTravel: e.adaptiveTravelTime, minMeters: e.minPositionThreshold, maxMeters: e.maxPositionThreshold }
      : null,
  };
}

/** Remote-entity table options from the `receiver` and `heartbeat` sections. */
export function tableOptionsFromConfig(config: Config): RemoteEntityTableOptions {
  const r = config.receiver;
  return {
    capacity: r.maxEntities,
    timeReference: r.latencyCompensation,
    heartbeatTable: heartbeatTableFromConfig(config.heartbeat),
    timeoutMultiplier: config.heartbeat.timeoutMultiplier,
    stationaryHeartbeatSeconds: config.heartbeat.stationaryHeartbeat,
    smoothing: { method: r.smoothing, durationSeconds: r.smoothingTime, teleportMeters: r.teleportDistance },
  };
}
