/**
 * The tracks every feed of one publisher shares (so that their entity numbers never clash), and the DIS identity
 * of each as a `LocalEntity` for `deadReckonEmit`: made again only when the vehicle's marking, type or force
 * changed, so that the emitter sends the new identity at once and keeps its state otherwise.
 */
import { TrackTable, type TrackTableOptions } from '../fixes/track-table.js';
import type { Track } from '../fixes/track.js';
import type { LocalEntity } from '../stream/local-entities.js';

/** Options of `FeedTracks`: the table's, and how the entities are dead-reckoned. */
export interface FeedTracksOptions extends TrackTableOptions {
  /** DR algorithm of the entities (1–9 or 'auto'). Defaults to 'auto'. */
  readonly algorithm?: number | 'auto';
}

/**
 * The tracks of one publisher's feeds: give the same `FeedTracks` to every feed (`{ tracks }`) so that their
 * vehicles get entity numbers of their own, and read `table` for the tracks and their counters.
 */
export class FeedTracks {
  readonly table: TrackTable;
  private readonly entities = new WeakMap<Track, LocalEntity>();
  private sources = 0;

  constructor(readonly options: FeedTracksOptions = {}) {
    this.table = new TrackTable(options);
  }

  /** A number for a new feed (its tracks carry it). */
  addSource(): number {
    return this.sources++;
  }

  /** The track's identity as a local entity; a new object when its identity changed. */
  entity(track: Track): LocalEntity {
    let entity = this.entities.get(track);
    if (entity === undefined || track.identityChanged || entity.entity !== track.entityNumber) {
      const [kind, domain, country, category, subcategory, specific, extra] = track.disEntityType();
      entity = {
        entity: track.entityNumber,
        marking: track.disMarking(),
        entityType: { kind, domain, country, category, subcategory, specific, extra },
        forceId: track.forceId,
        algorithm: this.options.algorithm ?? 'auto',
      };
      this.entities.set(track, entity);
      track.identityChanged = false;
    }
    return entity;
  }
}
