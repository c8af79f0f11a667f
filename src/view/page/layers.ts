/**
 * deck.gl layers over `PageEntities`. The per-frame layers (symbols, labels, ghosts, selection) read the typed
 * arrays the frame filled in place, as binary attributes: handing deck.gl a new descriptor object over the same
 * arrays makes it upload them without calling an accessor per entity. Accessors that do run per entity (icon,
 * colour) are recomputed only when `structureVersion` says entities came, went or changed type.
 */
import { IconLayer, LineLayer, PathLayer, ScatterplotLayer, TextLayer } from '@deck.gl/layers';
import type { Layer } from '@deck.gl/core';
import { ms, std2525c } from 'milsymbol/index.mjs';
import type { PageEntities } from './entities.js';
import { symbolKey } from './symbols.js';

type Rgba = [number, number, number, number];

ms.addIcons(std2525c);

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
  /** Most labels drawn; beyond it only the selected entity is labelled. */
  maxLabels: number;
  onSelect: (slot: number) => void;
}

export interface TruthPoint {
  id: string;
  lon: number;
  lat: number;
  /** Slot of the entity it is the truth of, or −1. */
  slot: number;
}

/** Symbol atlas: every symbol drawn once with milsymbol into one canvas. */
export class SymbolAtlas {
  readonly canvas: HTMLCanvasElement;
  readonly mapping: Record<
    string,
    { x: number; y: number; width: number; height: number; anchorX: number; anchorY: number }
  > = {};

  constructor(sizePx = 28) {
    const keys = new Set<string>();
    // Every key `symbolKey` can return: kinds beyond life forms and unknown forces map onto these.
    for (let kind = 0; kind <= 4; kind++) {
      for (let domain = 0; domain <= 5; domain++) {
        for (let force = 0; force <= 3; force++) keys.add(symbolKey(kind, domain, force));
      }
    }
    const symbols = [...keys].map((key) => ({
      key,
      symbol: new ms.Symbol(key, { size: sizePx, colorMode: 'Medium' }),
    }));
    const cell =
      Math.ceil(Math.max(...symbols.map(({ symbol }) => Math.max(symbol.getSize().width, symbol.getSize().height)))) +
      2;
    const columns = 8;
    const canvas = (this.canvas = document.createElement('canvas'));
    canvas.width = columns * cell;
    canvas.height = Math.ceil(symbols.length / columns) * cell;
    const context = canvas.getContext('2d')!;
    symbols.forEach(({ key, symbol }, i) => {
      const x = (i % columns) * cell,
        y = Math.floor(i / columns) * cell;
      const image = symbol.asCanvas();
      context.drawImage(image, x, y);
      const anchor = symbol.getAnchor();
      this.mapping[key] = {
        x,
        y,
        width: image.width,
        height: image.height,
        anchorX: anchor.x,
        anchorY: anchor.y,
      };
    });
  }
}

/** Builds the layer list for one frame. Keeps the per-entity accessor results between frames. */
export class EntityLayers {
  private iconKeys: string[] = [];
  private trailColours: Rgba[] = [];
  private builtStructure = -1;
  private builtTrail = -1;
  private labelIndices: number[] = [];
  private frameNumber = 0;
  private trailLayer: Layer | null = null;
  private markerLayer: Layer | null = null;
  private builtMarker = -1;
  private readonly selectedPosition = new Float64Array(3);

  constructor(
    private readonly entities: PageEntities,
    private readonly atlas: SymbolAtlas,
  ) {}

  /** The layers to draw now; `truth` is the demo's ground truth (empty otherwise). */
  layers(options: LayerOptions, truth: readonly TruthPoint[]): Layer[] {
    const e = this.entities;
    const n = e.count;
    this.frameNumber++;
    if (this.builtStructure !== e.structureVersion) this.rebuildStructure(options.maxLabels);
    const layers: Layer[] = [];
    if (options.trails) {
      if (this.builtTrail !== e.trailVersion) this.rebuildTrails();
      if (this.trailLayer !== null) layers.push(this.trailLayer);
    }
    if (options.markers && e.markerCount > 0) {
      if (this.builtMarker !== e.markerVersion) {
        this.builtMarker = e.markerVersion;
        const reasons = e.markerReason;
        this.markerLayer = new ScatterplotLayer({
          id: 'pdu-markers',
          data: { length: e.markerCount, attributes: { getPosition: { value: e.markerPositions, size: 3 } } },
          getFillColor: (_: unknown, { index }: { index: number }) => REASON_COLOURS[reasons[index]!]!,
          updateTriggers: { getFillColor: e.markerVersion },
          radiusUnits: 'pixels',
          getRadius: 2.5,
          stroked: false,
        });
      }
      layers.push(this.markerLayer!);
    }
    if (options.ghosts) {
      layers.push(
        new ScatterplotLayer({
          id: 'ghosts',
          data: { length: n, attributes: { getPosition: { value: e.ghostPositions, size: 3 } } },
          radiusUnits: 'pixels',
          getRadius: 9,
          filled: false,
          stroked: true,
          lineWidthUnits: 'pixels',
          getLineWidth: 1.5,
          getLineColor: [220, 220, 220, 150],
        }),
      );
    }
    if (truth.length > 0) layers.push(...this.truthLayers(truth));
    const iconKeys = this.iconKeys;
    layers.push(
      new IconLayer({
        id: 'entities',
        data: {
          length: n,
          attributes: { getPosition: { value: e.positions, size: 3 }, getAngle: { value: e.angles, size: 1 } },
        },
        iconAtlas: this.atlas.canvas as unknown as string,
        iconMapping: this.atlas.mapping,
        getIcon: (_: unknown, { index }: { index: number }) => iconKeys[index]!,
        updateTriggers: { getIcon: this.builtStructure },
        sizeUnits: 'pixels',
        getSize: 28,
        billboard: true,
        pickable: true,
        onClick: (info: { index: number }) => {
          if (info.index >= 0) options.onSelect(e.instanceSlot[info.index]!);
        },
      }),
    );
    const selected = options.selectedSlot;
    const selectedInstance = selected >= 0 ? e.slotInstance[selected]! : -1;
    if (selectedInstance >= 0) {
      const p = this.selectedPosition;
      p[0] = e.positions[3 * selectedInstance]!;
      p[1] = e.positions[3 * selectedInstance + 1]!;
      p[2] = e.positions[3 * selectedInstance + 2]!;
      layers.push(
        new ScatterplotLayer({
          id: 'selection',
          data: { length: 1, attributes: { getPosition: { value: p, size: 3 } } },
          radiusUnits: 'pixels',
          getRadius: 22,
          filled: false,
          stroked: true,
          lineWidthUnits: 'pixels',
          getLineWidth: 2,
          getLineColor: [255, 255, 255, 230],
          updateTriggers: { getPosition: this.frameNumber },
        }),
      );
    }
    if (options.labels) {
      const indices = n <= options.maxLabels ? this.labelIndices : selectedInstance >= 0 ? [selectedInstance] : [];
      const positions = e.positions,
        markings = e.markings,
        slots = e.instanceSlot;
      layers.push(
        new TextLayer({
          id: 'labels',
          data: indices,
          getPosition: (i: number) => [positions[3 * i]!, positions[3 * i + 1]!, positions[3 * i + 2]!],
          // Network text drawn as glyphs on the map (never parsed as markup).
          getText: (i: number) => markings[slots[i]!] || e.ids[slots[i]!]!,
          updateTriggers: { getPosition: this.frameNumber, getText: this.builtStructure },
          getSize: 12,
          getColor: [235, 240, 245, 255],
          getPixelOffset: [0, 22],
          fontFamily: 'system-ui, sans-serif',
          fontSettings: { sdf: true },
          outlineWidth: 3,
          outlineColor: [13, 27, 42, 255],
          characterSet: 'auto',
        }),
      );
    }
    return layers;
  }

  /** Icon key and trail colour of every instance, and the label list: when entities came, went or changed. */
  private rebuildStructure(maxLabels: number): void {
    const e = this.entities,
      table = e.table,
      n = e.count;
    this.builtStructure = e.structureVersion;
    const keys = ((this.iconKeys.length = n), this.iconKeys);
    for (let i = 0; i < n; i++) {
      const slot = e.instanceSlot[i]!;
      keys[i] = symbolKey(table.entityType[7 * slot]!, table.entityType[7 * slot + 1]!, table.forceId[slot]!);
    }
    this.labelIndices = n <= maxLabels ? Array.from({ length: n }, (_, i) => i) : [];
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

  private truthLayers(truth: readonly TruthPoint[]): Layer[] {
    const e = this.entities;
    const pairs: Array<{ from: [number, number]; to: [number, number] }> = [];
    for (const t of truth) {
      const i = t.slot >= 0 ? e.slotInstance[t.slot]! : -1;
      if (i >= 0) pairs.push({ from: [t.lon, t.lat], to: [e.positions[3 * i]!, e.positions[3 * i + 1]!] });
    }
    return [
      new LineLayer({
        id: 'truth-error',
        data: pairs,
        getSourcePosition: (d: { from: [number, number] }) => d.from,
        getTargetPosition: (d: { to: [number, number] }) => d.to,
        getColor: [255, 230, 80, 220],
        widthUnits: 'pixels',
        getWidth: 2,
      }),
      new ScatterplotLayer({
        id: 'truth',
        data: truth,
        getPosition: (d: TruthPoint) => [d.lon, d.lat],
        radiusUnits: 'pixels',
        getRadius: 3,
        getFillColor: [255, 230, 80, 255],
      }),
    ];
  }
}
