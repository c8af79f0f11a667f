/**
 * Dead reckoning of one entity: a cached model evaluated at the total time since its state (never by
 * accumulating steps), and the convenience function `deadReckon` over the JSON form of an Entity State PDU.
 */
import { isKnownAlgorithm } from './algorithm.js';
import {
  DrStore,
  KERNEL_LINEAR,
  evaluateRotating,
  extrapolateLinear,
  initialWorldToBody,
  resetSlot,
  worldVelocity,
} from './store.js';

/** The fields of an Entity State PDU that dead reckoning reads, in their JSON-form names (an `EntityStatePdu` will do). */
export interface DeadReckoningInput {
  /** ECEF metres. */
  readonly location: ArrayLike<number>;
  /** m/s; world frame for algorithms 2–5, body frame for 6–9. */
  readonly linearVelocity: ArrayLike<number>;
  /** ψ, θ, φ radians. */
  readonly orientation: ArrayLike<number>;
  /** Appearance bits; bit 21 (frozen) stops extrapolation. Defaults to 0. */
  readonly appearance?: number;
  readonly deadReckoning: {
    readonly algorithm: number;
    /** m/s², frame as for linearVelocity. */
    readonly linearAcceleration: ArrayLike<number>;
    /** rad/s about body axes. */
    readonly angularVelocity: ArrayLike<number>;
  };
}

/** Result of `deadReckon`: fresh arrays. */
export interface DeadReckoningResult {
  /** ECEF metres. */
  location: Float64Array;
  /** ψ, θ, φ radians. */
  orientation: Float64Array;
  /** m/s in the algorithm's frame (world for 1–5, body for 6–9): V, or V + A·t for the V models. */
  linearVelocity: Float64Array;
}

/** Models here are evaluated at dt since their state: reference time 0. */
const zeroReference = new Float64Array(1);

/**
 * One entity's dead-reckoning model. `reset` caches everything that does not depend on time (R0, |ω|,
 * world-frame terms); `evaluate` writes the state at dt seconds after the reset into caller arrays and
 * allocates nothing.
 */
export class DeadReckoningModel {
  readonly store = new DrStore(1);
  private readonly matrix = new Float64Array(9);

  /** Loads a state. Algorithm 0 and unknown numbers extrapolate as static (`knownAlgorithm` is then false). */
  reset(
    location: ArrayLike<number>,
    linearVelocity: ArrayLike<number>,
    orientation: ArrayLike<number>,
    linearAcceleration: ArrayLike<number>,
    angularVelocity: ArrayLike<number>,
    algorithm: number,
    appearance = 0,
  ): this {
    resetSlot(
      this.store,
      0,
      location,
      linearVelocity,
      orientation,
      linearAcceleration,
      angularVelocity,
      algorithm,
      appearance,
    );
    return this;
  }

  /** Loads the dead-reckoning fields of a PDU in JSON form (or an `EntityStateRecord`-like object). */
  resetFrom(state: DeadReckoningInput): this {
    const dr = state.deadReckoning;
    return this.reset(
      state.location,
      state.linearVelocity,
      state.orientation,
      dr.linearAcceleration,
      dr.angularVelocity,
      dr.algorithm,
      state.appearance ?? 0,
    );
  }

  get algorithm(): number {
    return this.store.algorithm[0]!;
  }

  get knownAlgorithm(): boolean {
    return isKnownAlgorithm(this.store.algorithm[0]!);
  }

  get frozen(): boolean {
    return this.store.frozen[0] === 1;
  }

  /**
   * State at dtSeconds after the reset.
   * @param dtSeconds - total time since the state's time, seconds (may be negative).
   * @param outLocation - receives ECEF metres.
   * @param outOrientation - receives ψ, θ, φ radians, or null to skip.
   * @param outWorldToBody - receives R_wb(t) row-major, or null to skip.
   * @returns outLocation
   */
  evaluate(
    dtSeconds: number,
    outLocation: Float64Array,
    outOrientation: Float64Array | null = null,
    outWorldToBody: Float64Array | null = null,
  ): Float64Array {
    const s = this.store;
    extrapolateLinear(s, 1, zeroReference, dtSeconds, outLocation);
    if (s.kernel[0] !== KERNEL_LINEAR) {
      evaluateRotating(
        s,
        0,
        dtSeconds,
        zeroReference,
        outLocation,
        0,
        outWorldToBody ?? this.matrix,
        0,
        outOrientation,
      );
    } else {
      if (outOrientation !== null) {
        outOrientation[0] = s.orientation0[0]!;
        outOrientation[1] = s.orientation0[1]!;
        outOrientation[2] = s.orientation0[2]!;
      }
      if (outWorldToBody !== null) initialWorldToBody(s, 0, outWorldToBody, 0);
    }
    return outLocation;
  }

  /** World-frame (ECEF) velocity at dtSeconds, m/s: the time derivative of `evaluate`'s location. */
  velocityWorld(dtSeconds: number, out: Float64Array): Float64Array {
    const s = this.store;
    if (s.kernel[0] !== KERNEL_LINEAR)
      evaluateRotating(s, 0, dtSeconds, zeroReference, scratchLocation, 0, this.matrix, 0, null);
    worldVelocity(s, 0, dtSeconds, this.matrix, 0, out, 0);
    return out;
  }

  /** Velocity in the algorithm's own frame at dtSeconds (the "velocity after DR" of IEEE 1278.1 Annex E), m/s. */
  velocity(dtSeconds: number, out: Float64Array): Float64Array {
    const s = this.store;
    const alg = s.effectiveAlgorithm[0];
    const k = s.frozen[0] === 0 && (alg === 4 || alg === 5 || alg === 8 || alg === 9) ? dtSeconds : 0;
    out[0] = s.velocity[0]! + s.acceleration[0]! * k;
    out[1] = s.velocity[1]! + s.acceleration[1]! * k;
    out[2] = s.velocity[2]! + s.acceleration[2]! * k;
    return out;
  }
}

const scratchLocation = new Float64Array(3);
const sharedModel = new DeadReckoningModel();

/**
 * Dead-reckons one entity dtSeconds past its state with the DIS algorithm it names (IEEE 1278.1 Annex E).
 * Allocates the three result arrays; for many entities or every frame use `DeadReckoningModel` or the table.
 * @param state - location (ECEF m), linearVelocity, orientation (ψθφ rad), appearance, deadReckoning
 *   {algorithm, linearAcceleration, angularVelocity} — an `EntityStatePdu` will do.
 * @param dtSeconds - time since the state's timestamp, seconds.
 */
export function deadReckon(state: DeadReckoningInput, dtSeconds: number): DeadReckoningResult {
  const model = sharedModel.resetFrom(state);
  const location = new Float64Array(3),
    orientation = new Float64Array(3),
    linearVelocity = new Float64Array(3);
  model.evaluate(dtSeconds, location, orientation);
  model.velocity(dtSeconds, linearVelocity);
  return { location, orientation, linearVelocity };
}
