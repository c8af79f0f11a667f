/**
 * The entities the side panel's list looks at. Up to `LIST_ALL` entities, all of them: filtering and sorting a few
 * tens of thousands a few times a second costs a few milliseconds. Beyond (a page holds up to a million), the
 * entities in view when they are few enough to read (in-view.ts), or with a search the entities it matches, found
 * by one pass over every entity when the search changes and at most every `RESCAN_MS` while entities come and go —
 * never a pass over a million entities and a sort of them four times a second. Free of DOM.
 */
import type { PageEntities } from '../entities.js';

/** Entities the list takes whole. */
export const LIST_ALL = 20_000;
/** Matches of a search kept at most, beyond `LIST_ALL`. */
const MAX_MATCHES = 2000;
/** The shortest time between two passes of one search over every entity, ms. */
const RESCAN_MS = 2000;

/** Which entities the list considers, and how they were chosen. */
export interface Candidates {
  slots: number[];
  /** 'all', 'in view', 'matching' (the first `MAX_MATCHES` matches), or 'unread' (too many in view, no search). */
  scope: 'all' | 'in view' | 'matching' | 'unread';
}

export class ListCandidates {
  private searched = '';
  private searchedStructure = -1;
  private searchedAtMs = Number.NEGATIVE_INFINITY;
  private matches: number[] = [];

  /**
   * @param inView - the readable slots in view (`InView`).
   * @param matches - whether a slot matches the search (not called without one).
   * @param nowMs - the page's clock, paces the passes of a search.
   */
  of(
    entities: PageEntities,
    inView: { slots: ArrayLike<number>; count: number; readable: boolean },
    search: string,
    matches: (slot: number) => boolean,
    nowMs: number,
  ): Candidates {
    const slots: number[] = [];
    if (entities.count <= LIST_ALL) {
      for (let i = 0; i < entities.count; i++) {
        const slot = entities.instanceSlot[i]!;
        if (search === '' || matches(slot)) slots.push(slot);
      }
      return { slots, scope: 'all' };
    }
    if (search === '') {
      for (let k = 0; k < inView.count; k++) slots.push(inView.slots[k]!);
      return { slots, scope: inView.readable ? 'in view' : 'unread' };
    }
    const stale =
      search !== this.searched ||
      (this.searchedStructure !== entities.structureVersion && nowMs - this.searchedAtMs >= RESCAN_MS);
    if (stale) {
      this.searched = search;
      this.searchedStructure = entities.structureVersion;
      this.searchedAtMs = nowMs;
      const found: number[] = [];
      for (let i = 0; i < entities.count && found.length < MAX_MATCHES; i++) {
        const slot = entities.instanceSlot[i]!;
        if (matches(slot)) found.push(slot);
      }
      this.matches = found;
    }
    // A match since gone (its slot free or reused) is left out.
    const table = entities.table;
    for (const slot of this.matches) if (table.active[slot] === 1 && matches(slot)) slots.push(slot);
    return { slots, scope: 'matching' };
  }
}
