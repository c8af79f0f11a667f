/**
 * When the page chooses its labels again: every `LABEL_INTERVAL_MS`, and at once when the view moved, entities came
 * or went or the selection changed. Each time it looks at what is in view (in-view.ts) and lets the chooser
 * (declutter.ts) place the labels.
 */
import type * as maplibregl from 'maplibre-gl';
import type { PageEntities } from '../entities.js';
import { LabelChooser } from './declutter.js';
import type { InView, MapView } from './in-view.js';
import { labelText } from './layers.js';

/** How often the labels are chosen again while the view stands still, ms (entities move under them). */
const LABEL_INTERVAL_MS = 200;

/** The labelled entities and when they were chosen. */
export class LabelSchedule {
  /** The labelled slots, as last chosen. */
  slots: readonly number[] = [];
  /** Set when the map moved: the labels are chosen again at the next frame. */
  viewMoved = true;
  private readonly chooser = new LabelChooser();
  private chosenAt = Number.NEGATIVE_INFINITY;
  private structure = -1;
  private selected = -1;
  private entities: PageEntities | null = null;
  private readonly text = (slot: number): string => labelText(this.entities!, slot);
  private readonly project = (lonDeg: number, latDeg: number, out: Float64Array): void => {
    const p = this.map.project([lonDeg, latDeg]);
    out[0] = p.x;
    out[1] = p.y;
  };

  constructor(
    private readonly map: maplibregl.Map,
    private readonly inView: InView,
  ) {}

  /** The chosen labels' boxes in map pixels: left, top, right, bottom (4 per label, in `slots` order). */
  get boxes(): readonly number[] {
    return this.chooser.boxes;
  }

  /** Looks at what is in view and chooses the labels again when due (`labels` false: none). */
  update(e: PageEntities, nowMs: number, selectedSlot: number, labels: boolean): void {
    const due =
      this.viewMoved ||
      nowMs - this.chosenAt >= LABEL_INTERVAL_MS ||
      this.structure !== e.structureVersion ||
      this.selected !== selectedSlot;
    if (!due) return;
    this.viewMoved = false;
    this.chosenAt = nowMs;
    this.structure = e.structureVersion;
    this.selected = selectedSlot;
    this.entities = e;
    const canvas = this.map.getCanvas();
    const bounds = this.map.getBounds();
    const view: MapView = {
      widthPx: canvas.clientWidth,
      heightPx: canvas.clientHeight,
      westDeg: bounds.getWest(),
      southDeg: bounds.getSouth(),
      eastDeg: bounds.getEast(),
      northDeg: bounds.getNorth(),
    };
    const inView = this.inView;
    inView.scan(e, view);
    this.slots = labels
      ? this.chooser.choose(e, inView.slots, inView.count, this.text, this.project, view, selectedSlot)
      : [];
  }
}
