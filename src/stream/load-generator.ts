/**
 * A load generator for `reckon publish --entities N`: many simulated tanks, ships and aircraft on varied courses,
 * their emitters in one `OwnedEntityTable` (an emitter bank), in one tick loop. Built to hold 1 000 000 entities in
 * one process: no per-entity object, stream or timer; the courses, identities and emitters in flat typed arrays;
 * one pass per slice of a tick writes the truth, decides and encodes the PDUs straight into the bundler's datagram
 * (several per datagram, IEEE 1278.1 allows it).
 *
 * The truth is cheap: each kind has three shared course shapes (`tankRoadCourse`, `shipTurningCircles`,
 * `aircraftOrbit` at different speeds and radii), and every entity drives its shape at its own time offset, turned
 * by its own heading and moved by its own offset in the local tangent plane — a rigid motion of the shape, so
 * velocity, acceleration, attitude and body rates stay those of a real course. The shapes are sampled as tables
 * of closed-form pieces (`CourseSet`, truth/course-pieces.ts), the placement applied in the local frame before the
 * one conversion to ECEF. A shape that ends starts over: one jump per lap, which the emitter sends as any position
 * error. Entities join one by one over a ramp (by default the shortest heartbeat), so the first PDUs and the
 * heartbeats after them are spread in time instead of all falling on the same ticks. Nothing here knows sockets
 * or the clock: time is a parameter.
 */
import type { Config } from '../config/schema.js';
import { APPEARANCE_DEACTIVATED } from '../dr/models/algorithm.js';
import { EMIT_REASON_NAMES, type EmitterOptions } from '../dr/owner/emitter.js';
import { OwnedEntityTable, type PduSink } from '../dr/owner/owned-entity-table.js';
import { CourseSet } from '../truth/course-pieces.js';
import { aircraftOrbitOptions } from '../truth/parametric.js';
import { DEFAULT_ORIGIN, LocalFrame, createTruthWithAttitude, type TruthWithAttitude } from '../truth/trajectory.js';
import { pathTrajectory } from '../truth/path.js';
import { shipTurningCirclesPlan, tankRoadCoursePlan } from '../truth/vehicles.js';
import { createRandom } from '../math/random.js';
import { emitterOptionsFromConfig } from './settings.js';
import { courseFootprint, placeCourse, type Placement, type SurfaceMap } from './load-placement.js';

/** Most entities one generator holds (the documented limit of `reckon publish --entities`). */
export const MAX_LOAD_ENTITIES = 1_000_000;

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
  /** The same since the caller last set it to 0 (the CLI's status line, per line). */
  recentMaxEvaluationGapSeconds: number;
}

/**
 * Simulated entities for load: call `tick(t, sink)` at the tick rate (or `tick(t, sink, slice)` more often, each
 * entity once per tick), then `leave(t, sink)` until it returns true. Nothing is allocated per tick: sampling the
 * courses, the decisions and the encoding leave no garbage (`publish.entities100k` in bench/).
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
    recentMaxEvaluationGapSeconds: 0,
    unplaced: 0,
  };
  /** The emitter settings of each kind (index into LOAD_KINDS). */
  readonly emitterOptions: readonly EmitterOptions[];
  /** When each entity was last evaluated, s (−1: not yet). */
  private readonly lastEvaluated: Float64Array;
  /** Every entity's identity and emitter; truth written into it per pass (R_wb, as the courses give it). */
  readonly table: OwnedEntityTable;
  /** The nine shapes (shape = 3 · kind + variant), in one local frame. */
  private readonly shapes: CourseSet;
  private readonly shapeDurations: Float64Array;
  /** Per entity: its kind (index into LOAD_KINDS) and shape. */
  readonly kinds: Uint8Array;
  private readonly shapeOf: Uint8Array;
  /** Per entity: its time offset along its shape, s. */
  private readonly phaseSeconds: Float64Array;
  /**
   * Per entity, its placement in the local frame (`writePlacement`): cos and sin of its heading turn, then its
   * offset north and east, m.
   */
  private readonly placement: Float64Array;
  /** The time along a shape handed to `CourseSet.write`, in an array (never boxed). */
  private readonly tau = new Float64Array(1);
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
    const frame = new LocalFrame(origin);
    const shapes = (this.shapes = new CourseSet(frame));
    const paths = [
      ...[8, 10, 12].map((speed) => tankRoadCoursePlan({ origin, speed })),
      ...[
        [5, 200],
        [7, 250],
        [9, 400],
      ].map(([speed, radius]) => shipTurningCirclesPlan({ origin, speed, radius })),
    ];
    for (const plan of paths) shapes.addPath(plan);
    for (const [speed, radius] of [
      [100, 2000],
      [120, 3000],
      [150, 5000],
    ] as const) {
      shapes.addCircle(aircraftOrbitOptions({ origin, speed, radius }));
    }
    this.shapeDurations = Float64Array.from({ length: shapes.count }, (_, k) => shapes.durationSeconds(k));

    const algorithm = options.algorithm ?? 'auto';
    const emitterOptions = (this.emitterOptions = LOAD_KINDS.map((k) => ({
      ...emitterOptionsFromConfig(config, k.entityType[0], k.entityType[1]),
      algorithm,
    })));
    this.rampSeconds = options.rampSeconds ?? Math.min(...emitterOptions.map((o) => o.heartbeatSeconds ?? 5));
    const area = options.areaMeters ?? 40_000;
    this.kinds = new Uint8Array(n);
    this.shapeOf = new Uint8Array(n);
    this.phaseSeconds = new Float64Array(n);
    this.placement = new Float64Array(4 * n);
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
    // Where the tanks' and ships' courses go (the aircraft may fly anywhere).
    const footprints = options.surfaces
      ? paths.map((p) => courseFootprint(pathTrajectory(p.name, p.segments, p.knots, p.options), frame))
      : [];
    const place: Placement = { headingRad: 0, northM: 0, eastM: 0 };
    const perKind = [0, 0, 0];
    for (let i = 0; i < n; i++) {
      const kind = LOAD_KIND_PATTERN[i % LOAD_KIND_PATTERN.length]!;
      const shape = 3 * kind + random.int(3);
      this.kinds[i] = kind;
      this.shapeOf[i] = shape;
      const numberInKind = ++perKind[kind]!;
      this.phaseSeconds[i] = random.uniform(0, this.shapeDurations[shape]!);
      const surface = LOAD_KINDS[kind]!.surface;
      if (!placeCourse(place, random, footprints[shape] ?? EMPTY, frame, area, surface, options.surfaces))
        this.stats.unplaced++;
      writePlacement(this.placement, 4 * i, place.headingRad, place.northM, place.eastM);
      const { site, application, entity } = this.entityId(i);
      table.define(i, { site, application, entity, entityType: LOAD_KINDS[kind]!.entityType }, profiles[kind]!);
      writeMarking(table.marking, 12 * i + 1, LOAD_KINDS[kind]!.marking, numberInKind);
    }
  }

  /** When entity i joins, s: i / count × rampSeconds. */
  private joinSeconds(i: number): number {
    return (i / this.count) * this.rampSeconds;
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
      let gap = stats.recentMaxEvaluationGapSeconds;
      if (end > from) this.sampleTruth(tSeconds, from, end);
      for (let i = from; i < end; i++) {
        const since = tSeconds - last[i]!;
        if (since > gap && last[i]! >= 0) gap = since;
      }
      const left = budget - (stats.pdus - pdusBefore);
      const evaluated = end > from ? this.table.tick(tSeconds, sink, from, end, left) : 0;
      stats.decisions += evaluated;
      for (let i = from; i < from + evaluated; i++) last[i] = tSeconds;
      stats.recentMaxEvaluationGapSeconds = gap;
      if (gap > stats.maxEvaluationGapSeconds) stats.maxEvaluationGapSeconds = gap;
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

  /**
   * Σ over entities of the time each was joined within [fromSeconds, toSeconds], s: what "every entity evaluated
   * k times per second" divides decisions by (while entities join, fewer are there to evaluate). Exact: entity i
   * joins at i / count × rampSeconds.
   */
  joinedEntitySeconds(fromSeconds: number, toSeconds: number): number {
    if (!(toSeconds > fromSeconds)) return 0;
    const before = this.joinedBy(fromSeconds),
      by = this.joinedBy(toSeconds);
    // Those joined already, the whole span; those joining within it, from their join time: Σ (to − i·ramp/n).
    const joining = by - before;
    const joinTimes = (this.rampSeconds / this.count) * (((before + by - 1) * joining) / 2);
    return before * (toSeconds - fromSeconds) + joining * toSeconds - joinTimes;
  }

  /** Entities joined by tSeconds: entity i joins at i / count × rampSeconds. */
  joinedBy(tSeconds: number): number {
    if (this.rampSeconds <= 0 || tSeconds >= this.rampSeconds) return tSeconds >= 0 ? this.count : 0;
    // The first i with joinSeconds(i) > tSeconds (joinSeconds is increasing).
    let lo = 0,
      hi = this.count;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.joinSeconds(mid) <= tSeconds) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The truth of entities [from, to) at tSeconds, written into the table's truth arrays. */
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
   * Samples entity i's shape at its own time, placed by its turn and offset, and writes it in ECEF at offsets i3
   * (vectors) and i9 (R_wb) of the given arrays.
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
    let tau = tSeconds - this.joinSeconds(i) + this.phaseSeconds[i]!;
    // Laps by floor rather than %, which V8 computes in a call to C (fmod) costing more than the rest of a sample.
    if (tau >= duration) tau -= duration * Math.floor(tau / duration);
    this.tau[0] = tau;
    this.shapes.write(
      shape,
      this.tau,
      0,
      this.placement,
      4 * i,
      location,
      velocity,
      acceleration,
      angularVelocity,
      worldToBody,
      i3,
      i9,
    );
  }
}

/**
 * Writes a placement at `at`: a turn by headingRad about the local down axis (clockwise seen from above, as a
 * heading), then a move by (northM, eastM) in the local tangent plane.
 */
function writePlacement(out: Float64Array, at: number, headingRad: number, northM: number, eastM: number): void {
  out[at] = Math.cos(headingRad);
  out[at + 1] = Math.sin(headingRad);
  out[at + 2] = northM;
  out[at + 3] = eastM;
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
