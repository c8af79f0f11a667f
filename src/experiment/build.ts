/**
 * Turns validated spec sections into the objects a run needs: the trajectory, the network profile and the
 * emitter options. Recorded tracks are read once per file and process.
 */
import { isAbsolute, resolve } from 'node:path';
import type { EmitterOptions } from '../dr/owner/emitter.js';
import { NETWORK_PROFILES, type NetworkProfile } from './simulated-network.js';
import { aircraftOrbit, circle, ellipse, figureEight, missile, zeroGParabolas } from '../truth/parametric.js';
import type { Trajectory } from '../truth/trajectory.js';
import { shipTurningCircles, straightLine, tankRoadCourse } from '../truth/vehicles.js';
import type { RunSpec, TrajectorySpec } from './spec.js';

const loadedTracks = new Map<string, Promise<Trajectory>>();

/**
 * The trajectory a spec names.
 * @param baseDirectory - where relative `recorded.file` paths start (the spec file's folder). Defaults to the working directory.
 */
export async function trajectoryFromSpec(spec: TrajectorySpec, baseDirectory = process.cwd()): Promise<Trajectory> {
  switch (spec.type) {
    case 'circle':
      return circle(spec);
    case 'aircraft-orbit':
      return aircraftOrbit(spec);
    case 'ellipse':
      return ellipse(spec);
    case 'figure-8':
      return figureEight(spec);
    case 'missile':
      return missile(spec);
    case 'zero-g-parabolas': {
      const { flightPathAngle, ...options } = spec;
      return zeroGParabolas({
        ...options,
        ...(flightPathAngle === undefined ? {} : { flightPathAngleRad: flightPathAngle }),
      });
    }
    case 'straight-line':
      return straightLine(spec);
    case 'tank-road-course':
      return tankRoadCourse(spec);
    case 'ship-turning-circles':
      return shipTurningCircles(spec);
    case 'recorded': {
      const path = isAbsolute(spec.file) ? spec.file : resolve(baseDirectory, spec.file);
      const key = JSON.stringify({ ...spec, file: path });
      let track = loadedTracks.get(key);
      if (!track) {
        // Loaded lazily: the loaders pull in the pcap reader and the codec, the names SISO's entity types.
        const { maxGap, entityType, smoothingWindow: _window, attitudeSmoothing: _attitude, ...options } = spec;
        track = (async () => {
          const { findEntityType } = await import('../names/entity-type-lookup.js');
          const found = entityType === undefined ? undefined : findEntityType(entityType);
          if (found !== undefined && 'problem' in found) throw new EntityTypeError(found.problem, found.candidates);
          const renamed = {
            ...(maxGap === undefined ? {} : { maxGapSeconds: maxGap }),
            ...(found === undefined ? {} : { entityType: found.type }),
          };
          return (await import('../truth/loaders.js')).loadTrack(path, { ...options, ...renamed });
        })();
        loadedTracks.set(key, track);
      }
      return track;
    }
  }
}

/** A recorded track's `entityType` that names no entity type, or several: the problem and the candidates. */
export class EntityTypeError extends Error {
  constructor(
    readonly problem: string,
    readonly candidates: readonly string[],
  ) {
    super(candidates.length > 0 ? `${problem}: ${candidates.join('; ')}` : problem);
    this.name = 'EntityTypeError';
  }
}

/** Orbits flown in `durationSeconds` on a circular trajectory, or null for other shapes. */
export function orbitsOf(spec: TrajectorySpec, durationSeconds: number): number | null {
  if (spec.type !== 'circle' && spec.type !== 'aircraft-orbit') return null;
  return (durationSeconds * spec.speed) / (2 * Math.PI * spec.radius);
}

/** The link profile of a spec's `network`: a name, or fields over a named (or the perfect) profile. */
export function networkProfileFromSpec(network: RunSpec['network']): NetworkProfile {
  if (typeof network === 'string') return { ...NETWORK_PROFILES[network] };
  const { profile, ...fields } = network;
  const defined = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
  return { ...NETWORK_PROFILES[profile ?? 'perfect'], ...defined } as NetworkProfile;
}

/** Emitter options of a spec's `emitter`. */
export function emitterOptionsFromSpec(emitter: RunSpec['emitter']): EmitterOptions {
  return {
    algorithm: emitter.algorithm,
    positionThresholdMeters: emitter.positionThreshold,
    orientationThresholdRad: emitter.orientationThreshold,
    heartbeatSeconds: emitter.heartbeat,
    minIntervalSeconds: emitter.maxRateHz ? 1 / emitter.maxRateHz : 0,
  };
}
