/**
 * Routes DIS PDUs to their NATS subjects (subject-names.ts, docs/nats.md) without allocating per PDU: an entity's
 * cell is computed by H3 once and kept while it stays inside it (cell-geometry.ts), subjects are interned as slots
 * (route.ts), and the tables of entities, cells and subjects are bounded.
 */
import { gridDisk, latLngToCell } from 'h3-js';
import { APPEARANCE_DEACTIVATED } from '../dr/models/algorithm.js';
import { ecefToGeodetic } from '../math/geodesy.js';
import { EntityStateOffset, EntityStateUpdateOffset, HeaderOffset, PduType } from '../pdu/wire/constants.js';
import { entityKey } from '../pdu/wire/entity-state-record.js';
import {
  EDGE_DOUBLES,
  EDGE_MARGIN,
  cellShape,
  geodeticUnitVector,
  insideEdgesBy,
  safeRadiusM,
} from './cell-geometry.js';
import { addEntity, createApplication, forgetOldest, type Application } from './entity-numbers.js';
import { SLOT_STATE_INTS, type PduRoute, type SubjectSlot } from './route.js';
import { cellSubject, globalSubject } from './subject-names.js';

const RAD_TO_DEG = 180 / Math.PI;
/** Locations further than this from the Earth's centre are not routed by cell (geostationary orbit is 4.2e7 m). */
const MAX_ROUTED_RADIUS_M = 5e7;
/** Below this the location is not a point on or above the Earth (e.g. all zeros: unset). */
const MIN_ROUTED_RADIUS_M = 6.0e6;
/** Neighbours of a cell kept at most (a hexagon has six, a pentagon five), and the count of those not yet taken. */
const MAX_NEIGHBOURS = 6;
const NEIGHBOURS_UNKNOWN = 255;

/**
 * What the router remembers of each entity, in one table of `ENTITY_DOUBLES` doubles per entity (an entity is a
 * number, its place in the table), so the fields a PDU needs lie together, in one or two cache lines, and an
 * entity costs no object of its own: the ECEF metres (x, y, z) of the location whose cell was computed, the
 * distance from there to the nearest edge of the cell less a margin (metres, -1 = no cell), then, as 32-bit
 * integers over the same bytes (`ENTITY_INTS` per entity, from `INT_BASE`):
 * - `SLOT`: the subject of its cell, kind, domain and exercise (`SubjectRouter.slots`), -1 when one of them changed;
 * - `CELL`: its cell (`SubjectRouter.cellNames`), -1 with none;
 * - `TRACKED`: the cell its last PDU routed to a cell went to, until a Deactivated PDU; -1 before;
 * - `KIND_EXERCISE`: (exercise + 1)·2¹⁶ + kind·256 + domain of its last full Entity State PDU (exercise + 1 = 0:
 *   none routed to a cell yet).
 */
const ENTITY_DOUBLES = 6;
const ENTITY_INTS = 2 * ENTITY_DOUBLES;
const INT_BASE = 8;
const SLOT = INT_BASE,
  CELL = INT_BASE + 1,
  TRACKED = INT_BASE + 2,
  KIND_EXERCISE = INT_BASE + 3;

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
  /** The entity table (see `ENTITY_DOUBLES`), the same bytes as 32-bit integers, and the entities forgotten. */
  private entityDoubles = new Float64Array(ENTITY_DOUBLES * 1024);
  private entityInts = new Int32Array(this.entityDoubles.buffer);
  private readonly freeEntities: number[] = [];
  private entitiesUsed = 0;
  /**
   * Cells by number, the edges of each (`cellShape`, `EDGE_DOUBLES` numbers per cell, in one array so that checking
   * a location reads the edges themselves, not an object first), how many, and the number of each cell. Bounded:
   * past `cellLimit` cells the table keeps only those an entity refers to (`compactCells`).
   */
  private cellNames: string[] = [];
  private cellEdges = new Float64Array(EDGE_DOUBLES * 64);
  private cellEdgeCounts = new Uint8Array(64);
  /**
   * Per cell, the subject last interned in it (`internSlot`) and its (exercise + 1)·2¹⁶ + kind·256 + domain (-1:
   * none): most cells carry one kind and domain, so an entity crossing into one builds no subject string. Forgotten
   * when the cells or the subjects are renumbered.
   */
  private cellSlotKey = new Int32Array(64).fill(-1);
  private cellSlot = new Int32Array(64);
  /** Per cell, the numbers of its neighbours (`neighbourOf`), and how many (`NEIGHBOURS_UNKNOWN`: not yet taken). */
  private neighbours = new Int32Array(64 * MAX_NEIGHBOURS);
  private neighbourCounts = new Uint8Array(64).fill(NEIGHBOURS_UNKNOWN);
  private neighbourInside = 0;
  /** The unit vector of a location being checked (`geodeticUnitVector`). */
  private readonly unit = new Float64Array(3);
  private cellIds = new Map<string, number>();
  private cellLimit: number;
  /**
   * Slots by number, the subject of each, their state (`SLOT_STATE_INTS` each), and the number of each cell subject.
   * Bounded as the cells (`compactSlots`).
   */
  private slots: SubjectSlot[] = [];
  private slotSubjects: string[] = [];
  private state = new Int32Array(SLOT_STATE_INTS * 256);
  private slotIds = new Map<string, number>();
  private slotLimit: number;
  /** Numbers of the per-exercise subjects, per exercise·256 + PDU type (at most 65 536; never dropped). */
  private globalSlots = new Map<number, number>();
  /** H3 calls made (cache misses), for tests and benchmarks. */
  cellComputations = 0;
  /** Locations checked against the edges of the entity's cell, for tests and benchmarks. */
  cellChecks = 0;

  /**
   * @param prefix - first subject tokens, e.g. `dis`.
   * @param resolution - H3 resolution 0–15.
   * @param maxEntities - most entities remembered. Defaults to 1 048 576.
   * @param maxSubjects - most cells, and most cell subjects, kept beyond those the entities are in. Defaults to
   *   65 536.
   */
  constructor(
    readonly prefix: string,
    readonly resolution: number,
    private readonly maxEntities = 1 << 20,
    private readonly maxSubjects = 1 << 16,
  ) {
    this.cellLimit = maxSubjects;
    this.slotLimit = maxSubjects;
  }

  /** `PREFIX.EXERCISE.all.TYPE` (`globalSubject`). */
  globalSubject(exercise: number, pduType: number): string {
    return globalSubject(this.prefix, exercise, pduType);
  }

  /** `PREFIX.EXERCISE.CELL.KIND.DOMAIN` (`cellSubject`). */
  cellSubject(exercise: number, cell: string, kind: number, domain: number): string {
    return cellSubject(this.prefix, exercise, cell, kind, domain);
  }

  /** Entities remembered. */
  get entities(): number {
    return this.entityCount;
  }

  /** Cells and cell subjects the router holds (for tests of its bounds). */
  get held(): { readonly cells: number; readonly subjects: number } {
    return { cells: this.cellNames.length, subjects: this.slots.length };
  }

  /**
   * The route of the PDU at `bytes[offset, offset + length)` (a whole PDU, its Length checked by the caller).
   * @param out - receives the route.
   */
  route(bytes: Uint8Array, offset: number, length: number, out: PduRoute): PduRoute {
    const slot = this.routeSlot(bytes, offset, length, out);
    out.slot = this.slots[slot]!;
    out.subject = this.slotSubjects[slot]!;
    return out;
  }

  /** The slot numbered `slot` (`routeSlot`). */
  slot(slot: number): SubjectSlot {
    return this.slots[slot]!;
  }

  /** The subject of the slot numbered `slot`. */
  subjectOf(slot: number): string {
    return this.slotSubjects[slot]!;
  }

  /**
   * The state of the slots, `SLOT_STATE_INTS` integers per slot number, kept with their slot when the slots are
   * renumbered. Replaced by a larger array as slots are made: read it again after each `routeSlot`.
   */
  get slotState(): Int32Array {
    return this.state;
  }

  /**
   * As `route`, but gives the number of the slot and leaves `out.slot` and `out.subject` as they were: the slot
   * object is not read (its memory is not touched per PDU). Numbers stay until the next call, which may renumber
   * the slots (`compactSlots`).
   */
  routeSlot(bytes: Uint8Array, offset: number, length: number, out: PduRoute): number {
    const type = bytes[offset + HeaderOffset.PDU_TYPE]!;
    const exercise = bytes[offset + HeaderOffset.EXERCISE_ID]!;
    out.cell = undefined;
    out.entityKey = -1;
    out.leftCell = undefined;
    const isState = type === PduType.ENTITY_STATE && length >= EntityStateOffset.PARAMETERS;
    const isUpdate = type === PduType.ENTITY_STATE_UPDATE && length >= EntityStateUpdateOffset.PARAMETERS;
    if (!isState && !isUpdate) return this.globalSlot(exercise, type);
    const id = offset + EntityStateOffset.ENTITY_ID;
    const site = (bytes[id]! << 8) | bytes[id + 1]!,
      application = (bytes[id + 2]! << 8) | bytes[id + 3]!,
      number = (bytes[id + 4]! << 8) | bytes[id + 5]!;
    out.entityKey = entityKey(site, application, number);
    // site·2¹⁶ + application as a signed 32-bit integer: a small integer for the Map, whatever the site.
    const siteApplication = (site << 16) | application;
    let entities = this.lastEntities;
    if (siteApplication !== this.lastApplication || entities === undefined) {
      entities = this.applications.get(siteApplication);
      this.lastApplication = siteApplication;
      this.lastEntities = entities;
    }
    let entity = -1;
    if (entities !== undefined) {
      const dense = entities.dense;
      entity = number < dense.length ? dense[number]! - 1 : (entities.byNumber.get(number) ?? -1);
    }
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
    if (entity < 0) entity = this.remember(siteApplication, number);
    const doubles = this.entityDoubles,
      ints = this.entityInts,
      p = entity * ENTITY_DOUBLES,
      q = entity * ENTITY_INTS;
    const dx = x - doubles[p]!,
      dy = y - doubles[p + 1]!,
      dz = z - doubles[p + 2]!,
      safeRadiusM = doubles[p + 3]!;
    const kindExercise = ints[q + KIND_EXERCISE]!;
    const kindDomain = isState
      ? (bytes[offset + EntityStateOffset.ENTITY_TYPE]! << 8) | bytes[offset + EntityStateOffset.ENTITY_TYPE + 1]!
      : kindExercise & 0xffff;
    // A straight-line move shorter than the distance to the cell's edge cannot leave the cell (NaN fails too).
    const stays = safeRadiusM >= 0 && dx * dx + dy * dy + dz * dz < safeRadiusM * safeRadiusM;
    if (!stays) this.locate(entity, x, y, z);
    const cell = ints[q + CELL]!;
    if (cell < 0) {
      ints[q + KIND_EXERCISE] = (kindExercise & ~0xffff) | kindDomain;
      return this.globalSlot(exercise, type);
    }
    let slot = ints[q + SLOT]!;
    const wanted = ((exercise + 1) << 16) | kindDomain;
    if (slot < 0 || kindExercise !== wanted) {
      ints[q + KIND_EXERCISE] = wanted;
      // Interning may renumber the slots of the other entities (`compactSlots`), not the cells.
      slot = ints[q + SLOT] = this.internSlot(exercise, cell, kindDomain);
    }
    const tracked = ints[q + TRACKED]!;
    const names = this.cellNames;
    if (tracked >= 0 && tracked !== cell) out.leftCell = names[tracked];
    const appearance = offset + (isState ? EntityStateOffset.APPEARANCE : EntityStateUpdateOffset.APPEARANCE);
    const nextTracked = (bytes[appearance + 1]! & DEACTIVATED_BYTE1) !== 0 ? -1 : cell;
    if (nextTracked !== tracked) ints[q + TRACKED] = nextTracked;
    out.cell = names[cell];
    return slot;
  }

  private globalSlot(exercise: number, type: number): number {
    const key = (exercise << 8) | type;
    let slot = this.globalSlots.get(key);
    if (slot === undefined) {
      if (this.slots.length >= this.slotLimit) this.compactSlots();
      slot = this.addSlot(this.globalSubject(exercise, type), undefined);
      this.globalSlots.set(key, slot);
    }
    return slot;
  }

  /** A new slot, numbered after the others, its state zero. */
  private addSlot(subject: string, cell: string | undefined): number {
    const slot = this.slots.length;
    this.slots.push(this.newSlot(subject, cell));
    this.slotSubjects.push(subject);
    if ((slot + 1) * SLOT_STATE_INTS > this.state.length) {
      const grown = new Int32Array(this.state.length * 2);
      grown.set(this.state);
      this.state = grown;
    }
    this.state.fill(0, slot * SLOT_STATE_INTS, (slot + 1) * SLOT_STATE_INTS);
    return slot;
  }

  /** The number of the one slot of a cell subject. */
  private internSlot(exercise: number, cell: number, kindDomain: number): number {
    const key = ((exercise + 1) << 16) | kindDomain;
    if (this.cellSlotKey[cell] === key) return this.cellSlot[cell]!;
    const name = this.cellNames[cell]!;
    const subject = this.cellSubject(exercise, name, kindDomain >> 8, kindDomain & 0xff);
    let slot = this.slotIds.get(subject);
    if (slot === undefined) {
      if (this.slots.length >= this.slotLimit) this.compactSlots();
      slot = this.addSlot(subject, name);
      this.slotIds.set(subject, slot);
    }
    this.cellSlotKey[cell] = key;
    this.cellSlot[cell] = slot;
    return slot;
  }

  /** The number of a cell, its edges computed once while the table holds it. */
  private internCell(name: string): number {
    let cell = this.cellIds.get(name);
    if (cell === undefined) {
      if (this.cellNames.length >= this.cellLimit) this.compactCells();
      cell = this.cellNames.length;
      this.cellNames.push(name);
      if (cell === this.cellEdgeCounts.length) this.growCells(2 * cell);
      const shape = cellShape(name);
      this.cellEdges.set(shape, cell * EDGE_DOUBLES);
      this.cellEdgeCounts[cell] = shape.length / 3;
      this.cellIds.set(name, cell);
    }
    return cell;
  }

  /** Room in the per-cell arrays for `size` cells. */
  private growCells(size: number): void {
    const grow = <T extends Float64Array | Int32Array | Uint8Array>(from: T, to: T, fill?: number): T => {
      if (fill !== undefined) to.fill(fill);
      to.set(from);
      return to;
    };
    this.cellEdges = grow(this.cellEdges, new Float64Array(size * EDGE_DOUBLES));
    this.cellEdgeCounts = grow(this.cellEdgeCounts, new Uint8Array(size));
    this.cellSlotKey = grow(this.cellSlotKey, new Int32Array(size), -1);
    this.cellSlot = grow(this.cellSlot, new Int32Array(size));
    this.neighbours = grow(this.neighbours, new Int32Array(size * MAX_NEIGHBOURS));
    this.neighbourCounts = grow(this.neighbourCounts, new Uint8Array(size), NEIGHBOURS_UNKNOWN);
  }

  /**
   * Takes the neighbours of `cell` from H3 (`gridDisk`) and keeps them by number, once per cell: when H3 gives it
   * as an entity's cell, or for a cell entered from a neighbour, when an entity first leaves it. Not when they would
   * not all fit in the table before it is next compacted (no cell is renumbered here).
   * @returns how many, or `NEIGHBOURS_UNKNOWN`.
   */
  private takeNeighbours(cell: number): number {
    let count = this.neighbourCounts[cell]!;
    if (count !== NEIGHBOURS_UNKNOWN || this.cellNames.length + MAX_NEIGHBOURS > this.cellLimit) return count;
    count = 0;
    for (const name of gridDisk(this.cellNames[cell]!, 1)) {
      if (name === this.cellNames[cell] || count === MAX_NEIGHBOURS) continue;
      // Interned first: it may grow the arrays (`growCells`).
      const neighbour = this.internCell(name);
      this.neighbours[cell * MAX_NEIGHBOURS + count++] = neighbour;
    }
    this.neighbourCounts[cell] = count;
    return count;
  }

  /**
   * The neighbour of `cell` the unit vector `unit` is inside by more than `EDGE_MARGIN`, or -1 (`insideBy` of it in
   * `neighbourInside`). A location that has left its cell is mostly in a neighbour, and settling that by the
   * neighbours' edges spares the H3 call, its new string and its lookup.
   */
  private neighbourOf(cell: number, unit: Float64Array): number {
    const count = this.takeNeighbours(cell);
    if (count === NEIGHBOURS_UNKNOWN) return -1;
    for (let k = cell * MAX_NEIGHBOURS, end = k + count; k < end; k++) {
      const neighbour = this.neighbours[k]!;
      const inside = this.insideBy(neighbour, unit);
      if (inside > EDGE_MARGIN) {
        this.neighbourInside = inside;
        return neighbour;
      }
    }
    return -1;
  }

  /**
   * Keeps only the cells an entity is in or tracks, renumbered; the table may then take `maxSubjects` more (at
   * least as many as it keeps, so the work of a compaction is spread over as many new cells).
   */
  private compactCells(): void {
    const renumbered = new Int32Array(this.cellNames.length).fill(-1);
    const names: string[] = [],
      edges = new Float64Array(this.cellEdges.length),
      counts = new Uint8Array(this.cellEdgeCounts.length),
      ids = new Map<string, number>();
    const ints = this.entityInts;
    const keep = (at: number) => {
      const old = ints[at]!;
      if (old < 0) return;
      let cell = renumbered[old]!;
      if (cell < 0) {
        cell = renumbered[old] = names.length;
        names.push(this.cellNames[old]!);
        edges.set(this.cellEdges.subarray(old * EDGE_DOUBLES, (old + 1) * EDGE_DOUBLES), cell * EDGE_DOUBLES);
        counts[cell] = this.cellEdgeCounts[old]!;
        ids.set(this.cellNames[old]!, cell);
      }
      ints[at] = cell;
    };
    for (let e = 0; e < this.entitiesUsed; e++) {
      keep(e * ENTITY_INTS + CELL);
      keep(e * ENTITY_INTS + TRACKED);
    }
    this.cellNames = names;
    this.cellEdges = edges;
    this.cellEdgeCounts = counts;
    this.cellSlotKey.fill(-1);
    this.neighbourCounts.fill(NEIGHBOURS_UNKNOWN);
    this.cellIds = ids;
    this.cellLimit = names.length + Math.max(this.maxSubjects, names.length);
  }

  /**
   * Keeps only the per-exercise subjects and the subjects an entity holds, renumbered with their state; then as
   * `compactCells`.
   */
  private compactSlots(): void {
    const renumbered = new Int32Array(this.slots.length).fill(-1);
    const slots: SubjectSlot[] = [],
      subjects: string[] = [],
      ids = new Map<string, number>();
    const state = new Int32Array(this.state.length);
    const keep = (old: number): number => {
      let slot = renumbered[old]!;
      if (slot < 0) {
        slot = renumbered[old] = slots.length;
        slots.push(this.slots[old]!);
        subjects.push(this.slotSubjects[old]!);
        state.set(this.state.subarray(old * SLOT_STATE_INTS, (old + 1) * SLOT_STATE_INTS), slot * SLOT_STATE_INTS);
      }
      return slot;
    };
    const globals = new Map<number, number>();
    for (const [key, old] of this.globalSlots) globals.set(key, keep(old));
    const ints = this.entityInts;
    for (let e = 0; e < this.entitiesUsed; e++) {
      const old = ints[e * ENTITY_INTS + SLOT]!;
      if (old < 0) continue;
      const slot = keep(old);
      ids.set(subjects[slot]!, slot);
      ints[e * ENTITY_INTS + SLOT] = slot;
    }
    this.slots = slots;
    this.slotSubjects = subjects;
    this.state = state;
    this.cellSlotKey.fill(-1);
    this.slotIds = ids;
    this.globalSlots = globals;
    this.slotLimit = slots.length + Math.max(this.maxSubjects, slots.length);
  }

  /** A place in the table for a new entity: no location yet, no cell. */
  private takeEntity(): number {
    let entity = this.freeEntities.pop();
    if (entity === undefined) {
      entity = this.entitiesUsed++;
      if ((entity + 1) * ENTITY_DOUBLES > this.entityDoubles.length) {
        const grown = new Float64Array(this.entityDoubles.length * 2);
        grown.set(this.entityDoubles);
        this.entityDoubles = grown;
        this.entityInts = new Int32Array(grown.buffer);
      }
    }
    this.clearEntity(entity);
    return entity;
  }

  private clearEntity(entity: number): void {
    const p = entity * ENTITY_DOUBLES,
      q = entity * ENTITY_INTS;
    this.entityDoubles.fill(0, p, p + 3);
    this.entityDoubles[p + 3] = -1;
    this.entityInts[q + SLOT] = -1;
    this.entityInts[q + CELL] = -1;
    this.entityInts[q + TRACKED] = -1;
    this.entityInts[q + KIND_EXERCISE] = 0;
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
   * Computes the entity's cell at (x, y, z) and how far it may move before it must be computed again.
   * An entity that has moved out of its safe distance is mostly still in its cell: that is checked against the
   * cell's edges (`insideCellBy`, a few products) before asking H3 (microseconds), which is asked only when the
   * location is outside, or less than `EDGE_MARGIN` inside, one of them.
   */
  private locate(entity: number, x: number, y: number, z: number): void {
    const doubles = this.entityDoubles,
      ints = this.entityInts,
      p = entity * ENTITY_DOUBLES,
      q = entity * ENTITY_INTS;
    doubles[p] = x;
    doubles[p + 1] = y;
    doubles[p + 2] = z;
    const radius = Math.sqrt(x * x + y * y + z * z);
    // NaN fails both comparisons too.
    if (!(radius >= MIN_ROUTED_RADIUS_M && radius <= MAX_ROUTED_RADIUS_M)) {
      ints[q + CELL] = -1;
      ints[q + SLOT] = -1;
      doubles[p + 3] = -1;
      return;
    }
    const unit = geodeticUnitVector(this.unit, x, y, z);
    let cell = ints[q + CELL]!;
    if (cell >= 0) {
      this.cellChecks++;
      const inside = this.insideBy(cell, unit);
      if (inside > EDGE_MARGIN) {
        doubles[p + 3] = safeRadiusM(inside);
        return;
      }
      // Taking the neighbours may renumber the cells of every entity (`compactCells`): not this one's, nor `cell`,
      // since it is not done when the table is that full.
      const neighbour = this.neighbourOf(cell, unit);
      if (neighbour >= 0) {
        ints[q + CELL] = neighbour;
        ints[q + SLOT] = -1;
        doubles[p + 3] = safeRadiusM(this.neighbourInside);
        return;
      }
    }
    this.cellComputations++;
    const g = ecefToGeodetic(this.geodetic, x, y, z);
    const name = latLngToCell(g[0]! * RAD_TO_DEG, g[1]! * RAD_TO_DEG, this.resolution);
    if (cell < 0 || this.cellNames[cell] !== name) {
      // `internCell` may renumber the cells of every entity (`compactCells`), this one's too: written after.
      cell = ints[q + CELL] = this.internCell(name);
      ints[q + SLOT] = -1;
      // With the cell computed, its neighbours too: its entities will mostly leave it for one of them.
      this.takeNeighbours(cell);
    }
    const inside = this.insideBy(cell, unit);
    doubles[p + 3] = inside > EDGE_MARGIN ? safeRadiusM(inside) : -1;
  }

  /** `insideCellBy` for the cell numbered `cell` and the unit vector of a location (`geodeticUnitVector`). */
  private insideBy(cell: number, unit: Float64Array): number {
    const from = cell * EDGE_DOUBLES;
    return insideEdgesBy(this.cellEdges, from, from + 3 * this.cellEdgeCounts[cell]!, unit[0]!, unit[1]!, unit[2]!);
  }

  /**
   * A new entity. Bounded by `maxEntities`: past it, the entity seen first of the application seen first is
   * forgotten (Maps iterate in insertion order).
   */
  private remember(siteApplication: number, number: number): number {
    if (this.entityCount >= this.maxEntities) {
      const first = this.applications.entries().next().value;
      if (first !== undefined) {
        const [key, application] = first;
        const forgotten = forgetOldest(application);
        if (forgotten >= 0) {
          this.clearEntity(forgotten);
          this.freeEntities.push(forgotten);
          this.entityCount--;
        }
        if (application.byNumber.size === 0) this.applications.delete(key);
      }
    }
    let application = this.applications.get(siteApplication);
    if (application === undefined) {
      application = createApplication();
      this.applications.set(siteApplication, application);
    }
    this.lastApplication = siteApplication;
    this.lastEntities = application;
    const entity = this.takeEntity();
    addEntity(application, number, entity);
    this.entityCount++;
    return entity;
  }
}
