/**
 * The emitter settings an `EmitterBank` shares among its entities: each distinct set of thresholds, heartbeats, rate
 * cap, algorithm and adaptive threshold is one profile, PROFILE_STRIDE doubles in one array, so that a decision reads
 * its entity's settings at one offset. The same numbers give the same profile.
 */
import { writeOrientationLimits } from './emitter-decision.js';
import type { EmitterOptions } from './emitter.js';
import { HEARTBEAT_STATIONARY_SECONDS } from './heartbeat.js';

/** Profile fields, PROFILE_STRIDE doubles per profile; 0–4 are an emitter's `limits` (emitter-decision.ts). */
export const PROFILE_HEARTBEAT = 5,
  PROFILE_STATIONARY_HEARTBEAT = 6,
  PROFILE_MIN_INTERVAL = 7,
  /** The algorithm sent, or AUTO. */
  PROFILE_ALGORITHM = 8,
  /** Seconds of travel of the adaptive threshold, NaN for a fixed one. */
  PROFILE_TRAVEL = 9,
  PROFILE_MIN_M = 10,
  PROFILE_MAX_M = 11,
  PROFILE_STRIDE = 12;
/** PROFILE_ALGORITHM of an 'auto' profile. */
export const AUTO = -1;

const DEG = Math.PI / 180;

/** The profiles of a bank: `values` holds profile p at p · PROFILE_STRIDE. */
export class EmitterProfiles {
  /** Every profile's fields (replaced when it grows: read it where it is used). */
  values = new Float64Array(4 * PROFILE_STRIDE);
  count = 0;
  private readonly ids = new Map<string, number>();

  /**
   * The profile of these emitter options, with `DeadReckoningEmitter`'s defaults; added when new.
   * @returns its number.
   */
  add(options: EmitterOptions = {}): number {
    const orientationThreshold = options.orientationThresholdRad ?? 3 * DEG;
    const heartbeat = options.heartbeatSeconds ?? 5;
    const stationary =
      options.stationaryHeartbeatSeconds === undefined
        ? HEARTBEAT_STATIONARY_SECONDS
        : options.stationaryHeartbeatSeconds;
    const algorithm = options.algorithm ?? 4;
    const adaptive = options.adaptiveThreshold ?? null;
    const fields = [
      options.positionThresholdMeters ?? 1,
      0,
      0,
      0,
      0,
      heartbeat,
      Math.max(heartbeat, stationary ?? 0),
      options.minIntervalSeconds ?? 0,
      algorithm === 'auto' ? AUTO : algorithm,
      adaptive === null ? Number.NaN : adaptive.secondsOfTravel,
      adaptive === null ? 0 : adaptive.minMeters,
      adaptive === null ? 0 : adaptive.maxMeters,
    ];
    const key = `${orientationThreshold},${fields.join(',')}`;
    const known = this.ids.get(key);
    if (known !== undefined) return known;
    if (this.count === 0xffff) throw new RangeError('an emitter bank holds at most 65535 profiles');
    const at = this.count * PROFILE_STRIDE;
    if (at + PROFILE_STRIDE > this.values.length) {
      const larger = new Float64Array(2 * this.values.length);
      larger.set(this.values);
      this.values = larger;
    }
    this.values.set(fields, at);
    writeOrientationLimits(this.values, at, orientationThreshold);
    this.ids.set(key, this.count);
    return this.count++;
  }
}
