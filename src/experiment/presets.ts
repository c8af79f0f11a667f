/**
 * Named experiments for `reckon experiment --preset NAME`. Most are specs (and take `--set` overrides like any
 * spec file); `lockstep-vs-tcp` runs the lockstep comparison instead, loaded only when asked for.
 */
import type { ExperimentSpecInput } from './spec.js';

export interface SpecPreset {
  readonly summary: string;
  readonly spec: ExperimentSpecInput;
}

export interface TablePreset {
  readonly summary: string;
  /** Runs the experiment and returns its rows (plain objects, one per line of the table). */
  readonly table: (options: {
    seed?: number;
    durationSeconds?: number;
  }) => Promise<ReadonlyArray<Record<string, unknown>>>;
}

export type Preset = SpecPreset | TablePreset;

/** The named experiments of `reckon experiment --preset`. */
export const PRESETS: Readonly<Record<string, Preset>> = {
  circle: {
    summary:
      'The classic DR circle: an aircraft at 100 m/s on a 1 km circle, FPW, 1 m threshold, no heartbeat, 60 Hz; PDUs per orbit',
    spec: {
      name: 'circle',
      trajectory: { type: 'circle', speed: '100 m/s', radius: '1000 m', orbits: 10 },
      sampleRateHz: '60 Hz',
      // A heartbeat longer than the run never fires; orientation is not tested (a turning FPW entity would
      // otherwise send for orientation), so every PDU is due to the position threshold.
      emitter: { algorithm: 'FPW', positionThreshold: '1 m', orientationThreshold: '180 deg', heartbeat: '1 h' },
      network: 'perfect',
      smoothing: { method: 'snap' },
      traces: true,
    },
  },
  thresholds: {
    summary: 'Position thresholds × DR algorithms for a tank on a road course over a WAN',
    spec: {
      name: 'thresholds',
      trajectory: { type: 'tank-road-course' },
      network: 'wan',
      traces: true,
      sweep: {
        'emitter.positionThreshold': ['0.25 m', '0.5 m', '1 m', '2 m', '4 m'],
        'emitter.algorithm': ['FPW', 'FVW', 'RVW'],
      },
    },
  },
  networks: {
    summary: 'An aircraft orbit with climb under each network profile, with and without smoothing',
    spec: {
      name: 'networks',
      trajectory: { type: 'aircraft-orbit', orbits: 1 },
      emitter: { algorithm: 'RVW' },
      traces: true,
      sweep: {
        network: ['lan', 'wan', 'satellite', 'lossy-wifi', 'mobile', 'congested'],
        'smoothing.method': ['snap', 'linear', 'projective'],
      },
    },
  },
  vehicles: {
    summary: 'Every synthetic trajectory with the IEEE default thresholds (1 m, 3°, 5 s), RVW, WAN',
    spec: {
      name: 'vehicles',
      emitter: { algorithm: 'RVW' },
      network: 'wan',
      traces: true,
      sweep: {
        trajectory: [
          { type: 'circle' },
          { type: 'aircraft-orbit', orbits: 1 },
          { type: 'ellipse' },
          { type: 'figure-8' },
          { type: 'missile' },
          { type: 'straight-line' },
          { type: 'tank-road-course' },
          { type: 'ship-turning-circles' },
        ],
      },
    },
  },
  'lockstep-vs-tcp': {
    summary: 'Lockstep inputs over TCP against redundant UDP: hitches and stalls under latency and loss',
    async table(options) {
      const { runLockstepComparison } = await import('./lockstep-comparison.js');
      return [...(await runLockstepComparison(options))] as unknown as Array<Record<string, unknown>>;
    },
  },
};

export function isTablePreset(preset: Preset): preset is TablePreset {
  return 'table' in preset;
}
