/**
 * Trails: where each entity's PDUs put it, at most one point every `intervalSeconds`, the last `points` of them in a
 * ring per slot (recorded as PDUs are applied: nothing per frame), drawn from the oldest to where the entity is
 * shown now. Between two PDUs an entity follows its dead-reckoned path, so the PDUs' places are the path's corners;
 * the last stretch, to the symbol, is drawn to the displayed place the page gives when it packs the trails.
 * Packed for deck.gl's PathLayer only for the entities asked (those in view and readable), so the work follows
 * what is drawn, not how many entities there are. Free of DOM (test/view/page-entities.test.ts).
 */
import { nearLongitude } from './map-coordinates.js';

export class EntityTrails {
  /** Longitude°, latitude° of each slot's points (2 per point, `points` per slot, a ring from `head`). */
  private readonly values: Float32Array;
  private readonly length: Uint16Array;
  private readonly head: Uint16Array;
  /** When each slot's newest point was taken, seconds. */
  private readonly taken: Float64Array;
  /** Packed for a PathLayer: the trails one after the other (longitude°, latitude°), where each starts. */
  path: Float32Array;
  readonly starts: Uint32Array;
  /** Trails packed, and the slot of each. */
  count = 0;
  readonly slots: Int32Array;
  /** Bumped by each `pack`. */
  version = 0;

  constructor(
    capacity: number,
    readonly points = 30,
    readonly intervalSeconds = 1,
    /** Trails packed at most. */
    readonly maxPacked = 4096,
  ) {
    this.values = new Float32Array(2 * points * capacity);
    this.length = new Uint16Array(capacity);
    this.head = new Uint16Array(capacity);
    this.taken = new Float64Array(capacity).fill(Number.NEGATIVE_INFINITY);
    this.path = new Float32Array(2 * (points + 1) * 256);
    this.starts = new Uint32Array(maxPacked + 1);
    this.slots = new Int32Array(maxPacked);
  }

  /** A PDU put the slot's entity at (lonDeg, latDeg) at `tSeconds`: a point, unless one came within the interval. */
  add(slot: number, lonDeg: number, latDeg: number, tSeconds: number): void {
    const last = this.taken[slot]!;
    if (tSeconds - last < this.intervalSeconds && tSeconds >= last) return;
    this.taken[slot] = tSeconds;
    const base = 2 * this.points * slot,
      head = this.head[slot]!;
    this.values[base + 2 * head] = lonDeg;
    this.values[base + 2 * head + 1] = latDeg;
    this.head[slot] = (head + 1) % this.points;
    this.length[slot] = Math.min(this.points, this.length[slot]! + 1);
  }

  /** Forgets the slot's trail (a new entity in it). */
  clear(slot: number): void {
    this.length[slot] = this.head[slot] = 0;
    this.taken[slot] = Number.NEGATIVE_INFINITY;
  }

  /** Points the slot's trail holds. */
  pointsOf(slot: number): number {
    return this.length[slot]!;
  }

  /**
   * Packs the trails of `slots[0…count)` (at most `maxPacked`), each from its oldest point to `now` (the displayed
   * longitude°, latitude° of the slot, which `placeOf` writes at out[0], out[1]), every longitude the copy nearest
   * the point after it: a trail over the antimeridian stays one line.
   */
  pack(slots: ArrayLike<number>, count: number, placeOf: (slot: number, out: Float64Array) => void): void {
    const n = Math.min(count, this.maxPacked);
    const needed = 2 * (this.points + 1) * n;
    if (this.path.length < needed) this.path = new Float32Array(Math.max(needed, 2 * this.path.length));
    const path = this.path,
      values = this.values,
      points = this.points,
      here = this.here;
    let w = 0;
    for (let k = 0; k < n; k++) {
      const slot = slots[k]!;
      this.slots[k] = slot;
      this.starts[k] = w / 2;
      placeOf(slot, here);
      const length = this.length[slot]!,
        base = 2 * points * slot;
      const first = (this.head[slot]! - length + points) % points;
      // Newest last: the place now, then the points back to the oldest.
      let next = here[0]!;
      path[w + 2 * length] = next;
      path[w + 2 * length + 1] = here[1]!;
      for (let j = length - 1; j >= 0; j--) {
        const q = base + 2 * ((first + j) % points);
        next = nearLongitude(values[q]!, next);
        path[w + 2 * j] = next;
        path[w + 2 * j + 1] = values[q + 1]!;
      }
      w += 2 * (length + 1);
    }
    this.starts[n] = w / 2;
    this.count = n;
    this.version++;
  }

  private readonly here = new Float64Array(4);
}
