/**
 * A load generator for `reckon publish --entities N`: many simulated tanks, ships and aircraft on varied courses,
 * their emitters in one `OwnedEntityTable` (an emitter bank), in one tick loop. Built to hold 100 000 entities in
 * one process: no per-entity object, stream or timer; the courses, identities and emitters in flat typed arrays;
 * one pass per slice of a tick writes the truth, decides and encodes the PDUs straight into the bundler's datagram
 * (several per datagram, IEEE 1278.1 allows it).
 *
 * The truth is cheap: each kind has three shared course shapes (`tankRoadCourse`, `shipTurningCircles`,
 * `aircraftOrbit` at different speeds and radii), and every entity drives its shape at its own time offset, turned
 * by its own heading and moved by its own offset in the local tangent plane — a rigid motion of the shape, so
 * velocity, acceleration, attitude and body rates stay those of a real course. A shape that ends starts over:
 * one jump per lap, which the emitter sends as any position error. Entities join one by one over a ramp (by
 * default the shortest heartbeat), so the first PDUs and the heartbeats after them are spread in time instead of
 * all falling on the same ticks. Nothing here knows sockets or the clock: time is a parameter.
 */
import type { Config } from '../config/schema.js';
import { APPEARANCE_DEACTIVATED } from '../dr/algorithm.js';
import { EMIT_REASON_NAMES, type EmitterOptions } from '../dr/emitter.js';
import { OwnedEntityTable, type PduSink } from '../dr/owned-entity-table.js';
import { aircraftOrbit, shipTurningCircles, tankRoadCourse } from '../truth/index.js';
import {
  DEFAULT_ORIGIN,
  LocalFrame,
  createTruthWithAttitude,
  type Trajectory,
  type TruthWithAttitude,
} from '../truth/trajectory.js';
import { createRandom } from '../math/random.js';
import { emitterOptionsFromConfig } from './settings.js';
import { courseFootprint, placeCourse, type Placement, type SurfaceMap } from './load-placement.js';

/** Most entities one generator holds (the documented limit of `reckon publish --entities`). */
export const MAX_LOAD_ENTITIES = 100_000;

/** Entity numbers per application id: 1–65534 (0 and 65535 are the DIS "none" and "all" values). */
export const ENTITIES_PER_APPLICATION = 0xfffe;

/** The kinds the generator mixes, in the order of `LOAD_KIND_PATTERN`'s values. */
export const LOAD_KINDS = [
  // M1A2 tank: platform, land, USA, tank.
  { name: 'tank', marking: 'TANK', entityType: [1, 1, 225, 1, 1, 3, 0], surface: 'land' },
  // A destroyer: platform, surface, USA.
  { name: 'ship', marking: 'SHIP', entityType: [1, 3, 225, 4, 0, 0, 0], surface: 'sea' },
  // A fighter: platform, air, USA.
  { name: 'aircraft', marking: 'AIR', entityType: [1, 2, 225, 1, 3, 0, 0], surface: 'any' },
] as const;

const EMPTY = new Float64Array(0);

/** Kind of entity i is LOAD_KIND_PATTERN[i % 10]: 50 % tanks, 20 % ships, 30 % aircraft, interleaved. */
export const LOAD_KIND_PATTERN: readonly number[] = [0, 2, 0, 1, 0, 2, 0, 1, 0, 2];

export interface LoadGeneratorOptions {
  /** Number of entities, 1 to MAX_LOAD_ENTITIES. */
  readonly entities: number;
  /** Seeds courses, offsets and headings: the same seed gives the same exercise. Defaults to 1. */
  readonly seed?: number;
  /** DR algorithm sent (1–9) or 'auto'. Defaults to 'auto'. */
  readonly algorithm?: number | 'auto';
  /** Entity i joins at i / entities × rampSeconds. Defaults to the shortest heartbeat of the three kinds. */
  readonly rampSeconds?: number;
  /** Side of the square the courses are spread over, m. Defaults to 40 000. */
  readonly areaMeters?: number;
  /**
   * Land and sea around the origin: each tank's whole course is then on land, each ship's at sea (drawn again until
   * it is). Defaults to none: courses anywhere in the square.
   */
  readonly surfaces?: SurfaceMap;
}

export type { PduSink };

/** Counters of a generator, updated in place. */
export interface LoadGeneratorStats {
  /** Emitter decisions made (entity × tick). */
  decisions: number;
  /** PDUs written, leave notices included. */
  pdus: number;
  /** Bytes of those PDUs. */
  bytes: number;
  /** PDUs by reason, indexed as EMIT_REASON_NAMES (a PDU may have several). */
  readonly reasons: Float64Array;
  /** Entity evaluations put off to a later tick because the tick's PDU budget was spent. */
  deferred: number;
  /** Entities that have joined (sent their first PDU). */
  joined: number;
  /** Leave notices written. */
  leaveNotices: number;
  /** Tanks and ships whose course could not be put wholly on land or at sea (with `surfaces`). */
  unplaced: number;
  /**
   * The longest time between two evaluations of one entity, s (a tick at the rate gives 1 / rate): how late the
   * slowest entity's truth was seen.
   */
  maxEvaluationGapSeconds: number;
}

/**
 * Simulated entities for load: call `tick(t, sink)` at the tick rate (or `tick(t, sink, slice)` more often, each
 * entity once per tick), then `leave(t, sink)` until it returns true. Nothing of its own is allocated per tick;
 * sampling the course shapes leaves a little short-lived garbage per decision (the time handed to each shape's
 * `sample`, boxed); the decisions and encoding leave none (`publish.entities100k` in bench/).
 */
export class LoadGenerator {
  readonly count: number;
  readonly rampSeconds: number;
  readonly stats: LoadGeneratorStats = {
    decisions: 0,
    pdus: 0,
    bytes: 0,
    reasons: new Float64Array(EMIT_REASON_NAMES.length),
    deferred: 0,
    joined: 0,
    leaveNotices: 0,
    maxEvaluationGapSeconds: 0,
    unplaced: 0,
  };
  /** The emitter settings of each kind (index into LOAD_KINDS). */
  readonly emitterOptions: readonly EmitterOptions[];
  /** When each entity was last evaluated, s (−1: not yet). */
  private readonly lastEvaluated: Float64Array;
  /** Every entity's identity and emitter; truth written into it per pass (R_wb, as the courses give it). */
  readonly table: OwnedEntityTable;
  private readonly shapes: Trajectory[] = [];
  private readonly shapeDurations: Float64Array;
  /** Per entity: its kind (index into LOAD_KINDS), shape, number within its kind (for the marking). */
  readonly kinds: Uint8Array;
  private readonly shapeOf: Uint8Array;
  private readonly numberInKind: Uint32Array;
  /** Per entity: when it joins, s; its time offset along its shape, s. */
  private readonly joinSeconds: Float64Array;
  private readonly phaseSeconds: Float64Array;
  /** Per entity: G, the turn about the local vertical (9, row-major ECEF), then c with p' = G·p + c (3). */
  private readonly motion: Float64Array;
  private readonly shapeTruth = createTruthWithAttitude(true);
  private readonly truth = createTruthWithAttitude(true);
  private readonly site: number;
  private readonly application: number;
  /** Next entity to evaluate: the next slice, or a tick cut short by its budget, resumes here. */
  private cursor = 0;
  private leaveCursor = 0;

  /**
   * @param config - `dis` (ids, exercise, version), `emitter` and `heartbeat` are read.
   * @throws RangeError when `entities` is not a whole number from 1 to MAX_LOAD_ENTITIES, or the application ids
   *   it needs (one per 65 534 entities) pass 65534.
   */
  constructor(config: Config, options: LoadGeneratorOptions) {
    const n = options.entities;
    if (!Number.isInteger(n) || n < 1 || n > MAX_LOAD_ENTITIES) {
      throw new RangeError(`entities must be a whole number from 1 to ${MAX_LOAD_ENTITIES}, got ${n}`);
    }
    const applications = Math.ceil(n / ENTITIES_PER_APPLICATION);
    if (config.dis.application + applications - 1 > 0xfffe) {
      const last = config.dis.application + applications - 1;
      const ids = `${config.dis.application}–${last}`;
      throw new RangeError(`${n} entities need application ids ${ids}; the last must be at most 65534`);
    }
    this.count = n;
    this.site = config.dis.site;
    this.application = config.dis.application;
    const random = createRandom(options.seed ?? 1);
    const origin = DEFAULT_ORIGIN;
    // Three shapes per kind, in LOAD_KINDS order: shape index = 3 · kind + variant.
    for (const speed of [8, 10, 12]) this.shapes.push(tankRoadCourse({ origin, speed }));
    for (const [speed, radius] of [
      [5, 200],
      [7, 250],
      [9, 400],
    ] as const) {
      this.shapes.push(shipTurningCircles({ origin, speed, radius }));
    }
    for (const [speed, radius] of [
      [100, 2000],
      [120, 3000],
      [150, 5000],
    ] as const) {
      this.shapes.push(aircraftOrbit({ origin, speed, radius }));
    }
    this.shapeDurations = Float64Array.from(this.shapes, (s) => s.durationSeconds);

    const algorithm = options.algorithm ?? 'auto';
    const emitterOptions = (this.emitterOptions = LOAD_KINDS.map((k) => ({
      ...emitterOptionsFromConfig(config, k.entityType[0], k.entityType[1]),
      algorithm,
    })));
    this.rampSeconds = options.rampSeconds ?? Math.min(...emitterOptions.map((o) => o.heartbeatSeconds ?? 5));
    const area = options.areaMeters ?? 40_000;
    const frame = new LocalFrame(origin);
    this.kinds = new Uint8Array(n);
    this.shapeOf = new Uint8Array(n);
    this.numberInKind = new Uint32Array(n);
    this.joinSeconds = new Float64Array(n);
    this.phaseSeconds = new Float64Array(n);
    this.motion = new Float64Array(12 * n);
    this.lastEvaluated = new Float64Array(n).fill(-1);
    const table = new OwnedEntityTable({
      capacity: n,
      attitude: 'matrix',
      exercise: config.dis.exercise,
      protocolVersion: config.dis.protocolVersion,
      stats: this.stats,
    });
    this.table = table;
    const profiles = emitterOptions.map((o) => table.bank.addProfile(o));
    const footprints = options.surfaces ? this.shapes.map((shape) => courseFootprint(shape, frame)) : [];
    const place: Placement = { headingRad: 0, northM: 0, eastM: 0 };
    const perKind = [0, 0, 0];
    for (let i = 0; i < n; i++) {
      const kind = LOAD_KIND_PATTERN[i % LOAD_KIND_PATTERN.length]!;
      const shape = 3 * kind + random.int(3);
      this.kinds[i] = kind;
      this.shapeOf[i] = shape;
      this.numberInKind[i] = ++perKind[kind]!;
      this.joinSeconds[i] = (i / n) * this.rampSeconds;
      this.phaseSeconds[i] = random.uniform(0, this.shapeDurations[shape]!);
      const surface = LOAD_KINDS[kind]!.surface;
      if (!placeCourse(place, random, footprints[shape] ?? EMPTY, frame, area, surface, options.surfaces))
        this.stats.unplaced++;
      writeRigidMotion(this.motion, 12 * i, frame, place.headingRad, place.northM, place.eastM);
      const { site, application, entity } = this.entityId(i);
      table.define(i, { site, application, entity, entityType: LOAD_KINDS[kind]!.entityType }, profiles[kind]!);
      writeMarking(table.marking, 12 * i + 1, LOAD_KINDS[kind]!.marking, this.numberInKind[i]!);
    }
  }

  /** Site, application and entity number of entity i (0-based): ids are unique across the generator. */
  entityId(i: number): { site: number; application: number; entity: number } {
    return {
      site: this.site,
      application: this.application + Math.floor(i / ENTITIES_PER_APPLICATION),
      entity: (i % ENTITIES_PER_APPLICATION) + 1,
    };
  }

  /**
   * Evaluates the next `count` entities (round robin from where the last call stopped) at tSeconds (seconds since
   * the start): each joined entity's truth, its emitter's decision, and the PDU it needs written to `sink`. A
   * whole tick is `count` = `this.count`; a caller that spreads a tick over smaller slices sends its datagrams
   * evenly instead of in one burst. Stops early once `budget` PDUs are written: the entities not evaluated then
   * come first in the next call (counted in `stats.deferred`).
   * @returns entities evaluated (those not yet joined included).
   */
  tick(tSeconds: number, sink: PduSink, count = this.count, budget = Number.POSITIVE_INFINITY): number {
    const n = this.count,
      stats = this.stats,
      pdusBefore = stats.pdus;
    const todo = Math.min(Math.max(0, Math.floor(count)), n);
    const joined = this.joinedBy(tSeconds);
    let done = 0;
    while (done < todo) {
      // A run of consecutive entities from the cursor (to the end of the list at most); its joined ones are
      // evaluated in one pass of the table, the others skipped.
      const from = this.cursor,
        to = Math.min(n, from + (todo - done)),
        end = Math.min(to, Math.max(from, joined));
      const last = this.lastEvaluated;
      let gap = stats.maxEvaluationGapSeconds;
      for (let i = from; i < end; i++) {
        this.writeTruth(i, tSeconds);
        const since = tSeconds - last[i]!;
        if (since > gap && last[i]! >= 0) gap = since;
      }
      const left = budget - (stats.pdus - pdusBefore);
      const evaluated = end > from ? this.table.tick(tSeconds, sink, from, end, left) : 0;
      stats.decisions += evaluated;
      for (let i = from; i < from + evaluated; i++) last[i] = tSeconds;
      stats.maxEvaluationGapSeconds = gap;
      if (evaluated < end - from) {
        // The budget ran out: the rest of this call's entities come first in the next one.
        this.cursor = from + evaluated;
        done += evaluated;
        stats.deferred += todo - done;
        break;
      }
      done += to - from;
      this.cursor = to < n ? to : 0;
    }
    stats.joined = stats.reasons[0]!; // first PDUs
    return done;
  }

  /**
   * Writes leave notices (appearance Deactivated, so receivers drop the entity at once), at most `budget` per
   * call, for every entity that has sent: each goes through the entity's emitter as an appearance change.
   * @returns true once every notice is written.
   */
  leave(tSeconds: number, sink: PduSink, budget = Number.POSITIVE_INFINITY): boolean {
    let written = 0;
    const table = this.table,
      bank = table.bank;
    while (this.leaveCursor < this.count && written < budget) {
      const i = this.leaveCursor++;
      if (bank.sentCount[i] === 0) continue;
      this.writeTruth(i, tSeconds);
      bank.truth.appearance[i] = APPEARANCE_DEACTIVATED;
      // Only under a rate cap (minIntervalSeconds, which the generator never sets) would it not send.
      if (table.tick(tSeconds, sink, i, i + 1) === 0 || bank.reasons[i] === 0) continue;
      this.stats.leaveNotices++;
      written++;
    }
    return this.leaveCursor >= this.count;
  }

  /** Entities joined by tSeconds: entity i joins at i / count × rampSeconds. */
  private joinedBy(tSeconds: number): number {
    if (this.rampSeconds <= 0 || tSeconds >= this.rampSeconds) return tSeconds >= 0 ? this.count : 0;
    // The first i with joinSeconds[i] > tSeconds (joinSeconds is increasing).
    let lo = 0,
      hi = this.count;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.joinSeconds[mid]! <= tSeconds) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The truth of entities [from, to) at tSeconds, written into the table's truth arrays (for benchmarks). */
  sampleTruth(tSeconds: number, from: number, to: number): void {
    for (let i = from; i < to; i++) this.writeTruth(i, tSeconds);
  }

  /** Entity i's truth at tSeconds, written straight into the table's truth arrays (as `truthAt` gives it). */
  private writeTruth(i: number, tSeconds: number): void {
    const t = this.table.truth;
    this.moveShape(
      i,
      tSeconds,
      t.location,
      t.linearVelocity,
      t.linearAcceleration,
      t.angularVelocity,
      t.worldToBody,
      3 * i,
      9 * i,
    );
  }

  /**
   * Entity i's truth at tSeconds (seconds since the start): its shape at its own time, moved rigidly. Written into
   * one object the generator reuses: valid until the next call. Allocates nothing.
   */
  truthAt(i: number, tSeconds: number): TruthWithAttitude {
    const out = this.truth;
    this.moveShape(
      i,
      tSeconds,
      out.location,
      out.linearVelocity,
      out.linearAcceleration,
      out.angularVelocity,
      out.worldToBody,
      0,
      0,
    );
    return out;
  }

  /**
   * Samples entity i's shape at its own time and writes the state moved by its rigid motion at offsets i3 (vectors)
   * and i9 (R_wb) of the given arrays.
   */
  private moveShape(
    i: number,
    tSeconds: number,
    location: Float64Array,
    velocity: Float64Array,
    acceleration: Float64Array,
    angularVelocity: Float64Array,
    worldToBody: Float64Array,
    i3: number,
    i9: number,
  ): void {
    const shape = this.shapeOf[i]!,
      duration = this.shapeDurations[shape]!;
    let tau = tSeconds - this.joinSeconds[i]! + this.phaseSeconds[i]!;
    if (tau >= duration) tau %= duration;
    const s = this.shapes[shape]!.sample(tau, this.shapeTruth) as TruthWithAttitude;
    const g = this.motion,
      o = 12 * i;
    const g0 = g[o]!,
      g1 = g[o + 1]!,
      g2 = g[o + 2]!,
      g3 = g[o + 3]!,
      g4 = g[o + 4]!,
      g5 = g[o + 5]!;
    const g6 = g[o + 6]!,
      g7 = g[o + 7]!,
      g8 = g[o + 8]!;
    let v = s.location;
    let x = v[0]!,
      y = v[1]!,
      z = v[2]!;
    location[i3] = g0 * x + g1 * y + g2 * z + g[o + 9]!;
    location[i3 + 1] = g3 * x + g4 * y + g5 * z + g[o + 10]!;
    location[i3 + 2] = g6 * x + g7 * y + g8 * z + g[o + 11]!;
    v = s.linearVelocity;
    x = v[0]!;
    y = v[1]!;
    z = v[2]!;
    velocity[i3] = g0 * x + g1 * y + g2 * z;
    velocity[i3 + 1] = g3 * x + g4 * y + g5 * z;
    velocity[i3 + 2] = g6 * x + g7 * y + g8 * z;
    v = s.linearAcceleration;
    x = v[0]!;
    y = v[1]!;
    z = v[2]!;
    acceleration[i3] = g0 * x + g1 * y + g2 * z;
    acceleration[i3 + 1] = g3 * x + g4 * y + g5 * z;
    acceleration[i3 + 2] = g6 * x + g7 * y + g8 * z;
    // Body rates do not change under a rigid motion of the world; R_wb' = R_wb · Gᵀ (a world vector u' = G·u).
    v = s.angularVelocity;
    angularVelocity[i3] = v[0]!;
    angularVelocity[i3 + 1] = v[1]!;
    angularVelocity[i3 + 2] = v[2]!;
    const r = s.worldToBody;
    for (let row = 0; row < 9; row += 3) {
      x = r[row]!;
      y = r[row + 1]!;
      z = r[row + 2]!;
      worldToBody[i9 + row] = x * g0 + y * g1 + z * g2;
      worldToBody[i9 + row + 1] = x * g3 + y * g4 + z * g5;
      worldToBody[i9 + row + 2] = x * g6 + y * g7 + z * g8;
    }
  }
}

/**
 * Writes G (a turn by headingRad about the local down axis, in ECEF: Mᵀ·Rz·M with M = ecefToNed) and
 * c = o − G·o + Mᵀ·(north, east, 0), so that p' = G·p + c turns a course about the origin o and moves it.
 */
function writeRigidMotion(
  out: Float64Array,
  at: number,
  frame: LocalFrame,
  headingRad: number,
  northM: number,
  eastM: number,
): void {
  const m = frame.ecefToNed,
    o = frame.originEcef;
  const c = Math.cos(headingRad),
    s = Math.sin(headingRad);
  // Rz in NED: a heading turn maps (n, e, d) to (c·n − s·e, s·n + c·e, d).
  const rz = [c, -s, 0, s, c, 0, 0, 0, 1];
  for (let row = 0; row < 3; row++) {
    for (let col = 0; col < 3; col++) {
      let sum = 0;
      for (let a = 0; a < 3; a++) for (let b = 0; b < 3; b++) sum += m[3 * a + row]! * rz[3 * a + b]! * m[3 * b + col]!;
      out[at + 3 * row + col] = sum;
    }
  }
  for (let row = 0; row < 3; row++) {
    let go = 0;
    for (let col = 0; col < 3; col++) go += out[at + 3 * row + col]! * o[col]!;
    out[at + 9 + row] = o[row]! - go + m[row]! * northM + m[3 + row]! * eastM;
  }
}

/** "TANK 17" into the 11 marking bytes at `at`, without building a string. */
function writeMarking(bytes: Uint8Array, at: number, prefix: string, number: number): void {
  let p = at;
  for (let k = 0; k < prefix.length; k++) bytes[p++] = prefix.charCodeAt(k);
  bytes[p++] = 0x20;
  let digits = 1;
  for (let x = number; x >= 10; x = Math.floor(x / 10)) digits++;
  for (let d = digits - 1, x = number; d >= 0; d--, x = Math.floor(x / 10)) bytes[p + d] = 0x30 + (x % 10);
  bytes.fill(0, p + digits, at + 11);
}
