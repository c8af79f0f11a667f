/**
 * Which entities are in view, and whether there are few enough to read: the page labels, draws trails for and draws
 * as symbols only what a person can tell apart; past one entity per `READABLE_PX` square of the map they are drawn as
 * dots in their force's colour, unlabelled, as a density picture (the selected one keeps its label and trail).
 * Taken from each entity's rough place (`PageEntities.positions`), with a margin for the way it has come since it
 * was last looked at; a few times a second and when the view moves, and it stops counting once the view is too full
 * to read.
 * Free of DOM (test/view/page-declutter.test.ts).
 */
import type { PageEntities } from '../entities.js';

/** The side of the square of map each readable entity needs at least, px. */
export const READABLE_PX = 24;

/** The view: screen size and the longitudes and latitudes it shows (west may exceed east across 180°). */
export interface MapView {
  widthPx: number;
  heightPx: number;
  westDeg: number;
  southDeg: number;
  eastDeg: number;
  northDeg: number;
}

export class InView {
  /** Slots in view (at most `limit`), in instance order. */
  readonly slots: Int32Array;
  count = 0;
  /** Whether few enough are in view to read (see the module comment). */
  readable = true;
  /** Bumped by each `scan`. */
  version = 0;

  constructor(readonly limit = 4096) {
    this.slots = new Int32Array(limit);
  }

  /** Lists the entities in view, as long as they are readable. */
  scan(entities: PageEntities, view: MapView): void {
    const positions = entities.positions,
      instanceSlot = entities.instanceSlot;
    const readableLimit = Math.min(
      this.limit,
      Math.floor((view.widthPx * view.heightPx) / (READABLE_PX * READABLE_PX)),
    );
    // A tenth of the view's span around it: what came in since its last PDU.
    const spanLat = view.northDeg - view.southDeg,
      spanLon = view.eastDeg - view.westDeg;
    const south = view.southDeg - 0.1 * spanLat,
      north = view.northDeg + 0.1 * spanLat;
    const west = view.westDeg - 0.1 * spanLon,
      span = spanLon * 1.2;
    let n = 0;
    this.version++;
    this.readable = true;
    for (let i = 0; i < entities.count; i++) {
      const lat = positions[3 * i + 1]!;
      if (lat < south || lat > north) continue;
      if (span < 360 && (((positions[3 * i]! - west) % 360) + 360) % 360 > span) continue;
      if (n === readableLimit) {
        this.readable = false;
        break;
      }
      this.slots[n++] = instanceSlot[i]!;
    }
    this.count = this.readable ? n : 0;
  }
}
