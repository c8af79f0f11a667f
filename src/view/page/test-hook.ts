/**
 * The page's test hook, `window.__reckon`: what the browser tests read and drive of the app (src/view/page/main.ts).
 */
import type * as maplibregl from 'maplibre-gl';
import type { MapboxOverlay } from '@deck.gl/mapbox';
import type { Layer } from '@deck.gl/core';
import { type CountersMessage, EMPTY_FILTER, type ViewFilter } from '../protocol.js';
import type { Feed } from './feed.js';
import { deckLayerManager, labelText } from './map/layers.js';
import type { SymbolAtlas } from './map/symbol-atlas.js';
import type { Framing } from './map/framing.js';
import type { BasemapDetail } from './map/basemap-detail.js';
import type { LabelSchedule } from './map/label-schedule.js';
import type { PageEngagements } from './engagements/engagements.js';
import type { EngagementPanel } from './engagements/engagement-panel.js';
import { pageNames } from './names.js';
import type { PageEntities } from './entities.js';
import { wrapLongitude } from './map/map-coordinates.js';

export interface ShownEntity {
  id: string;
  marking: string;
  lat: number;
  lon: number;
  altM: number;
  force: number;
  kind: number;
  domain: number;
  /** The MIL-STD-2525C code of the symbol drawn. */
  symbol: string;
}

/** Every entity shown, at its displayed (smoothed) position as of the last frame, exactly. */
export function shownEntities(e: PageEntities): ShownEntity[] {
  const t = e.table,
    p = new Float64Array(3),
    out: ShownEntity[] = [];
  for (let i = 0; i < e.count; i++) {
    const slot = e.instanceSlot[i]!;
    e.displayedDegrees(slot, p);
    out.push({
      id: e.ids[slot]!,
      marking: e.markings[slot]!,
      lon: wrapLongitude(p[0]!),
      lat: p[1]!,
      altM: p[2]!,
      force: t.forceId[slot]!,
      kind: t.entityType[7 * slot]!,
      domain: t.entityType[7 * slot + 1]!,
      symbol: e.symbolOf(slot),
    });
  }
  return out;
}

/** What the browser tests read (not pixels): see docs/view.md. */
export interface TestHook {
  connected: boolean;
  entities(): ShownEntity[];
  counters: CountersMessage | null;
  /** JS time of the last frame's work (dead reckoning, smoothing, deck.gl's layer and attribute update), ms. */
  frameMs: number;
  /** Whether `frameMs` holds deck.gl's layer update (the overlay's layer manager is within reach). */
  readonly frameHoldsLayerUpdate: boolean;
  /** The server-clock time `entities()` shows, ms since the Unix epoch. */
  frameServerMs: number;
  /** Symbols drawn into the atlas: those of the entities seen, each drawn when first needed. */
  readonly symbols: number;
  /** Entities the page's table holds at most (from the hello's `maxEntities`, capped). */
  readonly capacity: number;
  /** Whether the table runs the WebAssembly SIMD kernel (src/dr/models/simd-kernel.ts), which the page's policy allows. */
  readonly wasmKernel: boolean;
  /** Viewport pixel of an entity's displayed position (where its symbol is drawn), or null when it is not shown. */
  screenPoint(id: string): [number, number] | null;
  /** Viewport pixel of a place on the ground. */
  project(lonDeg: number, latDeg: number): [number, number];
  /** The ids of the map's layers as last handed to deck.gl, bottom first. */
  layerOrder(): string[];
  /** Moves the map (no more fitting) and resolves once the base map for that view is loaded and drawn. */
  viewAt(lonDeg: number, latDeg: number, zoom: number): Promise<void>;
  /** Entities labelled now, with their label's box in viewport pixels (left, top, right, bottom). */
  labels(): Array<{ id: string; text: string; box: [number, number, number, number] }>;
  setFilter(filter: Partial<ViewFilter>): void;
  /** Frames whose layers were handed to deck.gl (the others left the picture as it was: nothing had moved). */
  draws: number;
  /** Times the view was framed (at first, as entities arrived, moved out of view or drew together, by the button). */
  readonly fits: number;
  /** Filters the server confirmed (`filter-ok`), hellos and malformed messages seen. */
  filtersConfirmed: number;
  hellos: number;
  /** Text messages that were not JSON objects with a type, or lacked fields their type needs (all ignored). */
  readonly badMessages: number;
  /** Feed records that did not decode as Entity State PDUs, and feed messages cut short (counted, skipped). */
  readonly rejectedPdus: number;
  errors: string[];
  /**
   * Stops (true) or resumes the page's frames; resolves once the map has stopped moving and the last frame is on
   * screen, so that a click lands on the picture as `screenPoint` reads it.
   */
  hold(on: boolean): Promise<void>;
  select(id: string): boolean;
  /** Id of the selected entity, or null. */
  selected(): string | null;
  selectedDetails(): Record<string, string>;
  /** Shots, bursts and collisions drawn now, and entities with radios (src/view/page/engagements/engagements.ts). */
  engagements(): { shots: number; bursts: number; collisions: number; radios: number };
  /** The selected entity's radio and engagement lines as its detail panel shows them, and whether it is frozen. */
  selectedEngagements(): { radios: string[]; engagements: string[]; frozen: boolean };
  /** Whether the SISO-REF-010 names (a file of their own, fetched after the first frame) are loaded. */
  namesLoaded(): boolean;
  /** The entity list's rows as shown (marking, type, id), and the search box's text to set. */
  listRows(): string[];
  search(text: string): void;
}

/** What the test hook reads and drives of the page's app (src/view/page/main.ts). */
export interface HookedApp {
  readonly entities: PageEntities;
  readonly engagements: PageEngagements;
  readonly engagementPanel: EngagementPanel;
  readonly atlas: SymbolAtlas;
  readonly feed: Feed;
  readonly map: maplibregl.Map;
  readonly overlay: MapboxOverlay;
  readonly framing: Framing;
  readonly basemapDetail: BasemapDetail;
  readonly labels: LabelSchedule;
  readonly stacked: readonly Layer[];
  readonly invalidMessages: number;
  readonly selectedKey: number;
  readonly redrawPanel: () => void;
  filter: ViewFilter;
  held: boolean;
  applyFilter(): void;
  selectSlot(slot: number): void;
  nowSeconds(): number;
}

/** The hook over the page's app: what it reads and drives of it. */
export function createHook(app: HookedApp): TestHook {
  return {
    connected: false,
    counters: null,
    frameMs: 0,
    frameServerMs: 0,
    filtersConfirmed: 0,
    hellos: 0,
    get fits() {
      return app.framing.fits;
    },
    draws: 0,
    get badMessages() {
      return app.feed.badMessages + app.invalidMessages;
    },
    get rejectedPdus() {
      return app.entities.stats.rejected;
    },
    get symbols() {
      return app.atlas.size;
    },
    get capacity() {
      return app.entities.capacity;
    },
    get wasmKernel() {
      return app.entities.table.store.arena !== null;
    },
    get frameHoldsLayerUpdate() {
      return deckLayerManager(app.overlay) !== undefined;
    },
    screenPoint(id) {
      const e = app.entities;
      const slot = e.ids.findIndex((value, s) => value === id && e.table.active[s] === 1);
      if (slot < 0) return null;
      const place = e.placeOf(slot, new Float64Array(4));
      const p = app.map.project([place[0]!, place[1]!]);
      const box = app.map.getContainer().getBoundingClientRect();
      return [box.left + p.x, box.top + p.y];
    },
    project(lonDeg, latDeg) {
      const p = app.map.project([lonDeg, latDeg]);
      const box = app.map.getContainer().getBoundingClientRect();
      return [box.left + p.x, box.top + p.y];
    },
    layerOrder: () => app.stacked.map((layer) => layer.id),
    errors: [],
    async viewAt(lonDeg, latDeg, zoom) {
      app.framing.following = false;
      app.map.jumpTo({ center: [lonDeg, latDeg], zoom });
      app.basemapDetail.update();
      const frame = () => new Promise<void>((resolve) => requestAnimationFrame(() => resolve()));
      do await frame();
      while (app.basemapDetail.pending > 0 || !app.map.loaded() || !app.map.areTilesLoaded());
      await frame();
      await frame();
    },
    labels() {
      const e = app.entities,
        boxes = app.labels.boxes;
      const box = app.map.getContainer().getBoundingClientRect();
      return app.labels.slots.map((slot, k) => ({
        id: e.ids[slot]!,
        text: labelText(e, slot),
        box: [0, 1, 2, 3].map((j) => boxes[4 * k + j]! + (j % 2 === 0 ? box.left : box.top)) as [
          number,
          number,
          number,
          number,
        ],
      }));
    },
    entities() {
      return shownEntities(app.entities);
    },
    setFilter(filter) {
      app.filter = { ...EMPTY_FILTER, ...filter };
      app.applyFilter();
    },
    async hold(on) {
      app.held = on;
      const frame = () => new Promise<void>((resolve) => requestAnimationFrame(() => resolve()));
      do await frame();
      while (on && app.map.isMoving());
      await frame();
    },
    select(id) {
      const e = app.entities;
      const slot = e.ids.findIndex((value, s) => value === id && e.table.active[s] === 1);
      if (slot >= 0) app.selectSlot(slot);
      return slot >= 0;
    },
    selected() {
      const slot = app.selectedKey >= 0 ? app.entities.table.slotOf(app.selectedKey) : -1;
      return slot >= 0 ? app.entities.ids[slot]! : null;
    },
    engagements: () => app.engagements.counts(app.entities, app.nowSeconds()),
    selectedEngagements: () => app.engagementPanel.shown(),
    ...panelHook(app.redrawPanel),
  };
}

/** The hook's readers of the panel: the details and list as shown, the search box. */
export function panelHook(
  redrawPanel: () => void,
): Pick<TestHook, 'selectedDetails' | 'namesLoaded' | 'listRows' | 'search'> {
  return {
    selectedDetails() {
      const out: Record<string, string> = {};
      const dts = document.querySelectorAll('#d-fields dt');
      dts.forEach((dt) => (out[dt.textContent ?? ''] = dt.nextElementSibling?.textContent ?? ''));
      return out;
    },
    namesLoaded: () => pageNames() !== undefined,
    listRows() {
      return [...document.querySelectorAll('#list li')].map((li) =>
        [...li.querySelectorAll('span')].map((span) => span.textContent ?? '').join(' | '),
      );
    },
    search(text) {
      const input = document.getElementById('search') as HTMLInputElement;
      input.value = text;
      input.dispatchEvent(new Event('input'));
      redrawPanel();
    },
  };
}

declare global {
  interface Window {
    __reckon: TestHook;
  }
}
