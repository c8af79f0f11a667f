// What the page exposes to the browser tests (src/view/page/main.ts), for the callbacks they run in the page
// with page.evaluate / waitForFunction. Declared here so that the Node-side typecheck (no DOM library) knows it.
interface ReckonTestHook {
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
    symbol: string;
  }>;
  counters: Record<string, number> | null;
  frameMs: number;
  frameServerMs: number;
  readonly symbols: number;
  readonly capacity: number;
  readonly wasmKernel: boolean;
  readonly frameHoldsLayerUpdate: boolean;
  screenPoint(id: string): [number, number] | null;
  project(lonDeg: number, latDeg: number): [number, number];
  layerOrder(): string[];
  viewAt(lonDeg: number, latDeg: number, zoom: number): Promise<void>;
  labels(): Array<{ id: string; text: string; box: [number, number, number, number] }>;
  /** Id of the selected entity, or null. */
  selected(): string | null;
  setFilter(filter: Record<string, unknown>): void;
  filtersConfirmed: number;
  fits: number;
  draws: number;
  hellos: number;
  readonly badMessages: number;
  readonly rejectedPdus: number;
  errors: string[];
  hold(on: boolean): Promise<void>;
  select(id: string): boolean;
  selectedDetails(): Record<string, string>;
  engagements(): { shots: number; bursts: number; collisions: number; radios: number };
  selectedEngagements(): { radios: string[]; engagements: string[]; frozen: boolean };
  namesLoaded(): boolean;
  listRows(): string[];
  search(text: string): void;
}

interface PageRect {
  readonly left: number;
  readonly top: number;
  readonly right: number;
  readonly bottom: number;
  readonly width: number;
  readonly height: number;
}

interface PageElement {
  readonly textContent: string | null;
  readonly tagName: string;
  readonly className: string;
  readonly style: { pointerEvents: string };
  getBoundingClientRect(): PageRect;
  scrollIntoView(): void;
  closest(selector: string): PageElement | null;
}

declare const window: {
  __reckon: ReckonTestHook;
  readonly innerWidth: number;
  readonly innerHeight: number;
  /** test/view/browser/gpu-dr-page.ts */
  __gpuDrReady?: boolean;
  __gpuDr(
    entities: import('./gpu-dr-cases.js').CaseEntity[],
    method: import('./gpu-dr-cases.js').SmoothingName,
    atSeconds: number[],
  ): Promise<import('./gpu-dr-cases.js').CaseResult[]>;
};
declare const document: {
  querySelector(selector: string): PageElement | null;
  querySelectorAll(selector: string): ArrayLike<PageElement> & Iterable<PageElement>;
  getElementById(id: string): PageElement | null;
  elementFromPoint(x: number, y: number): PageElement | null;
  readonly body: { readonly classList: { contains(name: string): boolean } };
  createElement(tag: 'canvas'): { getContext(kind: 'webgl2'): PageWebgl | null };
};
/** The little of WebGL2 a test reads: which renderer draws (WEBGL_debug_renderer_info). */
interface PageWebgl {
  getExtension(name: 'WEBGL_debug_renderer_info'): { readonly UNMASKED_RENDERER_WEBGL: number } | null;
  getParameter(name: number): unknown;
}
declare const location: { readonly hash: string; readonly href: string };
declare function requestAnimationFrame(callback: (time: number) => void): number;
