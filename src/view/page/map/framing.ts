/**
 * Keeping the entities in view: the first view frames them as they arrive, tightly (an engagement of 1.5 km fills
 * the map, not a corner of it), and then follows them — framed again when one leaves the part of the map that
 * shows, when more arrive, or when they draw together into a small part of it — until the user moves the map. The
 * fit button starts it over. The area math is free of DOM, in fit.ts.
 */
import type * as maplibregl from 'maplibre-gl';
import { MIN_FRAMED_METERS, boundsNear, boundsWithin, entityBounds, framedBounds, type Bounds } from './fit.js';
import type { Insets } from '../panel/layout.js';

/** While following, the entities are looked at (and framed again where needed) at most this often, ms. */
const FOLLOW_INTERVAL_MS = 500;
/** Framed again while following: room on each side, as a share of the entities' span, to move on into. */
const FOLLOW_ROOM = 0.25;
/** Pixels an entity may stand past the framing margin before it counts as leaving (rounding of a tight framing). */
const EDGE_SLACK_PX = 2;
/** Closer than a street: nothing to see on the base map beyond it. */
const MAX_FIT_ZOOM = 17;
/** Framed again when the entities have drawn together into less than this share of the framed span. */
const SHRINK_REFIT = 0.4;
/** After the first framing, framed again as the first arrivals settle (a burst is smoothed in 0.5 s: entities.ts). */
const ARRIVAL_SETTLE_MS = 2000;
/** While they settle, framed again when an edge of the entities' area moved by more than this share of its span. */
const ARRIVAL_MOVE = 0.05;

export class Framing {
  /** Framing the entities as they come and go, until the user moves the map (or a link set the view). */
  following: boolean;
  /** Times the view was framed (for the test hook). */
  fits = 0;
  private framedCount = 0;
  private framedSpan: [number, number] = [0, 0];
  private lookedAt = Number.NEGATIVE_INFINITY;
  private firstFramedAt = Number.NEGATIVE_INFINITY;
  private framedArea: Bounds | null = null;

  /**
   * @param covered - the map's edges the panel covers, px.
   * @param following - whether to frame the entities from the start.
   */
  constructor(
    private readonly map: maplibregl.Map,
    private readonly covered: () => Insets,
    following: boolean,
  ) {
    this.following = following;
  }

  /** Starts over (a new server): the next entities are framed as if they were the first. */
  reset(): void {
    this.framedCount = 0;
    this.lookedAt = Number.NEGATIVE_INFINITY;
  }

  /** The fit button: frames the entities now, and follows them again. */
  fitNow(positions: ArrayLike<number>, count: number): void {
    this.following = true;
    this.frame(positions, count, performance.now(), false, 0);
  }

  /**
   * Once a frame: while following, frames the entities again when one has left the part of the map that shows,
   * more arrived, or they fill less than `SHRINK_REFIT` of the framed span.
   * @param positions - longitude°, latitude°, height per entity (`PageEntities.positions`).
   */
  update(positions: ArrayLike<number>, count: number, nowMs: number): void {
    if (!this.following || count === 0 || nowMs - this.lookedAt < FOLLOW_INTERVAL_MS) return;
    // Mid-ease the picture is neither the old nor the new one: looked at once it has stopped.
    if (this.map.isMoving()) return;
    this.lookedAt = nowMs;
    const bounds = entityBounds(positions, count);
    if (bounds === null) return;
    const first = this.framedCount === 0;
    if (first) this.firstFramedAt = nowMs;
    const settling =
      !first &&
      nowMs - this.firstFramedAt < ARRIVAL_SETTLE_MS &&
      this.framedArea !== null &&
      !boundsNear(bounds, this.framedArea, ARRIVAL_MOVE);
    const spanLon = bounds[2] - bounds[0],
      spanLat = bounds[3] - bounds[1];
    const [framedLon, framedLat] = this.framedSpan;
    const drewTogether =
      spanLon < SHRINK_REFIT * framedLon && spanLat < SHRINK_REFIT * framedLat && !this.atMinimum(bounds);
    if (first || settling || count > this.framedCount || drewTogether) {
      this.frame(positions, count, nowMs, !first, 0);
    } else if (!boundsWithin(bounds, this.visibleBounds())) {
      // One is leaving the picture: framed with room to move on into (else it is at the edge again at once).
      this.frame(positions, count, nowMs, true, FOLLOW_ROOM);
    } else {
      this.framedCount = count;
    }
  }

  private frame(positions: ArrayLike<number>, count: number, nowMs: number, ease: boolean, room: number): void {
    const bounds = entityBounds(positions, count);
    if (bounds === null) return;
    this.framedCount = count;
    this.framedArea = bounds;
    this.lookedAt = nowMs;
    this.fits++;
    const framed = framedBounds(bounds, MIN_FRAMED_METERS, room);
    this.framedSpan = [framed[1][0] - framed[0][0], framed[1][1] - framed[0][1]];
    // Eased while following, so that the picture glides with the entities instead of jumping.
    this.map.fitBounds(framed, { padding: this.padding(), maxZoom: MAX_FIT_ZOOM, duration: ease ? 400 : 0 });
  }

  /** Whether `bounds` is already framed at the least span (framing again would change nothing). */
  private atMinimum(bounds: Bounds): boolean {
    const framed = framedBounds(bounds);
    const [framedLon, framedLat] = this.framedSpan;
    return framed[1][0] - framed[0][0] >= 0.99 * framedLon && framed[1][1] - framed[0][1] >= 0.99 * framedLat;
  }

  /**
   * The part of the map that shows less the margin framing keeps (entities in the margin are framed again), widened
   * by `EDGE_SLACK_PX`: a tight framing puts the outermost entities on that line.
   */
  private visibleBounds(): Bounds {
    const p = this.padding();
    const slack = EDGE_SLACK_PX;
    const canvas = this.map.getContainer().getBoundingClientRect();
    const topLeft = this.map.unproject([p.left - slack, p.top - slack]);
    const bottomRight = this.map.unproject([canvas.width - p.right + slack, canvas.height - p.bottom + slack]);
    const east = bottomRight.lng < topLeft.lng ? bottomRight.lng + 360 : bottomRight.lng;
    return [topLeft.lng, bottomRight.lat, east, topLeft.lat];
  }

  /** Room around framed entities: a margin inside the part of the map the panel leaves free. */
  private padding(): Insets {
    const covered = this.covered();
    const canvas = this.map.getContainer().getBoundingClientRect();
    // A margin of up to 60 px, never more than a sixth of the free width or height (MapLibre cannot fit otherwise).
    const margin = Math.max(
      0,
      Math.min(
        60,
        (canvas.width - covered.left - covered.right) / 6,
        (canvas.height - covered.top - covered.bottom) / 6,
      ),
    );
    return {
      top: covered.top + margin,
      right: covered.right + margin,
      bottom: covered.bottom + margin,
      left: covered.left + margin,
    };
  }
}
