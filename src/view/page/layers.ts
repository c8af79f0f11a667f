/**
 * deck.gl layers over `PageEntities`. The per-frame layers (symbols, labels, ghosts, selection) read the typed
 * arrays the frame filled in place, as binary attributes: handing deck.gl a new descriptor object over the same
 * arrays makes it upload them without calling an accessor per entity. Accessors that do run per entity (icon,
 * colour) are recomputed only when `structureVersion` says entities came, went or changed type.
 */
import { IconLayer, LineLayer, PathLayer, ScatterplotLayer, TextLayer } from '@deck.gl/layers';
import type { Layer } from '@deck.gl/core';
import { ms, std2525c } from 'milsymbol/index.mjs';
import { ArrivalMarkers } from './arrival-markers.js';
import type { PageEntities } from './entities.js';
import { nearLongitude } from './map-coordinates.js';
import { symbolKey } from './symbols.js';
import { LABEL_OFFSET_Y_PX } from './declutter.js';

type Rgba = [number, number, number, number];

ms.addIcons(std2525c);

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
  /** Instances to label (chosen without overlaps by `LabelChooser`, src/view/page/declutter.ts). */
  labelInstances: readonly number[];
  onSelect: (slot: number) => void;
}

/** The text of a slot's label: its marking, or its id when it has none. */
export function labelText(entities: PageEntities, slot: number): string {
  return entities.markings[slot] || entities.ids[slot]!;
}

export interface TruthPoint {
  id: string;
  lon: number;
  lat: number;
  /** Slot of the entity it is the truth of, or −1. */
  slot: number;
}

/** Where a symbol is in the atlas, as deck.gl's IconLayer reads it. */
interface AtlasCell {
  x: number;
  y: number;
  width: number;
  height: number;
  anchorX: number;
  anchorY: number;
}

/** Atlas width, px: about six symbols a row. */
const ATLAS_WIDTH_PX = 256;

/**
 * Symbol atlas: each symbol drawn with milsymbol the first time an entity needs it (drawing all of them up front cost
 * about a second of a page's start on a slow CPU), packed in rows into one canvas. A canvas and a mapping that grew
 * are new objects, so that deck.gl uploads them again.
 */
export class SymbolAtlas {
  canvas: HTMLCanvasElement;
  mapping: Record<string, AtlasCell> = {};
  /** Symbols drawn. */
  size = 0;
  private rowX = 0;
  private rowY = 0;
  private rowHeight = 0;

  constructor(private readonly sizePx = 28) {
    this.canvas = document.createElement('canvas');
    this.canvas.width = ATLAS_WIDTH_PX;
    this.canvas.height = 64;
  }

  /** Draws the symbols of `keys` not drawn yet (`symbolKey`, src/view/page/symbols.ts). @returns whether any was. */
  add(keys: Iterable<string>): boolean {
    const fresh = [...new Set(keys)].filter((key) => this.mapping[key] === undefined);
    if (fresh.length === 0) return false;
    const images = fresh.map((key) => {
      const symbol = new ms.Symbol(key, { size: this.sizePx, colorMode: 'Medium' });
      return { key, image: symbol.asCanvas(), anchor: symbol.getAnchor() };
    });
    const mapping = { ...this.mapping };
    for (const { key, image, anchor } of images) {
      if (this.rowX + image.width > ATLAS_WIDTH_PX) {
        this.rowY += this.rowHeight + 1;
        this.rowX = this.rowHeight = 0;
      }
      mapping[key] = {
        x: this.rowX,
        y: this.rowY,
        width: image.width,
        height: image.height,
        anchorX: anchor.x,
        anchorY: anchor.y,
      };
      this.rowX += image.width + 1;
      this.rowHeight = Math.max(this.rowHeight, image.height);
    }
    const canvas = document.createElement('canvas');
    canvas.width = ATLAS_WIDTH_PX;
    canvas.height = Math.max(this.canvas.height, 2 ** Math.ceil(Math.log2(this.rowY + this.rowHeight + 1)));
    const context = canvas.getContext('2d')!;
    context.drawImage(this.canvas, 0, 0);
    for (const { key, image } of images) context.drawImage(image, mapping[key]!.x, mapping[key]!.y);
    this.canvas = canvas;
    this.mapping = mapping;
    this.size += images.length;
    return true;
  }
}

/** A binary attribute over one of `PageEntities`' arrays (docs/view.md, "Design"). */
interface Binary {
  value: Float64Array | Float32Array | Uint8ClampedArray;
  size: number;
}
interface BinaryData {
  length: number;
  attributes: Record<string, Binary>;
}

/**
 * Rings at the positions of `data` (the raw-DR ghosts, the selection), in pixels whatever the zoom; `frame` marks
 * the positions as changed, so deck.gl uploads them each frame (docs/view.md, "Design").
 */
function ringLayer(id: string, data: BinaryData, radiusPx: number, lineWidthPx: number, colour: Rgba, frame: number) {
  return new ScatterplotLayer({
    id,
    data,
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

/** Seconds between two rebuilds of the PDU arrival markers (they change with nearly every PDU). */
export const MARKER_INTERVAL_SECONDS = 0.25;

/**
 * Builds the layer list of each frame, keeping every layer whose inputs did not change: deck.gl then matches the
 * same instance and skips it. Layers that move every frame (symbols, ghosts, labels, selection) are new instances
 * whose `data` object stays the same while only the moving attributes get a new descriptor (and an update
 * trigger), so deck.gl uploads positions and angles and nothing else; per-entity accessors (symbol, trail colour)
 * run only when entities came, went or changed. Markers are rebuilt at most every `MARKER_INTERVAL_SECONDS`.
 */
export class EntityLayers {
  private iconKeys: string[] = [];
  private trailColours: Rgba[] = [];
  private builtStructure = -1;
  private builtTrail = -1;
  private frameNumber = 0;
  private trailLayer: Layer | null = null;
  private markerLayer: Layer | null = null;
  private builtMarker = -1;
  private markerBuiltAt = -Infinity;
  private readonly markerColours: Uint8ClampedArray;
  private readonly selectedPosition = new Float64Array(3);
  /** `data` of the per-entity layers: replaced when entities came or went, else the same object every frame. */
  private iconData: BinaryData = { length: 0, attributes: {} };
  private ghostData: BinaryData = { length: 0, attributes: {} };
  private readonly selectionData: BinaryData;
  private onSelect: (slot: number) => void = () => {};
  private readonly onClick = (info: { index: number }): void => {
    if (info.index >= 0) this.onSelect(this.entities.instanceSlot[info.index]!);
  };
  /** The list the last call to `layers` built (that a null since then leaves as it is). */
  current: readonly Layer[] = [];
  private truthInput: readonly TruthPoint[] | null = null;
  private lastOptions: (LayerOptions & { markersShown: boolean }) | null = null;
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
    this.selectionData = { length: 1, attributes: { getPosition: { value: this.selectedPosition, size: 3 } } };
  }

  /**
   * The layers to draw now, or null when those of the last call still show everything as it is: no entity moved
   * beyond the tolerance of `PageEntities.frame`, none came or went, and the options, trails, markers and truth are
   * as they were. Call `PageEntities.drawn` after handing a list to deck.gl.
   * @param truth - the demo's ground truth (empty otherwise).
   * @param tSeconds - the frame's time (server clock, as `PageEntities.frame`); paces the marker layer.
   */
  layers(options: LayerOptions, truth: readonly TruthPoint[], tSeconds: number): Layer[] | null {
    const e = this.entities;
    const n = e.count;
    const structureChanged = this.builtStructure !== e.structureVersion;
    const trailsDue = options.trails && (this.builtTrail !== e.trailVersion || this.trailLayer === null);
    const m = e.markers;
    const markersShown = options.markers && m.count > 0;
    // New markers, or old ones still fading: rebuilt at most every MARKER_INTERVAL_SECONDS.
    const markersDue =
      markersShown &&
      (this.markerLayer === null ||
        ((this.builtMarker !== m.version || m.fading(this.markerBuiltAt)) &&
          (tSeconds - this.markerBuiltAt >= MARKER_INTERVAL_SECONDS || tSeconds < this.markerBuiltAt)));
    if (
      !e.moved &&
      !structureChanged &&
      !trailsDue &&
      !markersDue &&
      !options.ghosts &&
      truth === this.truthInput &&
      this.sameOptions(options, markersShown)
    )
      return null;
    this.keepOptions(options, markersShown, truth);
    const frame = ++this.frameNumber;
    this.onSelect = options.onSelect;
    if (structureChanged) this.rebuildStructure();
    const layers: Layer[] = [];
    if (options.trails) {
      if (trailsDue) this.rebuildTrails();
      if (this.trailLayer !== null) layers.push(this.trailLayer);
    }
    if (markersShown) {
      if (markersDue) this.rebuildMarkers(tSeconds);
      layers.push(this.markerLayer!);
    }
    if (options.ghosts) {
      if (structureChanged || this.ghostData.length !== n) this.ghostData = { length: n, attributes: {} };
      // A new descriptor over the same array: deck.gl uploads it (attribute.setBinaryValue compares descriptors).
      this.ghostData.attributes.getPosition = { value: e.ghostPositions, size: 3 };
      layers.push(ringLayer('ghosts', this.ghostData, 9, 1.5, [220, 220, 220, 150], frame));
    }
    if (truth.length > 0) this.truthLayers(truth, layers);
    if (structureChanged || this.iconData.length !== n) this.iconData = { length: n, attributes: {} };
    const icons = this.iconData.attributes;
    icons.getPosition = { value: e.positions, size: 3 };
    icons.getAngle = { value: e.angles, size: 1 };
    const iconKeys = this.iconKeys;
    const iconLayer = new IconLayer({
      id: 'entities',
      data: this.iconData,
      iconAtlas: this.atlas.canvas as unknown as string,
      iconMapping: this.atlas.mapping,
      getIcon: (_: unknown, { index }: { index: number }) => iconKeys[index]!,
      // Only the moving attributes are invalidated each frame; the icons follow the structure.
      updateTriggers: { getIcon: this.builtStructure, getPosition: frame, getAngle: frame },
      sizeUnits: 'pixels',
      getSize: 28,
      billboard: true,
      pickable: true,
      onClick: this.onClick,
    });
    layers.push(iconLayer);
    const selected = options.selectedSlot;
    const selectedInstance = selected >= 0 ? e.slotInstance[selected]! : -1;
    if (selectedInstance >= 0) {
      const p = this.selectedPosition;
      p[0] = e.positions[3 * selectedInstance]!;
      p[1] = e.positions[3 * selectedInstance + 1]!;
      p[2] = e.positions[3 * selectedInstance + 2]!;
      this.selectionData.attributes.getPosition = { value: p, size: 3 };
      layers.push(ringLayer('selection', this.selectionData, 22, 2, [255, 255, 255, 230], frame));
    }
    if (options.labels && options.labelInstances.length > 0) layers.push(this.labels(options.labelInstances, frame));
    // deck.gl finalizes a layer that leaves the list; an instance it finalized cannot be drawn again, so a kept layer
    // left out of this frame (toggled off, no markers after a filter) is built anew when it returns.
    if (this.trailLayer !== null && !layers.includes(this.trailLayer)) this.trailLayer = null;
    if (this.markerLayer !== null && !layers.includes(this.markerLayer)) this.markerLayer = null;
    if (this.truthLayer !== null && !layers.includes(this.truthLayer)) this.truthLayer = null;
    this.current = layers;
    return layers;
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
      last.selectedSlot !== options.selectedSlot ||
      last.labelInstances.length !== options.labelInstances.length
    )
      return false;
    for (let k = 0; k < options.labelInstances.length; k++)
      if (last.labelInstances[k] !== options.labelInstances[k]) return false;
    return true;
  }

  private keepOptions(options: LayerOptions, markersShown: boolean, truth: readonly TruthPoint[]): void {
    this.lastOptions = { ...options, markersShown, labelInstances: [...options.labelInstances] };
    if (truth.length === 0) this.truthInput = truth;
  }

  /**
   * The label layer over the chosen instances (a new `data` array with each choice). Its positions are read every
   * frame (an accessor filling deck.gl's target array, so nothing is allocated).
   */
  private labels(data: readonly number[], frame: number) {
    const e = this.entities,
      positions = e.positions,
      slots = e.instanceSlot;
    return new TextLayer({
      id: 'labels',
      data,
      getPosition: (i: number, { target }: { target: number[] }) => {
        target[0] = positions[3 * i]!;
        target[1] = positions[3 * i + 1]!;
        target[2] = positions[3 * i + 2]!;
        return target as unknown as [number, number, number];
      },
      // Network text drawn as glyphs on the map (never parsed as markup).
      getText: (i: number) => labelText(e, slots[i]!),
      updateTriggers: { getPosition: frame, getText: this.builtStructure },
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

  /** Icon key of every instance: when entities came, went or changed. */
  private rebuildStructure(): void {
    const e = this.entities,
      table = e.table,
      n = e.count;
    this.builtStructure = e.structureVersion;
    const keys = ((this.iconKeys.length = n), this.iconKeys);
    for (let i = 0; i < n; i++) {
      const slot = e.instanceSlot[i]!;
      const type = 7 * slot;
      keys[i] = symbolKey(
        table.entityType[type]!,
        table.entityType[type + 1]!,
        table.forceId[slot]!,
        table.entityType[type + 3]!,
      );
    }
    this.atlas.add(keys);
  }

  /** The atlas key (2525C code) of the symbol drawn for instance `i`. */
  symbolOf(i: number): string {
    return this.iconKeys[i] ?? '';
  }

  private rebuildTrails(): void {
    const e = this.entities,
      table = e.table;
    this.builtTrail = e.trailVersion;
    const colours = ((this.trailColours.length = e.trailCount), this.trailColours);
    for (let i = 0; i < e.trailCount; i++) {
      const slot = e.instanceSlot[i]!;
      colours[i] = FORCE_COLOURS[symbolKey(0, 0, table.forceId[slot]!).charAt(1)]!;
    }
    this.trailLayer = new PathLayer({
      id: 'trails',
      data: {
        length: e.trailCount,
        startIndices: e.trailStarts.subarray(0, e.trailCount + 1),
        attributes: { getPath: { value: e.trailPath.subarray(0, 2 * e.trailStarts[e.trailCount]!), size: 2 } },
      },
      _pathType: 'open',
      getColor: (_: unknown, { index }: { index: number }) => colours[index]!,
      updateTriggers: { getColor: e.trailVersion },
      widthUnits: 'pixels',
      getWidth: 1.5,
    });
  }

  /**
   * The demo's truth dots (rebuilt when a truth message came) and the line from each to its displayed symbol,
   * filled in place every frame.
   */
  private truthLayers(truth: readonly TruthPoint[], layers: Layer[]): void {
    const e = this.entities;
    if (this.truthFrom.length < 3 * truth.length) {
      this.truthFrom = new Float64Array(3 * truth.length);
      this.truthTo = new Float64Array(3 * truth.length);
    }
    const from = this.truthFrom,
      to = this.truthTo;
    let pairs = 0;
    for (let k = 0; k < truth.length; k++) {
      const t = truth[k]!;
      const i = t.slot >= 0 ? e.slotInstance[t.slot]! : -1;
      if (i < 0) continue;
      from[3 * pairs] = nearLongitude(t.lon, e.positions[3 * i]!);
      from[3 * pairs + 1] = t.lat;
      from[3 * pairs + 2] = 0;
      to[3 * pairs] = e.positions[3 * i]!;
      to[3 * pairs + 1] = e.positions[3 * i + 1]!;
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
