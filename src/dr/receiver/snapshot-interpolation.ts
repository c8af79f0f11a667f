/**
 * Snapshot interpolation for remote entities, the playout-delay idea applied to states: show each entity a
 * delay in the past, between the two received states that bracket that time, and report when the render time is
 * beyond the newest state so the caller dead-reckons from it instead. Struct-of-arrays storage indexed by the
 * caller's entity slot; nothing allocates after construction. Time is a parameter (seconds), never the clock.
 */
import { eulerFromWorldToBody, worldToBodyFromEuler } from '../../math/euler.js';
import { create as createMat3 } from '../../math/mat3.js';
import { fromMat3, slerp, toMat3 } from '../../math/quat.js';
import type { ReadonlyVec3, Vec3 } from '../../math/vec3.js';

/** What `SnapshotInterpolationBuffer.sample` could give for a slot. */
export const InterpolationStatus = {
  /** No state held for the slot; outputs untouched. */
  EMPTY: 0,
  /** Between two states: outputs interpolated. */
  INTERPOLATED: 1,
  /** Past the newest state: outputs are the newest state; dead-reckon by `beyondNewestSeconds`. */
  BEYOND_NEWEST: 2,
  /** Before the oldest held state: outputs are the oldest state. */
  BEFORE_OLDEST: 3,
} as const;
export type InterpolationStatus = (typeof InterpolationStatus)[keyof typeof InterpolationStatus];

/** Options of a `SnapshotInterpolationBuffer`. */
export interface InterpolationOptions {
  /** Entity slots. Defaults to 1024. */
  readonly slots?: number;
  /** States held per entity (a ring). Defaults to 8. */
  readonly depth?: number;
  /** How far in the past entities are shown, s. Defaults to 0.1. */
  readonly delaySeconds?: number;
}

const scratchMatrix = createMat3();
const scratchQuatA = new Float64Array(4);
const scratchQuatB = new Float64Array(4);

/** Shows entities a delay in the past, between the received states that bracket that time. */
export class SnapshotInterpolationBuffer {
  readonly slots: number;
  readonly depth: number;
  delaySeconds: number;
  /** After `sample` returned BEYOND_NEWEST: render time minus the newest state's time, s. */
  beyondNewestSeconds = 0;

  private readonly times: Float64Array;
  private readonly positions: Float64Array;
  /** Orientation as quaternions [x, y, z, w], converted once on `add` so that sampling only slerps. */
  private readonly quaternions: Float64Array;
  /** ψ, θ, φ as added: returned as they are when no interpolation is needed (past the newest, before the oldest). */
  private readonly orientations: Float64Array;
  private readonly counts: Uint8Array;
  /** Ring index of the newest state per slot. */
  private readonly heads: Uint8Array;

  constructor(options: InterpolationOptions = {}) {
    this.slots = options.slots ?? 1024;
    this.depth = Math.min(255, Math.max(2, options.depth ?? 8));
    this.delaySeconds = options.delaySeconds ?? 0.1;
    const n = this.slots * this.depth;
    this.times = new Float64Array(n);
    this.positions = new Float64Array(n * 3);
    this.quaternions = new Float64Array(n * 4);
    this.orientations = new Float64Array(n * 3);
    this.counts = new Uint8Array(this.slots);
    this.heads = new Uint8Array(this.slots);
  }

  /** Forgets the states of a slot (entity removed or slot reused). */
  clear(slot: number): void {
    this.counts[slot] = 0;
  }

  /**
   * Records a received state. States must come in time order per slot; an older or equal time is ignored.
   * @param slot - the entity's slot.
   * @param timeSeconds - the state's time on the receiver's time line, s.
   * @param positionEcef - location, m, ECEF.
   * @param orientation - ψ, θ, φ (IEEE 1278.1 Euler angles), rad.
   * @returns false when the state was ignored as out of order.
   */
  add(slot: number, timeSeconds: number, positionEcef: ReadonlyVec3, orientation: ReadonlyVec3): boolean {
    const count = this.counts[slot]!;
    let head = this.heads[slot]!;
    const base = slot * this.depth;
    if (count > 0 && timeSeconds <= this.times[base + head]!) return false;
    head = count === 0 ? 0 : (head + 1) % this.depth;
    const i = base + head;
    this.times[i] = timeSeconds;
    this.positions[i * 3] = positionEcef[0]!;
    this.positions[i * 3 + 1] = positionEcef[1]!;
    this.positions[i * 3 + 2] = positionEcef[2]!;
    this.orientations[i * 3] = orientation[0]!;
    this.orientations[i * 3 + 1] = orientation[1]!;
    this.orientations[i * 3 + 2] = orientation[2]!;
    fromMat3(scratchQuatA, worldToBodyFromEuler(scratchMatrix, orientation[0]!, orientation[1]!, orientation[2]!));
    this.quaternions.set(scratchQuatA, i * 4);
    this.heads[slot] = head;
    this.counts[slot] = Math.min(this.depth, count + 1);
    return true;
  }

  /**
   * The state of `slot` at render time `nowSeconds − delaySeconds`.
   * @param outPosition - receives the location, m, ECEF.
   * @param outOrientation - receives ψ, θ, φ, rad.
   */
  sample(slot: number, nowSeconds: number, outPosition: Vec3, outOrientation: Vec3): InterpolationStatus {
    const count = this.counts[slot]!;
    if (count === 0) return InterpolationStatus.EMPTY;
    const renderSeconds = nowSeconds - this.delaySeconds;
    const base = slot * this.depth;
    const head = this.heads[slot]!;
    const newest = base + head;
    if (renderSeconds >= this.times[newest]!) {
      this.beyondNewestSeconds = renderSeconds - this.times[newest]!;
      this.copy(newest, outPosition, outOrientation);
      return InterpolationStatus.BEYOND_NEWEST;
    }
    // Walk back from the newest to the first state at or before the render time.
    let later = newest;
    for (let k = 1; k < count; k++) {
      const earlier = base + ((head - k + this.depth) % this.depth);
      const t0 = this.times[earlier]!;
      if (t0 <= renderSeconds) {
        const t = (renderSeconds - t0) / (this.times[later]! - t0);
        this.write(earlier, later, t, outPosition, outOrientation);
        return InterpolationStatus.INTERPOLATED;
      }
      later = earlier;
    }
    this.copy(later, outPosition, outOrientation);
    return InterpolationStatus.BEFORE_OLDEST;
  }

  /** One held state as added: no slerp, no conversion back to Euler angles. */
  private copy(i: number, outPosition: Vec3, outOrientation: Vec3): void {
    for (let k = 0; k < 3; k++) {
      outPosition[k] = this.positions[i * 3 + k]!;
      outOrientation[k] = this.orientations[i * 3 + k]!;
    }
  }

  /** The state a fraction t of the way from held state a to held state b. */
  private write(a: number, b: number, t: number, outPosition: Vec3, outOrientation: Vec3): void {
    const p = this.positions;
    for (let k = 0; k < 3; k++) outPosition[k] = p[a * 3 + k]! + (p[b * 3 + k]! - p[a * 3 + k]!) * t;
    const q = this.quaternions;
    for (let k = 0; k < 4; k++) {
      scratchQuatA[k] = q[a * 4 + k]!;
      scratchQuatB[k] = q[b * 4 + k]!;
    }
    slerp(scratchQuatA, scratchQuatA, scratchQuatB, t);
    eulerFromWorldToBody(outOrientation, toMat3(scratchMatrix, scratchQuatA));
  }
}
