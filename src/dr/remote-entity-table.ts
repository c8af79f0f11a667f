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
 * holds the entity's last state.
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
  DrStore,
  KERNEL_LINEAR as KERNEL_LINEAR_IMPORTED,
  KERNEL_ROTATING_BODY as KERNEL_ROTATING_BODY_IMPORTED,
  bodyPosition,
  eulerAt,
  evaluateRotating,
  extrapolateLinear,
  initialWorldToBody,
  positionAt,
  resetSlot,
  rotateSlots,
} from './store.js';
import { createFloat64Arena } from './simd-kernel.js';
import { CorrectionSmoother } from './correction-smoother.js';
import { EntityTimeouts, type TimeoutOptions } from './entity-timeouts.js';
import { ModelState } from './model-state.js';
import { SlotList } from './slot-list.js';
import { timestampReferenceSeconds } from './timestamp-reference.js';
import {
  PENDING_DROPPED,
  PENDING_NEW,
  PENDING_NONE,
  PENDING_REFERENCE,
  PENDING_STRIDE,
  PendingPdus,
} from './pending-pdus.js';
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
const KERNEL_ROTATING_BODY = KERNEL_ROTATING_BODY_IMPORTED;
const BYTE_FIELDS_MARKING = BYTE_FIELDS_MARKING_IMPORTED;

/** The receiver's remote entities: PDUs applied in order, dead-reckoned and smoothed at any time t. */
export class RemoteEntityTable {
  readonly capacity: number;
  /** Slots in use are all below this; loops over slots run to it. */
  highWater = 0;
  size = 0;
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
      const corrections = this.corrections;
      for (let k = 0; k < corrections.count; k++) {
        const slot = corrections.slots[k]!;
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
    if (this.pending.count > 0) this.resolve();
    return this.unresolved;
  }

  private readonly unresolved: ModelState;
  private readonly markingView: DataView;
  private orientationPending = false;
  private displayPending = false;

  /** The PDUs applied and not yet loaded into their models. */
  private readonly pending: PendingPdus;

  private readonly index: EntityIndex;
  /** Slots with a rotating kernel. */
  private readonly rotating: SlotList;
  private readonly freeSlots: Int32Array;
  private freeCount = 0;
  private readonly timeReferenceIsTimestamp: boolean;
  private readonly maxSkew: number;
  private readonly orderByTimestamp: boolean;
  private readonly timeouts: EntityTimeouts;
  private readonly onEvent: TableEventListener | null;
  /** The smoothing of corrections, over the slots' model state. */
  private readonly corrections: CorrectionSmoother;
  /** Scratch R_wb for `extrapolate` (no allocation per frame). */
  private readonly m = new Float64Array(9);
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
    this.timeoutSeconds = this.timeouts.seconds;
    this.location = positions(3 * n);
    this.displayLocation = positions(3 * n);
    this.unresolved = new ModelState(store, reference);
    this.freezes = new ExerciseFreeze(n);
    this.frozen = this.freezes.frozen;
    this.corrections = new CorrectionSmoother(this.unresolved, options.smoothing, this.freezes.at);
    this.pending = new PendingPdus(n);
    this.index = new EntityIndex(n);
    this.rotating = new SlotList(n);
    this.freeSlots = new Int32Array(n);
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
    return this.index.get(key);
  }

  /**
   * The state the slot's last PDU carried, without loading pending PDUs into their models (so it costs no model
   * reset and suits an `onEvent` listener, called once per PDU): location ECEF metres at out[o…o+2], ψθφ radians
   * at out[o+3…o+5] (as sent, which is what the models start from) and, at out[o+6], the time the model is valid at,
   * seconds (as `referenceSeconds` once resolved). A released slot still holds its entity's last PDU.
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
      wasPending = pending.state[slot] !== PENDING_NONE;
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
      if (timeoutChanged) this.timeouts.setKind(slot, entityType[0]!, entityType[1]!);
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
      if (!isKnownAlgorithm(record.drAlgorithm)) this.stats.unknownAlgorithm++;
      pending.writeParameters(slot, record);
    } else if (!wasPending) {
      // The last full PDU's DR parameters (already pending when one is).
      pending.keepParameters(slot, this.unresolved.store);
    }
    this.timeouts.update(slot, pending.algorithm[slot]!, pending.values, o + 3);
    this.timeouts.arrived(slot, nowSeconds);
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
    const pending = this.pending,
      slots = pending.slots,
      states = pending.state;
    for (let k = 0; k < pending.count; k++) {
      const slot = slots[k]!,
        state = states[slot];
      states[slot] = PENDING_NONE;
      if (state !== PENDING_DROPPED) this.resolveSlot(slot, state === PENDING_NEW);
    }
    pending.count = 0;
  }

  /** Resets one slot's model from its pending PDU, arrived at `arrivalSeconds[slot]`. */
  private resolveSlot(slot: number, appeared: boolean): void {
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
      o = PENDING_STRIDE * slot,
      pdu = this.pdu;
    for (let k = 0; k < 15; k++) pdu[k] = pending[o + k]!;
    state.reference[slot] = pending[o + PENDING_REFERENCE]!;
    this.freezes.rebase(slot, state.reference[slot]!);
    const v = this.pduVectors;
    resetSlot(s, slot, v[0]!, v[1]!, v[2]!, v[3]!, v[4]!, this.pending.algorithm[slot]!, this.appearance[slot]!);
    this.trackRotating(slot);
    for (let k = s3; k < s3 + 3; k++) state.orientation[k] = state.displayOrientation[k] = s.orientation0[k]!;
    initialWorldToBody(s, slot, state.displayWorldToBody, 9 * slot);
    for (let k = 9 * slot; k < 9 * slot + 9; k++) state.worldToBody[k] = state.displayWorldToBody[k]!;
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
      if (this.active[slot] !== 1 || this.freezes.frozen[slot] !== 0) continue;
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
    for (let k = 0; k < this.rotating.count; k++) {
      const slot = this.rotating.slots[k]!;
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
      rotating = this.rotating.slots;
    const held = this.freezes.size > 0;
    if (held) this.freezes.hold(reference, tSeconds);
    extrapolateLinear(s, this.highWater, reference, tSeconds, outLocation);
    // Only the rotating slots, from a dense list: a scan of every slot's kernel costs more (bench/dr.bench.ts).
    rotateSlots(s, rotating, this.rotating.count, tSeconds, reference, matrices, -1);
    const kernel = s.kernel;
    for (let k = 0; k < this.rotating.count; k++) {
      const slot = rotating[k]!;
      stale[slot] = 1;
      if (kernel[slot] === KERNEL_ROTATING_BODY) bodyPosition(s, slot, tSeconds, reference, outLocation, slot);
    }
    if (held) this.freezes.unhold(reference);
  }

  /** Euler angles of the rotating slots whose matrix changed since they were last converted. @returns false */
  private convertStale(matrices: Float64Array, angles: Float64Array, stale: Uint8Array): false {
    const rotating = this.rotating.slots;
    for (let k = 0; k < this.rotating.count; k++) {
      const slot = rotating[k]!;
      if (stale[slot] === 1) {
        eulerAt(angles, 3 * slot, matrices, 9 * slot);
        stale[slot] = 0;
      }
    }
    return false;
  }

  /** Keeps the list of rotating slots in step with the slot's kernel. */
  private trackRotating(slot: number): void {
    if (this.active[slot] === 1 && this.unresolved.store.kernel[slot] !== KERNEL_LINEAR) this.rotating.add(slot);
    else this.rotating.delete(slot);
  }

  /** Displayed state of every slot at tSeconds into `displayLocation` / `displayWorldToBody` (and, when read, `displayOrientation`): DR plus smoothing. */
  render(tSeconds: number): void {
    const state = this.resolved;
    this.extrapolateMatrices(state, tSeconds, this.displayLocation, state.displayWorldToBody, state.displayStale);
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
    return this.resolved.isSmoothing[slot] === 1;
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
    this.pending.drop(slot);
    this.freeSlots[this.freeCount++] = slot;
    this.size--;
  }
}
