/**
 * deck.gl layers over `PageEntities` and the GPU's dead-reckoned buffer (src/view/page/gpu/): the symbols (and the
 * raw DR ghosts) are drawn by `EntitySymbolLayer` straight from that buffer, so their positions never pass through
 * the CPU; the few layers that follow single entities (labels, the selection, the demo's truth lines, trails) read
 * their displayed places from the table (`PageEntities.placeOf`, the same model in float64). Per-entity work on the
 * CPU is bounded by what is readable in view, never by how many entities there are.
 */
import { LineLayer, PathLayer, ScatterplotLayer, TextLayer } from '@deck.gl/layers';
import type { Layer } from '@deck.gl/core';
import { ArrivalMarkers } from './arrival-markers.js';
import type { PageEntities } from '../entities.js';
import { nearLongitude } from './map-coordinates.js';
import { affiliationOf } from './symbols.js';
import { LABEL_OFFSET_Y_PX } from './declutter.js';
import { EntitySymbolLayer, STYLE_DOTS, STYLE_ICONS, STYLE_RINGS } from '../gpu/entity-symbol-layer.js';
import type { SymbolAtlas } from './symbol-atlas.js';
import type { GpuFrame } from '../gpu/gpu-entities.js';
import type { TruthPoint } from '../truth-error.js';

type Rgba = [number, number, number, number];

/**
 * The layer manager of a deck.gl overlay's Deck (`MapboxOverlay`), whose `updateLayers` runs the layer and attribute
 * update deck.gl would otherwise run at its next render. Not public API: undefined if deck.gl stops having it.
 */
export function deckLayerManager(overlay: object): { updateLayers(): void } | undefined {
  return (overlay as { _deck?: { layerManager?: { updateLayers(): void } | null } })._deck?.layerManager ?? undefined;
}

/** Trail colour by 2525 affiliation (the standard's frame colours, darker for lines on a dark map). */
const FORCE_COLOURS: Record<string, Rgba> = {
  F: [90, 170, 255, 170],
  H: [255, 90, 90, 170],
  N: [90, 220, 120, 170],
  U: [255, 220, 90, 170],
};

/** The dots' colours when too many are in view to read: the ghost ring's, then by affiliation (F, H, N, U). */
const DOT_COLOURS: readonly Rgba[] = [
  [220, 220, 220, 150],
  [110, 180, 255, 255],
  [255, 100, 100, 255],
  [100, 230, 130, 255],
  [255, 225, 100, 255],
];

/** Arrival marker colour by reason (`PDU_REASON_*`). */
export const REASON_COLOURS: readonly Rgba[] = [
  [170, 170, 170, 200], // other
  [255, 255, 255, 230], // appeared
  [255, 160, 40, 230], // position threshold
  [230, 90, 255, 230], // orientation threshold
  [110, 200, 255, 200], // heartbeat
];

export interface LayerOptions {
  trails: boolean;
  markers: boolean;
  ghosts: boolean;
  labels: boolean;
  /** Slot of the selected entity, or −1. */
  selectedSlot: number;
  /** Slots to label (chosen without overlaps by `LabelChooser`, src/view/page/map/declutter.ts). */
  labelSlots: readonly number[];
  /** Whether few enough entities are in view to read (in-view.ts): symbols, else dots. */
  readable: boolean;
  onSelect: (slot: number) => void;
}

/** The text of a slot's label: its marking, or its id when it has none. */
export function labelText(entities: PageEntities, slot: number): string {
  return entities.markings[slot] || entities.ids[slot]!;
}

/** Seconds between two rebuilds of the PDU arrival markers (they change with nearly every PDU). */
export const MARKER_INTERVAL_SECONDS = 0.25;

/** Seconds between two packings of the trails (their last stretch runs to where the symbol is). */
export const TRAIL_INTERVAL_SECONDS = 1;

/** The layer of one entity's ring (the selection), in pixels whatever the zoom. */
function ringLayer(
  id: string,
  position: Float64Array,
  radiusPx: number,
  lineWidthPx: number,
  colour: Rgba,
  frame: number,
) {
  return new ScatterplotLayer({
    id,
    data: { length: 1, attributes: { getPosition: { value: position, size: 3 } } },
    radiusUnits: 'pixels',
    getRadius: radiusPx,
    filled: false,
    stroked: true,
    lineWidthUnits: 'pixels',
    getLineWidth: lineWidthPx,
    getLineColor: colour,
    updateTriggers: { getPosition: frame },
  });
}

/**
 * Builds the layer list of each frame, keeping every layer whose inputs did not change: deck.gl then matches the
 * same instance and skips it. The symbols are one `EntitySymbolLayer` over the GPU's buffer (a new instance per
 * drawn frame, whose props differ only in the frame number: nothing is uploaded); labels, the selection and the
 * truth lines are placed from the table each frame; trails are packed at most every `TRAIL_INTERVAL_SECONDS`,
 * markers rebuilt at most every `MARKER_INTERVAL_SECONDS`.
 */
export class EntityLayers {
  private frameNumber = 0;
  private trailLayer: Layer | null = null;
  private trailsPackedAt = -Infinity;
  private trailScan = -1;
  private markerLayer: Layer | null = null;
  private builtMarker = -1;
  private markerBuiltAt = -Infinity;
  private readonly markerColours: Uint8ClampedArray;
  private readonly selectedPosition = new Float64Array(3);
  private readonly place = new Float64Array(4);
  /** The icons' frames in the atlas (8 floats per icon, `EntitySymbolLayer`), for the first `framedIcons` icons. */
  private iconFrames = new Float32Array(8 * 16);
  private framedIcons = 0;
  private iconVersion = 0;
  private onSelect: (slot: number) => void = () => {};
  private readonly onClick = (info: { index: number }): void => {
    if (info.index >= 0) this.onSelect(info.index);
  };
  /** The list the last call to `layers` built (that a null since then leaves as it is). */
  current: readonly Layer[] = [];
  private truthInput: readonly TruthPoint[] | null = null;
  private lastOptions: (LayerOptions & { markersShown: boolean }) | null = null;
  private lastGpuFrame = -1;
  private truthLayer: Layer | null = null;
  private truthErrorLayer: Layer | null = null;
  private truthFrom = new Float64Array(0);
  private truthTo = new Float64Array(0);

  constructor(
    private readonly entities: PageEntities,
    private readonly atlas: SymbolAtlas,
  ) {
    // deck.gl's colour attributes are normalised bytes (Uint8ClampedArray): taken as they are.
    this.markerColours = new Uint8ClampedArray(4 * entities.markers.capacity);
  }

  /**
   * The layers to draw now, or null when those of the last call still show everything as it is: nothing moved
   * (`PageEntities.moved`), the GPU drew nothing new, and the options, trails, markers and truth are as they were.
   * @param truth - the demo's ground truth (empty otherwise).
   * @param tSeconds - the frame's time (server clock, as `PageEntities.frame`); paces trails and markers.
   * @param gpu - the GPU's buffers, or null before its device is there (no symbols yet).
   * @param inView - the slots in view (`InView`), whose trails are drawn when readable.
   */
  layers(
    options: LayerOptions,
    truth: readonly TruthPoint[],
    tSeconds: number,
    gpu: GpuFrame | null,
    inView: { slots: ArrayLike<number>; count: number; version: number },
  ): Layer[] | null {
    const e = this.entities;
    const iconsChanged = this.framedIcons !== e.iconKeys.length;
    const trailsDue =
      options.trails &&
      (this.trailLayer === null ||
        this.trailScan !== inView.version ||
        tSeconds - this.trailsPackedAt >= TRAIL_INTERVAL_SECONDS ||
        tSeconds < this.trailsPackedAt);
    const m = e.markers;
    const markersShown = options.markers && m.count > 0;
    // New markers, or old ones still fading: rebuilt at most every MARKER_INTERVAL_SECONDS.
    const markersDue =
      markersShown &&
      (this.markerLayer === null ||
        ((this.builtMarker !== m.version || m.fading(this.markerBuiltAt)) &&
          (tSeconds - this.markerBuiltAt >= MARKER_INTERVAL_SECONDS || tSeconds < this.markerBuiltAt)));
    const gpuFrame = gpu?.frame ?? -1;
    if (
      !e.moved &&
      !iconsChanged &&
      !trailsDue &&
      !markersDue &&
      gpuFrame === this.lastGpuFrame &&
      truth === this.truthInput &&
      this.sameOptions(options, markersShown)
    )
      return null;
    this.keepOptions(options, markersShown, truth);
    this.lastGpuFrame = gpuFrame;
    const frame = ++this.frameNumber;
    this.onSelect = options.onSelect;
    if (iconsChanged) this.frameIcons();
    const layers: Layer[] = [];
    const selected =
      options.selectedSlot >= 0 && e.table.active[options.selectedSlot] === 1 ? options.selectedSlot : -1;
    if (options.trails) {
      if (trailsDue) this.packTrails(tSeconds, options.readable ? inView : null, selected, inView.version);
      if (this.trailLayer !== null) layers.push(this.trailLayer);
    }
    if (markersShown) {
      if (markersDue) this.rebuildMarkers(tSeconds);
      layers.push(this.markerLayer!);
    }
    if (gpu !== null && options.ghosts && options.readable) {
      layers.push(this.symbolLayer('ghosts', gpu, gpu.ghostDr, STYLE_RINGS, 9, false));
    }
    if (truth.length > 0) this.truthLayers(truth, layers);
    if (gpu !== null) {
      const style = options.readable ? STYLE_ICONS : STYLE_DOTS;
      layers.push(this.symbolLayer('entities', gpu, gpu.dr, style, style === STYLE_ICONS ? 28 : 2, true));
    }
    if (selected >= 0) {
      const p = this.selectedPosition;
      e.placeOf(selected, this.place);
      p[0] = this.place[0]!;
      p[1] = this.place[1]!;
      p[2] = 0;
      layers.push(ringLayer('selection', p, 22, 2, [255, 255, 255, 230], frame));
    }
    if (options.labels && options.labelSlots.length > 0) layers.push(this.labels(options.labelSlots, frame));
    // deck.gl finalizes a layer that leaves the list; an instance it finalized cannot be drawn again, so a kept layer
    // left out of this frame (toggled off, no markers after a filter) is built anew when it returns.
    if (this.trailLayer !== null && !layers.includes(this.trailLayer)) this.trailLayer = null;
    if (this.markerLayer !== null && !layers.includes(this.markerLayer)) this.markerLayer = null;
    if (this.truthLayer !== null && !layers.includes(this.truthLayer)) this.truthLayer = null;
    this.current = layers;
    return layers;
  }

  private symbolLayer(id: string, gpu: GpuFrame, dr: GpuFrame['dr'], style: number, sizePx: number, pickable: boolean) {
    return new EntitySymbolLayer({
      id,
      state: gpu.state,
      dr,
      style,
      slots: gpu.slots,
      list: gpu.list,
      listCount: gpu.listCount,
      atlas: this.atlas.canvas,
      iconFrames: this.iconFrames,
      iconVersion: this.iconVersion,
      sizePx,
      lineWidthPx: 1.5,
      colours: DOT_COLOURS,
      frame: gpu.frame,
      pickable,
      onClick: this.onClick,
    });
  }

  /** Draws the symbols that came since, and their frames in the atlas by icon index. */
  private frameIcons(): void {
    const keys = this.entities.iconKeys;
    this.atlas.add(keys.slice(this.framedIcons));
    if (this.iconFrames.length < 8 * keys.length) this.iconFrames = new Float32Array(16 * keys.length);
    const frames = this.iconFrames,
      mapping = this.atlas.mapping;
    for (let i = 0; i < keys.length; i++) {
      const cell = mapping[keys[i]!]!;
      frames.set([cell.x, cell.y, cell.width, cell.height, cell.anchorX, cell.anchorY, 0, 0], 8 * i);
    }
    this.framedIcons = keys.length;
    this.iconVersion++;
  }

  /** Whether `options` draw what those of the last list did. */
  private sameOptions(options: LayerOptions, markersShown: boolean): boolean {
    const last = this.lastOptions;
    if (
      last === null ||
      last.trails !== options.trails ||
      last.markersShown !== markersShown ||
      last.ghosts !== options.ghosts ||
      last.labels !== options.labels ||
      last.readable !== options.readable ||
      last.selectedSlot !== options.selectedSlot ||
      last.labelSlots.length !== options.labelSlots.length
    )
      return false;
    for (let k = 0; k < options.labelSlots.length; k++) if (last.labelSlots[k] !== options.labelSlots[k]) return false;
    return true;
  }

  private keepOptions(options: LayerOptions, markersShown: boolean, truth: readonly TruthPoint[]): void {
    this.lastOptions = { ...options, markersShown, labelSlots: [...options.labelSlots] };
    if (truth.length === 0) this.truthInput = truth;
  }

  /**
   * The label layer over the chosen slots (a new `data` array with each choice). Its positions are read every frame
   * from the table (an accessor filling deck.gl's target array, so nothing is allocated).
   */
  private labels(data: readonly number[], frame: number) {
    const e = this.entities,
      place = this.place;
    return new TextLayer({
      id: 'labels',
      data,
      getPosition: (slot: number, { target }: { target: number[] }) => {
        e.placeOf(slot, place);
        target[0] = place[0]!;
        target[1] = place[1]!;
        target[2] = 0;
        return target as unknown as [number, number, number];
      },
      // Network text drawn as glyphs on the map (never parsed as markup).
      getText: (slot: number) => labelText(e, slot),
      updateTriggers: { getPosition: frame, getText: e.structureVersion },
      getSize: 12,
      getColor: [235, 240, 245, 255],
      getPixelOffset: [0, LABEL_OFFSET_Y_PX],
      fontFamily: 'system-ui, sans-serif',
      fontSettings: { sdf: true },
      outlineWidth: 3,
      outlineColor: [13, 27, 42, 255],
      characterSet: 'auto',
    });
  }

  /** The arrival markers, coloured by reason and faded by age from byte arrays (no accessor per marker). */
  private rebuildMarkers(tSeconds: number): void {
    const e = this.entities,
      m = e.markers,
      count = m.count,
      reasons = m.reasons,
      times = m.timeSeconds,
      colours = this.markerColours;
    this.builtMarker = m.version;
    this.markerBuiltAt = tSeconds;
    const positions = m.positions,
      reference = e.referenceLonDeg;
    for (let i = 0; i < count; i++) {
      positions[3 * i] = nearLongitude(positions[3 * i]!, reference);
      const c = REASON_COLOURS[reasons[i]!] ?? REASON_COLOURS[0]!;
      colours[4 * i] = c[0];
      colours[4 * i + 1] = c[1];
      colours[4 * i + 2] = c[2];
      colours[4 * i + 3] = Math.round(c[3] * ArrivalMarkers.opacity(tSeconds - times[i]!));
    }
    this.markerLayer = new ScatterplotLayer({
      id: 'pdu-markers',
      data: {
        length: count,
        attributes: {
          getPosition: { value: m.positions, size: 3 },
          getFillColor: { value: colours, size: 4 },
        },
      },
      radiusUnits: 'pixels',
      // Small: the trail shows the path, the dots where updates came.
      getRadius: 2,
      stroked: false,
    });
  }

  /**
   * The trails of the readable entities in view (none when too many are in view: then the selected one's only), each
   * to where its entity is shown now.
   */
  private packTrails(
    tSeconds: number,
    inView: { slots: ArrayLike<number>; count: number } | null,
    selected: number,
    scan: number,
  ): void {
    const e = this.entities,
      trails = e.trails,
      table = e.table;
    this.trailsPackedAt = tSeconds;
    this.trailScan = scan;
    const slots = inView !== null ? inView.slots : this.one,
      count = inView !== null ? inView.count : selected >= 0 ? 1 : 0;
    this.one[0] = selected;
    trails.pack(slots, count, (slot, out) => e.placeOf(slot, out));
    const colours = this.trailColours;
    colours.length = trails.count;
    for (let k = 0; k < trails.count; k++) {
      colours[k] = FORCE_COLOURS[affiliationOf(table.forceId[trails.slots[k]!]!)]!;
    }
    const n = trails.count;
    this.trailLayer = new PathLayer({
      id: 'trails',
      data: {
        length: n,
        startIndices: trails.starts.subarray(0, n + 1),
        attributes: { getPath: { value: trails.path.subarray(0, 2 * trails.starts[n]!), size: 2 } },
      },
      _pathType: 'open',
      getColor: (_: unknown, { index }: { index: number }) => colours[index]!,
      updateTriggers: { getColor: trails.version },
      widthUnits: 'pixels',
      getWidth: 1.5,
    });
  }

  private readonly one = new Int32Array(1);
  private readonly trailColours: Rgba[] = [];

  /**
   * The demo's truth dots (rebuilt when a truth message came) and the line from each to its displayed symbol, placed
   * every frame.
   */
  private truthLayers(truth: readonly TruthPoint[], layers: Layer[]): void {
    const e = this.entities,
      place = this.place;
    if (this.truthFrom.length < 3 * truth.length) {
      this.truthFrom = new Float64Array(3 * truth.length);
      this.truthTo = new Float64Array(3 * truth.length);
    }
    const from = this.truthFrom,
      to = this.truthTo;
    let pairs = 0;
    for (let k = 0; k < truth.length; k++) {
      const t = truth[k]!;
      if (t.slot < 0 || e.table.active[t.slot] !== 1) continue;
      e.placeOf(t.slot, place);
      from[3 * pairs] = nearLongitude(t.lon, place[0]!);
      from[3 * pairs + 1] = t.lat;
      from[3 * pairs + 2] = 0;
      to[3 * pairs] = place[0]!;
      to[3 * pairs + 1] = place[1]!;
      to[3 * pairs + 2] = 0;
      pairs++;
    }
    this.truthErrorLayer = new LineLayer({
      id: 'truth-error',
      data: {
        length: pairs,
        attributes: {
          getSourcePosition: { value: from, size: 3 },
          getTargetPosition: { value: to, size: 3 },
        },
      },
      getColor: [255, 230, 80, 220],
      widthUnits: 'pixels',
      getWidth: 2,
    });
    if (this.truthInput !== truth || this.truthLayer === null) {
      this.truthInput = truth;
      this.truthLayer = new ScatterplotLayer({
        id: 'truth',
        data: truth,
        getPosition: (d: TruthPoint) => [nearLongitude(d.lon, e.referenceLonDeg), d.lat],
        radiusUnits: 'pixels',
        getRadius: 3,
        getFillColor: [255, 230, 80, 255],
      });
    }
    layers.push(this.truthErrorLayer, this.truthLayer);
  }
}
