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
  }>;
  counters: Record<string, number> | null;
  frameMs: number;
  frameServerMs: number;
  readonly capacity: number;
  readonly wasmKernel: boolean;
  readonly frameHoldsLayerUpdate: boolean;
  screenPoint(id: string): [number, number] | null;
  setFilter(filter: Record<string, unknown>): void;
  filtersConfirmed: number;
  hellos: number;
  readonly badMessages: number;
  readonly rejectedPdus: number;
  errors: string[];
  select(id: string): boolean;
  selectedDetails(): Record<string, string>;
}

interface PageElement {
  readonly textContent: string | null;
}

declare const window: { __reckon: ReckonTestHook };
declare const document: {
  querySelector(selector: string): PageElement | null;
  querySelectorAll(selector: string): { length: number };
  getElementById(id: string): PageElement | null;
};
declare function requestAnimationFrame(callback: (time: number) => void): number;
