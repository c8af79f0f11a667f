/**
 * Where the page's entities are shown at a frame's time, from the table's own float64 evaluation (the same dead
 * reckoning and smoothing the GPU draws): exact places of one slot, the rough places of every instance a few
 * thousand a frame, the correction still being smoothed and the model's speed. Its scratch arrays are allocated
 * once, so nothing here allocates per frame.
 */
import type { RemoteEntityTable } from '../../dr/receiver/remote-entity-table.js';
import { KERNEL_LINEAR, evaluateRotating, positionAt, worldVelocity } from '../../dr/models/store.js';
import { drawnStateOf, geodeticOf, nearLongitude } from './map/map-coordinates.js';

const DEG = Math.PI / 180;

/** Instances whose rough place (`positions`) a frame looks at anew: all of 100 000 in about a second. */
export const PLACES_PER_FRAME = 1536;

export class FrameGeometry {
  private readonly table: RemoteEntityTable;
  private readonly scratch = new Float64Array(3);
  private readonly geodetic = new Float64Array(5);
  private readonly placeLocation = new Float64Array(3);
  private readonly placeMatrix = new Float64Array(9);
  private readonly placeGeodetic = new Float64Array(3);
  private readonly placeHeading = new Float64Array(1);
  private readonly placeCosLat = new Float64Array(1);
  /** The next instance whose rough place is dead-reckoned anew. */
  private placeCursor = 0;

  constructor(table: RemoteEntityTable) {
    this.table = table;
  }

  /**
   * The displayed places (longitude°, latitude° into `positions`, 3 per instance) of the next `PLACES_PER_FRAME`
   * of the `count` instances, in turn.
   */
  refreshPlaces(instanceSlot: Int32Array, count: number, positions: Float64Array, tSeconds: number): void {
    const table = this.table;
    const ecef = this.placeLocation;
    const g = this.geodetic;
    for (let k = Math.min(count, PLACES_PER_FRAME); k > 0; k--) {
      if (this.placeCursor >= count) this.placeCursor = 0;
      const i = this.placeCursor++;
      table.renderSlot(instanceSlot[i]!, tSeconds, ecef, this.placeMatrix);
      geodeticOf(g, ecef[0]!, ecef[1]!, ecef[2]!);
      positions[3 * i] = g[1]! / DEG;
      positions[3 * i + 1] = g[0]! / DEG;
    }
  }

  /**
   * A slot's displayed (smoothed) state at tSeconds, exactly, as the GPU draws it: longitude° (the copy nearest
   * `referenceLonDeg`), latitude°, height m and heading (degrees clockwise from true north, [0, 360)) into out[0…3].
   */
  placeOf(slot: number, tSeconds: number, referenceLonDeg: number, out: Float64Array): Float64Array {
    const l = this.placeLocation;
    const m = this.placeMatrix;
    const g = this.placeGeodetic;
    this.table.renderSlot(slot, tSeconds, l, m);
    drawnStateOf(this.geodetic, 0, l[0]!, l[1]!, l[2]!, m[0]!, m[1]!, m[2]!, g, this.placeHeading, this.placeCosLat);
    out[0] = nearLongitude(g[0]!, referenceLonDeg);
    out[1] = g[1]!;
    out[2] = g[2]!;
    out[3] = this.placeHeading[0]!;
    return out;
  }

  /** `placeOf` without the heading: longitude°, latitude°, height m (three values suffice for `out`). */
  displayedDegrees(slot: number, tSeconds: number, referenceLonDeg: number, out: Float64Array): Float64Array {
    const l = this.placeLocation;
    const g = this.geodetic;
    this.table.renderSlot(slot, tSeconds, l, this.placeMatrix);
    geodeticOf(g, l[0]!, l[1]!, l[2]!);
    out[0] = nearLongitude(g[1]! / DEG, referenceLonDeg);
    out[1] = g[0]! / DEG;
    out[2] = g[2]!;
    return out;
  }

  /**
   * Distance between what is displayed for a slot at tSeconds and the dead-reckoned path of its last PDU,
   * metres: the correction the smoothing has yet to make.
   */
  displayErrorMeters(slot: number, tSeconds: number): number {
    const table = this.table;
    const out = this.scratch;
    const d = this.placeLocation;
    table.renderSlot(slot, tSeconds, d, this.placeMatrix);
    const t = Math.min(tSeconds, table.freezes.frozenAt(slot));
    positionAt(table.store, slot, t, table.referenceSeconds, out, 0);
    if (table.store.kernel[slot] !== KERNEL_LINEAR) {
      evaluateRotating(table.store, slot, t, table.referenceSeconds, out, 0, this.placeMatrix, 0, null);
    }
    return Math.hypot(d[0]! - out[0]!, d[1]! - out[1]!, d[2]! - out[2]!);
  }

  /** Speed of a slot's current model, m/s (world-frame velocity at tSeconds; 0 while it is held). */
  speedMetersPerSecond(slot: number, tSeconds: number): number {
    const table = this.table;
    const s = table.store;
    if (table.frozen[slot] === 1) return 0;
    if (s.kernel[slot] !== KERNEL_LINEAR) {
      evaluateRotating(s, slot, tSeconds, table.referenceSeconds, this.placeLocation, 0, this.placeMatrix, 0, null);
    }
    worldVelocity(s, slot, tSeconds, this.placeMatrix, 0, this.scratch, 0, table.referenceSeconds);
    const v = this.scratch;
    return Math.hypot(v[0]!, v[1]!, v[2]!);
  }
}
