/** The per-slot model state of a `RemoteEntityTable` that loading its pending PDUs brings up to date. */
import type { DrStore } from './store.js';

/**
 * The state `resolve` brings up to date: the DR models, the time each is valid at, the dead-reckoned and displayed
 * orientation (R_wb and ψθφ, with which angles lag their matrix) and which slots are converging. Readers reach it
 * through `RemoteEntityTable.resolved` only.
 */
export class ModelState {
  /** R_wb, row-major (9 per slot): dead-reckoned (`extrapolate`) and displayed (`render`). */
  readonly worldToBody: Float64Array;
  readonly displayWorldToBody: Float64Array;
  /** ψθφ, radians (3 per slot), converted from the matrices when read. */
  readonly orientation: Float64Array;
  readonly displayOrientation: Float64Array;
  /** Per slot: 1 while the Euler angles lag the matrix (rotating slots after `extrapolate` / `render`). */
  readonly orientationStale: Uint8Array;
  readonly displayStale: Uint8Array;
  /** Per slot: 1 while the displayed state converges onto a corrected path. */
  readonly isSmoothing: Uint8Array;

  /**
   * @param store - the DR models.
   * @param reference - per slot, the time its model is valid at, seconds.
   */
  constructor(
    readonly store: DrStore,
    readonly reference: Float64Array,
  ) {
    const n = store.capacity;
    this.worldToBody = new Float64Array(9 * n);
    this.displayWorldToBody = new Float64Array(9 * n);
    this.orientation = new Float64Array(3 * n);
    this.displayOrientation = new Float64Array(3 * n);
    this.orientationStale = new Uint8Array(n);
    this.displayStale = new Uint8Array(n);
    this.isSmoothing = new Uint8Array(n);
  }
}
