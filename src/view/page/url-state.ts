/**
 * The page's state in its URL fragment (map/view-state.ts's format): the view, selection and filters written back
 * as they change, and the entity a link named selected once it shows up.
 */
import type * as maplibregl from 'maplibre-gl';
import type { ViewFilter } from '../protocol.js';
import type { PageEntities } from './entities.js';
import { type UrlView, formatViewHash, parseViewHash } from './map/view-state.js';

export class UrlState {
  /** What the URL held when the page opened. */
  readonly initial: UrlView;
  /** An entity to select once it shows up (from the URL), until something is selected. */
  pendingSelection: string | null;

  constructor(hash: string) {
    this.initial = parseViewHash(hash);
    this.pendingSelection = this.initial.selected ?? null;
  }

  /** The view, selection and filters into the URL's fragment (replacing the history entry: no back-button trail). */
  write(map: maplibregl.Map, entities: PageEntities, selectedKey: number, filter: ViewFilter): void {
    const center = map.getCenter();
    const selectedSlot = selectedKey >= 0 ? entities.table.slotOf(selectedKey) : -1;
    const hash = formatViewHash({
      center: [center.lng, center.lat],
      zoom: map.getZoom(),
      ...(selectedSlot >= 0
        ? { selected: entities.ids[selectedSlot]! }
        : this.pendingSelection !== null
          ? { selected: this.pendingSelection }
          : {}),
      forces: filter.forces,
      domains: filter.domains,
      visibleArea: filter.bbox !== null,
    });
    if (hash !== location.hash) history.replaceState(null, '', hash === '' ? location.pathname : hash);
  }

  /** The slot of the entity the URL named among the instances, or −1 while it is not there. */
  pendingSlot(entities: PageEntities): number {
    const id = this.pendingSelection;
    for (let i = 0; i < entities.count; i++) {
      if (entities.ids[entities.instanceSlot[i]!] === id) return entities.instanceSlot[i]!;
    }
    return -1;
  }
}
