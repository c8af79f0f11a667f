/**
 * The page's model of the exercise, free of DOM and WebGL so that tests and the frame benchmark run it as is:
 * the project's own decoder and `RemoteEntityTable` (the same dead reckoning and smoothing as the Node side), and
 * what the map needs of it, kept in typed arrays:
 *
 * - the GPU's records of the entities that changed (`staging`, src/view/page/gpu/gpu-staging.ts): a PDU loaded, an
 *   entity came, left, was frozen or resumed. The GPU dead-reckons and smooths every entity each frame from its
 *   record (src/view/page/gpu/), so a frame costs the CPU what changed, not how many entities there are;
 * - `positions`: each instance's displayed place (longitude°, latitude°, 0) as looked at last, a few thousand
 *   entities a frame, for the work that needs every entity's place only roughly (framing, what is in view);
 *   `placeOf` gives one entity's displayed place exactly;
 * - trails (entity-trails.ts) and arrival markers (arrival-markers.ts): where the last PDUs put the entities, when,
 *   and why they were sent when the page can tell (send-reasons.ts);
 * - each slot's symbol (slot-symbols.ts), marking and PDU rate (pdu-rates.ts).
 *
 * The places at a frame's time, exact and rough, are frame-geometry.ts's.
 *
 * Instances are the table's active slots packed densely (`instanceSlot[i]`), renumbered only when entities come or
 * go. Time is a parameter (seconds on the server's clock); nothing here reads a clock.
 */
import { EntityStateRecord, entityKey, latin1UpToZero } from '../../pdu/wire/entity-state-record.js';
import { decodeEntityStateOrUpdateInto } from '../../pdu/wire/entity-state-decoder.js';
import { CodecStatus } from '../../pdu/wire/status.js';
import { PduType } from '../../pdu/wire/constants.js';
import { RemoteEntityTable } from '../../dr/receiver/remote-entity-table.js';
import { ApplyResult, TableEvent } from '../../dr/receiver/table-results.js';
import { KERNEL_LINEAR } from '../../dr/models/store.js';
import { SMOOTHING_METHODS, type SmoothingMethodName } from '../../dr/receiver/position-smoothing.js';
import { FEED_TRUNCATED, readFeedMessage } from '../protocol.js';
import { SlotParts } from './slot-parts.js';
import { ArrivalMarkers } from './map/arrival-markers.js';
import { EntityTrails } from './map/entity-trails.js';
import { GpuStaging } from './gpu/gpu-staging.js';
import { geodeticOf, nearLongitude } from './map/map-coordinates.js';
import { FrameGeometry } from './frame-geometry.js';
import { PduRates } from './pdu-rates.js';
import { PDU_REASON_APPEARED, SendReasons } from './send-reasons.js';
import { SlotSymbols } from './slot-symbols.js';

// For the page modules that take them with the entities.
export { geodeticOf, nearLongitude, wrapLongitude } from './map/map-coordinates.js';

export interface PageEntitiesOptions {
  /** Most entities held (the table's capacity). Defaults to `DEFAULT_PAGE_ENTITIES`. */
  capacity?: number;
  smoothing?: { method: SmoothingMethodName; timeSeconds: number };
  /** The sender's thresholds, used to tell why a PDU was sent. Defaults to 1 m and 3°. */
  positionThresholdMeters?: number;
  orientationThresholdDeg?: number;
  /** Points kept per trail. Defaults to 30, fewer where that would take more than `TRAIL_BYTES`. */
  trailPoints?: number;
  /** Seconds between two trail points at least. Defaults to 1. */
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
 * The most entities the page holds whatever the gateway allows: a million is what `view.frame.1m` measures
 * (docs/view.md), and the table and the GPU's state are allocated up front.
 */
export const MAX_PAGE_ENTITIES = 1_000_000;
/** Bytes the trails may take: 30 points a trail up to 100 000 entities, fewer beyond (8 at a million). */
const TRAIL_BYTES = 64 * 1024 * 1024;

/** The table capacity for a gateway's `maxEntities` (hello): that many, at most `MAX_PAGE_ENTITIES`. */
export function pageCapacity(maxEntities: number | undefined): number {
  if (maxEntities === undefined || !Number.isInteger(maxEntities) || maxEntities < 1) return DEFAULT_PAGE_ENTITIES;
  return Math.min(maxEntities, MAX_PAGE_ENTITIES);
}

export class PageEntities {
  readonly capacity: number;
  readonly table: RemoteEntityTable;
  /** Instances, and the slot of each. */
  count = 0;
  readonly instanceSlot: Int32Array;
  /** Instance of each slot as of the last frame, or −1. */
  readonly slotInstance: Int32Array;
  /**
   * Longitude° in (−180°, 180°], latitude° and 0 of each instance where it was shown when last looked at:
   * `PLACES_PER_FRAME` instances a frame in turn, and each as its PDU comes. For what needs every entity's place
   * only roughly: framing, what is in view.
   */
  readonly positions: Float64Array;
  /** The same per slot: longitude°, latitude°, height m of its last PDU. */
  readonly reported: Float64Array;
  /**
   * Whether the last frame changes the picture: an entity moves (its model or a correction being smoothed), a
   * record changed, or entities came or went. When not, the map need not be drawn again.
   */
  moved = true;
  /** The GPU's records of the slots that changed (src/view/page/gpu/gpu-staging.ts). */
  readonly staging: GpuStaging;
  /** Seconds on the table's axis the GPU's times count from: the first frame's, whole. */
  timeBaseSeconds = Number.NaN;
  /** The time of the last frame, seconds. */
  frameSeconds = 0;
  /** `SMOOTHING_METHODS` code and seconds of the table's smoothing (the GPU's too). */
  readonly smoothingMethod: number;
  readonly smoothingSeconds: number;
  /** Markings by slot, decoded when a full Entity State PDU changes them. */
  readonly markings: string[];
  /** "site:application:entity" by slot. */
  readonly ids: string[];
  /**
   * Longitude, degrees, that longitudes given out are the copy nearest to (the map's centre), so that entities on
   * the far side of the antimeridian are drawn beside those on this side.
   */
  referenceLonDeg = 0;
  /** Bumped whenever an instance's symbol or order may have changed (entities came or went, a type changed). */
  structureVersion = 0;
  /** The symbols in use (2525C codes) in the order they were first seen: a record holds its symbol's index. */
  readonly iconKeys: string[];
  /** Symbol index of each slot. */
  readonly slotIcon: Uint16Array;
  private readonly symbols: SlotSymbols;
  readonly trails: EntityTrails;

  /** Where, when and why the last PDUs came (a ring). */
  readonly markers: ArrivalMarkers;

  /** Each slot's PDU rate. */
  private readonly rates: PduRates;
  /** Why each PDU was sent, from the sender's thresholds. */
  private readonly reasons: SendReasons;
  /** Places at the frame's time: exact ones of a slot, rough ones of every instance in turn. */
  private readonly geometry: FrameGeometry;
  /** Reason for each slot's last PDU. */
  readonly lastReason: Uint8Array;
  /** Last PDU's reported location, ECEF metres (3 per slot). */
  readonly lastPduLocation: Float64Array;
  /** Each slot's articulated and attached parts, as its last PDU carried them. */
  readonly parts: SlotParts;

  readonly stats = { pdus: 0, rejected: 0 };
  private readonly record = new EntityStateRecord();
  private readonly geodetic = new Float64Array(5);
  private packedStructure = -1;
  /** Entities whose model moves, per slot 1 when it does; and until when a correction is being smoothed. */
  private readonly slotMoves: Uint8Array;
  private movingCount = 0;
  private settlesAtSeconds = Number.NEGATIVE_INFINITY;

  constructor(options: PageEntitiesOptions = {}) {
    const n = (this.capacity = options.capacity ?? DEFAULT_PAGE_ENTITIES);
    this.reasons = new SendReasons(options.positionThresholdMeters, options.orientationThresholdDeg);
    const points = options.trailPoints ?? Math.max(2, Math.min(30, Math.floor(TRAIL_BYTES / (8 * n))));
    this.trails = new EntityTrails(n, points, options.trailIntervalSeconds ?? 1);
    this.markers = new ArrivalMarkers(options.markerCapacity ?? 4096);
    const smoothing = options.smoothing ?? { method: 'linear', timeSeconds: 0.5 };
    this.smoothingMethod = SMOOTHING_METHODS[smoothing.method];
    this.smoothingSeconds = smoothing.timeSeconds;
    this.table = new RemoteEntityTable({
      capacity: n,
      smoothing: { method: smoothing.method, durationSeconds: smoothing.timeSeconds },
      onEvent: (kind, slot) => this.onTableEvent(kind, slot),
    });
    this.geometry = new FrameGeometry(this.table);
    this.staging = new GpuStaging(n);
    this.instanceSlot = new Int32Array(n);
    this.slotInstance = new Int32Array(n).fill(-1);
    this.positions = new Float64Array(3 * n);
    this.reported = new Float64Array(3 * n);
    this.markings = new Array<string>(n).fill('');
    this.ids = new Array<string>(n).fill('');
    this.symbols = new SlotSymbols(n);
    this.iconKeys = this.symbols.iconKeys;
    this.slotIcon = this.symbols.slotIcon;
    this.slotMoves = new Uint8Array(n);
    this.rates = new PduRates(n);
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
    const reason = before < 0 ? PDU_REASON_APPEARED : this.reasons.reasonFor(table, before, record, arrivalSeconds);
    const result = table.apply(record, arrivalSeconds);
    if (result !== ApplyResult.APPEARED && result !== ApplyResult.UPDATED) return result;
    const slot = table.slotOf(key);
    if (slot < 0) return result;
    if (result === ApplyResult.APPEARED) this.ids[slot] = `${record.site}:${record.application}:${record.entity}`;
    if (record.pduType === PduType.ENTITY_STATE) {
      this.updateMarking(slot);
      if (this.symbols.update(table, slot)) this.structureVersion++;
    }
    this.parts.keep(slot, record);
    this.rates.add(slot, arrivalSeconds);
    this.lastReason[slot] = reason;
    const l = record.location;
    const s3 = 3 * slot;
    this.lastPduLocation[s3] = l[0]!;
    this.lastPduLocation[s3 + 1] = l[1]!;
    this.lastPduLocation[s3 + 2] = l[2]!;
    this.report(slot, l[0]!, l[1]!, l[2]!, reason, arrivalSeconds);
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
   * The per-frame work, all of it proportional to what changed: loads the PDUs that came into the table's models
   * (the corrections start), renumbers the instances when entities came or went, and packs the GPU records of the
   * slots that changed (at most `GpuStaging.maxRecords`, the rest next frame). Dead reckoning and smoothing of every
   * entity are the GPU's (src/view/page/gpu/). Allocates nothing.
   */
  frame(tSeconds: number): void {
    this.frameSeconds = tSeconds;
    if (Number.isNaN(this.timeBaseSeconds)) this.timeBaseSeconds = Math.floor(tSeconds);
    const table = this.table;
    table.resolve();
    const structure = this.packedStructure !== this.structureVersion;
    if (structure) this.renumber();
    this.geometry.refreshPlaces(this.instanceSlot, this.count, this.positions, tSeconds);
    const packed = this.staging.pack(table, this.timeBaseSeconds, this.slotIconOf);
    if (packed > 0) this.noteMotion(packed);
    this.moved = structure || packed > 0 || this.movingCount > 0 || tSeconds <= this.settlesAtSeconds;
  }

  /** Instances: the active slots, densely, with their reported places. */
  private renumber(): void {
    const table = this.table,
      active = table.active,
      instanceSlot = this.instanceSlot,
      slotInstance = this.slotInstance,
      positions = this.positions,
      reported = this.reported;
    let n = 0;
    for (let slot = 0; slot < table.highWater; slot++) {
      if (active[slot] !== 1) {
        slotInstance[slot] = -1;
        continue;
      }
      instanceSlot[n] = slot;
      slotInstance[slot] = n;
      positions[3 * n] = reported[3 * slot]!;
      positions[3 * n + 1] = reported[3 * slot + 1]!;
      positions[3 * n + 2] = 0;
      n++;
    }
    this.count = n;
    this.packedStructure = this.structureVersion;
  }

  /** Keeps count of the entities that move, from the records just packed. */
  private noteMotion(packed: number): void {
    const staging = this.staging,
      table = this.table,
      store = table.store,
      first = staging.count - packed;
    for (let k = first; k < staging.count; k++) {
      const slot = staging.slotAt(k);
      const s3 = 3 * slot;
      const moves =
        table.active[slot] === 1 &&
        table.frozen[slot] === 0 &&
        (store.kernel[slot] !== KERNEL_LINEAR ||
          store.velocityWorld[s3] !== 0 ||
          store.velocityWorld[s3 + 1] !== 0 ||
          store.velocityWorld[s3 + 2] !== 0 ||
          store.halfAccelerationWorld[s3] !== 0 ||
          store.halfAccelerationWorld[s3 + 1] !== 0 ||
          store.halfAccelerationWorld[s3 + 2] !== 0)
          ? 1
          : 0;
      this.movingCount += moves - this.slotMoves[slot]!;
      this.slotMoves[slot] = moves;
      if (table.active[slot] === 1 && table.isConverging(slot)) {
        this.settlesAtSeconds = Math.max(this.settlesAtSeconds, table.arrivalSeconds[slot]! + this.smoothingSeconds);
      }
    }
  }

  private readonly slotIconOf = (slot: number): number => this.slotIcon[slot]!;

  /**
   * A slot's displayed (smoothed) state at the last frame's time, exactly, as the GPU draws it (the table's own
   * float64 evaluation): longitude° (the copy nearest `referenceLonDeg`), latitude°, height m and heading (degrees
   * clockwise from true north, [0, 360)) into out[0…3].
   */
  placeOf(slot: number, out: Float64Array): Float64Array {
    return this.geometry.placeOf(slot, this.frameSeconds, this.referenceLonDeg, out);
  }

  /** `placeOf` without the heading: longitude°, latitude°, height m (three values suffice for `out`). */
  displayedDegrees(slot: number, out: Float64Array): Float64Array {
    return this.geometry.displayedDegrees(slot, this.frameSeconds, this.referenceLonDeg, out);
  }

  /** The symbol (2525C code) drawn for a slot. */
  symbolOf(slot: number): string {
    return this.symbols.symbolOf(slot);
  }

  /** PDUs per second of a slot over its last few PDUs (0 with fewer than two). */
  pduRate(slot: number): number {
    return this.rates.rate(slot);
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
    return this.geometry.displayErrorMeters(slot, tSeconds);
  }

  /** Speed of a slot's current model, m/s (world-frame velocity at tSeconds; 0 while it is held). */
  speedMetersPerSecond(slot: number, tSeconds: number): number {
    return this.geometry.speedMetersPerSecond(slot, tSeconds);
  }

  /** Where a PDU put its entity: its reported place, a trail point, an arrival marker (all on the ground). */
  private report(slot: number, x: number, y: number, z: number, reason: number, arrivalSeconds: number): void {
    const g = this.geodetic;
    geodeticOf(g, x, y, z);
    const lon = g[1]! / DEG,
      lat = g[0]! / DEG,
      s3 = 3 * slot;
    this.reported[s3] = lon;
    this.reported[s3 + 1] = lat;
    this.reported[s3 + 2] = g[2]!;
    const instance = this.slotInstance[slot]!;
    if (instance >= 0 && instance < this.count && this.instanceSlot[instance] === slot) {
      this.positions[3 * instance] = lon;
      this.positions[3 * instance + 1] = lat;
    }
    this.trails.add(slot, lon, lat, arrivalSeconds);
    this.markers.add(nearLongitude(lon, this.referenceLonDeg), lat, 0, reason, arrivalSeconds);
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
    // Every event changes the slot's GPU record: a new model, a hold, a release.
    this.staging.mark(slot);
    if (kind === TableEvent.APPEARED) {
      this.trails.clear(slot);
      this.rates.clear(slot);
      this.markings[slot] = '';
      this.symbols.clear(slot);
      this.structureVersion++;
    } else if (kind === TableEvent.TIMED_OUT || kind === TableEvent.REMOVED) {
      this.structureVersion++;
    }
  }
}
