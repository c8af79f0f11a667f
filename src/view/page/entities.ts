/**
 * The page's model of the exercise, free of DOM and WebGL so that tests and the frame benchmark run it as is:
 * the project's own decoder and `RemoteEntityTable` (the same dead reckoning and smoothing as the Node side),
 * plus what the map draws, kept in typed arrays that are filled in place once per frame:
 *
 * - `positions` (longitude°, latitude°, 0; 3 per instance) and `angles` (degrees counterclockwise from
 *   north, as deck.gl's IconLayer takes them) of the displayed, smoothed state of every entity;
 * - `ghostPositions`: the raw dead-reckoned state of the last PDU, without smoothing (on demand);
 * - trails: the displayed position sampled every `trailIntervalSeconds`, the last `trailPoints` per entity;
 * - arrival markers (`markers`, arrival-markers.ts): where each of the last PDUs put its entity, when, and why it
 *   was sent when the page can tell (see `PDU_REASON_*`).
 *
 * Instances are the table's active slots packed densely (`instanceSlot[i]`), so a layer draws `count` items.
 * Time is a parameter (seconds on the server's clock); nothing here reads a clock.
 */
import { EntityStateRecord, entityKey, latin1UpToZero } from '../../pdu/entity-state-record.js';
import { decodeEntityStateOrUpdateInto } from '../../pdu/entity-state-decoder.js';
import { CodecStatus } from '../../pdu/status.js';
import { RemoteEntityTable } from '../../dr/remote-entity-table.js';
import { ApplyResult, TableEvent } from '../../dr/table-results.js';
import { positionAt } from '../../dr/store.js';
import type { SmoothingMethodName } from '../../dr/position-smoothing.js';
import { FEED_TRUNCATED, readFeedMessage } from '../protocol.js';
import { SlotParts } from './slot-parts.js';
import { ArrivalMarkers } from './arrival-markers.js';
import { ANGLE_TOLERANCE_DEG, drawnStateOf, geodeticOf, nearLongitude } from './map-coordinates.js';

// For the page modules that take them with the entities.
export { geodeticOf, nearLongitude, wrapLongitude } from './map-coordinates.js';

/** Why a PDU was sent, as far as the receiver can tell (IEEE 1278.1-2012 §5.3.2.4: thresholds and heartbeat). */
export const PDU_REASON_UNKNOWN = 0;
/** The first PDU of an entity the page did not hold. */
export const PDU_REASON_APPEARED = 1;
/** The dead-reckoned position had drifted at least the position threshold from the new PDU's. */
export const PDU_REASON_POSITION = 2;
/** The orientation had drifted at least the orientation threshold (non-rotating models only). */
export const PDU_REASON_ORIENTATION = 3;
/** About one heartbeat after the previous PDU with both errors under their thresholds. */
export const PDU_REASON_HEARTBEAT = 4;
export const PDU_REASON_NAMES = ['other', 'appeared', 'position', 'orientation', 'heartbeat'] as const;

export interface PageEntitiesOptions {
  /** Most entities held (the table's capacity). Defaults to `DEFAULT_PAGE_ENTITIES`. */
  capacity?: number;
  smoothing?: { method: SmoothingMethodName; timeSeconds: number };
  /** The sender's thresholds, used to tell why a PDU was sent. Defaults to 1 m and 3°. */
  positionThresholdMeters?: number;
  orientationThresholdDeg?: number;
  /** Points kept per trail. Defaults to 30. */
  trailPoints?: number;
  /** Seconds between two trail points. Defaults to 1. */
  trailIntervalSeconds?: number;
  /** PDU arrival markers kept (a ring). Defaults to 4096. */
  markerCapacity?: number;
}

/** What `applyMessage` made of one binary feed message. */
export interface ApplyCounts {
  pdus: number;
  /** PDUs that did not decode (counted, never thrown). */
  rejected: number;
}

const DEG = Math.PI / 180;

/** Entities the page holds when the gateway does not say how many it may forward. */
export const DEFAULT_PAGE_ENTITIES = 10_000;
/**
 * The most entities the page holds whatever the gateway allows: 100 000 is what `view.frame.100k` measures
 * (docs/view.md), and the table and map arrays are allocated up front.
 */
export const MAX_PAGE_ENTITIES = 100_000;

/** The table capacity for a gateway's `maxEntities` (hello): that many, at most `MAX_PAGE_ENTITIES`. */
export function pageCapacity(maxEntities: number | undefined): number {
  if (maxEntities === undefined || !Number.isInteger(maxEntities) || maxEntities < 1) return DEFAULT_PAGE_ENTITIES;
  return Math.min(maxEntities, MAX_PAGE_ENTITIES);
}

/** Arrival times kept per entity for its PDU rate. */
const RATE_WINDOW = 8;

export class PageEntities {
  readonly capacity: number;
  readonly table: RemoteEntityTable;
  /** Instances drawn, and the slot of each. */
  count = 0;
  readonly instanceSlot: Int32Array;
  /** Instance of each slot as of the last frame, or −1. */
  readonly slotInstance: Int32Array;
  /**
   * Longitude°, latitude° and 0 of each instance as drawn, rewritten where an entity moved (`frame`): a plan view,
   * everything on the ground, so that under the map's perspective camera a symbol, its label, trail, arrival dots
   * and shots meet at any zoom (an aircraft's height would shift its symbol away from its trail). The height is in
   * `displayedDegrees`.
   */
  readonly positions: Float64Array;
  /** Angle of each instance's symbol as drawn, degrees counterclockwise from north. */
  readonly angles: Float32Array;
  /**
   * Whether the last frame changed `positions` or `angles` (an entity moved beyond the tolerance `frame` was given,
   * or came, went or was renumbered, or the reference longitude changed): when not, the map need not be drawn again.
   */
  moved = true;
  /** A slot converted every frame whatever the tolerance (the selected entity, whose figures the panel shows). */
  exactSlot = -1;
  /** Heading of each slot's displayed state, degrees clockwise from true north, [0, 360). */
  readonly headingDeg: Float64Array;
  readonly ghostPositions: Float64Array;
  /** Markings by slot, decoded when a full Entity State PDU changes them. */
  readonly markings: string[];
  /** "site:application:entity" by slot. */
  readonly ids: string[];
  /**
   * Longitude, degrees, that the map arrays are drawn around: every longitude written is the copy within 180° of it
   * (the map's centre), so that entities on the far side of the antimeridian are drawn beside those on this side.
   */
  referenceLonDeg = 0;
  /** Bumped whenever an instance's symbol or order may have changed (entities came or went, a type changed). */
  structureVersion = 0;
  /** Bumped when the trails were resampled. */
  trailVersion = 0;

  readonly trailPoints: number;
  /** Trail points as longitude, latitude (2 per point, `trailPoints` per slot, a ring from `trailHead`). */
  readonly trailValues: Float32Array;
  readonly trailLength: Uint16Array;
  readonly trailHead: Uint16Array;
  /** Trails packed for a PathLayer: instance trails one after the other, and where each starts. */
  readonly trailPath: Float32Array;
  readonly trailStarts: Uint32Array;
  trailCount = 0;
  private packedStructure = -1;

  /** Per slot, as last converted for drawing: ECEF location (NaN: never), body x axis, and the geodetic result. */
  private readonly drawnEcef: Float64Array;
  private readonly drawnAxis: Float64Array;
  /** Longitude° in (−180°, 180°], latitude°, height m. */
  private readonly drawnGeodetic: Float64Array;
  private readonly drawnCosLat: Float64Array;
  private drawnReference = Number.NaN;

  /** Where, when and why the last PDUs came (a ring). */
  readonly markers: ArrivalMarkers;

  /** Arrival times of each slot's last PDUs (a ring of RATE_WINDOW), server seconds, and how many. */
  private readonly arrivals: Float64Array;
  private readonly arrivalCount: Uint8Array;
  /** Reason for each slot's last PDU. */
  readonly lastReason: Uint8Array;
  /** Last PDU's reported location, ECEF metres (3 per slot). */
  readonly lastPduLocation: Float64Array;
  /** Each slot's articulated and attached parts, as its last PDU carried them. */
  readonly parts: SlotParts;

  readonly stats = { pdus: 0, rejected: 0 };
  private readonly record = new EntityStateRecord();
  private readonly scratch = new Float64Array(3);
  private readonly geodetic = new Float64Array(5);
  private readonly positionThresholdMeters: number;
  private readonly orientationThresholdRad: number;
  private readonly trailIntervalSeconds: number;
  private nextTrailSeconds = -Infinity;

  constructor(options: PageEntitiesOptions = {}) {
    const n = (this.capacity = options.capacity ?? DEFAULT_PAGE_ENTITIES);
    this.positionThresholdMeters = options.positionThresholdMeters ?? 1;
    this.orientationThresholdRad = (options.orientationThresholdDeg ?? 3) * DEG;
    this.trailPoints = options.trailPoints ?? 30;
    this.trailIntervalSeconds = options.trailIntervalSeconds ?? 1;
    this.markers = new ArrivalMarkers(options.markerCapacity ?? 4096);
    const smoothing = options.smoothing ?? { method: 'linear', timeSeconds: 0.5 };
    this.table = new RemoteEntityTable({
      capacity: n,
      smoothing: { method: smoothing.method, durationSeconds: smoothing.timeSeconds },
      onEvent: (kind, slot) => this.onTableEvent(kind, slot),
    });
    this.instanceSlot = new Int32Array(n);
    this.slotInstance = new Int32Array(n).fill(-1);
    this.positions = new Float64Array(3 * n);
    this.angles = new Float32Array(n);
    this.drawnEcef = new Float64Array(3 * n).fill(Number.NaN);
    this.drawnAxis = new Float64Array(3 * n);
    this.drawnGeodetic = new Float64Array(3 * n);
    this.drawnCosLat = new Float64Array(n);
    this.headingDeg = new Float64Array(n);
    this.ghostPositions = new Float64Array(3 * n);
    this.markings = new Array<string>(n).fill('');
    this.ids = new Array<string>(n).fill('');
    this.trailValues = new Float32Array(2 * this.trailPoints * n);
    this.trailLength = new Uint16Array(n);
    this.trailHead = new Uint16Array(n);
    this.trailPath = new Float32Array(2 * this.trailPoints * n);
    this.trailStarts = new Uint32Array(n + 1);
    this.arrivals = new Float64Array(RATE_WINDOW * n);
    this.arrivalCount = new Uint8Array(n);
    this.lastReason = new Uint8Array(n);
    this.lastPduLocation = new Float64Array(3 * n);
    this.parts = new SlotParts(n);
  }

  /**
   * Applies one PDU as it came off the wire. Bad bytes are counted in `stats.rejected`, never thrown.
   * @param arrivalSeconds - when the gateway received it, server clock, seconds since the Unix epoch.
   * @returns the table's `ApplyResult`, or 0 when the PDU did not decode.
   */
  applyPdu(bytes: Uint8Array, offset: number, end: number, arrivalSeconds: number): ApplyResult | 0 {
    const record = this.record;
    if (
      !Number.isFinite(arrivalSeconds) ||
      decodeEntityStateOrUpdateInto(record, bytes, offset, end) !== CodecStatus.OK
    ) {
      this.stats.rejected++;
      return 0;
    }
    this.stats.pdus++;
    const table = this.table;
    const key = entityKey(record.site, record.application, record.entity);
    const before = table.slotOf(key);
    const reason = before < 0 ? PDU_REASON_APPEARED : this.reasonFor(before, record, arrivalSeconds);
    const result = table.apply(record, arrivalSeconds);
    if (result !== ApplyResult.APPEARED && result !== ApplyResult.UPDATED) return result;
    const slot = table.slotOf(key);
    if (slot < 0) return result;
    if (result === ApplyResult.APPEARED) this.ids[slot] = `${record.site}:${record.application}:${record.entity}`;
    if (record.pduType === 1) this.updateMarking(slot);
    this.parts.keep(slot, record);
    this.recordArrival(slot, arrivalSeconds, reason);
    const l = record.location;
    const s3 = 3 * slot;
    this.lastPduLocation[s3] = l[0]!;
    this.lastPduLocation[s3 + 1] = l[1]!;
    this.lastPduLocation[s3 + 2] = l[2]!;
    this.addMarker(l[0]!, l[1]!, l[2]!, reason, arrivalSeconds);
    return result;
  }

  /**
   * Applies one binary feed message (`readFeedMessage` in src/view/protocol.ts). A message cut short counts one
   * rejected record; the complete records before the cut are kept.
   */
  applyMessage(message: Uint8Array): ApplyCounts {
    const counts = this.counts;
    counts.pdus = counts.rejected = 0;
    if (readFeedMessage(message, this.visitRecord) === FEED_TRUNCATED) {
      counts.rejected++;
      this.stats.rejected++;
    }
    return counts;
  }

  private readonly counts: ApplyCounts = { pdus: 0, rejected: 0 };
  private readonly visitRecord = (arrivalTimeMs: number, bytes: Uint8Array, offset: number, length: number): void => {
    if (this.applyPdu(bytes, offset, offset + length, arrivalTimeMs / 1000) === 0) this.counts.rejected++;
    else this.counts.pdus++;
  };

  /** Forgets every entity (a new filter is about to send its snapshot). */
  clear(): void {
    const table = this.table;
    for (let slot = 0; slot < table.highWater; slot++) if (table.active[slot] === 1) table.remove(table.key[slot]!);
    this.markers.clear();
    this.count = 0;
    this.structureVersion++;
  }

  /** Removes entities silent for longer than their timeout. @returns how many. */
  expire(nowSeconds: number): number {
    return this.table.expire(nowSeconds);
  }

  /**
   * The per-frame work: dead reckoning and smoothing of every entity to tSeconds, then the map's arrays.
   * The geodetic conversion (most of the frame's time) runs only for entities that moved more than
   * `toleranceMeters` · cos φ or turned more than `ANGLE_TOLERANCE_DEG` since they were last converted: on a
   * Mercator map that is the same fraction of a pixel at every latitude. Allocates nothing (the trail resampling,
   * once per `trailIntervalSeconds`, neither).
   * @param ghosts - also fill `ghostPositions` with the unsmoothed dead-reckoned positions.
   * @param toleranceMeters - movement not drawn yet, metres at the equator (e.g. a quarter of a pixel at the map's
   *   zoom); 0 converts every entity that moved at all.
   */
  frame(tSeconds: number, ghosts = false, toleranceMeters = 0): void {
    const table = this.table;
    table.render(tSeconds);
    const location = table.displayLocation,
      matrix = table.displayWorldToBody,
      active = table.active;
    const positions = this.positions,
      angles = this.angles,
      heading = this.headingDeg;
    const instanceSlot = this.instanceSlot,
      slotInstance = this.slotInstance,
      drawnEcef = this.drawnEcef,
      drawnAxis = this.drawnAxis,
      geodetic = this.drawnGeodetic,
      drawnCosLat = this.drawnCosLat,
      reference = this.referenceLonDeg,
      exactSlot = this.exactSlot;
    // Longitudes are written as the copy nearest the reference: a new reference rewrites every instance.
    const rewrite = reference !== this.drawnReference;
    this.drawnReference = reference;
    const angleTolerance = ANGLE_TOLERANCE_DEG * DEG;
    const angleTolerance2 = angleTolerance * angleTolerance;
    let moved = false;
    let n = 0;
    const high = table.highWater;
    for (let slot = 0; slot < high; slot++) {
      if (active[slot] !== 1) {
        slotInstance[slot] = -1;
        continue;
      }
      const s3 = 3 * slot;
      const x = location[s3]!,
        y = location[s3 + 1]!,
        z = location[s3 + 2]!;
      const m = 9 * slot;
      const bx = matrix[m]!,
        by = matrix[m + 1]!,
        bz = matrix[m + 2]!;
      const dx = x - drawnEcef[s3]!,
        dy = y - drawnEcef[s3 + 1]!,
        dz = z - drawnEcef[s3 + 2]!;
      const ax = bx - drawnAxis[s3]!,
        ay = by - drawnAxis[s3 + 1]!,
        az = bz - drawnAxis[s3 + 2]!;
      const tolerance = toleranceMeters * drawnCosLat[slot]!;
      // NaN (never converted) fails the first comparison.
      const convert =
        !(dx * dx + dy * dy + dz * dz <= tolerance * tolerance) ||
        ax * ax + ay * ay + az * az > angleTolerance2 ||
        slot === exactSlot;
      if (convert) {
        drawnStateOf(this.geodetic, slot, x, y, z, bx, by, bz, geodetic, heading, drawnCosLat);
        drawnEcef[s3] = x;
        drawnEcef[s3 + 1] = y;
        drawnEcef[s3 + 2] = z;
        drawnAxis[s3] = bx;
        drawnAxis[s3 + 1] = by;
        drawnAxis[s3 + 2] = bz;
      }
      const n3 = 3 * n;
      if (convert || slotInstance[slot] !== n) {
        positions[n3] = nearLongitude(geodetic[s3]!, reference);
        positions[n3 + 1] = geodetic[s3 + 1]!;
        positions[n3 + 2] = 0;
        angles[n] = -heading[slot]!;
        moved = true;
      } else if (rewrite) {
        const lon = nearLongitude(geodetic[s3]!, reference);
        if (lon !== positions[n3]) {
          positions[n3] = lon;
          moved = true;
        }
      }
      instanceSlot[n] = slot;
      slotInstance[slot] = n;
      n++;
    }
    if (n !== this.count) {
      this.structureVersion++;
      moved = true;
    }
    this.count = n;
    this.moved = moved;
    if (ghosts) this.fillGhosts(tSeconds);
    if (tSeconds >= this.nextTrailSeconds) {
      this.nextTrailSeconds = tSeconds + this.trailIntervalSeconds;
      this.sampleTrails();
    }
  }

  /**
   * A slot's displayed (smoothed) state as of the last frame, exactly, whatever the drawing tolerance: longitude°
   * (the copy nearest `referenceLonDeg`), latitude°, height m into `out`.
   */
  displayedDegrees(slot: number, out: Float64Array): Float64Array {
    const l = this.table.displayLocation,
      g = this.geodetic;
    geodeticOf(g, l[3 * slot]!, l[3 * slot + 1]!, l[3 * slot + 2]!);
    out[0] = nearLongitude(g[1]! / DEG, this.referenceLonDeg);
    out[1] = g[0]! / DEG;
    out[2] = g[2]!;
    return out;
  }

  /** Unsmoothed dead-reckoned positions of every instance into `ghostPositions`. */
  private fillGhosts(tSeconds: number): void {
    const table = this.table;
    table.extrapolate(tSeconds);
    const location = table.location,
      out = this.ghostPositions,
      g = this.geodetic;
    for (let i = 0; i < this.count; i++) {
      const s3 = 3 * this.instanceSlot[i]!;
      geodeticOf(g, location[s3]!, location[s3 + 1]!, location[s3 + 2]!);
      out[3 * i] = nearLongitude(g[1]! / DEG, this.referenceLonDeg);
      out[3 * i + 1] = g[0]! / DEG;
      out[3 * i + 2] = 0; // on the ground, as `positions`
    }
  }

  /**
   * Appends every instance's displayed position to its trail where it moved since the trail's newest point (a trail
   * shows where an entity came from), and packs the trails for the path layer when any changed.
   */
  private sampleTrails(): void {
    const points = this.trailPoints,
      values = this.trailValues;
    // Instances renumbered: the packing changes even where no trail did.
    let changed = this.packedStructure !== this.structureVersion;
    for (let i = 0; i < this.count; i++) {
      const slot = this.instanceSlot[i]!;
      const base = 2 * points * slot;
      const head = this.trailHead[slot]!;
      const length = this.trailLength[slot]!;
      const newest = base + 2 * ((head - 1 + points) % points);
      const lon = this.positions[3 * i]!,
        lat = this.positions[3 * i + 1]!;
      if (length > 0 && values[newest] === Math.fround(lon) && values[newest + 1] === Math.fround(lat)) continue;
      values[base + 2 * head] = lon;
      values[base + 2 * head + 1] = lat;
      this.trailHead[slot] = (head + 1) % points;
      this.trailLength[slot] = Math.min(points, length + 1);
      changed = true;
    }
    if (changed) this.packTrails();
  }

  /** The trails one after the other into `trailPath`, and where each starts. */
  private packTrails(): void {
    const points = this.trailPoints,
      values = this.trailValues,
      path = this.trailPath,
      starts = this.trailStarts;
    let w = 0;
    for (let i = 0; i < this.count; i++) {
      const slot = this.instanceSlot[i]!;
      const base = 2 * points * slot;
      const head = this.trailHead[slot]!;
      const length = this.trailLength[slot]!;
      starts[i] = w / 2;
      // Oldest first: the ring from head (the next write) for `length` points.
      const first = (head - length + points) % points;
      // Newest last, each point the copy nearest the one after it: a trail over the antimeridian stays one line.
      let next = this.positions[3 * i]!;
      for (let k = length - 1; k >= 0; k--) {
        const q = base + 2 * ((first + k) % points);
        next = nearLongitude(values[q]!, next);
        path[w + 2 * k] = next;
        path[w + 2 * k + 1] = values[q + 1]!;
      }
      w += 2 * length;
    }
    starts[this.count] = w / 2;
    this.trailCount = this.count;
    this.packedStructure = this.structureVersion;
    this.trailVersion++;
  }

  /** PDUs per second of a slot over its last few PDUs (0 with fewer than two). */
  pduRate(slot: number): number {
    const count = this.arrivalCount[slot]!;
    if (count < 2) return 0;
    const base = RATE_WINDOW * slot;
    let first = Infinity,
      last = -Infinity;
    for (let k = 0; k < Math.min(count, RATE_WINDOW); k++) {
      const t = this.arrivals[base + k]!;
      if (t < first) first = t;
      if (t > last) last = t;
    }
    return last > first ? (Math.min(count, RATE_WINDOW) - 1) / (last - first) : 0;
  }

  /** Seconds since the slot's last PDU at tSeconds. */
  ageSeconds(slot: number, tSeconds: number): number {
    return tSeconds - this.table.arrivalSeconds[slot]!;
  }

  /**
   * Distance between what is displayed for a slot at tSeconds and the dead-reckoned path of its last PDU,
   * metres: the correction the smoothing has yet to make.
   */
  displayErrorMeters(slot: number, tSeconds: number): number {
    const table = this.table,
      out = this.scratch;
    positionAt(table.store, slot, tSeconds, table.referenceSeconds, out, 0);
    const d = table.displayLocation,
      s3 = 3 * slot;
    return Math.hypot(d[s3]! - out[0]!, d[s3 + 1]! - out[1]!, d[s3 + 2]! - out[2]!);
  }

  /** Speed of a slot's current model, m/s (world-frame velocity at tSeconds). */
  speedMetersPerSecond(slot: number, tSeconds: number): number {
    const s = this.table.store,
      j = 3 * slot;
    const dt = tSeconds - this.table.referenceSeconds[slot]!;
    const v = s.velocityWorld,
      a = s.halfAccelerationWorld;
    return Math.hypot(v[j]! + 2 * a[j]! * dt, v[j + 1]! + 2 * a[j + 1]! * dt, v[j + 2]! + 2 * a[j + 2]! * dt);
  }

  /**
   * Why the PDU about to be applied to `slot` was sent: compares it with what the entity's current model
   * predicts at its arrival (the sender's test, IEEE 1278.1-2012 §5.3.2.4, seen from the receiver).
   */
  private reasonFor(slot: number, record: EntityStateRecord, arrivalSeconds: number): number {
    const table = this.table,
      out = this.scratch;
    const models = table.store;
    positionAt(models, slot, arrivalSeconds, table.referenceSeconds, out, 0);
    const l = record.location;
    const positionError = Math.hypot(l[0]! - out[0]!, l[1]! - out[1]!, l[2]! - out[2]!);
    if (positionError >= 0.9 * this.positionThresholdMeters) return PDU_REASON_POSITION;
    const o = models.orientation0,
      s3 = 3 * slot,
      r = record.orientation;
    const rotating = models.omegaMagnitude[slot]! > 0;
    if (!rotating) {
      const dPsi = wrapAngle(r[0]! - o[s3]!),
        dTheta = wrapAngle(r[1]! - o[s3 + 1]!),
        dPhi = wrapAngle(r[2]! - o[s3 + 2]!);
      if (Math.max(Math.abs(dPsi), Math.abs(dTheta), Math.abs(dPhi)) >= 0.9 * this.orientationThresholdRad) {
        return PDU_REASON_ORIENTATION;
      }
    }
    const heartbeatSeconds = table.timeoutSeconds[slot]! / 2.4;
    const interval = arrivalSeconds - table.arrivalSeconds[slot]!;
    if (interval >= 0.8 * heartbeatSeconds) return PDU_REASON_HEARTBEAT;
    return PDU_REASON_UNKNOWN;
  }

  private recordArrival(slot: number, arrivalSeconds: number, reason: number): void {
    const count = this.arrivalCount[slot]!;
    this.arrivals[RATE_WINDOW * slot + (count % RATE_WINDOW)] = arrivalSeconds;
    // Wraps within [RATE_WINDOW, 2·RATE_WINDOW) once full, so `count ≥ RATE_WINDOW` stays true.
    this.arrivalCount[slot] = count + 1 >= 2 * RATE_WINDOW ? RATE_WINDOW : count + 1;
    this.lastReason[slot] = reason;
  }

  private addMarker(x: number, y: number, z: number, reason: number, arrivalSeconds: number): void {
    const g = this.geodetic;
    geodeticOf(g, x, y, z);
    // On the ground, as `positions`.
    this.markers.add(nearLongitude(g[1]! / DEG, this.referenceLonDeg), g[0]! / DEG, 0, reason, arrivalSeconds);
  }

  /** Re-reads a slot's marking when its bytes differ from the cached text (no string built otherwise). */
  private updateMarking(slot: number): void {
    const bytes = this.table.marking,
      start = 11 * slot;
    const cached = this.markings[slot]!;
    let same = true;
    for (let i = 0; i < 11; i++) {
      const b = bytes[start + i]!;
      const c = i < cached.length ? cached.charCodeAt(i) : 0;
      if (b !== c) {
        same = false;
        break;
      }
      if (b === 0) break;
    }
    if (!same) {
      this.markings[slot] = latin1UpToZero(bytes, start, start + 11);
      this.structureVersion++;
    }
  }

  private onTableEvent(kind: TableEvent, slot: number): void {
    if (kind === TableEvent.APPEARED) {
      // A slot used again: converted afresh at the next frame.
      this.drawnEcef[3 * slot] = Number.NaN;
      this.trailLength[slot] = this.trailHead[slot] = 0;
      this.arrivalCount[slot] = 0;
      this.markings[slot] = '';
      this.structureVersion++;
    } else if (kind === TableEvent.TIMED_OUT || kind === TableEvent.REMOVED) {
      this.structureVersion++;
    }
  }
}

function wrapAngle(a: number): number {
  return a - 2 * Math.PI * Math.round(a / (2 * Math.PI));
}
