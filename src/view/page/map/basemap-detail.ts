/**
 * Loads the finer scales of the offline base map as the view reaches them: when the zoom is in a cell-split
 * level's range (src/view/page/map/basemap.ts), the cells the view covers are fetched from the page's own files (the
 * level's `index.json` says which cells have land or borders) and the level's source is set to them. Cells are
 * kept for later (a bounded cache), so panning back costs nothing.
 */
import type { GeoJSONSource, Map as MapLibreMap } from 'maplibre-gl';
import { BASEMAP_LEVELS } from './basemap.js';

/** Cells kept per level, loaded or not shown. */
const CACHE_CELLS = 48;
/** More cells than this in view: the level is too fine for it (only at the zooms where a coarser one is drawn). */
const MAX_CELLS_IN_VIEW = 40;

type Level = (typeof BASEMAP_LEVELS)[number] & { cellDeg: number };
interface Collection {
  type: 'FeatureCollection';
  features: object[];
}

export class BasemapDetail {
  /** Fetches under way (the tests wait for none). */
  pending = 0;
  private readonly indexes = new Map<string, Promise<Set<string>>>();
  private readonly cells = new Map<string, Collection>();
  private readonly shown = new Map<string, string>();
  private generation = 0;

  constructor(
    private readonly map: MapLibreMap,
    private readonly assetsUrl: string,
  ) {}

  /** Loads and shows what the current view needs (call after each move and after the style loaded). */
  update(): void {
    const generation = ++this.generation;
    const zoom = this.map.getZoom();
    for (let i = 0; i < BASEMAP_LEVELS.length; i++) {
      const level = BASEMAP_LEVELS[i]!;
      if (level.cellDeg === null) continue;
      const next = BASEMAP_LEVELS[i + 1];
      // The level's range, and half a zoom level either side so that it is there when the view gets into it.
      if (zoom < level.minZoom - 0.5 || (next !== undefined && zoom >= next.minZoom + 0.5)) continue;
      void this.show(level as Level, generation);
    }
  }

  private async show(level: Level, generation: number): Promise<void> {
    const source = this.map.getSource(`land-${level.scale}`) as GeoJSONSource | undefined;
    if (source === undefined) return;
    const wanted = this.cellsInView(level.cellDeg);
    if (wanted === null) return;
    this.pending++;
    try {
      const index = await this.index(level.scale);
      const keys = wanted.filter((key) => index.has(key));
      const collections = await Promise.all(keys.map((key) => this.cell(level.scale, key)));
      // A later view asked for other cells meanwhile: it sets the source itself.
      if (generation !== this.generation) return;
      const signature = keys.join(' ');
      if (this.shown.get(level.scale) === signature) return;
      this.shown.set(level.scale, signature);
      source.setData({
        type: 'FeatureCollection',
        features: collections.flatMap((c) => (c === null ? [] : c.features)),
      } as GeoJSON.FeatureCollection);
    } finally {
      this.pending--;
    }
  }

  /** Keys ("column_row") of the cells the view covers, or null when there are too many. */
  private cellsInView(cellDeg: number): string[] | null {
    const b = this.map.getBounds();
    const columns = Math.round(360 / cellDeg),
      rows = Math.round(180 / cellDeg);
    const west = Math.floor((b.getWest() + 180) / cellDeg),
      east = Math.floor((b.getEast() + 180) / cellDeg);
    const south = Math.max(0, Math.floor((Math.max(-90, b.getSouth()) + 90) / cellDeg)),
      north = Math.min(rows - 1, Math.floor((Math.min(90, b.getNorth()) + 90) / cellDeg));
    const across = Math.min(columns, east - west + 1);
    if (across * (north - south + 1) > MAX_CELLS_IN_VIEW) return null;
    const keys: string[] = [];
    for (let c = west; c < west + across; c++) {
      for (let r = south; r <= north; r++) keys.push(`${((c % columns) + columns) % columns}_${r}`);
    }
    return keys;
  }

  private index(scale: string): Promise<Set<string>> {
    let index = this.indexes.get(scale);
    if (index === undefined) {
      index = this.json<string[]>(`land-${scale}/index.json`).then((keys) => new Set(keys ?? []));
      this.indexes.set(scale, index);
    }
    return index;
  }

  private async cell(scale: string, key: string): Promise<Collection | null> {
    const id = `${scale}/${key}`;
    const cached = this.cells.get(id);
    if (cached !== undefined) {
      // Most recently used last: the cache drops from the front.
      this.cells.delete(id);
      this.cells.set(id, cached);
      return cached;
    }
    const collection = await this.json<Collection>(`land-${scale}/${key}.json`);
    if (collection === null) return null;
    this.cells.set(id, collection);
    while (this.cells.size > CACHE_CELLS) this.cells.delete(this.cells.keys().next().value!);
    return collection;
  }

  /** A file of the base map, or null when it cannot be had (the coarser scale then stays the best there is). */
  private async json<T>(path: string): Promise<T | null> {
    try {
      const response = await fetch(`${this.assetsUrl}${path}`);
      return response.ok ? ((await response.json()) as T) : null;
    } catch {
      return null;
    }
  }
}
