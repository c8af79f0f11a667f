/**
 * A trajectory played faster or slower: the same path in `1 / speed` of the time, its velocity, acceleration and
 * angular velocity scaled to match, so that a receiver dead-reckoning the sent state follows the faster entity.
 */
import type { TruthState } from '../dr/owner/truth-state.js';
import type { Trajectory } from './trajectory.js';

/**
 * `trajectory` at `speed` × its own pace: sample(t) is the state at speed · t, with velocity × speed,
 * acceleration × speed² and angular velocity × speed (orientation unchanged). Speed 1 returns it as it is.
 */
export function timeScaled(trajectory: Trajectory, speed: number): Trajectory {
  if (speed === 1) return trajectory;
  if (!(speed > 0 && Number.isFinite(speed))) throw new RangeError(`speed must be positive and finite, got ${speed}`);
  const squared = speed * speed;
  return {
    name: trajectory.name,
    durationSeconds: trajectory.durationSeconds / speed,
    ...(trajectory.endless === undefined ? {} : { endless: trajectory.endless }),
    ...(trajectory.notes === undefined ? {} : { notes: trajectory.notes }),
    ...(trajectory.recording === undefined ? {} : { recording: trajectory.recording }),
    sample(timeSeconds: number, out: TruthState): TruthState {
      trajectory.sample(timeSeconds * speed, out);
      for (let k = 0; k < 3; k++) {
        out.linearVelocity[k]! *= speed;
        out.linearAcceleration[k]! *= squared;
        out.angularVelocity[k]! *= speed;
      }
      return out;
    },
  };
}
