/**
 * Smoothing of a remote entity's corrections (docs/dis-reference.md §5): when a new PDU moves its dead-reckoned
 * path, the displayed state converges onto the new path instead of jumping. Each correction under way is an entry
 * of a pool, dense and growing with the corrections at once (not with the table): its slot, start and errors in
 * position (e0), velocity (ė0) and orientation, the errors as float32 (a correction of 100 m is off by 6 µm, of an
 * orientation by 10⁻⁷ rad; it still ends exactly on the new path). A slot costs 4 bytes (its entry) when it has none.
 * The offsets themselves are the free functions of position-smoothing.ts and orientation-smoothing.ts. Nothing is
 * allocated per PDU or frame but when the pool grows.
 */
import type { ModelState } from '../models/model-state.js';
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
} from '../models/store.js';

// Imported constants copied to module consts, so that TurboFan folds them (a transpiled import is a getter).
const KERNEL_LINEAR = KERNEL_LINEAR_IMPORTED;
const SMOOTH_TAU = SMOOTH_TAU_IMPORTED;
const SMOOTH_DURATION = SMOOTH_DURATION_IMPORTED;
const SMOOTH_FRACTION = SMOOTH_FRACTION_IMPORTED;

/** The slots a Stop/Freeze holds (`ExerciseFreeze`): the time each is held at, +∞ for one that runs. */
export interface HeldSlots {
  frozenAt(slot: number): number;
}
const NOTHING_HELD: HeldSlots = { frozenAt: () => Number.POSITIVE_INFINITY };

/** The corrections being smoothed in a `RemoteEntityTable`, over its model state. */
export class CorrectionSmoother {
  /** `SMOOTHING_METHODS` code, duration in seconds, and the jump in metres beyond which a correction snaps. */
  readonly method: number;
  readonly durationSeconds: number;
  readonly teleportMeters: number;
  /** Corrections are smoothed (not 'snap', a positive duration); and the method reads ė0 (projective, convergence). */
  readonly enabled: boolean;
  private readonly usesVelocity: boolean;
  /**
   * Entries: corrections under way, and those found over by `renderSlot` (`over`), which the next `renderAll` puts
   * back on their path and ends. Entry k belongs to `slots[k]`.
   */
  count = 0;
  /** Per entry: its slot, start, and errors (e0, ė0 3 each; E a quaternion, 4, and its half angle). */
  slots: Int32Array;
  private over: Uint8Array;
  private startSeconds: Float64Array;
  private errorPosition: Float32Array;
  private errorVelocity: Float32Array;
  private errorRotation: Float32Array;
  private errorHalfAngle: Float32Array;
  /** Per slot: its entry, or −1. */
  private readonly entryOf: Int32Array;
  /**
   * Time is handed to the per-slot steps in arrays, never as a number: a double computed or loaded by the caller
   * and passed to a function V8 does not inline is boxed on the heap. `now[0]`: the time being evaluated, seconds
   * (set by the table); `smoothTime`: `positionOffset`'s τ, duration and fraction. The store's kernels see
   * dt = now − reference through the slot's reference time set to reference − now for the call and t = 0 (bit for
   * bit: IEEE subtraction is antisymmetric).
   */
  readonly now = new Float64Array(1);
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
   * @param freezes - the slots a Stop/Freeze holds and the time each is held at: a held slot's correction is
   *   evaluated no later than that, so a held entity stands still.
   */
  constructor(
    private readonly state: ModelState,
    options: SmoothingOptions = {},
    private readonly freezes: HeldSlots = NOTHING_HELD,
  ) {
    this.method = SMOOTHING_METHODS[options.method ?? 'linear'];
    this.durationSeconds = options.durationSeconds ?? 0.5;
    this.teleportMeters = options.teleportMeters ?? 100;
    this.enabled = this.method !== SMOOTH_SNAP && this.durationSeconds > 0;
    this.usesVelocity = this.method === SMOOTH_PROJECTIVE || this.method === SMOOTH_CONVERGENCE;
    this.entryOf = new Int32Array(state.store.capacity).fill(-1);
    const size = this.enabled ? 16 : 0;
    this.slots = new Int32Array(size);
    this.over = new Uint8Array(size);
    this.startSeconds = new Float64Array(size);
    this.errorPosition = new Float32Array(3 * size);
    this.errorVelocity = new Float32Array(this.usesVelocity ? 3 * size : 0);
    this.errorRotation = new Float32Array(4 * size);
    this.errorHalfAngle = new Float32Array(size);
  }

  /** Whether the slot's displayed state is converging onto a corrected path. */
  isSmoothing(slot: number): boolean {
    const k = this.entryOf[slot]!;
    return k >= 0 && this.over[k] === 0;
  }

  /**
   * Adds every correction's offset at tSeconds to `location` and `matrices` (3 and 9 per slot, holding the new
   * paths) and ends those that are over.
   */
  renderAll(tSeconds: number, location: Float64Array, matrices: Float64Array): void {
    this.now[0] = tSeconds;
    for (let k = 0; k < this.count; ) {
      const slot = this.slots[k]!;
      // An entry taken off leaves the last one in its place: k is looked at again.
      if (this.smooth(slot, location, matrices, slot, true)) k++;
    }
  }

  /**
   * The state displayed for one slot at now[0], before a new PDU replaces its model: position into this.p, R_wb
   * into this.m and, for the methods that read ė0, the old path's world velocity into this.previousVelocity.
   */
  displayedAt(slot: number): void {
    const s = this.state.store,
      reference = this.state.reference,
      held = reference[slot]!;
    reference[slot] = held - this.now[0]!;
    positionAt(s, slot, 0, reference, this.p, 0);
    if (s.kernel[slot] !== KERNEL_LINEAR) evaluateRotating(s, slot, 0, reference, this.p, 0, this.m, 0, null);
    else initialWorldToBody(s, slot, this.m, 0);
    if (this.usesVelocity) worldVelocity(s, slot, 0, this.m, 0, this.previousVelocity, 0, reference);
    reference[slot] = held;
    if (this.isSmoothing(slot)) this.smooth(slot, this.p, this.m, 0, false);
  }

  /** Starts a correction at now[0] from the displayed state (this.p, this.m, this.previousVelocity) onto the new model. */
  start(slot: number): void {
    const s = this.state.store,
      reference = this.state.reference,
      held = reference[slot]!,
      t = this.now[0]!;
    // The new path at t (dt is usually 0, or the PDU's age in 'timestamp' mode): position p2, R_wb m2.
    reference[slot] = held - t;
    positionAt(s, slot, 0, reference, this.p2, 0);
    if (s.kernel[slot] !== KERNEL_LINEAR) evaluateRotating(s, slot, 0, reference, this.p2, 0, this.m2, 0, null);
    else initialWorldToBody(s, slot, this.m2, 0);
    let e2 = 0;
    for (let k = 0; k < 3; k++) {
      const e = this.p[k]! - this.p2[k]!;
      e2 += e * e;
    }
    if (Math.sqrt(e2) > this.teleportMeters) {
      reference[slot] = held;
      return this.stop(slot);
    }
    if (this.usesVelocity) worldVelocity(s, slot, 0, this.m2, 0, this.v, 0, reference);
    reference[slot] = held;
    let k = this.entryOf[slot]!;
    if (k < 0) {
      if (this.count === this.slots.length) this.grow();
      k = this.count++;
      this.entryOf[slot] = k;
      this.slots[k] = slot;
    }
    this.over[k] = 0;
    const k3 = 3 * k;
    for (let c = 0; c < 3; c++) this.errorPosition[k3 + c] = this.p[c]! - this.p2[c]!;
    // ė0 = displayed − new path velocity (the displayed velocity taken as the old path's).
    if (this.usesVelocity)
      for (let c = 0; c < 3; c++) this.errorVelocity[k3 + c] = this.previousVelocity[c]! - this.v[c]!;
    startRotationError(this.errorRotation, this.errorHalfAngle, k, this.m, this.m2);
    this.startSeconds[k] = t;
  }

  /**
   * Moves the slot's model and its correction on by `seconds` (a Stop/Freeze held it that long): it continues from
   * where it stood.
   */
  shift(slot: number, seconds: number): void {
    this.state.reference[slot] = this.state.reference[slot]! + seconds;
    const k = this.entryOf[slot]!;
    if (k >= 0) this.startSeconds[k] = this.startSeconds[k]! + seconds;
  }

  /**
   * A slot's correction as `smooth` applies it, for a reader that evaluates it elsewhere (the page's GPU state,
   * src/view/page/gpu/gpu-record.ts): start time (s), e0 (m), ė0 (m/s; 0 for the methods that do not read it) and
   * E (unit quaternion x, y, z, w) at out[o…o+10]. @returns false when the slot is not being corrected.
   */
  correctionInto(slot: number, out: Float64Array, o: number): boolean {
    const k = this.entryOf[slot]!;
    if (k < 0 || this.over[k] !== 0) return false;
    const k3 = 3 * k,
      e = this.errorRotation;
    out[o] = this.startSeconds[k]!;
    for (let c = 0; c < 3; c++) {
      out[o + 1 + c] = this.errorPosition[k3 + c]!;
      out[o + 4 + c] = this.usesVelocity ? this.errorVelocity[k3 + c]! : 0;
    }
    for (let c = 0; c < 4; c++) out[o + 7 + c] = e[4 * k + c]!;
    return true;
  }

  /** Ends the slot's correction, if any. */
  stop(slot: number): void {
    const k = this.entryOf[slot]!;
    if (k < 0) return;
    this.entryOf[slot] = -1;
    const last = --this.count;
    if (k === last) return;
    // The last entry moves into the freed one.
    const moved = this.slots[last]!;
    this.slots[k] = moved;
    this.entryOf[moved] = k;
    this.over[k] = this.over[last]!;
    this.startSeconds[k] = this.startSeconds[last]!;
    this.errorHalfAngle[k] = this.errorHalfAngle[last]!;
    this.errorPosition.copyWithin(3 * k, 3 * last, 3 * last + 3);
    if (this.usesVelocity) this.errorVelocity.copyWithin(3 * k, 3 * last, 3 * last + 3);
    this.errorRotation.copyWithin(4 * k, 4 * last, 4 * last + 4);
  }

  /**
   * Adds the smoothing offset of one slot at now[0] to the location at offset 3·o and the R_wb at offset 9·o (which
   * hold the new path; for a fixed orientation, which `extrapolate` does not rewrite, R0 is computed from the model
   * and the matrix written whole). With `display` (a `renderAll`), the slot's displayed angles are kept in step:
   * restored for a fixed orientation, else marked for conversion when read; and a correction found over is ended
   * (without, it is marked over, for the next `renderAll` to end).
   * @returns false when the slot is no longer smoothing (over, or never started).
   */
  smooth(slot: number, location: Float64Array, matrices: Float64Array, o: number, display: boolean): boolean {
    const o3 = 3 * o,
      o9 = 9 * o,
      state = this.state,
      s = state.store,
      k = this.entryOf[slot]!;
    const fixed = s.kernel[slot] === KERNEL_LINEAR;
    if (k >= 0 && this.over[k] === 0) {
      const time = this.smoothTime;
      time[SMOOTH_TAU] = Math.min(this.now[0]!, this.freezes.frozenAt(slot)) - this.startSeconds[k]!;
      time[SMOOTH_DURATION] = this.durationSeconds;
      positionOffset(this.method, time, this.errorPosition, this.errorVelocity, k, this.p2, 0);
      const sFraction = time[SMOOTH_FRACTION]!;
      if (sFraction < 1) {
        for (let c = 0; c < 3; c++) location[o3 + c]! += this.p2[c]!;
        if (fixed) initialWorldToBody(s, slot, this.r0, 0);
        const from = fixed ? this.r0 : matrices,
          f9 = fixed ? 0 : o9;
        turnByError(this.errorRotation, this.errorHalfAngle, k, time, from, f9, matrices, o9);
        if (display) state.displayStale[slot] = 1;
        return true;
      }
      this.over[k] = 1;
    }
    if (k >= 0 && display) this.stop(slot);
    // On the new path: a fixed orientation is R0 again.
    if (fixed) {
      initialWorldToBody(s, slot, matrices, o9);
      if (display) {
        const angles = state.displayOrientation,
          j = 3 * slot;
        if (angles !== null) for (let c = 0; c < 3; c++) angles[o3 + c] = s.orientation0[j + c]!;
        state.displayStale[slot] = 0;
      }
    }
    return false;
  }

  private grow(): void {
    const size = Math.max(16, 2 * this.slots.length);
    const slots = new Int32Array(size);
    slots.set(this.slots);
    this.slots = slots;
    const over = new Uint8Array(size);
    over.set(this.over);
    this.over = over;
    const start = new Float64Array(size);
    start.set(this.startSeconds);
    this.startSeconds = start;
    const position = new Float32Array(3 * size);
    position.set(this.errorPosition);
    this.errorPosition = position;
    if (this.usesVelocity) {
      const velocity = new Float32Array(3 * size);
      velocity.set(this.errorVelocity);
      this.errorVelocity = velocity;
    }
    const rotation = new Float32Array(4 * size);
    rotation.set(this.errorRotation);
    this.errorRotation = rotation;
    const half = new Float32Array(size);
    half.set(this.errorHalfAngle);
    this.errorHalfAngle = half;
  }
}
