/**
 * The view a link carries, in the URL's fragment so that it never reaches the server:
 * `#map=ZOOM/LAT/LON&select=SITE:APP:ENTITY&forces=1,2&domains=1,3&area=1` (each part optional). The page writes
 * it as the view changes and reads it at load; anything malformed is left out, never half-applied.
 * Free of DOM (test/view/page-view-state.test.ts).
 */

export interface UrlView {
  /** Longitude, latitude of the centre, degrees. */
  center?: [number, number];
  zoom?: number;
  /** Id of the selected entity, "site:application:entity". */
  selected?: string;
  /** Forces shown (force ids); absent or null: all. */
  forces?: readonly number[] | null;
  /** Domains shown; absent or null: all. */
  domains?: readonly number[] | null;
  /** Only the visible area is asked of the server. */
  visibleArea?: boolean;
}

const MAX_ZOOM = 24;
const ID = /^\d{1,5}:\d{1,5}:\d{1,5}$/;

/** The view in a fragment (`location.hash`, with or without its '#'). */
export function parseViewHash(hash: string): UrlView {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const view: UrlView = {};
  const map = params.get('map')?.split('/').map(Number);
  if (map !== undefined && map.length === 3 && map.every(Number.isFinite)) {
    const [zoom, lat, lon] = map as [number, number, number];
    if (zoom >= 0 && zoom <= MAX_ZOOM && Math.abs(lat) <= 90 && Math.abs(lon) <= 180) {
      view.zoom = zoom;
      view.center = [lon, lat];
    }
  }
  const selected = params.get('select');
  if (selected !== null && ID.test(selected)) view.selected = selected;
  const forces = idList(params.get('forces'));
  if (forces !== undefined) view.forces = forces;
  const domains = idList(params.get('domains'));
  if (domains !== undefined) view.domains = domains;
  if (params.get('area') === '1') view.visibleArea = true;
  return view;
}

/** The fragment for a view, '#' included ('' for an empty view). */
export function formatViewHash(view: UrlView): string {
  const parts: string[] = [];
  if (view.center !== undefined && view.zoom !== undefined) {
    // 5 decimals of a degree (≈ 1 m) and 2 of a zoom level are finer than a screen pixel at any zoom a link is for.
    const [lon, lat] = view.center;
    parts.push(`map=${round(view.zoom, 2)}/${round(lat, 5)}/${round(wrapLongitude(lon), 5)}`);
  }
  if (view.selected !== undefined && ID.test(view.selected)) parts.push(`select=${view.selected}`);
  if (view.forces) parts.push(`forces=${view.forces.join(',')}`);
  if (view.domains) parts.push(`domains=${view.domains.join(',')}`);
  if (view.visibleArea) parts.push('area=1');
  return parts.length === 0 ? '' : `#${parts.join('&')}`;
}

/** A comma-separated list of ids 0–255 ('' is the empty list), or undefined when absent or malformed. */
function idList(text: string | null): number[] | undefined {
  if (text === null) return undefined;
  if (text === '') return [];
  const values = text.split(',').map(Number);
  return values.every((v) => Number.isInteger(v) && v >= 0 && v <= 255) ? values : undefined;
}

function round(value: number, digits: number): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}

function wrapLongitude(lon: number): number {
  return ((((lon + 180) % 360) + 360) % 360) - 180;
}
