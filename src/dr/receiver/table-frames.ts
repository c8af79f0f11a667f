/**
 * The passes of a `RemoteEntityTable` over all its slots at a time t: positions by the quadratic (the WebAssembly
 * SIMD kernel where it runs), R_wb of the rotating slots from a dense list of them, and their Euler angles when
 * read. Held apart from the table, which owns what a PDU changes; nothing here allocates.
 */
import type { ExerciseFreeze } from './exercise-freeze.js';
import type { ModelState } from '../models/model-state.js';
import { SlotList } from './slot-list.js';
import {
  KERNEL_LINEAR as KERNEL_LINEAR_IMPORTED,
  KERNEL_ROTATING_BODY as KERNEL_ROTATING_BODY_IMPORTED,
  bodyPosition,
  eulerAt,
  evaluateRotating,
  extrapolateLinear,
  rotateSlots,
} from '../models/store.js';

// Imported constants copied to module consts, so that TurboFan folds them (a transpiled import is a getter).
const KERNEL_LINEAR = KERNEL_LINEAR_IMPORTED;
const KERNEL_ROTATING_BODY = KERNEL_ROTATING_BODY_IMPORTED;

export class TableFrames {
  /** Slots with a rotating kernel. */
  readonly rotating: SlotList;
  /** Scratch R_wb (no allocation per frame). */
  private readonly m = new Float64Array(9);

  constructor(
    private readonly state: ModelState,
    private readonly freezes: ExerciseFreeze,
  ) {
    this.rotating = new SlotList(state.store.capacity);
  }

  /** Keeps the list of rotating slots in step with the slot's kernel (`active`: whether it holds an entity). */
  track(slot: number, active: boolean): void {
    if (active && this.state.store.kernel[slot] !== KERNEL_LINEAR) this.rotating.add(slot);
    else this.rotating.delete(slot);
  }

  /**
   * Locations of slots [0, count) and R_wb of the rotating ones (9 per slot in `matrices`), whose angles go stale.
   * Held entities are evaluated at the time they are held at.
   */
  matrices(
    tSeconds: number,
    count: number,
    outLocation: Float64Array,
    matrices: Float64Array,
    stale: Uint8Array,
  ): void {
    const s = this.state.store,
      reference = this.state.reference,
      rotating = this.rotating.slots,
      members = this.rotating.compact();
    const held = this.freezes.size > 0;
    if (held) this.freezes.hold(reference, tSeconds);
    extrapolateLinear(s, count, reference, tSeconds, outLocation);
    // Only the rotating slots, from a dense list: a scan of every slot's kernel costs more (bench/dr.bench.ts).
    rotateSlots(s, rotating, members, tSeconds, reference, matrices, -1);
    const kernel = s.kernel;
    for (let k = 0; k < members; k++) {
      const slot = rotating[k]!;
      stale[slot] = 1;
      if (kernel[slot] === KERNEL_ROTATING_BODY) bodyPosition(s, slot, tSeconds, reference, outLocation, slot);
    }
    if (held) this.freezes.unhold(reference);
  }

  /** Locations and ψθφ of slots [0, count) into caller arrays (3 per slot each), computed now. */
  angles(tSeconds: number, count: number, outLocation: Float64Array, outOrientation: Float64Array): void {
    const s = this.state.store,
      reference = this.state.reference;
    this.freezes.hold(reference, tSeconds);
    extrapolateLinear(s, count, reference, tSeconds, outLocation);
    const o0 = s.orientation0;
    for (let j = 0; j < 3 * count; j++) outOrientation[j] = o0[j]!;
    const members = this.rotating.compact();
    for (let k = 0; k < members; k++) {
      const slot = this.rotating.slots[k]!;
      evaluateRotating(s, slot, tSeconds, reference, outLocation, slot, this.m, 0, outOrientation);
    }
    this.freezes.unhold(reference);
  }

  /** Euler angles of the rotating slots whose matrix changed since they were last converted. @returns false */
  convertStale(matrices: Float64Array, angles: Float64Array, stale: Uint8Array): false {
    const rotating = this.rotating.slots,
      members = this.rotating.compact();
    for (let k = 0; k < members; k++) {
      const slot = rotating[k]!;
      if (stale[slot] === 1) {
        eulerAt(angles, 3 * slot, matrices, 9 * slot);
        stale[slot] = 0;
      }
    }
    return false;
  }
}
