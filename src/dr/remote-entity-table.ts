/**
 * The receiver side: a bounded struct-of-arrays table of remote entities, keyed by `entityKey`. Applying a PDU
 * drops duplicates and out-of-order PDUs by timestamp (with the hourly wrap), records the arrival and copies the
 * PDU's fields into the slot; `extrapolate` / `render` compute every entity at time t into Float64Arrays (3 per
 * slot) without allocating. The table never reads a clock: time is a parameter, seconds on the caller's axis.
 *
 * Model resets are lazy. An entity may send many PDUs between two frames and only the last one is displayed, so
 * `apply` only copies (no trigonometry) and marks the slot; the DR model reset and the start of the smoothing
 * correction run once per marked slot, when model state is next read. That state is held apart (`ModelState`)
 * and every reader reaches it through one accessor (`resolved`) that resolves first, so none sees a stale model;
 * the table's own fields (identity, arrival, timeouts) are written by `apply` and always current, and
 * `receivedStateInto` reads a PDU as received without loading it. The correction starts from what was displayed
 * when the last PDU arrived, evaluated from the model and smoothing state that preceded the pending PDUs.
 *
 * Smoothing of the corrections is done by the free functions of position-smoothing.ts and
 * orientation-smoothing.ts over the table's per-slot correction arrays.
 *
 * Orientation is kept as world-to-body matrices (`worldToBody`, `displayWorldToBody`), which is what renderers and
 * error metrics use; the ψθφ arrays `orientation` / `displayOrientation` are filled from them when read, so
 * that their three atan2 per rotating entity are paid only by callers that want Euler angles.
 *
 * Events: `onEvent(kind, slot, key)` is called synchronously with a `TableEvent` (appeared, updated, timed out,
 * removed; no per-event allocation). During a timed-out or removed event the slot's fields still hold
 * the entity's last state; the slot is reused afterwards.
 */
import { SECONDS_PER_TIMESTAMP_UNIT, timestampUnitsDelta } from '../pdu/timestamp.js';
import {
  BYTE_FIELDS_MARKING as BYTE_FIELDS_MARKING_IMPORTED,
  entityKey,
  type EntityStateRecord,
} from '../pdu/entity-state-record.js';
import { isDeactivated, isFrozen, isKnownAlgorithm } from './algorithm.js';
import { EntityIndex } from './entity-index.js';
import {
  HEARTBEAT_IEEE_TABLE_25,
  HEARTBEAT_STATIONARY_SECONDS,
  HEARTBEAT_TIMEOUT_MULTIPLIER,
  heartbeatSecondsFor,
  isStationaryState,
  type HeartbeatTable,
} from './heartbeat.js';
import {
  DrStore,
  KERNEL_LINEAR as KERNEL_LINEAR_IMPORTED,
  KERNEL_ROTATING_BODY as KERNEL_ROTATING_BODY_IMPORTED,
  bodyPosition,
  eulerAt,
  evaluateRotating,
  extrapolateLinear,
  positionAt,
  resetSlot,
  rotateSlots,
  worldVelocity,
} from './store.js';
import { createFloat64Arena } from './simd-kernel.js';
import {
  SMOOTH_DURATION as SMOOTH_DURATION_IMPORTED,
  SMOOTH_CONVERGENCE,
  SMOOTH_FRACTION as SMOOTH_FRACTION_IMPORTED,
  SMOOTH_PROJECTIVE,
  SMOOTH_SNAP,
  SMOOTH_TAU as SMOOTH_TAU_IMPORTED,
  SMOOTHING_METHODS,
  positionOffset,
  type SmoothingOptions,
} from './position-smoothing.js';
import { startRotationError, turnByError } from './orientation-smoothing.js';
import { ApplyResult, TableEvent } from './table-results.js';
import { ExerciseFreeze } from './exercise-freeze.js';

/** Called synchronously for each `TableEvent` of a slot. */
export type TableEventListener = (kind: TableEvent, slot: number, key: number) => void;

/** Options of a `RemoteEntityTable`. */
export interface RemoteEntityTableOptions {
  /** Most entities held; PDUs of further new entities are counted in `stats.full`. Defaults to 10 000. */
  capacity?: number;
  /**
   * 'arrival': models are valid at the arrival time. 'timestamp': at the PDU's own absolute timestamp (latency
   * compensation), for which times passed to the table must be seconds since the Unix epoch (UTC), so that
   * t mod 3600 is the position in the hour; relative or skewed timestamps fall back to arrival. Defaults to 'arrival'.
   */
  timeReference?: 'arrival' | 'timestamp';
  /** Timestamps further than this from the arrival time are not trusted, seconds (TIMESTAMP_AHEAD/BEHIND). Defaults to 5. */
  maxTimestampSkewSeconds?: number;
  /**
   * Drop PDUs whose timestamp equals (duplicate) or precedes (out of order) the last one — by no more than the
   * entity's timeout: one older still comes from a restarted sender and is applied (`stats.restarts`).
   * Defaults to true.
   */
  orderByTimestamp?: boolean;
  /** Heartbeat per kind/domain. Defaults to IEEE 1278.1-2012 Table 25 (5 s). */
  heartbeatTable?: HeartbeatTable;
  /** Entities time out after heartbeat × this without a PDU. Defaults to 2.4 (HBT_TIMEOUT_MPLIER). */
  timeoutMultiplier?: number;
  /**
   * Heartbeat of an entity whose last PDU is stationary (`isStationaryState`), seconds (HBT_STATIONARY): such an
   * entity times out after this × timeoutMultiplier (never sooner than its kind's timeout), since its owner
   * heartbeats that seldom. `null` or 0: every entity times out by its kind's heartbeat. Defaults to 60.
   */
  stationaryHeartbeatSeconds?: number | null;
  /** Defaults to linear over 0.5 s, snapping beyond 100 m. */
  smoothing?: SmoothingOptions;
  onEvent?: TableEventListener;
}

// Imported constants copied to module consts, so that TurboFan folds them (a transpiled import is a getter).
const KERNEL_LINEAR = KERNEL_LINEAR_IMPORTED;
const KERNEL_ROTATING_BODY = KERNEL_ROTATING_BODY_IMPORTED;
const BYTE_FIELDS_MARKING = BYTE_FIELDS_MARKING_IMPORTED;
const SMOOTH_TAU = SMOOTH_TAU_IMPORTED;
const SMOOTH_DURATION = SMOOTH_DURATION_IMPORTED;
const SMOOTH_FRACTION = SMOOTH_FRACTION_IMPORTED;

/** A slot's pending PDU: none (not listed), a PDU to load, a new entity's PDU (snaps), released while listed. */
const PENDING_NONE = 0;
const PENDING_UPDATE = 1;
const PENDING_NEW = 2;
const PENDING_DROPPED = 3;
/** Doubles per slot in `pending`, and where the reference time sits among them. */
const PENDING_STRIDE = 16;
const PENDING_REFERENCE = 15;

/**
 * The state `resolve` brings up to date: the DR models, the time each is valid at, the dead-reckoned and displayed
 * orientation (R_wb and ψθφ, with which angles lag their matrix) and which slots are converging. Readers reach it
 * through `RemoteEntityTable.resolved` only.
 */
class ModelState {
  /** R_wb, row-major (9 per slot): dead-reckoned (`extrapolate`) and displayed (`render`). */
  readonly worldToBody: Float64Array;
  readonly displayWorldToBody: Float64Array;
  /** ψθφ, radians (3 per slot), converted from the matrices when read. */
  readonly orientation: Float64Array;
  readonly displayOrientation: Float64Array;
  /** Per slot: 1 while the Euler angles lag the matrix (rotating slots after `extrapolate` / `render`). */
  readonly orientationStale: Uint8Array;
  readonly displayStale: Uint8Array;
  /** Per slot: 1 while the displayed state converges onto a corrected path. */
  readonly isSmoothing: Uint8Array;

  /**
   * @param store - the DR models.
   * @param reference - per slot, the time its model is valid at, seconds.
   */
  constructor(
    readonly store: DrStore,
    readonly reference: Float64Array,
  ) {
    const n = store.capacity;
    this.worldToBody = new Float64Array(9 * n);
    this.displayWorldToBody = new Float64Array(9 * n);
    this.orientation = new Float64Array(3 * n);
    this.displayOrientation = new Float64Array(3 * n);
    this.orientationStale = new Uint8Array(n);
    this.displayStale = new Uint8Array(n);
    this.isSmoothing = new Uint8Array(n);
  }
}

/** The receiver's remote entities: PDUs applied in order, dead-reckoned and smoothed at any time t. */
export class RemoteEntityTable {
  readonly capacity: number;
  /** Slots in use are all below this; loops over slots run to it. */
  highWater = 0;
  size = 0;
  readonly stats = {
    appeared: 0,
    updated: 0,
    removed: 0,
    timedOut: 0,
    duplicates: 0,
    outOfOrder: 0,
    /** PDUs older than their entity's last by more than its timeout: its sender restarted; applied (see `apply`). */
    restarts: 0,
    unknownUpdates: 0,
    full: 0,
    notEntityState: 0,
    unknownAlgorithm: 0,
    untrustedTimestamps: 0,
  };

  readonly active: Uint8Array;
  readonly key: Float64Array;
  /** site, application, entity (3 per slot). */
  readonly entityId: Uint16Array;
  /** kind, domain, country, category, subcategory, specific, extra (7 per slot). */
  readonly entityType: Uint16Array;
  readonly forceId: Uint8Array;
  readonly markingCharacterSet: Uint8Array;
  /** 11 marking bytes per slot. */
  readonly marking: Uint8Array;
  readonly appearance: Uint32Array;
  readonly capabilities: Uint32Array;
  readonly timestampRaw: Uint32Array;
  readonly protocolVersion: Uint8Array;
  readonly exerciseId: Uint8Array;
  readonly arrivalSeconds: Float64Array;
  /** Seconds without a PDU after which the entity times out: by its kind and domain, or stationary (see options). */
  readonly timeoutSeconds: Float64Array;
  /** Dead-reckoned location, ECEF metres (3 per slot), written by `extrapolate`. */
  readonly location: Float64Array;
  /** Displayed (smoothed) location, ECEF metres (3 per slot), written by `render`. */
  readonly displayLocation: Float64Array;
  /** Entities held by a Stop/Freeze PDU (src/dr/exercise-freeze.ts). */
  private readonly freezes: ExerciseFreeze;
  /** 1 per slot whose entity is held by a Stop/Freeze PDU: shown where it stood, never timed out. */
  readonly frozen: Uint8Array;

  /**
   * The DR models by slot (algorithm, velocity, acceleration, rates, ψθφ at the last PDU, …), struct-of-arrays.
   */
  get store(): DrStore {
    return this.resolved.store;
  }

  /** Time the models are valid at, seconds. */
  get referenceSeconds(): Float64Array {
    return this.resolved.reference;
  }

  /** Dead-reckoned R_wb, row-major (9 per slot), written by `extrapolate` (fixed orientations: by the PDU). */
  get worldToBody(): Float64Array {
    return this.resolved.worldToBody;
  }

  /** Displayed R_wb, row-major (9 per slot), written by `render`. */
  get displayWorldToBody(): Float64Array {
    return this.resolved.displayWorldToBody;
  }

  /** Dead-reckoned ψθφ, radians (3 per slot), as of the last `extrapolate`. */
  get orientation(): Float64Array {
    const state = this.resolved;
    if (this.orientationPending) {
      this.orientationPending = this.convertStale(state.worldToBody, state.orientation, state.orientationStale);
    }
    return state.orientation;
  }

  /** Displayed ψθφ, radians (3 per slot), as of the last `render`. */
  get displayOrientation(): Float64Array {
    const state = this.resolved;
    if (this.displayPending) {
      this.displayPending = this.convertStale(state.displayWorldToBody, state.displayOrientation, state.displayStale);
      // Fixed-orientation slots being smoothed turn too.
      for (let k = 0; k < this.smoothingCount; k++) {
        const slot = this.smoothing[k]!;
        if (state.displayStale[slot] === 1) {
          eulerAt(state.displayOrientation, 3 * slot, state.displayWorldToBody, 9 * slot);
          state.displayStale[slot] = 0;
        }
      }
    }
    return state.displayOrientation;
  }

  /**
   * The model state for every reader: loads the pending PDUs first. Public readers and the frame steps reach
   * model state only through here, so that none can see a stale model; `unresolved` is for the loading itself
   * (`apply`, `resolve` and the steps they call), which works on the state as it stands.
   */
  private get resolved(): ModelState {
    if (this.pendingCount > 0) this.resolve();
    return this.unresolved;
  }

  private readonly unresolved: ModelState;
  private readonly markingView: DataView;
  private orientationPending = false;
  private displayPending = false;

  /**
   * The last PDU of each marked slot, not yet in its model, PENDING_STRIDE per slot: location, velocity, ψθφ,
   * acceleration, rates, and the time the model will be valid at. Interleaved, so that `apply` writes two cache
   * lines rather than six. The marked slots are listed densely.
   */
  private readonly pending: Float64Array;
  private readonly pendingAlgorithm: Uint8Array;
  /** PENDING_* per slot. */
  private readonly pendingState: Uint8Array;
  private readonly pendingSlots: Int32Array;
  private pendingCount = 0;

  private readonly index: EntityIndex;
  /** Slots with a rotating kernel, densely packed, and each slot's position in that list (−1: not in it). */
  private readonly rotating: Int32Array;
  private readonly rotatingAt: Int32Array;
  private rotatingCount = 0;
  private readonly freeSlots: Int32Array;
  private freeCount = 0;
  private readonly timeReferenceIsTimestamp: boolean;
  private readonly maxSkew: number;
  private readonly orderByTimestamp: boolean;
  private readonly heartbeatTable: HeartbeatTable;
  private readonly timeoutMultiplier: number;
  /** Timeout of a stationary entity, seconds (0 when turned off), and each slot's timeout by kind and domain. */
  private readonly stationaryTimeoutSeconds: number;
  private readonly kindTimeoutSeconds: Float64Array;
  private readonly onEvent: TableEventListener | null;
  // Smoothing: the slots being corrected, and their start, e0, ė0 and error rotation.
  readonly smoothingMethod: number;
  readonly smoothingSeconds: number;
  readonly teleportMeters: number;
  /** Corrections are smoothed (not 'snap', a positive duration); and the method reads ė0 (projective, convergence). */
  private readonly smoothsCorrections: boolean;
  private readonly smoothingUsesVelocity: boolean;
  private readonly smoothing: Int32Array;
  private smoothingCount = 0;
  private readonly smoothingStart: Float64Array;
  private readonly errorPosition: Float64Array;
  private readonly errorVelocity: Float64Array;
  /** E as a unit quaternion with w ≥ 0 (4 per slot), and half its rotation angle, radians. */
  private readonly errorRotation: Float64Array;
  private readonly errorHalfAngle: Float64Array;
  /** In `smoothing` (a stopped slot stays listed until the next `render` drops it). */
  private readonly listed: Uint8Array;
  // Scratch (no allocation per PDU or frame).
  /**
   * Time is handed to the per-slot steps of `resolve` and `render` in arrays, never as a number: a double computed
   * or loaded by the caller and passed to a function V8 does not inline is boxed on the heap. `now[0]`: the time
   * being evaluated, seconds; `minusDt[slot]`: reference − now, so that the store's kernels, called with t = 0,
   * see dt = now − reference (bit for bit: IEEE subtraction is antisymmetric); `smoothTime`: `positionOffset`'s τ,
   * duration and fraction.
   */
  private readonly now = new Float64Array(1);
  private readonly minusDt: Float64Array;
  private readonly smoothTime = new Float64Array(3);
  private readonly p = new Float64Array(3);
  private readonly v = new Float64Array(3);
  private readonly m = new Float64Array(9);
  private readonly p2 = new Float64Array(3);
  private readonly m2 = new Float64Array(9);
  private readonly previousVelocity = new Float64Array(3);
  /** One pending PDU's five vectors, and views of each. */
  private readonly pdu = new Float64Array(15);
  private readonly pduVectors = [0, 3, 6, 9, 12].map((k) => this.pdu.subarray(k, k + 3));

  constructor(options: RemoteEntityTableOptions = {}) {
    const n = (this.capacity = options.capacity ?? 10_000);
    this.timeReferenceIsTimestamp = options.timeReference === 'timestamp';
    this.maxSkew = options.maxTimestampSkewSeconds ?? 5;
    this.orderByTimestamp = options.orderByTimestamp ?? true;
    this.heartbeatTable = options.heartbeatTable ?? HEARTBEAT_IEEE_TABLE_25;
    this.timeoutMultiplier = options.timeoutMultiplier ?? HEARTBEAT_TIMEOUT_MULTIPLIER;
    const stationary =
      options.stationaryHeartbeatSeconds === undefined
        ? HEARTBEAT_STATIONARY_SECONDS
        : options.stationaryHeartbeatSeconds;
    this.stationaryTimeoutSeconds = (stationary ?? 0) * this.timeoutMultiplier;
    this.onEvent = options.onEvent ?? null;
    this.smoothingMethod = SMOOTHING_METHODS[options.smoothing?.method ?? 'linear'];
    this.smoothingSeconds = options.smoothing?.durationSeconds ?? 0.5;
    this.teleportMeters = options.smoothing?.teleportMeters ?? 100;
    this.smoothsCorrections = this.smoothingMethod !== SMOOTH_SNAP && this.smoothingSeconds > 0;
    this.smoothingUsesVelocity =
      this.smoothingMethod === SMOOTH_PROJECTIVE || this.smoothingMethod === SMOOTH_CONVERGENCE;
    // P0, V, ½A, reference times and both location outputs in one arena, for the SIMD quadratic kernel.
    const arena = n >= 64 ? createFloat64Arena(16 * n) : null;
    const positions = (length: number) => arena?.allocate(length) ?? new Float64Array(length);
    const store = new DrStore(n, arena);
    this.active = new Uint8Array(n);
    this.key = new Float64Array(n);
    this.entityId = new Uint16Array(3 * n);
    this.entityType = new Uint16Array(7 * n);
    this.forceId = new Uint8Array(n);
    this.markingCharacterSet = new Uint8Array(n);
    this.marking = new Uint8Array(11 * n);
    this.markingView = new DataView(this.marking.buffer);
    this.appearance = new Uint32Array(n);
    this.capabilities = new Uint32Array(n);
    this.timestampRaw = new Uint32Array(n);
    this.protocolVersion = new Uint8Array(n);
    this.exerciseId = new Uint8Array(n);
    const reference = positions(n);
    this.arrivalSeconds = new Float64Array(n);
    this.timeoutSeconds = new Float64Array(n);
    this.kindTimeoutSeconds = new Float64Array(n);
    this.location = positions(3 * n);
    this.displayLocation = positions(3 * n);
    this.unresolved = new ModelState(store, reference);
    this.pending = new Float64Array(PENDING_STRIDE * n);
    this.pendingAlgorithm = new Uint8Array(n);
    this.pendingState = new Uint8Array(n);
    this.pendingSlots = new Int32Array(n);
    this.index = new EntityIndex(n);
    this.rotating = new Int32Array(n);
    this.rotatingAt = new Int32Array(n).fill(-1);
    this.freeSlots = new Int32Array(n);
    this.smoothing = new Int32Array(n);
    this.smoothingStart = new Float64Array(n);
    this.errorPosition = new Float64Array(3 * n);
    this.errorVelocity = new Float64Array(3 * n);
    this.errorRotation = new Float64Array(4 * n);
    this.errorHalfAngle = new Float64Array(n);
    this.listed = new Uint8Array(n);
    this.minusDt = new Float64Array(n);
    this.freezes = new ExerciseFreeze(n);
    this.frozen = this.freezes.frozen;
  }

  /**
   * Holds the entity in `slot` at `atSeconds` (Stop/Freeze): from then on it is neither dead-reckoned nor timed out,
   * and a PDU it sends shows it where that PDU says. Fires `FROZEN`. @returns false when it was held already.
   */
  freeze(slot: number, atSeconds: number): boolean {
    if (this.active[slot] !== 1) return false;
    this.resolve();
    if (!this.freezes.freeze(slot, atSeconds)) return false;
    this.onEvent?.(TableEvent.FROZEN, slot, this.key[slot]!);
    return true;
  }

  /**
   * Lets a held entity run again from `atSeconds` (Start/Resume), from where it stood: its model's reference time
   * and its arrival (for the timeout) move on by the time it was held. Fires `RESUMED`.
   * @returns false when it was not held.
   */
  resume(slot: number, atSeconds: number): boolean {
    if (this.active[slot] !== 1 || !this.freezes.isFrozen(slot)) return false;
    this.resolve();
    const held = this.freezes.resume(slot, atSeconds);
    this.unresolved.reference[slot] = this.unresolved.reference[slot]! + held;
    this.arrivalSeconds[slot] = this.arrivalSeconds[slot]! + held;
    this.onEvent?.(TableEvent.RESUMED, slot, this.key[slot]!);
    return true;
  }

  /** The slot of an entity key, or −1. */
  slotOf(key: number): number {
    return this.index.get(key);
  }

  /**
   * The state the slot's last PDU carried, without loading pending PDUs into their models (so it costs no model
   * reset and suits an `onEvent` listener, called once per PDU): location ECEF metres at out[o…o+2], ψθφ radians
   * at out[o+3…o+5] (as sent, which is what the models start from) and, at out[o+6], the time the model is valid at,
   * seconds (as `referenceSeconds` once resolved). A released slot still holds its entity's last PDU.
   */
  receivedStateInto(slot: number, out: Float64Array, o = 0): void {
    if (this.pendingState[slot] !== PENDING_NONE) {
      const pending = this.pending,
        p = PENDING_STRIDE * slot;
      for (let k = 0; k < 3; k++) {
        out[o + k] = pending[p + k]!;
        out[o + 3 + k] = pending[p + 6 + k]!;
      }
      out[o + 6] = pending[p + PENDING_REFERENCE]!;
    } else {
      const s = this.unresolved.store,
        s3 = 3 * slot;
      for (let k = 0; k < 3; k++) {
        out[o + k] = s.location0[s3 + k]!;
        out[o + 3 + k] = s.orientation0[s3 + k]!;
      }
      out[o + 6] = this.unresolved.reference[slot]!;
    }
  }

  /**
   * Applies a decoded Entity State (type 1) or Entity State Update (type 67) PDU: checks its order, copies its
   * fields into the slot and fires the event. The model reset and the smoothing start wait for the next read of the
   * slot's state (see the module comment), so a burst of PDUs costs one copy each.
   * @param nowSeconds - arrival time, seconds (Unix epoch seconds in 'timestamp' mode).
   * @returns what was done with the PDU; rejections are also counted in `stats`.
   */
  apply(record: EntityStateRecord, nowSeconds: number): ApplyResult {
    const full = record.pduType === 1;
    if (!full && record.pduType !== 67) return (this.stats.notEntityState++, ApplyResult.NOT_ENTITY_STATE);
    const key = entityKey(record.site, record.application, record.entity);
    let slot = this.index.get(key);
    const raw = record.timestampRaw >>> 0;
    if (slot >= 0 && this.orderByTimestamp) {
      // Units since the last PDU, wrap-aware over the hour: 0 = duplicate, negative (over half an hour back) = older.
      const delta = timestampUnitsDelta(this.timestampRaw[slot]!, raw);
      if (delta === 0) return (this.stats.duplicates++, ApplyResult.DUPLICATE);
      // Older by more than the entity's timeout is no reordering (a datagram that late finds its entity gone): the
      // sender restarted and its clock with it. Taken as the entity's new timeline, counted in `stats.restarts`.
      if (delta < 0) {
        const backSeconds = -delta * SECONDS_PER_TIMESTAMP_UNIT;
        if (backSeconds <= this.timeoutSeconds[slot]!) return (this.stats.outOfOrder++, ApplyResult.OUT_OF_ORDER);
        this.stats.restarts++;
      }
    }
    if (isDeactivated(record.appearance)) {
      if (slot < 0) return ApplyResult.IGNORED;
      this.release(slot, TableEvent.REMOVED);
      return ApplyResult.REMOVED;
    }
    const appeared = slot < 0;
    if (appeared) {
      if (!full) return (this.stats.unknownUpdates++, ApplyResult.UNKNOWN_UPDATE);
      if (this.size >= this.capacity) return (this.stats.full++, ApplyResult.TABLE_FULL);
      slot = this.freeCount > 0 ? this.freeSlots[--this.freeCount]! : this.highWater++;
      this.index.set(key, slot);
      this.active[slot] = 1;
      this.key[slot] = key;
      this.size++;
    }
    if (appeared) {
      // The key is the id: it never changes for a slot until the slot is released.
      this.entityId[3 * slot] = record.site;
      this.entityId[3 * slot + 1] = record.application;
      this.entityId[3 * slot + 2] = record.entity;
    }
    this.appearance[slot] = record.appearance >>> 0;
    this.timestampRaw[slot] = raw;
    this.protocolVersion[slot] = record.protocolVersion;
    this.exerciseId[slot] = record.exerciseId;
    this.arrivalSeconds[slot] = nowSeconds;
    const pending = this.pending,
      o = PENDING_STRIDE * slot;
    pending[o + PENDING_REFERENCE] = this.timeReferenceIsTimestamp ? this.referenceTime(raw, nowSeconds) : nowSeconds;
    const state = this.pendingState[slot];
    if (state === PENDING_NONE) this.pendingSlots[this.pendingCount++] = slot;
    // A new entity snaps to its first state, however many PDUs follow before the next frame.
    this.pendingState[slot] =
      appeared || state === PENDING_NEW || state === PENDING_DROPPED ? PENDING_NEW : PENDING_UPDATE;
    const location = record.location,
      velocity = record.linearVelocity,
      orientation = record.orientation;
    pending[o] = location[0]!;
    pending[o + 1] = location[1]!;
    pending[o + 2] = location[2]!;
    pending[o + 3] = velocity[0]!;
    pending[o + 4] = velocity[1]!;
    pending[o + 5] = velocity[2]!;
    pending[o + 6] = orientation[0]!;
    pending[o + 7] = orientation[1]!;
    pending[o + 8] = orientation[2]!;
    if (full) {
      this.forceId[slot] = record.forceId;
      const s7 = 7 * slot,
        type = this.entityType,
        entityType = record.entityType;
      // The timeout depends on kind and domain only: looked up when they change.
      const timeoutChanged = appeared || type[s7] !== entityType[0] || type[s7 + 1] !== entityType[1];
      // Unrolled, as the marking below: the loops cost more than all the other copies of a PDU together.
      type[s7] = entityType[0]!;
      type[s7 + 1] = entityType[1]!;
      type[s7 + 2] = entityType[2]!;
      type[s7 + 3] = entityType[3]!;
      type[s7 + 4] = entityType[4]!;
      type[s7 + 5] = entityType[5]!;
      type[s7 + 6] = entityType[6]!;
      if (timeoutChanged)
        this.kindTimeoutSeconds[slot] =
          heartbeatSecondsFor(this.heartbeatTable, entityType[0]!, entityType[1]!) * this.timeoutMultiplier;
      this.markingCharacterSet[slot] = record.markingCharacterSet;
      // 11 bytes as 4 + 4 + 2 + 1 through DataViews (the record keeps its marking at BYTE_FIELDS_MARKING).
      const s11 = 11 * slot,
        to = this.markingView,
        from = record.byteFieldsView;
      to.setUint32(s11, from.getUint32(BYTE_FIELDS_MARKING));
      to.setUint32(s11 + 4, from.getUint32(BYTE_FIELDS_MARKING + 4));
      to.setUint16(s11 + 8, from.getUint16(BYTE_FIELDS_MARKING + 8));
      to.setUint8(s11 + 10, from.getUint8(BYTE_FIELDS_MARKING + 10));
      this.capabilities[slot] = record.capabilities >>> 0;
      const algorithm = record.drAlgorithm;
      if (!isKnownAlgorithm(algorithm)) this.stats.unknownAlgorithm++;
      this.pendingAlgorithm[slot] = algorithm;
      const acceleration = record.linearAcceleration,
        rates = record.angularVelocity;
      pending[o + 9] = acceleration[0]!;
      pending[o + 10] = acceleration[1]!;
      pending[o + 11] = acceleration[2]!;
      pending[o + 12] = rates[0]!;
      pending[o + 13] = rates[1]!;
      pending[o + 14] = rates[2]!;
    } else if (state === PENDING_NONE) {
      // An update carries no DR parameters: keep the algorithm, acceleration and rates of the last full PDU
      // (already pending when one is).
      const s = this.unresolved.store,
        s3 = 3 * slot;
      this.pendingAlgorithm[slot] = s.algorithm[slot]!;
      for (let k = 0; k < 3; k++) {
        pending[o + 9 + k] = s.acceleration[s3 + k]!;
        pending[o + 12 + k] = s.angularVelocity[s3 + k]!;
      }
    }
    // Moving entities fail at the first velocity comparison; an update PDU is judged with its entity's last DR
    // parameters, copied above.
    const kindTimeout = this.kindTimeoutSeconds[slot]!,
      stationaryTimeout = this.stationaryTimeoutSeconds;
    this.timeoutSeconds[slot] =
      stationaryTimeout > kindTimeout &&
      isStationaryState(this.pendingAlgorithm[slot]!, pending, o + 3, pending, o + 9, pending, o + 12)
        ? stationaryTimeout
        : kindTimeout;
    if (appeared) this.stats.appeared++;
    else this.stats.updated++;
    this.onEvent?.(appeared ? TableEvent.APPEARED : TableEvent.UPDATED, slot, key);
    return appeared ? ApplyResult.APPEARED : ApplyResult.UPDATED;
  }

  /**
   * Loads the pending PDUs into their slots' models and starts their smoothing corrections. Every reader of slot
   * state does this first; call it only to choose when the work is done.
   */
  resolve(): void {
    const slots = this.pendingSlots,
      states = this.pendingState;
    for (let k = 0; k < this.pendingCount; k++) {
      const slot = slots[k]!,
        state = states[slot];
      states[slot] = PENDING_NONE;
      if (state !== PENDING_DROPPED) this.resolveSlot(slot, state === PENDING_NEW);
    }
    this.pendingCount = 0;
  }

  /** Resets one slot's model from its pending PDU, arrived at `arrivalSeconds[slot]`. */
  private resolveSlot(slot: number, appeared: boolean): void {
    const state = this.unresolved,
      s = state.store,
      s3 = 3 * slot;
    this.now[0] = this.arrivalSeconds[slot]!;
    // New entities and frozen ones (before or after the PDU) snap: only a correction needs the state displayed
    // when the PDU arrived (old model and smoothing), which must be read before the reset.
    const smooth =
      this.smoothsCorrections &&
      !appeared &&
      s.frozen[slot] === 0 &&
      !isFrozen(this.appearance[slot]!) &&
      !this.freezes.isFrozen(slot);
    if (smooth) this.displayedAt(slot);
    const pending = this.pending,
      o = PENDING_STRIDE * slot,
      pdu = this.pdu;
    for (let k = 0; k < 15; k++) pdu[k] = pending[o + k]!;
    state.reference[slot] = pending[o + PENDING_REFERENCE]!;
    this.freezes.rebase(slot, state.reference[slot]!);
    const v = this.pduVectors;
    resetSlot(s, slot, v[0]!, v[1]!, v[2]!, v[3]!, v[4]!, this.pendingAlgorithm[slot]!, this.appearance[slot]!);
    this.trackRotating(slot);
    for (let k = s3; k < s3 + 3; k++) state.orientation[k] = state.displayOrientation[k] = s.orientation0[k]!;
    for (let k = 9 * slot; k < 9 * slot + 9; k++) state.worldToBody[k] = state.displayWorldToBody[k] = s.r0[k]!;
    state.orientationStale[slot] = state.displayStale[slot] = 0;
    if (smooth) this.startSmoothing(slot);
    else this.stopSmoothing(slot);
  }

  /** Removes entities silent for longer than their timeout (heartbeat × 2.4). @returns how many. */
  expire(nowSeconds: number): number {
    let n = 0;
    for (let slot = 0; slot < this.highWater; slot++) {
      if (
        this.active[slot] === 1 &&
        nowSeconds - this.arrivalSeconds[slot]! > this.timeoutSeconds[slot]! &&
        this.freezes.frozen[slot] === 0
      ) {
        this.release(slot, TableEvent.TIMED_OUT);
        n++;
      }
    }
    return n;
  }

  /** Removes one entity now (e.g. on a Remove Entity request). @returns false if it was not held. */
  remove(key: number): boolean {
    const slot = this.index.get(key);
    if (slot < 0) return false;
    this.release(slot, TableEvent.REMOVED);
    return true;
  }

  /**
   * Dead-reckons every slot to tSeconds (no smoothing): locations, and R_wb of the rotating slots into
   * `worldToBody` (fixed orientations are written when their PDU is loaded). Free slots below `highWater` are
   * computed too (cheaper than testing); read only slots with `active[slot] === 1`.
   * @param outLocation - ECEF metres, 3 per slot. Defaults to `this.location`.
   * @param outOrientation - ψθφ radians, 3 per slot, written now. Defaults to `this.orientation`, converted
   *   from `worldToBody` when next read.
   */
  extrapolate(tSeconds: number, outLocation: Float64Array = this.location, outOrientation?: Float64Array): void {
    const state = this.resolved;
    if (outOrientation === undefined || outOrientation === state.orientation) {
      this.extrapolateMatrices(state, tSeconds, outLocation, state.worldToBody, state.orientationStale);
      this.orientationPending = true;
      return;
    }
    const s = state.store,
      count = this.highWater,
      reference = state.reference;
    this.freezes.hold(reference, tSeconds);
    extrapolateLinear(s, count, reference, tSeconds, outLocation);
    const o0 = s.orientation0;
    for (let j = 0; j < 3 * count; j++) outOrientation[j] = o0[j]!;
    for (let k = 0; k < this.rotatingCount; k++) {
      const slot = this.rotating[k]!;
      evaluateRotating(s, slot, tSeconds, reference, outLocation, slot, this.m, 0, outOrientation);
    }
    this.freezes.unhold(reference);
  }

  /** Locations of every slot and R_wb of the rotating ones (9 per slot in `matrices`), whose angles go stale. */
  private extrapolateMatrices(
    state: ModelState,
    tSeconds: number,
    outLocation: Float64Array,
    matrices: Float64Array,
    stale: Uint8Array,
  ): void {
    const s = state.store,
      reference = state.reference,
      rotating = this.rotating;
    const held = this.freezes.size > 0;
    if (held) this.freezes.hold(reference, tSeconds);
    extrapolateLinear(s, this.highWater, reference, tSeconds, outLocation);
    // Only the rotating slots, from a dense list: a scan testing every slot's kernel costs more than the
    // quadratic pass itself (bench/dr.bench.ts).
    rotateSlots(s, rotating, this.rotatingCount, tSeconds, reference, matrices, -1);
    const kernel = s.kernel;
    for (let k = 0; k < this.rotatingCount; k++) {
      const slot = rotating[k]!;
      stale[slot] = 1;
      if (kernel[slot] === KERNEL_ROTATING_BODY) bodyPosition(s, slot, tSeconds, reference, outLocation, slot);
    }
    if (held) this.freezes.unhold(reference);
  }

  /** Euler angles of the rotating slots whose matrix changed since they were last converted. @returns false */
  private convertStale(matrices: Float64Array, angles: Float64Array, stale: Uint8Array): false {
    const rotating = this.rotating;
    for (let k = 0; k < this.rotatingCount; k++) {
      const slot = rotating[k]!;
      if (stale[slot] === 1) {
        eulerAt(angles, 3 * slot, matrices, 9 * slot);
        stale[slot] = 0;
      }
    }
    return false;
  }

  /** Keeps the dense list of rotating slots in step with the slot's kernel. */
  private trackRotating(slot: number): void {
    const isRotating = this.active[slot] === 1 && this.unresolved.store.kernel[slot] !== KERNEL_LINEAR;
    const at = this.rotatingAt[slot]!;
    if (isRotating && at < 0) {
      this.rotatingAt[slot] = this.rotatingCount;
      this.rotating[this.rotatingCount++] = slot;
    } else if (!isRotating && at >= 0) {
      const last = this.rotating[--this.rotatingCount]!;
      this.rotating[at] = last;
      this.rotatingAt[last] = at;
      this.rotatingAt[slot] = -1;
    }
  }

  /** Displayed state of every slot at tSeconds into `displayLocation` / `displayWorldToBody` (and, when read, `displayOrientation`): DR plus smoothing. */
  render(tSeconds: number): void {
    const state = this.resolved;
    this.extrapolateMatrices(state, tSeconds, this.displayLocation, state.displayWorldToBody, state.displayStale);
    this.displayPending = true;
    this.now[0] = tSeconds;
    for (let k = 0; k < this.smoothingCount; ) {
      const slot = this.smoothing[k]!;
      if (this.smoothSlot(slot, this.displayLocation, state.displayWorldToBody, slot, true)) k++;
      else {
        // Finished or stopped: drop from the list.
        this.listed[slot] = 0;
        this.smoothing[k] = this.smoothing[--this.smoothingCount]!;
      }
    }
  }

  /**
   * The displayed state of one slot at tSeconds, DR plus smoothing: what `render` writes at the slot's offsets of
   * `displayLocation` and `displayWorldToBody`, written at offset 0 of the outputs instead (the table's display
   * arrays are left as they are). For a reader of one entity: no pass over all slots and no list upkeep.
   * @param outLocation - ECEF metres (3).
   * @param outWorldToBody - R_wb, row-major (9).
   */
  renderSlot(slot: number, tSeconds: number, outLocation: Float64Array, outWorldToBody: Float64Array): void {
    const state = this.resolved,
      s = state.store;
    // A held entity is evaluated at the time it is held at.
    const t = Math.min(tSeconds, this.freezes.frozenAt(slot));
    const reference = state.reference;
    positionAt(s, slot, t, reference, outLocation, 0);
    if (s.kernel[slot] !== KERNEL_LINEAR) {
      evaluateRotating(s, slot, t, reference, outLocation, 0, outWorldToBody, 0, null);
    }
    this.now[0] = tSeconds;
    // A fixed orientation is written by smoothSlot, smoothed or not.
    this.smoothSlot(slot, outLocation, outWorldToBody, 0, false);
  }

  /** True while the slot's displayed state is converging onto a corrected path. */
  isConverging(slot: number): boolean {
    return this.resolved.isSmoothing[slot] === 1;
  }

  /** The time a PDU's model is valid at in 'timestamp' mode: its absolute timestamp, or the arrival when that is not trusted. */
  private referenceTime(raw: number, nowSeconds: number): number {
    if ((raw & 1) === 0) return (this.stats.untrustedTimestamps++, nowSeconds);
    const nowPastHour = ((nowSeconds % 3600) + 3600) % 3600;
    let age = nowPastHour - (raw >>> 1) * SECONDS_PER_TIMESTAMP_UNIT;
    if (age > 1800) age -= 3600;
    else if (age <= -1800) age += 3600;
    if (Math.abs(age) > this.maxSkew) return (this.stats.untrustedTimestamps++, nowSeconds);
    return nowSeconds - age;
  }

  /**
   * The state displayed for one slot at now[0], before a new PDU replaces its model: position into this.p, R_wb
   * into this.m and, for the methods that read ė0, the old path's world velocity into this.previousVelocity.
   */
  private displayedAt(slot: number): void {
    const s = this.unresolved.store;
    this.minusDt[slot] = this.unresolved.reference[slot]! - this.now[0]!;
    positionAt(s, slot, 0, this.minusDt, this.p, 0);
    if (s.kernel[slot] !== KERNEL_LINEAR) evaluateRotating(s, slot, 0, this.minusDt, this.p, 0, this.m, 0, null);
    else for (let k = 0; k < 9; k++) this.m[k] = s.r0[9 * slot + k]!;
    if (this.smoothingUsesVelocity) worldVelocity(s, slot, 0, this.m, 0, this.previousVelocity, 0, this.minusDt);
    if (this.unresolved.isSmoothing[slot] === 1) this.smoothSlot(slot, this.p, this.m, 0, false);
  }

  /** Starts a correction at now[0] from the displayed state (this.p, this.m, this.previousVelocity) onto the new model. */
  private startSmoothing(slot: number): void {
    const s = this.unresolved.store,
      j = 3 * slot,
      t = this.now[0]!;
    // The new path at t (dt is usually 0, or the PDU's age in 'timestamp' mode): position p2, R_wb m2.
    this.minusDt[slot] = this.unresolved.reference[slot]! - t;
    positionAt(s, slot, 0, this.minusDt, this.p2, 0);
    if (s.kernel[slot] !== KERNEL_LINEAR) evaluateRotating(s, slot, 0, this.minusDt, this.p2, 0, this.m2, 0, null);
    else for (let k = 0; k < 9; k++) this.m2[k] = s.r0[9 * slot + k]!;
    let e2 = 0;
    for (let k = 0; k < 3; k++) {
      const e = this.p[k]! - this.p2[k]!;
      this.errorPosition[j + k] = e;
      e2 += e * e;
    }
    if (Math.sqrt(e2) > this.teleportMeters) return this.stopSmoothing(slot);
    if (this.smoothingUsesVelocity) {
      // ė0 = displayed − new path velocity (the displayed velocity taken as the old path's).
      worldVelocity(s, slot, 0, this.m2, 0, this.v, 0, this.minusDt);
      for (let k = 0; k < 3; k++) this.errorVelocity[j + k] = this.previousVelocity[k]! - this.v[k]!;
    }
    startRotationError(this.errorRotation, this.errorHalfAngle, slot, this.m, this.m2);
    this.smoothingStart[slot] = t;
    this.unresolved.isSmoothing[slot] = 1;
    if (this.listed[slot] === 0) {
      this.listed[slot] = 1;
      this.smoothing[this.smoothingCount++] = slot;
    }
  }

  private stopSmoothing(slot: number): void {
    // Removed lazily from the list by `render`, which checks this flag through smoothSlot.
    this.unresolved.isSmoothing[slot] = 0;
  }

  /**
   * Adds the smoothing offset of one slot at now[0] to the location at offset 3·o and the R_wb at offset 9·o (which hold
   * the new path; for a fixed orientation, which `extrapolate` does not rewrite, R0 is read from the model and the
   * matrix written whole). With `display`, the slot's displayed angles are kept in step: restored for a fixed
   * orientation, else marked for conversion when read.
   * @returns false when the slot is no longer smoothing (finished or stopped).
   */
  private smoothSlot(
    slot: number,
    location: Float64Array,
    matrices: Float64Array,
    o: number,
    display: boolean,
  ): boolean {
    const o3 = 3 * o,
      o9 = 9 * o,
      j = 3 * slot,
      state = this.unresolved,
      s = state.store;
    const fixed = s.kernel[slot] === KERNEL_LINEAR;
    if (state.isSmoothing[slot] === 1) {
      const time = this.smoothTime;
      time[SMOOTH_TAU] = this.now[0]! - this.smoothingStart[slot]!;
      time[SMOOTH_DURATION] = this.smoothingSeconds;
      positionOffset(this.smoothingMethod, time, this.errorPosition, this.errorVelocity, slot, this.p2, 0);
      const sFraction = time[SMOOTH_FRACTION]!;
      if (sFraction < 1) {
        for (let k = 0; k < 3; k++) location[o3 + k]! += this.p2[k]!;
        const from = fixed ? s.r0 : matrices,
          f9 = fixed ? 9 * slot : o9;
        turnByError(this.errorRotation, this.errorHalfAngle, slot, time, from, f9, matrices, o9);
        if (display) state.displayStale[slot] = 1;
        return true;
      }
      state.isSmoothing[slot] = 0;
    }
    // On the new path: a fixed orientation is R0 again.
    if (fixed) {
      for (let k = 0; k < 9; k++) matrices[o9 + k] = s.r0[9 * slot + k]!;
      if (display) {
        for (let k = 0; k < 3; k++) state.displayOrientation[o3 + k] = s.orientation0[j + k]!;
        state.displayStale[slot] = 0;
      }
    }
    return false;
  }

  private release(slot: number, event: TableEvent): void {
    if (event === TableEvent.TIMED_OUT) this.stats.timedOut++;
    else this.stats.removed++;
    const key = this.key[slot]!;
    this.onEvent?.(event, slot, key);
    this.index.delete(key);
    this.active[slot] = 0;
    this.freezes.clear(slot);
    const state = this.unresolved;
    state.isSmoothing[slot] = 0;
    state.orientationStale[slot] = state.displayStale[slot] = 0;
    this.timestampRaw[slot] = 0;
    // A released slot extrapolates as a frozen static model until reused (the loops run over it).
    state.store.kernel[slot] = KERNEL_LINEAR;
    for (let k = 0; k < 3; k++) {
      state.store.velocityWorld[3 * slot + k] = 0;
      state.store.halfAccelerationWorld[3 * slot + k] = 0;
    }
    this.trackRotating(slot);
    // Still listed if its PDU was pending: skipped when resolved, or taken over by the next entity in the slot.
    if (this.pendingState[slot] !== PENDING_NONE) this.pendingState[slot] = PENDING_DROPPED;
    this.freeSlots[this.freeCount++] = slot;
    this.size--;
  }
}
