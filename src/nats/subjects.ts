/**
 * NATS subjects of DIS traffic (docs/nats.md):
 *
 * - Entity State (type 1) and Entity State Update (type 67) PDUs: `PREFIX.EXERCISE.CELL.KIND.DOMAIN`, where CELL is
 *   the H3 cell (hex index, e.g. `851f9d2ffffffff`) of the entity's location at the configured resolution, and KIND
 *   and DOMAIN are the first two fields of its entity type (IEEE 1278.1 §6.2.30). An Update PDU carries no entity
 *   type: it takes the kind and domain of the entity's last full PDU seen by the same publisher, else `0.0`.
 * - Every other PDU, and an Entity State PDU whose location is not a point near the Earth:
 *   `PREFIX.EXERCISE.all.TYPE` (TYPE the PDU type number), so a receiver of one exercise takes them with
 *   `PREFIX.EXERCISE.all.>`.
 *
 * Subject tokens never need escaping: cells are hex, the rest are decimal numbers.
 */
import { cellToBoundary, latLngToCell } from 'h3-js';
import { ecefToGeodetic } from '../math/geodesy.js';
import { EntityStateOffset, EntityStateUpdateOffset, HeaderOffset, PduType } from '../pdu/constants.js';

/** The CELL token of PDUs that are not routed by position. */
export const GLOBAL_TOKEN = 'all';
/** Header on a copy of an Entity State PDU sent to the cell its entity has just left (docs/nats.md). */
export const LEFT_CELL_HEADER = 'Reckon-Left-Cell';
/** Header on that copy naming the cell the entity is now in, so a receiver of both cells ignores the copy. */
export const NEW_CELL_HEADER = 'Reckon-Cell';

const RAD_TO_DEG = 180 / Math.PI;
/** Locations further than this from the Earth's centre are not routed by cell (geostationary orbit is 4.2e7 m). */
const MAX_ROUTED_RADIUS_M = 5e7;
/** Below this the location is not a point on or above the Earth (e.g. all zeros: unset). */
const MIN_ROUTED_RADIUS_M = 6.0e6;

/** Where one PDU goes. */
export interface PduRoute {
  /** Its subject. */
  subject: string;
  /** H3 cell of an Entity State (Update) PDU routed by position, else undefined. */
  cell: string | undefined;
  /** Entity key (site·2³² + application·2¹⁶ + entity) of an Entity State (Update) PDU, else -1. */
  entityKey: number;
}

/** What the router remembers of one entity: where its cell was last computed, and how far it may move in it. */
interface EntityRoute {
  /** ECEF metres of the location whose cell was computed. */
  x: number;
  y: number;
  z: number;
  /** Distance from that location to the nearest edge of its cell, less a margin, metres; -1 = no cell. */
  safeRadiusM: number;
  cell: string | undefined;
  /** Kind·256 + domain of the last full Entity State PDU. */
  kindDomain: number;
  exercise: number;
  /** The subject last computed for this entity (its cell, kind, domain and exercise). */
  subject: string;
}

/**
 * Computes subjects; keeps scratch memory so that reading a location allocates nothing, and remembers per entity
 * where its cell was computed: while an entity stays closer to that point than to the cell's nearest edge (most
 * updates: entities move metres between PDUs, cells are kilometres wide), its cell and subject are reused without
 * asking H3 (whose `latLngToCell` costs microseconds).
 */
export class SubjectRouter {
  private readonly scratch = new Uint8Array(24);
  private readonly view = new DataView(this.scratch.buffer);
  private readonly geodetic = new Float64Array(3);
  /** Per entity key. Bounded: the entity seen first is forgotten first. */
  private readonly entities = new Map<number, EntityRoute>();
  /** H3 calls made (cache misses), for tests and benchmarks. */
  cellComputations = 0;

  /**
   * @param prefix - first subject tokens, e.g. `dis`.
   * @param resolution - H3 resolution 0–15.
   * @param maxEntities - most entities remembered. Defaults to 1 048 576.
   */
  constructor(
    readonly prefix: string,
    readonly resolution: number,
    private readonly maxEntities = 1 << 20,
  ) {}

  /** `PREFIX.EXERCISE.all.TYPE`. */
  globalSubject(exercise: number, pduType: number): string {
    return `${this.prefix}.${exercise}.${GLOBAL_TOKEN}.${pduType}`;
  }

  /** `PREFIX.EXERCISE.CELL.KIND.DOMAIN`. */
  cellSubject(exercise: number, cell: string, kind: number, domain: number): string {
    return `${this.prefix}.${exercise}.${cell}.${kind}.${domain}`;
  }

  /**
   * The route of the PDU at `bytes[offset, offset + length)` (a whole PDU, its Length checked by the caller).
   * @param out - receives the route.
   */
  route(bytes: Uint8Array, offset: number, length: number, out: PduRoute): PduRoute {
    const type = bytes[offset + HeaderOffset.PDU_TYPE]!;
    const exercise = bytes[offset + HeaderOffset.EXERCISE_ID]!;
    out.cell = undefined;
    out.entityKey = -1;
    const isState = type === PduType.ENTITY_STATE && length >= EntityStateOffset.PARAMETERS;
    const isUpdate = type === PduType.ENTITY_STATE_UPDATE && length >= EntityStateUpdateOffset.PARAMETERS;
    if (!isState && !isUpdate) {
      out.subject = this.globalSubject(exercise, type);
      return out;
    }
    const id = offset + EntityStateOffset.ENTITY_ID;
    const key =
      ((bytes[id]! << 8) | bytes[id + 1]!) * 2 ** 32 +
      ((bytes[id + 2]! << 8) | bytes[id + 3]!) * 2 ** 16 +
      ((bytes[id + 4]! << 8) | bytes[id + 5]!);
    out.entityKey = key;
    let entry = this.entities.get(key);
    const kindDomain = isState
      ? (bytes[offset + EntityStateOffset.ENTITY_TYPE]! << 8) | bytes[offset + EntityStateOffset.ENTITY_TYPE + 1]!
      : (entry?.kindDomain ?? 0);
    // The location, read through the scratch bytes (one DataView for the router's lifetime).
    const at = offset + (isState ? EntityStateOffset.LOCATION : EntityStateUpdateOffset.LOCATION);
    const scratch = this.scratch;
    for (let i = 0; i < 24; i++) scratch[i] = bytes[at + i]!;
    const x = this.view.getFloat64(0),
      y = this.view.getFloat64(8),
      z = this.view.getFloat64(16);
    if (entry === undefined) entry = this.remember(key);
    const dx = x - entry.x,
      dy = y - entry.y,
      dz = z - entry.z;
    // A straight-line move shorter than the distance to the cell's edge cannot leave the cell (NaN fails too).
    const stays = entry.safeRadiusM >= 0 && dx * dx + dy * dy + dz * dz < entry.safeRadiusM * entry.safeRadiusM;
    if (!stays) this.locate(entry, x, y, z);
    if (entry.cell === undefined) {
      entry.kindDomain = kindDomain;
      out.subject = this.globalSubject(exercise, type);
      return out;
    }
    if (!stays || entry.kindDomain !== kindDomain || entry.exercise !== exercise || entry.subject === '') {
      entry.kindDomain = kindDomain;
      entry.exercise = exercise;
      entry.subject = this.cellSubject(exercise, entry.cell, kindDomain >> 8, kindDomain & 0xff);
    }
    out.cell = entry.cell;
    out.subject = entry.subject;
    return out;
  }

  /** The H3 cell of an ECEF location (metres), or undefined if it has none. */
  cellOfEcef(x: number, y: number, z: number): string | undefined {
    const radius = Math.hypot(x, y, z);
    // NaN fails both comparisons too.
    if (!(radius >= MIN_ROUTED_RADIUS_M && radius <= MAX_ROUTED_RADIUS_M)) return undefined;
    const g = ecefToGeodetic(this.geodetic, x, y, z);
    this.cellComputations++;
    return latLngToCell(g[0]! * RAD_TO_DEG, g[1]! * RAD_TO_DEG, this.resolution);
  }

  /** Computes the entry's cell at (x, y, z) and how far the entity may move before it must be computed again. */
  private locate(entry: EntityRoute, x: number, y: number, z: number): void {
    const previous = entry.cell;
    entry.x = x;
    entry.y = y;
    entry.z = z;
    entry.cell = this.cellOfEcef(x, y, z);
    if (entry.cell !== previous) entry.subject = '';
    entry.safeRadiusM = entry.cell === undefined ? -1 : distanceToCellEdgeM(entry.cell, this.geodetic) * 0.98 - 1;
  }

  private remember(key: number): EntityRoute {
    if (this.entities.size >= this.maxEntities) {
      // Forget the entity seen first: a Map iterates in insertion order.
      const oldest = this.entities.keys().next().value;
      if (oldest !== undefined) this.entities.delete(oldest);
    }
    const entry: EntityRoute = {
      x: 0,
      y: 0,
      z: 0,
      safeRadiusM: -1,
      cell: undefined,
      kindDomain: 0,
      exercise: -1,
      subject: '',
    };
    this.entities.set(key, entry);
    return entry;
  }
}

/** Mean Earth radius (IUGG), metres. */
const EARTH_RADIUS_M = 6_371_008.8;

/**
 * Distance in metres from a point to the nearest edge of its H3 cell, on a local plane around the point (the error
 * of that projection over one cell is far below the 2 % margin the router keeps).
 * @param geodetic - the point as [latitudeRad, longitudeRad, …].
 */
export function distanceToCellEdgeM(cell: string, geodetic: ArrayLike<number>): number {
  const lat0 = geodetic[0]!,
    lon0 = geodetic[1]!;
  const kx = EARTH_RADIUS_M * Math.cos(lat0),
    ky = EARTH_RADIUS_M;
  const boundary = cellToBoundary(cell);
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < boundary.length; i++) {
    const [latA, lonA] = boundary[i]!,
      [latB, lonB] = boundary[(i + 1) % boundary.length]!;
    const ax = wrap(lonA / RAD_TO_DEG - lon0) * kx,
      ay = (latA / RAD_TO_DEG - lat0) * ky;
    const bx = wrap(lonB / RAD_TO_DEG - lon0) * kx,
      by = (latB / RAD_TO_DEG - lat0) * ky;
    // Distance from the origin to segment AB.
    const ex = bx - ax,
      ey = by - ay;
    const t = Math.max(0, Math.min(1, -(ax * ex + ay * ey) / (ex * ex + ey * ey || 1)));
    best = Math.min(best, Math.hypot(ax + t * ex, ay + t * ey));
  }
  return best;
}

/** An angle difference brought into (−π, π]. */
function wrap(radians: number): number {
  return radians - 2 * Math.PI * Math.round(radians / (2 * Math.PI));
}

/** A fresh route to pass to `SubjectRouter.route`. */
export function createRoute(): PduRoute {
  return { subject: '', cell: undefined, entityKey: -1 };
}

/** The CELL token of a subject `PREFIX.EXERCISE.CELL.…` (prefix of `prefixTokens` tokens), else undefined. */
export function cellOfSubject(subject: string, prefixTokens: number): string | undefined {
  const tokens = subject.split('.');
  const cell = tokens[prefixTokens + 1];
  return cell === undefined || cell === GLOBAL_TOKEN ? undefined : cell;
}

/** Hides the user name, password or token in a server URL (`nats://u:p@host` → `nats://***@host`). */
export function redactUrl(url: string): string {
  return url.replace(/^((?:[a-z]+:\/\/)?)[^@/]*@/i, '$1***@');
}
