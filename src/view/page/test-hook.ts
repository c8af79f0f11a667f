/** The page's test hook, `window.__reckon` (src/view/page/main.ts builds it). */
import type { CountersMessage, ViewFilter } from '../protocol.js';

/** What the browser tests read (not pixels): see docs/view.md. */
export interface TestHook {
  connected: boolean;
  entities(): Array<{
    id: string;
    marking: string;
    lat: number;
    lon: number;
    altM: number;
    force: number;
    kind: number;
    domain: number;
  }>;
  counters: CountersMessage | null;
  /** JS time of the last frame's work (dead reckoning, smoothing, deck.gl's layer and attribute update), ms. */
  frameMs: number;
  /** Whether `frameMs` holds deck.gl's layer update (the overlay's layer manager is within reach). */
  readonly frameHoldsLayerUpdate: boolean;
  /** The server-clock time `entities()` shows, ms since the Unix epoch. */
  frameServerMs: number;
  /** Entities the page's table holds at most (from the hello's `maxEntities`, capped). */
  readonly capacity: number;
  /** Whether the table runs the WebAssembly SIMD kernel (src/dr/simd-kernel.ts), which the page's policy allows. */
  readonly wasmKernel: boolean;
  /** Viewport pixel of an entity's displayed position (where its symbol is drawn), or null when it is not shown. */
  screenPoint(id: string): [number, number] | null;
  /** Moves the map (no more fitting) and resolves once the base map for that view is loaded and drawn. */
  viewAt(lonDeg: number, latDeg: number, zoom: number): Promise<void>;
  /** Entities labelled now, with their label's box in viewport pixels (left, top, right, bottom). */
  labels(): Array<{ id: string; text: string; box: [number, number, number, number] }>;
  setFilter(filter: Partial<ViewFilter>): void;
  /** Times the view was fitted to the entities (at first, as more arrived, and by the fit button). */
  fits: number;
  /** Filters the server confirmed (`filter-ok`), hellos and malformed messages seen. */
  filtersConfirmed: number;
  hellos: number;
  /** Text messages that were not JSON objects with a type, or lacked fields their type needs (all ignored). */
  readonly badMessages: number;
  /** Feed records that did not decode as Entity State PDUs, and feed messages cut short (counted, skipped). */
  readonly rejectedPdus: number;
  errors: string[];
  select(id: string): boolean;
  /** Id of the selected entity, or null. */
  selected(): string | null;
  selectedDetails(): Record<string, string>;
  /** Shots, bursts and collisions drawn now, and entities with radios (src/view/page/engagements.ts). */
  engagements(): { shots: number; bursts: number; collisions: number; radios: number };
  /** The selected entity's radio and engagement lines as its detail panel shows them, and whether it is frozen. */
  selectedEngagements(): { radios: string[]; engagements: string[]; frozen: boolean };
}

declare global {
  interface Window {
    __reckon: TestHook;
  }
}
