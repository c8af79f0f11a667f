/** The per-slot model state of a `RemoteEntityTable` that loading its pending PDUs brings up to date. */
import { initialWorldToBody, type DrStore } from './store.js';

/**
 * The state `resolve` brings up to date: the DR models, the time each is valid at, the displayed R_wb, and the
 * dead-reckoned R_wb and both sets of ψθφ, which are made when first asked for (a table that only renders has no
 * use for them: 120 bytes per slot), with which angles lag their matrix. Readers reach it through
 * `RemoteEntityTable.resolved` only.
 */
export class ModelState {
  /** Displayed R_wb, row-major (9 per slot), written by `render` (fixed orientations: when their PDU loads). */
  readonly displayWorldToBody: Float64Array;
  /** Dead-reckoned R_wb (9 per slot), once asked for (`worldToBodyArray`). */
  worldToBody: Float64Array | null = null;
  /** ψθφ, radians (3 per slot), dead-reckoned and displayed, once asked for; converted from the matrices when read. */
  orientation: Float64Array | null = null;
  displayOrientation: Float64Array | null = null;
  /** Per slot: 1 while the Euler angles lag the matrix (rotating slots after `extrapolate` / `render`). */
  readonly orientationStale: Uint8Array;
  readonly displayStale: Uint8Array;

  /**
   * @param store - the DR models.
   * @param reference - per slot, the time its model is valid at, seconds.
   */
  constructor(
    readonly store: DrStore,
    readonly reference: Float64Array,
  ) {
    const n = store.capacity;
    this.displayWorldToBody = new Float64Array(9 * n);
    this.orientationStale = new Uint8Array(n);
    this.displayStale = new Uint8Array(n);
  }

  /** The dead-reckoned R_wb, made at the first call: each slot's R0 until `extrapolate` turns the rotating ones. */
  worldToBodyArray(count: number): Float64Array {
    if (this.worldToBody !== null) return this.worldToBody;
    const matrices = new Float64Array(9 * this.store.capacity);
    for (let slot = 0; slot < count; slot++) initialWorldToBody(this.store, slot, matrices, 9 * slot);
    return (this.worldToBody = matrices);
  }

  /**
   * The dead-reckoned (`display` false) or displayed ψθφ, made at the first call with each slot's angles as sent:
   * the stale flags, kept whether or not the angles exist, say which to convert from their matrix when read.
   */
  anglesArray(display: boolean, count: number): Float64Array {
    const existing = display ? this.displayOrientation : this.orientation;
    if (existing !== null) return existing;
    const angles = new Float64Array(3 * this.store.capacity);
    const o0 = this.store.orientation0;
    for (let j = 0; j < 3 * count; j++) angles[j] = o0[j]!;
    if (display) this.displayOrientation = angles;
    else this.orientation = angles;
    return angles;
  }
}
