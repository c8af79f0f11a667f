/**
 * How physical a truth is: its largest speed, acceleration and turn rate as sampled, and what the estimator
 * dropped and repaired of a recording — and, for a recording of a known kind, whether those figures are ones a
 * vehicle of that kind can have (a truth flying 862 m/s where the aircraft flew 52 would make every error measured
 * against it meaningless).
 */
import { MOTION_MODELS } from './motion-model.js';
import { KIND_NOUNS, MAX_SPEED_MPS, type TrackKind } from './track-kinds.js';

/** The truth a run used, measured (`reckon experiment --json`: each run's `truth`). */
export interface TruthQuality {
  /** Largest speed of the sampled truth, m/s. */
  readonly maxSpeedMps: number;
  /** Largest change of velocity between consecutive samples over their interval, m/s². */
  readonly maxAccelerationMps2: number;
  /** Largest angle between consecutive orientations over their interval, °/s (heading, pitch and roll together). */
  readonly maxTurnRateDegPerS: number;
  /** Fixes of the recording whose position the estimator did not use (0 for a synthetic truth). */
  readonly fixesDropped: number;
  /** Fixes used without one of their other parts, or moved in time order. */
  readonly fixesRepaired: number;
}

/**
 * What makes a truth implausible for its kind, or undefined: a speed above the kind's (MAX_SPEED_MPS), an
 * acceleration above twice the kind's largest (MOTION_MODELS; twice, so that a sharp but real manoeuvre does not
 * trip it), a turn rate above twice the sum of its attitude-rate bounds.
 */
export function implausibleTruth(kind: TrackKind, quality: TruthQuality): string | undefined {
  const model = MOTION_MODELS[kind];
  const turnLimitDeg =
    (2 * (model.maxHeadingRateRadPerS + model.maxPitchRateRadPerS + model.maxRollRateRadPerS) * 180) / Math.PI;
  const found: string[] = [];
  if (quality.maxSpeedMps > MAX_SPEED_MPS[kind]) {
    found.push(`speed ${quality.maxSpeedMps.toFixed(0)} m/s (at most ${MAX_SPEED_MPS[kind]})`);
  }
  if (quality.maxAccelerationMps2 > 2 * model.maxAccelerationMps2) {
    found.push(
      `acceleration ${quality.maxAccelerationMps2.toFixed(0)} m/s² (at most ${2 * model.maxAccelerationMps2})`,
    );
  }
  if (quality.maxTurnRateDegPerS > turnLimitDeg) {
    found.push(`turn rate ${quality.maxTurnRateDegPerS.toFixed(0)}°/s (at most ${turnLimitDeg.toFixed(0)})`);
  }
  if (found.length === 0) return undefined;
  return `the truth itself is implausible for ${KIND_NOUNS[kind]}: ${found.join(', ')}; its errors measure the truth's artefacts too`;
}
