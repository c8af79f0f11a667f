/**
 * Smoothing of a remote entity's corrections (docs/dis-reference.md §5): when a new PDU moves its dead-reckoned
 * path, the displayed state converges onto the new path instead of jumping. Holds, per slot being corrected, its
 * start and its errors in position (e0), velocity (ė0) and orientation, in a dense list; the offsets themselves
 * are the free functions of position-smoothing.ts and orientation-smoothing.ts. Nothing is allocated per PDU or
 * frame.
 */
import type { ModelState } from './model-state.js';
import { startRotationError, turnByError } from './orientation-smoothing.js';
import {
  SMOOTH_CONVERGENCE,
  SMOOTH_DURATION as SMOOTH_DURATION_IMPORTED,
  SMOOTH_FRACTION as SMOOTH_FRACTION_IMPORTED,
  SMOOTH_PROJECTIVE,
  SMOOTH_SNAP,
  SMOOTH_TAU as SMOOTH_TAU_IMPORTED,
  SMOOTHING_METHODS,
  positionOffset,
  type SmoothingOptions,
} from './position-smoothing.js';
import {
  KERNEL_LINEAR as KERNEL_LINEAR_IMPORTED,
  evaluateRotating,
  initialWorldToBody,
  positionAt,
  worldVelocity,
} from './store.js';

// Imported constants copied to module consts, so that TurboFan folds them (a transpiled import is a getter).
const KERNEL_LINEAR = KERNEL_LINEAR_IMPORTED;
const SMOOTH_TAU = SMOOTH_TAU_IMPORTED;
const SMOOTH_DURATION = SMOOTH_DURATION_IMPORTED;
const SMOOTH_FRACTION = SMOOTH_FRACTION_IMPORTED;

/** The corrections being smoothed in a `RemoteEntityTable`, over its model state. */
export class CorrectionSmoother {
  /** `SMOOTHING_METHODS` code, duration in seconds, and the jump in metres beyond which a correction snaps. */
  readonly method: number;
  readonly durationSeconds: number;
  readonly teleportMeters: number;
  /** Corrections are smoothed (not 'snap', a positive duration); and the method reads ė0 (projective, convergence). */
  readonly enabled: boolean;
  private readonly usesVelocity: boolean;
  /** The slots being corrected, densely (a stopped slot stays listed until the next `renderAll` drops it). */
  readonly slots: Int32Array;
  count = 0;
  private readonly listed: Uint8Array;
  private readonly startSeconds: Float64Array;
  private readonly errorPosition: Float64Array;
  private readonly errorVelocity: Float64Array;
  /** E as a unit quaternion with w ≥ 0 (4 per slot), and half its rotation angle, radians. */
  private readonly errorRotation: Float64Array;
  private readonly errorHalfAngle: Float64Array;
  /**
   * Time is handed to the per-slot steps in arrays, never as a number: a double computed or loaded by the caller
   * and passed to a function V8 does not inline is boxed on the heap. `now[0]`: the time being evaluated, seconds
   * (set by the table); `minusDt[slot]`: reference − now, so that the store's kernels, called with t = 0, see
   * dt = now − reference (bit for bit: IEEE subtraction is antisymmetric); `smoothTime`: `positionOffset`'s τ,
   * duration and fraction.
   */
  readonly now = new Float64Array(1);
  private readonly minusDt: Float64Array;
  private readonly smoothTime = new Float64Array(3);
  // Scratch (no allocation per PDU or frame).
  private readonly p = new Float64Array(3);
  private readonly v = new Float64Array(3);
  private readonly m = new Float64Array(9);
  private readonly p2 = new Float64Array(3);
  private readonly m2 = new Float64Array(9);
  private readonly r0 = new Float64Array(9);
  private readonly previousVelocity = new Float64Array(3);

  /**
   * @param state - the table's model state, as it stands (corrections start while pending PDUs load).
   * @param heldAt - per slot, the time a Stop/Freeze holds it at (+∞ while it runs): its correction is evaluated
   *   no later than that, so a held entity stands still.
   */
  constructor(
    private readonly state: ModelState,
    options: SmoothingOptions = {},
    private readonly heldAt: Float64Array = new Float64Array(state.store.capacity).fill(Number.POSITIVE_INFINITY),
  ) {
    const n = state.store.capacity;
    this.method = SMOOTHING_METHODS[options.method ?? 'linear'];
    this.durationSeconds = options.durationSeconds ?? 0.5;
    this.teleportMeters = options.teleportMeters ?? 100;
    this.enabled = this.method !== SMOOTH_SNAP && this.durationSeconds > 0;
    this.usesVelocity = this.method === SMOOTH_PROJECTIVE || this.method === SMOOTH_CONVERGENCE;
    this.slots = new Int32Array(n);
    this.listed = new Uint8Array(n);
    this.startSeconds = new Float64Array(n);
    this.errorPosition = new Float64Array(3 * n);
    this.errorVelocity = new Float64Array(3 * n);
    this.errorRotation = new Float64Array(4 * n);
    this.errorHalfAngle = new Float64Array(n);
    this.minusDt = new Float64Array(n);
  }

  /**
   * Adds every listed slot's offset at tSeconds to `location` and `matrices` (3 and 9 per slot, holding the new
   * paths) and drops the slots whose correction is over.
   */
  renderAll(tSeconds: number, location: Float64Array, matrices: Float64Array): void {
    this.now[0] = tSeconds;
    for (let k = 0; k < this.count; ) {
      const slot = this.slots[k]!;
      if (this.smooth(slot, location, matrices, slot, true)) k++;
      else {
        // Finished or stopped: drop from the list.
        this.listed[slot] = 0;
        this.slots[k] = this.slots[--this.count]!;
      }
    }
  }

  /**
   * The state displayed for one slot at now[0], before a new PDU replaces its model: position into this.p, R_wb
   * into this.m and, for the methods that read ė0, the old path's world velocity into this.previousVelocity.
   */
  displayedAt(slot: number): void {
    const s = this.state.store;
    this.minusDt[slot] = this.state.reference[slot]! - this.now[0]!;
    positionAt(s, slot, 0, this.minusDt, this.p, 0);
    if (s.kernel[slot] !== KERNEL_LINEAR) evaluateRotating(s, slot, 0, this.minusDt, this.p, 0, this.m, 0, null);
    else initialWorldToBody(s, slot, this.m, 0);
    if (this.usesVelocity) worldVelocity(s, slot, 0, this.m, 0, this.previousVelocity, 0, this.minusDt);
    if (this.state.isSmoothing[slot] === 1) this.smooth(slot, this.p, this.m, 0, false);
  }

  /** Starts a correction at now[0] from the displayed state (this.p, this.m, this.previousVelocity) onto the new model. */
  start(slot: number): void {
    const s = this.state.store,
      j = 3 * slot,
      t = this.now[0]!;
    // The new path at t (dt is usually 0, or the PDU's age in 'timestamp' mode): position p2, R_wb m2.
    this.minusDt[slot] = this.state.reference[slot]! - t;
    positionAt(s, slot, 0, this.minusDt, this.p2, 0);
    if (s.kernel[slot] !== KERNEL_LINEAR) evaluateRotating(s, slot, 0, this.minusDt, this.p2, 0, this.m2, 0, null);
    else initialWorldToBody(s, slot, this.m2, 0);
    let e2 = 0;
    for (let k = 0; k < 3; k++) {
      const e = this.p[k]! - this.p2[k]!;
      this.errorPosition[j + k] = e;
      e2 += e * e;
    }
    if (Math.sqrt(e2) > this.teleportMeters) return this.stop(slot);
    if (this.usesVelocity) {
      // ė0 = displayed − new path velocity (the displayed velocity taken as the old path's).
      worldVelocity(s, slot, 0, this.m2, 0, this.v, 0, this.minusDt);
      for (let k = 0; k < 3; k++) this.errorVelocity[j + k] = this.previousVelocity[k]! - this.v[k]!;
    }
    startRotationError(this.errorRotation, this.errorHalfAngle, slot, this.m, this.m2);
    this.startSeconds[slot] = t;
    this.state.isSmoothing[slot] = 1;
    if (this.listed[slot] === 0) {
      this.listed[slot] = 1;
      this.slots[this.count++] = slot;
    }
  }

  /**
   * Moves the slot's model and its correction on by `seconds` (a Stop/Freeze held it that long): it continues from
   * where it stood.
   */
  shift(slot: number, seconds: number): void {
    this.state.reference[slot] = this.state.reference[slot]! + seconds;
    this.startSeconds[slot] = this.startSeconds[slot]! + seconds;
  }

  /** Ends the slot's correction; it leaves the list at the next `renderAll`. */
  stop(slot: number): void {
    this.state.isSmoothing[slot] = 0;
  }

  /**
   * Adds the smoothing offset of one slot at now[0] to the location at offset 3·o and the R_wb at offset 9·o (which hold
   * the new path; for a fixed orientation, which `extrapolate` does not rewrite, R0 is read from the model and the
   * matrix written whole). With `display`, the slot's displayed angles are kept in step: restored for a fixed
   * orientation, else marked for conversion when read.
   * @returns false when the slot is no longer smoothing (finished or stopped).
   */
  smooth(slot: number, location: Float64Array, matrices: Float64Array, o: number, display: boolean): boolean {
    const o3 = 3 * o,
      o9 = 9 * o,
      j = 3 * slot,
      state = this.state,
      s = state.store;
    const fixed = s.kernel[slot] === KERNEL_LINEAR;
    if (state.isSmoothing[slot] === 1) {
      const time = this.smoothTime;
      time[SMOOTH_TAU] = Math.min(this.now[0]!, this.heldAt[slot]!) - this.startSeconds[slot]!;
      time[SMOOTH_DURATION] = this.durationSeconds;
      positionOffset(this.method, time, this.errorPosition, this.errorVelocity, slot, this.p2, 0);
      const sFraction = time[SMOOTH_FRACTION]!;
      if (sFraction < 1) {
        for (let k = 0; k < 3; k++) location[o3 + k]! += this.p2[k]!;
        if (fixed) initialWorldToBody(s, slot, this.r0, 0);
        const from = fixed ? this.r0 : matrices,
          f9 = fixed ? 0 : o9;
        turnByError(this.errorRotation, this.errorHalfAngle, slot, time, from, f9, matrices, o9);
        if (display) state.displayStale[slot] = 1;
        return true;
      }
      state.isSmoothing[slot] = 0;
    }
    // On the new path: a fixed orientation is R0 again.
    if (fixed) {
      initialWorldToBody(s, slot, matrices, o9);
      if (display) {
        for (let k = 0; k < 3; k++) state.displayOrientation[o3 + k] = s.orientation0[j + k]!;
        state.displayStale[slot] = 0;
      }
    }
    return false;
  }
}
