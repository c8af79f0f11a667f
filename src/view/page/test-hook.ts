/** The page's test hook, `window.__reckon` (src/view/page/main.ts builds it). */
import type { CountersMessage, ViewFilter } from '../protocol.js';
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
