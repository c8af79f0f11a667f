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
import { cellToBoundary, cellToLatLng, latLngToCell } from 'h3-js';
import { APPEARANCE_DEACTIVATED } from '../dr/algorithm.js';
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

/**
 * One subject, interned: the router hands out the same object for every PDU of a subject, so its user can keep
 * per-subject state on it without looking the subject string up (a subclass of the router makes the slots it needs:
 * `newSlot`; the transport's are its bundles).
 */
export interface SubjectSlot {
  readonly subject: string;
  /** The H3 cell of a subject routed by position, else undefined. */
  readonly cell: string | undefined;
}

/** Where one PDU goes. */
export interface PduRoute {
  /** Its subject. */
  subject: string;
  /** The subject interned (`slot.subject === subject`). */
  slot: SubjectSlot;
  /** H3 cell of an Entity State (Update) PDU routed by position, else undefined. */
  cell: string | undefined;
  /** Entity key (site·2³² + application·2¹⁶ + entity) of an Entity State (Update) PDU, else -1. */
  entityKey: number;
  /**
   * For a PDU routed to a cell: the cell the entity's previous PDU routed to a cell went to, when that was another
   * cell (the entity crossed an edge), else undefined. A PDU whose appearance says Deactivated (IEEE 1278.1
   * §6.2.26) ends the entity's track: its next PDU has no left cell.
   */
  leftCell: string | undefined;
}

/** What the router remembers of one entity: where its cell was last computed, and how far it may move in it. */
interface EntityRoute {
  /**
   * Its place in `SubjectRouter.places`: the ECEF metres (x, y, z) of the location whose cell was computed, and the
   * distance from there to the nearest edge of the cell, less a margin, metres (-1 = no cell). In a Float64Array
   * rather than fields: V8 keeps a double field of an object in a box of its own, one more read from memory.
   */
  readonly place: number;
  cell: string | undefined;
  /** Kind·256 + domain of the last full Entity State PDU. */
  kindDomain: number;
  exercise: number;
  /** The subject of its cell, kind, domain and exercise; undefined when one of them changed. */
  slot: SubjectSlot | undefined;
  /** The cell its last PDU routed to a cell went to, until a Deactivated PDU; undefined before. */
  trackedCell: string | undefined;
  /** The edges of `cell` (`cellShape`), undefined with no cell. */
  shape: Float64Array | undefined;
}

/**
 * The entities of one simulation application (site, application). `byNumber` holds them all, in the order first
 * seen; `dense` indexes the same entries by entity number while the numbers are mostly small and dense (as DIS
 * applications number their entities 1, 2, 3, …), so the common lookup is an array read in the order the entities
 * are sent, rather than a hash lookup at a random place in memory.
 */
interface Application {
  readonly byNumber: Map<number, EntityRoute>;
  dense: Array<EntityRoute | undefined>;
}

/** `Application.dense` grows to cover entity number n while n < 2 · entities + this; beyond, the Map alone. */
const DENSE_SLACK = 64;

/** Deactivated bit of the appearance record (IEEE 1278.1 §6.2.26) within its second byte (big-endian). */
const DEACTIVATED_BYTE1 = (APPEARANCE_DEACTIVATED >>> 16) & 0xff;

/**
 * Computes subjects without allocating per PDU, and remembers per entity
 * where its cell was computed: while an entity stays closer to that point than to the cell's nearest edge (most
 * updates: entities move metres between PDUs, cells are kilometres wide), its cell and subject are reused without
 * asking H3 (whose `latLngToCell` costs microseconds).
 *
 * Entities are found by site·2¹⁶ + application (the last application kept at hand: consecutive PDUs mostly come
 * from the same one), then by entity number (see `Application`): small integers, which a Map hashes and compares
 * without reading a boxed number as it must for a 48-bit key.
 */
export class SubjectRouter {
  /**
   * A DataView over the caller's buffer, made again only when the buffer changes. `sourceBytes` is the last array
   * routed from: reading `.buffer` of a typed array is a call, so it is asked only when the array changes.
   */
  private sourceBytes: Uint8Array | undefined;
  private sourceBuffer: ArrayBufferLike | undefined;
  private source: DataView<ArrayBufferLike> = new DataView(new ArrayBuffer(0));
  private readonly geodetic = new Float64Array(3);
  /** Per site·2¹⁶ + application, per entity number. Bounded: see `remember`. */
  private readonly applications = new Map<number, Application>();
  private lastApplication = -1;
  private lastEntities: Application | undefined;
  private entityCount = 0;
  /** Four doubles per entity (see `EntityRoute.place`), and the places of forgotten entities. */
  private places = new Float64Array(4 * 1024);
  private readonly freePlaces: number[] = [];
  private placesUsed = 0;
  /** Subjects of cells, interned. Bounded: cleared when full (see `intern`). */
  private readonly cellSlots = new Map<string, SubjectSlot>();
  /** Per-exercise subjects, per exercise·256 + PDU type (at most 65 536). */
  private readonly globalSlots = new Map<number, SubjectSlot>();
  /** The edges of cells (`cellShape`), by cell. Bounded: cleared when full. */
  private readonly shapes = new Map<string, Float64Array>();
  /** H3 calls made (cache misses), for tests and benchmarks. */
  cellComputations = 0;
  /** Locations checked against the edges of the entity's cell, for tests and benchmarks. */
  cellChecks = 0;

  /**
   * @param prefix - first subject tokens, e.g. `dis`.
   * @param resolution - H3 resolution 0–15.
   * @param maxEntities - most entities remembered. Defaults to 1 048 576.
   * @param maxSubjects - most cell subjects interned. Defaults to 65 536.
   */
  constructor(
    readonly prefix: string,
    readonly resolution: number,
    private readonly maxEntities = 1 << 20,
    private readonly maxSubjects = 1 << 16,
  ) {}

  /** `PREFIX.EXERCISE.all.TYPE`. */
  globalSubject(exercise: number, pduType: number): string {
    return `${this.prefix}.${exercise}.${GLOBAL_TOKEN}.${pduType}`;
  }

  /** `PREFIX.EXERCISE.CELL.KIND.DOMAIN`. */
  cellSubject(exercise: number, cell: string, kind: number, domain: number): string {
    return `${this.prefix}.${exercise}.${cell}.${kind}.${domain}`;
  }

  /** Entities remembered. */
  get entities(): number {
    return this.entityCount;
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
    out.leftCell = undefined;
    const isState = type === PduType.ENTITY_STATE && length >= EntityStateOffset.PARAMETERS;
    const isUpdate = type === PduType.ENTITY_STATE_UPDATE && length >= EntityStateUpdateOffset.PARAMETERS;
    if (!isState && !isUpdate) return this.routeGlobal(exercise, type, out);
    const id = offset + EntityStateOffset.ENTITY_ID;
    const site = (bytes[id]! << 8) | bytes[id + 1]!,
      application = (bytes[id + 2]! << 8) | bytes[id + 3]!,
      number = (bytes[id + 4]! << 8) | bytes[id + 5]!;
    out.entityKey = site * 2 ** 32 + application * 2 ** 16 + number;
    // site·2¹⁶ + application as a signed 32-bit integer: a small integer for the Map, whatever the site.
    const siteApplication = (site << 16) | application;
    let entities = this.lastEntities;
    if (siteApplication !== this.lastApplication || entities === undefined) {
      entities = this.applications.get(siteApplication);
      this.lastApplication = siteApplication;
      this.lastEntities = entities;
    }
    let entry: EntityRoute | undefined;
    if (entities !== undefined) {
      const dense = entities.dense;
      entry = number < dense.length ? dense[number] : entities.byNumber.get(number);
    }
    const kindDomain = isState
      ? (bytes[offset + EntityStateOffset.ENTITY_TYPE]! << 8) | bytes[offset + EntityStateOffset.ENTITY_TYPE + 1]!
      : (entry?.kindDomain ?? 0);
    // The location (big-endian doubles), read in place.
    if (bytes !== this.sourceBytes) {
      this.sourceBytes = bytes;
      if (bytes.buffer !== this.sourceBuffer) {
        this.sourceBuffer = bytes.buffer;
        this.source = new DataView(bytes.buffer);
      }
    }
    const at = bytes.byteOffset + offset + (isState ? EntityStateOffset.LOCATION : EntityStateUpdateOffset.LOCATION);
    const source = this.source;
    const x = source.getFloat64(at),
      y = source.getFloat64(at + 8),
      z = source.getFloat64(at + 16);
    if (entry === undefined) entry = this.remember(siteApplication, number);
    const places = this.places,
      p = entry.place * 4;
    const dx = x - places[p]!,
      dy = y - places[p + 1]!,
      dz = z - places[p + 2]!,
      safeRadiusM = places[p + 3]!;
    // A straight-line move shorter than the distance to the cell's edge cannot leave the cell (NaN fails too).
    const stays = safeRadiusM >= 0 && dx * dx + dy * dy + dz * dz < safeRadiusM * safeRadiusM;
    if (!stays) this.locate(entry, x, y, z);
    const cell = entry.cell;
    if (cell === undefined) {
      entry.kindDomain = kindDomain;
      return this.routeGlobal(exercise, type, out);
    }
    let slot = entry.slot;
    if (slot === undefined || entry.kindDomain !== kindDomain || entry.exercise !== exercise) {
      entry.kindDomain = kindDomain;
      entry.exercise = exercise;
      slot = entry.slot = this.intern(this.cellSubject(exercise, cell, kindDomain >> 8, kindDomain & 0xff), cell);
    }
    const tracked = entry.trackedCell;
    if (tracked !== undefined && tracked !== cell) out.leftCell = tracked;
    const appearance = offset + (isState ? EntityStateOffset.APPEARANCE : EntityStateUpdateOffset.APPEARANCE);
    const nextTracked = (bytes[appearance + 1]! & DEACTIVATED_BYTE1) !== 0 ? undefined : cell;
    // Written only when it changes: a store of an object reference costs a write barrier.
    if (nextTracked !== tracked) entry.trackedCell = nextTracked;
    out.cell = cell;
    out.slot = slot;
    out.subject = slot.subject;
    return out;
  }

  private routeGlobal(exercise: number, type: number, out: PduRoute): PduRoute {
    const key = (exercise << 8) | type;
    let slot = this.globalSlots.get(key);
    if (slot === undefined) {
      slot = this.newSlot(this.globalSubject(exercise, type), undefined);
      this.globalSlots.set(key, slot);
    }
    out.slot = slot;
    out.subject = slot.subject;
    return out;
  }

  /**
   * The one slot of a cell subject. Past `maxSubjects` the table starts afresh: entities keep the slots they hold,
   * so a subject may then have two slots for a while (its PDUs still all go to it, in up to two messages a tick).
   */
  private intern(subject: string, cell: string): SubjectSlot {
    let slot = this.cellSlots.get(subject);
    if (slot === undefined) {
      if (this.cellSlots.size >= this.maxSubjects) this.cellSlots.clear();
      slot = this.newSlot(subject, cell);
      this.cellSlots.set(subject, slot);
    }
    return slot;
  }

  /** A place for a new entity: no location yet, no cell. */
  private takePlace(): number {
    let place = this.freePlaces.pop();
    if (place === undefined) {
      place = this.placesUsed++;
      if (place * 4 === this.places.length) {
        const grown = new Float64Array(this.places.length * 2);
        grown.set(this.places);
        this.places = grown;
      }
    }
    this.places.fill(0, place * 4, place * 4 + 3);
    this.places[place * 4 + 3] = -1;
    return place;
  }

  /** Makes the one slot of a subject. */
  protected newSlot(subject: string, cell: string | undefined): SubjectSlot {
    return { subject, cell };
  }

  /** The H3 cell of an ECEF location (metres), or undefined if it has none. */
  cellOfEcef(x: number, y: number, z: number): string | undefined {
    const radius = Math.sqrt(x * x + y * y + z * z);
    // NaN fails both comparisons too.
    if (!(radius >= MIN_ROUTED_RADIUS_M && radius <= MAX_ROUTED_RADIUS_M)) return undefined;
    const g = ecefToGeodetic(this.geodetic, x, y, z);
    this.cellComputations++;
    return latLngToCell(g[0]! * RAD_TO_DEG, g[1]! * RAD_TO_DEG, this.resolution);
  }

  /**
   * Computes the entry's cell at (x, y, z) and how far the entity may move before it must be computed again.
   * An entity that has moved out of its safe distance is mostly still in its cell: that is checked against the
   * cell's edges (`insideCellBy`, a few products) before asking H3 (microseconds), which is asked only when the
   * location is outside, or less than `EDGE_MARGIN` inside, one of them.
   */
  private locate(entry: EntityRoute, x: number, y: number, z: number): void {
    const places = this.places,
      p = entry.place * 4;
    places[p] = x;
    places[p + 1] = y;
    places[p + 2] = z;
    const radius = Math.sqrt(x * x + y * y + z * z);
    // NaN fails both comparisons too.
    if (!(radius >= MIN_ROUTED_RADIUS_M && radius <= MAX_ROUTED_RADIUS_M)) {
      if (entry.cell !== undefined) {
        entry.cell = undefined;
        entry.slot = undefined;
        entry.shape = undefined;
      }
      places[p + 3] = -1;
      return;
    }
    const g = ecefToGeodetic(this.geodetic, x, y, z);
    const lat = g[0]!,
      lon = g[1]!;
    let shape = entry.shape;
    if (shape !== undefined) {
      this.cellChecks++;
      const inside = insideCellBy(shape, lat, lon);
      if (inside > EDGE_MARGIN) {
        places[p + 3] = safeRadiusM(inside);
        return;
      }
    }
    this.cellComputations++;
    const cell = latLngToCell(lat * RAD_TO_DEG, lon * RAD_TO_DEG, this.resolution);
    // Keep the string already held when the cell is the same, so later comparisons are by identity.
    if (cell !== entry.cell || shape === undefined) {
      entry.cell = cell;
      entry.slot = undefined;
      shape = entry.shape = this.shapeOf(cell);
    }
    const inside = insideCellBy(shape, lat, lon);
    places[p + 3] = inside > EDGE_MARGIN ? safeRadiusM(inside) : -1;
  }

  /** The edges of a cell, computed once per cell while the table holds it. */
  private shapeOf(cell: string): Float64Array {
    let shape = this.shapes.get(cell);
    if (shape === undefined) {
      if (this.shapes.size >= this.maxSubjects) this.shapes.clear();
      shape = cellShape(cell);
      this.shapes.set(cell, shape);
    }
    return shape;
  }

  /**
   * A new entry for an entity. Bounded by `maxEntities`: past it, the entity seen first of the application seen
   * first is forgotten (Maps iterate in insertion order).
   */
  private remember(siteApplication: number, number: number): EntityRoute {
    if (this.entityCount >= this.maxEntities) {
      const first = this.applications.entries().next().value;
      if (first !== undefined) {
        const [key, application] = first;
        const oldest = application.byNumber.keys().next().value;
        if (oldest !== undefined) {
          this.freePlaces.push(application.byNumber.get(oldest)!.place);
          application.byNumber.delete(oldest);
          if (oldest < application.dense.length) application.dense[oldest] = undefined;
          this.entityCount--;
        }
        if (application.byNumber.size === 0) this.applications.delete(key);
      }
    }
    let application = this.applications.get(siteApplication);
    if (application === undefined) {
      application = { byNumber: new Map(), dense: [] };
      this.applications.set(siteApplication, application);
    }
    this.lastApplication = siteApplication;
    this.lastEntities = application;
    const entry: EntityRoute = {
      place: this.takePlace(),
      cell: undefined,
      kindDomain: 0,
      exercise: -1,
      slot: undefined,
      trackedCell: undefined,
      shape: undefined,
    };
    application.byNumber.set(number, entry);
    this.entityCount++;
    if (number >= application.dense.length && number < 2 * application.byNumber.size + DENSE_SLACK) {
      // Grow the index (at least doubling: amortised) and fill it from the Map, which holds every entity.
      const dense = new Array<EntityRoute | undefined>(Math.max(number + 1, 2 * application.dense.length)).fill(
        undefined,
      );
      for (const [n, e] of application.byNumber) if (n < dense.length) dense[n] = e;
      application.dense = dense;
    } else if (number < application.dense.length) {
      application.dense[number] = entry;
    }
    return entry;
  }
}

/** Mean Earth radius (IUGG), metres. */
const EARTH_RADIUS_M = 6_371_008.8;

/**
 * How far inside every edge of its cell (sine of the angle on H3's sphere) a location must be for its cell to be
 * taken without asking H3: about 1.3 m, far above the rounding of either computation, so a location this close to
 * an edge is always settled by `latLngToCell`.
 */
export const EDGE_MARGIN = 2e-7;

/**
 * The edges of an H3 cell as the inward unit normals (three numbers each) of the great circles through its
 * consecutive boundary vertices. H3 places a location by a gnomonic projection of an icosahedron face, which maps
 * great circles to straight lines: the edges of a cell, including the extra vertices where a cell crosses a face
 * edge, are arcs of great circles between the vertices `cellToBoundary` gives. H3 takes latitude and longitude as
 * coordinates on a sphere, as done here. A location inside every great circle is in the cell (where the boundary
 * turns inwards at a face edge the test only says "outside" more often, which costs an H3 call, never a wrong cell).
 */
export function cellShape(cell: string): Float64Array {
  const boundary = cellToBoundary(cell);
  const [centreLat, centreLon] = cellToLatLng(cell);
  const cLat = centreLat / RAD_TO_DEG,
    cLon = centreLon / RAD_TO_DEG;
  const cx = Math.cos(cLat) * Math.cos(cLon),
    cy = Math.cos(cLat) * Math.sin(cLon),
    cz = Math.sin(cLat);
  const n = boundary.length;
  const shape = new Float64Array(3 * n);
  for (let i = 0; i < n; i++) {
    const [latA, lonA] = boundary[i]!,
      [latB, lonB] = boundary[(i + 1) % n]!;
    const a0 = latA / RAD_TO_DEG,
      a1 = lonA / RAD_TO_DEG,
      b0 = latB / RAD_TO_DEG,
      b1 = lonB / RAD_TO_DEG;
    const ax = Math.cos(a0) * Math.cos(a1),
      ay = Math.cos(a0) * Math.sin(a1),
      az = Math.sin(a0);
    const bx = Math.cos(b0) * Math.cos(b1),
      by = Math.cos(b0) * Math.sin(b1),
      bz = Math.sin(b0);
    let nx = ay * bz - az * by,
      ny = az * bx - ax * bz,
      nz = ax * by - ay * bx;
    const length = Math.sqrt(nx * nx + ny * ny + nz * nz);
    // Two vertices in one place: a zero normal, so no location is ever inside it by the margin (H3 decides).
    const scale = length > 1e-15 ? (nx * cx + ny * cy + nz * cz < 0 ? -1 : 1) / length : 0;
    nx *= scale;
    ny *= scale;
    nz *= scale;
    shape[3 * i] = nx;
    shape[3 * i + 1] = ny;
    shape[3 * i + 2] = nz;
  }
  return shape;
}

/**
 * How far inside the edges of `shape` (`cellShape`) the location (radians, on H3's sphere) is: the least sine of
 * its angular distance to an edge's great circle, negative outside one.
 */
export function insideCellBy(shape: Float64Array, latRad: number, lonRad: number): number {
  const cosLat = Math.cos(latRad);
  const ux = cosLat * Math.cos(lonRad),
    uy = cosLat * Math.sin(lonRad),
    uz = Math.sin(latRad);
  let least = Number.POSITIVE_INFINITY;
  for (let i = 0; i < shape.length; i += 3) {
    const d = ux * shape[i]! + uy * shape[i + 1]! + uz * shape[i + 2]!;
    if (d < least) least = d;
  }
  return least;
}

/**
 * The straight-line move in metres that cannot take a location `inside` (`insideCellBy`) out of its cell: the
 * distance to the nearest edge on H3's sphere, less 2 % (a metre on the ellipsoid is at most 0.6 % more on that
 * sphere) and a metre.
 */
function safeRadiusM(inside: number): number {
  return Math.asin(Math.min(1, inside)) * EARTH_RADIUS_M * 0.98 - 1;
}

/** A fresh route to pass to `SubjectRouter.route`. */
export function createRoute(): PduRoute {
  return { subject: '', slot: NO_SLOT, cell: undefined, entityKey: -1, leftCell: undefined };
}

/** The slot of a route not yet computed. */
const NO_SLOT: SubjectSlot = Object.freeze({ subject: '', cell: undefined });

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
