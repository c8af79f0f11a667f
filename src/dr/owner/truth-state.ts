/**
 * The true kinematic state of a local entity at one instant: what a simulation (or a trajectory, or a
 * recorded track) hands to the emitter, which decides whether receivers need a new Entity State PDU.
 * All vectors are world (ECEF) except angular velocity, which DIS defines about the body axes.
 */
export interface TruthState {
  /** ECEF metres (WGS-84). */
  readonly location: Float64Array;
  /** ECEF m/s. */
  readonly linearVelocity: Float64Array;
  /** ECEF m/s². */
  readonly linearAcceleration: Float64Array;
  /** psi, theta, phi radians: DIS Euler angles relative to the ECEF axes (IEEE 1278.1 §6.2.33). */
  readonly orientation: Float64Array;
  /** rad/s about the body axes x (forward), y (right), z (down). */
  readonly angularVelocity: Float64Array;
}

/** A zeroed TruthState, allocated once and filled in place. */
export function createTruthState(): TruthState {
  return {
    location: new Float64Array(3),
    linearVelocity: new Float64Array(3),
    linearAcceleration: new Float64Array(3),
    orientation: new Float64Array(3),
    angularVelocity: new Float64Array(3),
  };
}
