/**
 * Label placement without overlaps, as map tools place theirs: candidates are taken in priority order and a label
 * is drawn only where its box collides with no label already placed. Boxes are screen rectangles in pixels; a grid
 * of buckets keeps each test to the few boxes nearby. Free of DOM and WebGL (test/view/page-declutter.test.ts).
 */

import type { PageEntities } from '../entities.js';
import type { MapView } from './in-view.js';

/** Bucket edge, px: about one label's height, a third of a typical label's width. */
const BUCKET_PX = 24;

export class LabelPlacer {
  /** Placed boxes: left, top, right, bottom (4 per box). */
  private boxes = new Float64Array(4 * 64);
  private placed = 0;
  /** Per bucket, the boxes touching it (indices into `boxes`), rebuilt on each `reset`. */
  private buckets = new Map<number, number[]>();
  private columns = 1;

  /** Starts a placement over a screen `widthPx` wide. */
  reset(widthPx: number): void {
    this.placed = 0;
    this.buckets.clear();
    this.columns = Math.max(1, Math.ceil(widthPx / BUCKET_PX) + 2);
  }

  /**
   * Places the box if it overlaps no box placed before (or `force`, for the label that must show).
   * @returns whether it was placed.
   */
  tryPlace(left: number, top: number, right: number, bottom: number, force = false): boolean {
    const c0 = Math.floor(left / BUCKET_PX),
      c1 = Math.floor(right / BUCKET_PX),
      r0 = Math.floor(top / BUCKET_PX),
      r1 = Math.floor(bottom / BUCKET_PX);
    if (!force) {
      const b = this.boxes;
      for (let r = r0; r <= r1; r++) {
        for (let c = c0; c <= c1; c++) {
          const bucket = this.buckets.get(r * this.columns + c);
          if (bucket === undefined) continue;
          for (const k of bucket) {
            if (left < b[4 * k + 2]! && right > b[4 * k]! && top < b[4 * k + 3]! && bottom > b[4 * k + 1]!)
              return false;
          }
        }
      }
    }
    const k = this.placed++;
    if (4 * this.placed > this.boxes.length) {
      const grown = new Float64Array(2 * this.boxes.length);
      grown.set(this.boxes);
      this.boxes = grown;
    }
    this.boxes[4 * k] = left;
    this.boxes[4 * k + 1] = top;
    this.boxes[4 * k + 2] = right;
    this.boxes[4 * k + 3] = bottom;
    for (let r = r0; r <= r1; r++) {
      for (let c = c0; c <= c1; c++) {
        const key = r * this.columns + c;
        const bucket = this.buckets.get(key);
        if (bucket === undefined) this.buckets.set(key, [k]);
        else bucket.push(k);
      }
    }
    return true;
  }

  /** Boxes placed since the last `reset`. */
  get count(): number {
    return this.placed;
  }
}

/** Screen pixel (x, y) of a longitude and latitude, degrees, written into `out`. */
export type Projector = (lonDeg: number, latDeg: number, out: Float64Array) => void;

/** Label geometry as `EntityLayers` draws it: centred under the symbol, 12 px text with a 3 px outline. */
export const LABEL_OFFSET_Y_PX = 22;
const LABEL_HALF_HEIGHT_PX = 9;
/** A generous average advance of 12 px system-ui capitals and digits, px per character. */
const LABEL_CHAR_PX = 7.5;
const LABEL_PADDING_PX = 8;

/** The view a placement is for: screen size and the longitudes and latitudes it shows (west may exceed east). */
export type LabelView = MapView;

/**
 * Which entities get a label: the selected one always, then those labelled last time (so labels do not jump
 * between neighbours as they move), then the rest in slot order, each where its box collides with none placed
 * before. The candidates are the entities in view (`InView`, in-view.ts: none when too many are in view to read),
 * each placed where it is shown now (`PageEntities.placeOf`).
 */
export class LabelChooser {
  private readonly placer = new LabelPlacer();
  /** 1 for each slot labelled by the last `choose`. */
  private labelledBefore = new Uint8Array(0);
  private readonly point = new Float64Array(2);
  private readonly place = new Float64Array(4);
  /** Left, top, right, bottom of each label chosen last (4 per label), px: for the test hook. */
  boxes: number[] = [];

  /**
   * @returns slots of the entities to label (a new array).
   * @param candidates - slots in view, `candidateCount` of them.
   * @param text - the label text of a slot.
   * @param selectedSlot - the selected entity's slot, or −1.
   */
  choose(
    entities: PageEntities,
    candidates: ArrayLike<number>,
    candidateCount: number,
    text: (slot: number) => string,
    project: Projector,
    view: LabelView,
    selectedSlot: number,
  ): number[] {
    const e = entities,
      placer = this.placer,
      p = this.point,
      place = this.place;
    if (this.labelledBefore.length < e.capacity) this.labelledBefore = new Uint8Array(e.capacity);
    const before = this.labelledBefore;
    placer.reset(view.widthPx);
    const chosen: number[] = [];
    const boxes: number[] = [];
    const spanDeg = view.eastDeg - view.westDeg;
    const consider = (slot: number, force: boolean): void => {
      e.placeOf(slot, place);
      const lon = place[0]!,
        lat = place[1]!;
      if (!force) {
        if (lat < view.southDeg || lat > view.northDeg) return;
        if (spanDeg < 360 && (((lon - view.westDeg) % 360) + 360) % 360 > spanDeg) return;
      }
      project(lon, lat, p);
      const x = p[0]!,
        y = p[1]! + LABEL_OFFSET_Y_PX;
      const half = (text(slot).length * LABEL_CHAR_PX + LABEL_PADDING_PX) / 2;
      const top = y - LABEL_HALF_HEIGHT_PX,
        bottom = y + LABEL_HALF_HEIGHT_PX;
      if (!force && (x + half < 0 || x - half > view.widthPx || bottom < 0 || top > view.heightPx)) return;
      if (placer.tryPlace(x - half, top, x + half, bottom, force)) {
        chosen.push(slot);
        boxes.push(x - half, top, x + half, bottom);
      }
    };
    if (selectedSlot >= 0 && e.table.active[selectedSlot] === 1) consider(selectedSlot, true);
    for (const wanted of [1, 0]) {
      for (let k = 0; k < candidateCount; k++) {
        const slot = candidates[k]!;
        if (slot !== selectedSlot && before[slot] === wanted) consider(slot, false);
      }
    }
    before.fill(0);
    for (const slot of chosen) before[slot] = 1;
    this.boxes = boxes;
    return chosen;
  }
}
