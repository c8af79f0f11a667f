/**
 * The receiver side: a bounded struct-of-arrays table of remote entities, keyed by `entityKey`. `apply` drops
 * duplicates and out-of-order PDUs by timestamp (with the hourly wrap) and copies the PDU into its slot;
 * `extrapolate` / `render` compute every entity at time t into Float64Arrays without allocating. Time is a
 * parameter, seconds on the caller's axis; the table never reads a clock.
 *
 * Model resets are lazy (pending-pdus.ts): every reader of model state (model-state.ts) goes through `resolved`,
 * which loads the pending PDUs first, and a correction starts from what was displayed when the last PDU arrived
 * (correction-smoother.ts). Orientation is kept as R_wb; the ψθφ arrays are converted from it when read. The
 * listener is called synchronously with each `TableEvent`; during a timed-out or removed event the slot still
 * holds the entity's last state. The parts, each in a file of its own: which slot holds which entity
 * (entity-slots.ts), the PDU's other fields (remote-entity-fields.ts), the models (store.ts), the timeouts, the
 * passes over all slots (table-frames.ts). The vectors a PDU carries as 32-bit floats are held as float32: a table
 * of a million entities holds under 400 bytes per entity (bench/udp.bench.ts `table.rss1m`).
 */
import { PduType } from '../../pdu/wire/constants.js';
import { SECONDS_PER_TIMESTAMP_UNIT, timestampUnitsDelta } from '../../pdu/wire/timestamp.js';
import {
  BYTE_FIELDS_MARKING as BYTE_FIELDS_MARKING_IMPORTED,
  entityKey,
  type EntityStateRecord,
} from '../../pdu/wire/entity-state-record.js';
import { isDeactivated, isFrozen, isKnownAlgorithm } from '../models/algorithm.js';
import {
  DrStore,
  KERNEL_LINEAR as KERNEL_LINEAR_IMPORTED,
  evaluateRotating,
  eulerAt,
  initialWorldToBody,
  positionAt,
  resetSlot,
} from '../models/store.js';
import { createFloat64Arena } from '../models/simd-kernel.js';
import { CorrectionSmoother } from './correction-smoother.js';
import { EntitySlots } from './entity-slots.js';
import { EntityTimeouts, type TimeoutOptions } from './entity-timeouts.js';
import { ModelState } from '../models/model-state.js';
import { RemoteEntityFields } from './remote-entity-fields.js';
import { TableFrames } from './table-frames.js';
import { timestampReferenceSeconds } from '../models/timestamp-reference.js';
import { PENDING_DROPPED, PENDING_NEW, PENDING_REFERENCE, PENDING_STRIDE, PendingPdus } from './pending-pdus.js';
import type { SmoothingOptions } from './position-smoothing.js';
import {
  ApplyResult,
  TableEvent,
  createTableStats,
  type TableEventListener,
  type TableStats,
} from './table-results.js';
import { ExerciseFreeze } from './exercise-freeze.js';

/** Options of a `RemoteEntityTable`. */
export interface RemoteEntityTableOptions extends TimeoutOptions {
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
  /** Defaults to linear over 0.5 s, snapping beyond 100 m. */
  smoothing?: SmoothingOptions;
  onEvent?: TableEventListener;
}

// Imported constants copied to module consts, so that TurboFan folds them (a transpiled import is a getter).
const KERNEL_LINEAR = KERNEL_LINEAR_IMPORTED;
const BYTE_FIELDS_MARKING = BYTE_FIELDS_MARKING_IMPORTED;

/** The receiver's remote entities: PDUs applied in order, dead-reckoned and smoothed at any time t. */
export class RemoteEntityTable {
  readonly capacity: number;
  readonly stats: TableStats = createTableStats();

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
  /** 1 per slot whose entity is held by a Stop/Freeze PDU: shown where it stood, never timed out. */
  readonly frozen: Uint8Array;

  /** Slots in use are all below this; loops over slots run to it. */
  get highWater(): number {
    return this.slots.highWater;
  }

  /** Entities held. */
  get size(): number {
    return this.slots.size;
  }

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

  /**
   * Dead-reckoned R_wb, row-major (9 per slot), written by `extrapolate` (fixed orientations: by the PDU). Made at
   * the first `extrapolate` or read.
   */
  get worldToBody(): Float64Array {
    return this.resolved.worldToBodyArray(this.highWater);
  }

  /** Displayed R_wb, row-major (9 per slot), written by `render`. */
  get displayWorldToBody(): Float64Array {
    return this.resolved.displayWorldToBody;
  }

  /** Dead-reckoned ψθφ, radians (3 per slot), as of the last `extrapolate`. Made at the first read. */
  get orientation(): Float64Array {
    const state = this.resolved;
    const angles = state.anglesArray(false, this.highWater);
    // Angles go stale only when `extrapolate` writes matrices: none yet, none to convert.
    if (this.orientationPending && state.worldToBody !== null) {
      this.orientationPending = this.frames.convertStale(state.worldToBody, angles, state.orientationStale);
    }
    return angles;
  }

  /** Displayed ψθφ, radians (3 per slot), as of the last `render`. Made at the first read. */
  get displayOrientation(): Float64Array {
    const state = this.resolved;
    // Made now, the angles are converted where stale: a render since made `displayPending` true.
    const angles = state.anglesArray(true, this.highWater);
    if (this.displayPending) {
      this.displayPending = this.frames.convertStale(state.displayWorldToBody, angles, state.displayStale);
      // Fixed-orientation slots being smoothed turn too.
      const corrections = this.corrections;
      for (let k = 0; k < corrections.count; k++) {
        const slot = corrections.slots[k]!;
        if (state.displayStale[slot] === 1) {
          eulerAt(angles, 3 * slot, state.displayWorldToBody, 9 * slot);
          state.displayStale[slot] = 0;
        }
      }
    }
    return angles;
  }

  /**
   * The model state for every reader: loads the pending PDUs first. Public readers and the frame steps reach
   * model state only through here, so that none can see a stale model; `unresolved` is for the loading itself
   * (`apply`, `resolve` and the steps they call), which works on the state as it stands.
   */
  private get resolved(): ModelState {
    if (this.pending.count > 0) this.resolve();
    return this.unresolved;
  }

  private readonly unresolved: ModelState;
  private orientationPending = false;
  private displayPending = false;

  private readonly slots: EntitySlots;
  private readonly fields: RemoteEntityFields;
  /** The PDUs applied and not yet loaded into their models. */
  private readonly pending: PendingPdus;
  private readonly frames: TableFrames;
  private readonly timeReferenceIsTimestamp: boolean;
  private readonly maxSkew: number;
  private readonly orderByTimestamp: boolean;
  private readonly timeouts: EntityTimeouts;
  private readonly onEvent: TableEventListener | null;
  /** The smoothing of corrections, over the slots' model state (read by the page's GPU state). */
  readonly corrections: CorrectionSmoother;
  /** Entities held by a Stop/Freeze PDU (src/dr/receiver/exercise-freeze.ts): read here, changed by `freeze` / `resume`. */
  readonly freezes: ExerciseFreeze;
  /** One pending PDU's five vectors, and views of each. */
  private readonly pdu = new Float64Array(15);
  private readonly pduVectors = [0, 3, 6, 9, 12].map((k) => this.pdu.subarray(k, k + 3));

  constructor(options: RemoteEntityTableOptions = {}) {
    const n = (this.capacity = options.capacity ?? 10_000);
    this.timeReferenceIsTimestamp = options.timeReference === 'timestamp';
    this.maxSkew = options.maxTimestampSkewSeconds ?? 5;
    this.orderByTimestamp = options.orderByTimestamp ?? true;
    this.timeouts = new EntityTimeouts(n, options);
    this.onEvent = options.onEvent ?? null;
    // P0, V, ½A, reference times and both location outputs in one arena, for the SIMD quadratic kernel.
    const arena = n >= 64 ? createFloat64Arena(16 * n) : null;
    const positions = (length: number) => arena?.allocate(length) ?? new Float64Array(length);
    const store = new DrStore(n, arena, 'float32');
    this.slots = new EntitySlots(n);
    this.active = this.slots.active;
    this.key = this.slots.key;
    const fields = (this.fields = new RemoteEntityFields(n));
    this.entityId = fields.entityId;
    this.entityType = fields.entityType;
    this.forceId = fields.forceId;
    this.markingCharacterSet = fields.markingCharacterSet;
    this.marking = fields.marking;
    this.appearance = fields.appearance;
    this.capabilities = fields.capabilities;
    this.timestampRaw = fields.timestampRaw;
    this.protocolVersion = fields.protocolVersion;
    this.exerciseId = fields.exerciseId;
    this.arrivalSeconds = fields.arrivalSeconds;
    const reference = positions(n);
    this.timeoutSeconds = this.timeouts.seconds;
    this.location = positions(3 * n);
    this.displayLocation = positions(3 * n);
    this.unresolved = new ModelState(store, reference);
    this.freezes = new ExerciseFreeze(n);
    this.frozen = this.freezes.frozen;
    this.corrections = new CorrectionSmoother(this.unresolved, options.smoothing, this.freezes);
    this.pending = new PendingPdus(n);
    this.frames = new TableFrames(this.unresolved, this.freezes);
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
    this.corrections.shift(slot, held);
    this.arrivalSeconds[slot] = this.arrivalSeconds[slot]! + held;
    this.timeouts.arrived(slot, this.arrivalSeconds[slot]!);
    this.onEvent?.(TableEvent.RESUMED, slot, this.key[slot]!);
    return true;
  }

  /** The slot of an entity key, or −1. */
  slotOf(key: number): number {
    return this.slots.slotOf(key);
  }

  /**
   * The state the slot's last PDU carried, without loading pending PDUs into their models (so it costs no model
   * reset and suits an `onEvent` listener, called once per PDU): location ECEF metres at out[o…o+2], ψθφ radians
   * at out[o+3…o+5] (as held: float32, the wire's precision, which is what the models start from) and, at out[o+6],
   * the time the model is valid at, seconds (as `referenceSeconds` once resolved). A released slot still holds its
   * entity's last PDU.
   */
  receivedStateInto(slot: number, out: Float64Array, o = 0): void {
    if (this.pending.receivedInto(slot, out, o)) return;
    const s = this.unresolved.store,
      s3 = 3 * slot;
    for (let k = 0; k < 3; k++) {
      out[o + k] = s.location0[s3 + k]!;
      out[o + 3 + k] = s.orientation0[s3 + k]!;
    }
    out[o + 6] = this.unresolved.reference[slot]!;
  }

  /**
   * Applies a decoded Entity State (type 1) or Entity State Update (type 67) PDU: checks its order, copies its
   * fields into the slot and fires the event. The model reset and the smoothing start wait for the next read of the
   * slot's state (see the module comment), so a burst of PDUs costs one copy each.
   * @param nowSeconds - arrival time, seconds (Unix epoch seconds in 'timestamp' mode).
   * @returns what was done with the PDU; rejections are also counted in `stats`.
   */
  apply(record: EntityStateRecord, nowSeconds: number): ApplyResult {
    const full = record.pduType === PduType.ENTITY_STATE;
    if (!full && record.pduType !== PduType.ENTITY_STATE_UPDATE) {
      this.stats.notEntityState++;
      return ApplyResult.NOT_ENTITY_STATE;
    }
    const key = entityKey(record.site, record.application, record.entity);
    let slot = this.slots.slotOf(key);
    const raw = record.timestampRaw >>> 0;
    if (slot >= 0 && this.orderByTimestamp) {
      // Units since the last PDU, wrap-aware over the hour: 0 = duplicate, negative (over half an hour back) = older.
      const delta = timestampUnitsDelta(this.timestampRaw[slot]!, raw);
      if (delta === 0) {
        this.stats.duplicates++;
        return ApplyResult.DUPLICATE;
      }
      // Older by more than the entity's timeout is no reordering (a datagram that late finds its entity gone): the
      // sender restarted and its clock with it. Taken as the entity's new timeline, counted in `stats.restarts`.
      if (delta < 0) {
        const backSeconds = -delta * SECONDS_PER_TIMESTAMP_UNIT;
        if (backSeconds <= this.timeoutSeconds[slot]!) {
          this.stats.outOfOrder++;
          return ApplyResult.OUT_OF_ORDER;
        }
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
      if (!full) {
        this.stats.unknownUpdates++;
        return ApplyResult.UNKNOWN_UPDATE;
      }
      slot = this.appear(key, record);
      if (slot < 0) {
        this.stats.full++;
        return ApplyResult.TABLE_FULL;
      }
    }
    this.fields.writeCommon(slot, record, raw, nowSeconds);
    const pending = this.pending;
    const wasPending = pending.entry(slot) >= 0;
    // The pool of pending PDUs is bounded: when full, what waits is loaded now.
    if (!wasPending && pending.isFull) this.resolve();
    let reference = nowSeconds;
    if (this.timeReferenceIsTimestamp) {
      reference = timestampReferenceSeconds(raw, nowSeconds, this.maxSkew);
      if (Number.isNaN(reference)) {
        this.stats.untrustedTimestamps++;
        reference = nowSeconds;
      }
    }
    const o = pending.mark(slot, appeared, reference, record);
    if (full) {
      // The copy of a full PDU's other fields is written out here, not called: V8 inlines callees up to a budget
      // of bytecode per function, which a call to it would spend, leaving `mark` out (5 % of the receive path).
      this.forceId[slot] = record.forceId;
      const s7 = 7 * slot,
        type = this.entityType,
        entityType = record.entityType;
      type[s7] = entityType[0]!;
      type[s7 + 1] = entityType[1]!;
      type[s7 + 2] = entityType[2]!;
      type[s7 + 3] = entityType[3]!;
      type[s7 + 4] = entityType[4]!;
      type[s7 + 5] = entityType[5]!;
      type[s7 + 6] = entityType[6]!;
      this.markingCharacterSet[slot] = record.markingCharacterSet;
      // 11 bytes as 4 + 4 + 2 + 1 through DataViews (the record keeps its marking at BYTE_FIELDS_MARKING).
      const s11 = 11 * slot,
        to = this.fields.markingView,
        from = record.byteFieldsView;
      to.setUint32(s11, from.getUint32(BYTE_FIELDS_MARKING));
      to.setUint32(s11 + 4, from.getUint32(BYTE_FIELDS_MARKING + 4));
      to.setUint16(s11 + 8, from.getUint16(BYTE_FIELDS_MARKING + 8));
      to.setUint8(s11 + 10, from.getUint8(BYTE_FIELDS_MARKING + 10));
      this.capabilities[slot] = record.capabilities >>> 0;
      if (!isKnownAlgorithm(record.drAlgorithm)) this.stats.unknownAlgorithm++;
      pending.writeParameters(slot, record);
    } else if (!wasPending) {
      // The last full PDU's DR parameters (already pending when one is).
      pending.keepParameters(slot, this.unresolved.store);
    }
    const s7 = 7 * slot;
    this.timeouts.update(
      slot,
      this.entityType[s7]!,
      this.entityType[s7 + 1]!,
      pending.algorithm[o / PENDING_STRIDE]!,
      pending.values,
      o + 3,
    );
    this.timeouts.arrived(slot, nowSeconds);
    if (appeared) this.stats.appeared++;
    else this.stats.updated++;
    this.onEvent?.(appeared ? TableEvent.APPEARED : TableEvent.UPDATED, slot, key);
    return appeared ? ApplyResult.APPEARED : ApplyResult.UPDATED;
  }

  /** A slot for a new entity, its id written. @returns −1 when the table is full. Apart: the hot path updates. */
  private appear(key: number, record: EntityStateRecord): number {
    const slot = this.slots.take(key);
    if (slot >= 0) this.fields.writeId(slot, record);
    return slot;
  }

  /**
   * Loads the pending PDUs into their slots' models and starts their smoothing corrections. Every reader of slot
   * state does this first; call it only to choose when the work is done.
   */
  resolve(): void {
    const pending = this.pending,
      slots = pending.slots,
      states = pending.state;
    for (let k = 0; k < pending.count; k++) {
      const state = states[k];
      if (state !== PENDING_DROPPED) this.resolveSlot(slots[k]!, k, state === PENDING_NEW);
    }
    pending.clear();
  }

  /** Resets one slot's model from its pending PDU (entry k), arrived at `arrivalSeconds[slot]`. */
  private resolveSlot(slot: number, k: number, appeared: boolean): void {
    const state = this.unresolved,
      s = state.store,
      s3 = 3 * slot;
    this.corrections.now[0] = this.arrivalSeconds[slot]!;
    // New and frozen entities snap; a correction needs the state displayed at arrival, read before the reset.
    const smooth =
      this.corrections.enabled &&
      !appeared &&
      s.frozen[slot] === 0 &&
      !isFrozen(this.appearance[slot]!) &&
      !this.freezes.isFrozen(slot);
    if (smooth) this.corrections.displayedAt(slot);
    const pending = this.pending.values,
      o = PENDING_STRIDE * k,
      pdu = this.pdu;
    for (let c = 0; c < 15; c++) pdu[c] = pending[o + c]!;
    state.reference[slot] = pending[o + PENDING_REFERENCE]!;
    this.freezes.rebase(slot, state.reference[slot]!);
    const v = this.pduVectors;
    resetSlot(s, slot, v[0]!, v[1]!, v[2]!, v[3]!, v[4]!, this.pending.algorithm[k]!, this.appearance[slot]!);
    this.frames.track(slot, this.active[slot] === 1);
    const angles = state.orientation,
      displayAngles = state.displayOrientation;
    if (angles !== null) for (let c = s3; c < s3 + 3; c++) angles[c] = s.orientation0[c]!;
    if (displayAngles !== null) for (let c = s3; c < s3 + 3; c++) displayAngles[c] = s.orientation0[c]!;
    const display = state.displayWorldToBody,
      matrices = state.worldToBody;
    initialWorldToBody(s, slot, display, 9 * slot);
    if (matrices !== null) for (let c = 9 * slot; c < 9 * slot + 9; c++) matrices[c] = display[c]!;
    state.orientationStale[slot] = state.displayStale[slot] = 0;
    if (smooth) this.corrections.start(slot);
    else this.corrections.stop(slot);
  }

  /** Removes entities silent for longer than their timeout (heartbeat × 2.4). @returns how many. */
  expire(nowSeconds: number): number {
    if (!this.timeouts.startScan(nowSeconds)) return 0;
    let n = 0,
      earliest = Number.POSITIVE_INFINITY;
    for (let slot = 0; slot < this.highWater; slot++) {
      if (this.active[slot] !== 1 || this.frozen[slot] !== 0) continue;
      const arrival = this.arrivalSeconds[slot]!,
        timeout = this.timeoutSeconds[slot]!;
      if (nowSeconds - arrival > timeout) {
        this.release(slot, TableEvent.TIMED_OUT);
        n++;
      } else earliest = Math.min(earliest, arrival + timeout);
    }
    this.timeouts.scanned(earliest);
    return n;
  }

  /** Removes one entity now (e.g. on a Remove Entity request). @returns false if it was not held. */
  remove(key: number): boolean {
    const slot = this.slots.slotOf(key);
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
      const matrices = state.worldToBodyArray(this.highWater);
      this.frames.matrices(tSeconds, this.highWater, outLocation, matrices, state.orientationStale);
      this.orientationPending = true;
      return;
    }
    this.frames.angles(tSeconds, this.highWater, outLocation, outOrientation);
  }

  /** Displayed state of every slot at tSeconds into `displayLocation` / `displayWorldToBody` (and, when read, `displayOrientation`): DR plus smoothing. */
  render(tSeconds: number): void {
    const state = this.resolved;
    this.frames.matrices(tSeconds, this.highWater, this.displayLocation, state.displayWorldToBody, state.displayStale);
    this.displayPending = true;
    this.corrections.renderAll(tSeconds, this.displayLocation, state.displayWorldToBody);
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
    this.corrections.now[0] = tSeconds;
    // A fixed orientation is written by `smooth`, smoothed or not.
    this.corrections.smooth(slot, outLocation, outWorldToBody, 0, false);
  }

  /** True while the slot's displayed state is converging onto a corrected path. */
  isConverging(slot: number): boolean {
    if (this.pending.count > 0) this.resolve();
    return this.corrections.isSmoothing(slot);
  }

  private release(slot: number, event: TableEvent): void {
    if (event === TableEvent.TIMED_OUT) this.stats.timedOut++;
    else this.stats.removed++;
    this.onEvent?.(event, slot, this.key[slot]!);
    this.slots.release(slot);
    this.freezes.clear(slot);
    this.corrections.stop(slot);
    const state = this.unresolved;
    state.orientationStale[slot] = state.displayStale[slot] = 0;
    this.timestampRaw[slot] = 0;
    // A released slot extrapolates as a frozen static model until reused (the loops run over it).
    state.store.kernel[slot] = KERNEL_LINEAR;
    for (let k = 0; k < 3; k++) {
      state.store.velocityWorld[3 * slot + k] = 0;
      state.store.halfAccelerationWorld[3 * slot + k] = 0;
    }
    this.frames.track(slot, false);
    this.pending.drop(slot);
  }
}
