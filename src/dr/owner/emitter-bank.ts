/**
 * The owner side for many entities at once: the state of N `DeadReckoningEmitter`s held as struct-of-arrays, as
 * `RemoteEntityTable` holds remote entities. The caller writes every entity's truth into typed arrays (`truth`),
 * then one pass (`decide`) finds which entities need a PDU and why, and `commit` loads the PDUs' states into the
 * sent models. The decisions, and the fields of every PDU, are those of one `DeadReckoningEmitter` per entity fed
 * the same truth (same doubles, same order of operations: emitter-decision.ts holds what both run; the property
 * test in test/dr/emitter-bank.test.ts compares them). Nothing is allocated per decision or per PDU.
 *
 * Per entity: the sent model (a `DrStore` slot: P0, V, ½A, R0, ω, …), when it was sent, its appearance, whether
 * it was stationary (the heartbeat in force), an anchor for the orientation bound (see
 * `DeadReckoningEmitter.orientationExceeded`), and for 'auto' the FVW form's ½A. Thresholds, heartbeats and
 * algorithms are per profile (`addProfile`), a few shared by all entities. With WebAssembly SIMD the predicted
 * positions of a pass come from the quadratic kernel (simd-kernel.ts, bit-identical to the JavaScript loop).
 */
import { worldToBodyFromEuler } from '../../math/euler.js';
import {
  DELTA_MAX,
  FIRST_ACCELERATION,
  POSITION_M,
  POSITION_SQ,
  autoAlgorithm,
  createSentKinematics,
  exceedsAngle,
  exceedsThreshold,
  norm,
  writeOrientationErrors,
  writeSentKinematics,
} from './emitter-decision.js';
import {
  EMIT_CHANGE as EMIT_CHANGE_IMPORTED,
  EMIT_FIRST as EMIT_FIRST_IMPORTED,
  EMIT_HEARTBEAT as EMIT_HEARTBEAT_IMPORTED,
  EMIT_ORIENTATION as EMIT_ORIENTATION_IMPORTED,
  EMIT_POSITION as EMIT_POSITION_IMPORTED,
  type EmitterOptions,
} from './emitter.js';
import {
  AUTO as AUTO_IMPORTED,
  EmitterProfiles,
  PROFILE_ALGORITHM as PROFILE_ALGORITHM_IMPORTED,
  PROFILE_HEARTBEAT as PROFILE_HEARTBEAT_IMPORTED,
  PROFILE_MAX_M as PROFILE_MAX_M_IMPORTED,
  PROFILE_MIN_INTERVAL as PROFILE_MIN_INTERVAL_IMPORTED,
  PROFILE_MIN_M as PROFILE_MIN_M_IMPORTED,
  PROFILE_STATIONARY_HEARTBEAT as PROFILE_STATIONARY_HEARTBEAT_IMPORTED,
  PROFILE_STRIDE as PROFILE_STRIDE_IMPORTED,
  PROFILE_TRAVEL as PROFILE_TRAVEL_IMPORTED,
} from './emitter-profiles.js';
import { isStationaryState } from './heartbeat.js';
import { createFloat64Arena, type Float64Arena } from '../models/simd-kernel.js';
import {
  DrStore,
  KERNEL_LINEAR as KERNEL_LINEAR_IMPORTED,
  KERNEL_ROTATING_BODY as KERNEL_ROTATING_BODY_IMPORTED,
  bodyPosition,
  initialWorldToBody,
  positionAt,
  resetSlot,
  rotateSlots,
} from '../models/store.js';
import { createTruthState } from './truth-state.js';

// Imported constants copied to module consts, so that TurboFan folds them (a transpiled import is a getter).
const KERNEL_LINEAR = KERNEL_LINEAR_IMPORTED;
const KERNEL_ROTATING_BODY = KERNEL_ROTATING_BODY_IMPORTED;
const EMIT_FIRST = EMIT_FIRST_IMPORTED;
const EMIT_POSITION = EMIT_POSITION_IMPORTED;
const EMIT_ORIENTATION = EMIT_ORIENTATION_IMPORTED;
const EMIT_HEARTBEAT = EMIT_HEARTBEAT_IMPORTED;
const EMIT_CHANGE = EMIT_CHANGE_IMPORTED;

/** How the truth's attitude is given: ψθφ in `truth.orientation`, or R_wb in `truth.worldToBody`. */
export type BankAttitude = 'angles' | 'matrix';

/** Options of an `EmitterBank`. */
export interface EmitterBankOptions {
  /** Entities held; `grow` makes room for more. */
  readonly capacity: number;
  /**
   * 'angles' (ψθφ, as `DeadReckoningEmitter.update` without a matrix) or 'matrix' (R_wb row-major, as `update`
   * with `trueWorldToBody`: six sines and cosines fewer per decision, and the angles sent are derived from it).
   * Defaults to 'angles'.
   */
  readonly attitude?: BankAttitude;
}

/**
 * Every entity's truth, written by the caller before each pass (entity i at 3·i, 9·i for matrices): the fields of
 * a `TruthState`, its R_wb in 'matrix' mode, and its appearance bits (a change is sent at once).
 */
export interface BankTruth {
  /** ECEF metres. */
  readonly location: Float64Array;
  /** ECEF m/s. */
  readonly linearVelocity: Float64Array;
  /** ECEF m/s². */
  readonly linearAcceleration: Float64Array;
  /** ψ, θ, φ radians ('angles' mode; empty in 'matrix' mode). */
  readonly orientation: Float64Array;
  /** rad/s about the body axes. */
  readonly angularVelocity: Float64Array;
  /** R_wb row-major ('matrix' mode; empty in 'angles' mode). */
  readonly worldToBody: Float64Array;
  /** Appearance bits, unsigned 32-bit. */
  readonly appearance: Uint32Array;
}

// Imported constants copied to module consts, so that TurboFan folds them (a transpiled import is a getter).
const PROFILE_HEARTBEAT = PROFILE_HEARTBEAT_IMPORTED,
  PROFILE_STATIONARY_HEARTBEAT = PROFILE_STATIONARY_HEARTBEAT_IMPORTED,
  PROFILE_MIN_INTERVAL = PROFILE_MIN_INTERVAL_IMPORTED,
  PROFILE_ALGORITHM = PROFILE_ALGORITHM_IMPORTED,
  PROFILE_TRAVEL = PROFILE_TRAVEL_IMPORTED,
  PROFILE_MIN_M = PROFILE_MIN_M_IMPORTED,
  PROFILE_MAX_M = PROFILE_MAX_M_IMPORTED,
  PROFILE_STRIDE = PROFILE_STRIDE_IMPORTED,
  AUTO = AUTO_IMPORTED;

/** `flags` bits. */
const FLAG_CHANGE_REQUESTED = 1,
  FLAG_STATIONARY = 2;

/** Below this many entities a pass runs the JavaScript quadratic rather than call into WebAssembly. */
const SIMD_MIN_ENTITIES = 16;

/** Entities whose predicted positions a pass computes at a time: a scratch that stays in cache, whatever N. */
const PREDICT_CHUNK = 2048;

/** The decisions of many `DeadReckoningEmitter`s in one pass over struct-of-arrays truth; see the file header. */
export class EmitterBank {
  readonly attitude: BankAttitude;
  /** Entities the arrays hold. */
  capacity = 0;
  /** The truth of every entity (replaced by `grow`: read it after growing). */
  truth!: BankTruth;
  /** The sent models, one slot per entity: what the last PDU of each said (read with `writeSentInto`). */
  store!: DrStore;
  /** Per entity, the reasons (EMIT_* bits) its last decision found; 0 when it needed no PDU. */
  reasons!: Uint8Array;
  /** The entities of the last `decide` that need a PDU, in order (`senderCount` of them). */
  senders!: Int32Array;
  senderCount = 0;
  /** PDUs committed per entity (0: the next decision sends it as first). */
  sentCount!: Uint32Array;
  /** Time of each entity's last PDU, seconds (in the arena: the kernel's reference times). */
  lastSentSeconds!: Float64Array;
  /** Appearance of each entity's last PDU. */
  sentAppearance!: Uint32Array;
  /** Each entity's profile (`addProfile`). */
  profile!: Uint16Array;
  /** Decisions made so far (entity × pass). */
  decisions = 0;

  private arena: Float64Arena | null = null;
  private flags!: Uint8Array;
  /** Predicted positions of the entities of the current chunk of a pass (3 per entity, in the arena). */
  private predicted!: Float64Array;
  /** The float32 acceleration of the FVW form of each entity's last PDU ('auto' compares it with the FPW form). */
  private candidateAcceleration!: Float32Array;
  /**
   * Per entity: dt at the orientation anchor and the room left there (−1: none), and the true R_wb there, held as
   * float32 (the room is less the rounding, so the bound stays a bound).
   */
  private anchor!: Float64Array;
  private anchorR!: Float32Array;
  private readonly profiles = new EmitterProfiles();

  // Scratch: doubles handed between functions through typed arrays (never boxed), and the send's working state.
  private readonly errors = Float64Array.of(0, 0, 2, 0);
  private readonly limit = new Float64Array(1);
  private readonly trueR = new Float64Array(9);
  private readonly predictedR = new Float64Array(9);
  private readonly oneSlot = new Int32Array(1);
  private readonly sendTruth = createTruthState();
  private readonly sendR = new Float64Array(9);
  private readonly sent = createSentKinematics();

  constructor(options: EmitterBankOptions) {
    this.attitude = options.attitude ?? 'angles';
    this.grow(options.capacity);
  }

  /**
   * A profile for these emitter options (the same numbers give the same profile): thresholds, heartbeats, rate
   * cap, algorithm and adaptive threshold, with `DeadReckoningEmitter`'s defaults. @returns its number.
   */
  addProfile(options: EmitterOptions = {}): number {
    return this.profiles.add(options);
  }

  /** Starts entity i afresh with a profile: its next decision sends it as a first PDU. */
  reset(i: number, profile: number): void {
    if (!(profile >= 0 && profile < this.profiles.count)) throw new RangeError(`no profile ${profile}`);
    this.profile[i] = profile;
    this.sentCount[i] = 0;
    this.flags[i] = 0;
    this.anchor[2 * i + 1] = -1;
  }

  /** Makes entity i's next decision send (reason `change`): its marking, type or another field changed. */
  requestUpdate(i: number): void {
    this.flags[i] = this.flags[i]! | FLAG_CHANGE_REQUESTED;
  }

  /** Whether entity i's last PDU describes an entity receivers do not move (its heartbeat is the stationary one). */
  isStationary(i: number): boolean {
    return (this.flags[i]! & FLAG_STATIONARY) !== 0;
  }

  /**
   * Copies one entity's truth into `truth` (the "one record per entity" form of writing it).
   * @param worldToBody - R_wb row-major; required in 'matrix' mode, ignored in 'angles' mode.
   */
  setTruth(
    i: number,
    state: {
      readonly location: ArrayLike<number>;
      readonly linearVelocity: ArrayLike<number>;
      readonly linearAcceleration: ArrayLike<number>;
      readonly orientation: ArrayLike<number>;
      readonly angularVelocity: ArrayLike<number>;
    },
    appearance = 0,
    worldToBody: ArrayLike<number> | null = null,
  ): void {
    const t = this.truth,
      i3 = 3 * i;
    for (let k = 0; k < 3; k++) {
      t.location[i3 + k] = state.location[k]!;
      t.linearVelocity[i3 + k] = state.linearVelocity[k]!;
      t.linearAcceleration[i3 + k] = state.linearAcceleration[k]!;
      t.angularVelocity[i3 + k] = state.angularVelocity[k]!;
    }
    if (this.attitude === 'angles') {
      for (let k = 0; k < 3; k++) t.orientation[i3 + k] = state.orientation[k]!;
    } else {
      if (worldToBody === null) throw new TypeError("an emitter bank with attitude 'matrix' needs R_wb");
      for (let k = 0; k < 9; k++) t.worldToBody[9 * i + k] = worldToBody[k]!;
    }
    t.appearance[i] = appearance >>> 0;
  }

  /**
   * Decides, for each entity in [from, to), whether a PDU is needed at tSeconds and why (`reasons`), and lists
   * those that do in `senders`. Changes nothing the next decision depends on: `commit` sends.
   * @returns the number of senders.
   */
  decide(tSeconds: number, from = 0, to = this.capacity): number {
    if (!(from >= 0 && to <= this.capacity && from <= to)) throw new RangeError(`no entities [${from}, ${to})`);
    const reasons = this.reasons,
      senders = this.senders;
    let count = 0;
    for (let chunk = from; chunk < to; chunk += PREDICT_CHUNK) {
      const end = Math.min(to, chunk + PREDICT_CHUNK);
      this.predict(tSeconds, chunk, end);
      for (let i = chunk; i < end; i++) {
        const r = this.decideEntity(i, tSeconds, chunk);
        reasons[i] = r;
        if (r !== 0) senders[count++] = i;
      }
    }
    this.decisions += to - from;
    this.senderCount = count;
    return count;
  }

  /**
   * Sends the first `count` senders of the last `decide` at tSeconds (the same time): each entity's PDU state is
   * loaded into its sent model, as `DeadReckoningEmitter.update` does when it returns non-zero.
   */
  commit(tSeconds: number, count = this.senderCount): void {
    const n = Math.min(count, this.senderCount);
    for (let k = 0; k < n; k++) this.send(this.senders[k]!, tSeconds);
  }

  /**
   * Writes entity i's last PDU into `out` as `DeadReckoningEmitter.update` writes it: location, the float32
   * velocity, orientation, acceleration and rates, the algorithm and the appearance.
   */
  writeSentInto(
    i: number,
    out: {
      readonly location: Float64Array;
      readonly linearVelocity: Float64Array;
      readonly orientation: Float64Array;
      readonly linearAcceleration: Float64Array;
      readonly angularVelocity: Float64Array;
      drAlgorithm: number;
      appearance: number;
    },
  ): void {
    const s = this.store,
      i3 = 3 * i;
    for (let k = 0; k < 3; k++) {
      out.location[k] = s.location0[i3 + k]!;
      out.linearVelocity[k] = s.velocity[i3 + k]!;
      out.orientation[k] = s.orientation0[i3 + k]!;
      out.linearAcceleration[k] = s.acceleration[i3 + k]!;
      out.angularVelocity[k] = s.angularVelocity[i3 + k]!;
    }
    out.drAlgorithm = s.algorithm[i]!;
    out.appearance = this.sentAppearance[i]!;
  }

  /**
   * Makes room for `capacity` entities, keeping every entity's state. The arrays (`truth` included) are replaced.
   */
  grow(capacity: number): void {
    if (!Number.isInteger(capacity) || capacity < 0 || capacity > 0x7fffffff)
      throw new RangeError(`capacity must be a whole number, got ${capacity}`);
    if (capacity <= this.capacity && this.truth !== undefined) return;
    const old = this.capacity > 0 ? this.snapshot() : null;
    const n = capacity;
    // P0, V, ½A, the reference times and the predicted positions in one arena, for the SIMD quadratic kernel.
    const chunk = Math.min(n, PREDICT_CHUNK);
    const arena = n >= 64 ? createFloat64Arena(10 * n + 3 * chunk) : null;
    const arenaArray = (length: number) => arena?.allocate(length) ?? new Float64Array(length);
    this.arena = arena;
    this.store = new DrStore(n, arena, 'float32');
    this.lastSentSeconds = arenaArray(n);
    this.predicted = arenaArray(3 * chunk);
    this.truth = {
      location: new Float64Array(3 * n),
      linearVelocity: new Float64Array(3 * n),
      linearAcceleration: new Float64Array(3 * n),
      orientation: new Float64Array(this.attitude === 'angles' ? 3 * n : 0),
      angularVelocity: new Float64Array(3 * n),
      worldToBody: new Float64Array(this.attitude === 'matrix' ? 9 * n : 0),
      appearance: new Uint32Array(n),
    };
    this.reasons = new Uint8Array(n);
    this.senders = new Int32Array(n);
    this.sentCount = new Uint32Array(n);
    this.sentAppearance = new Uint32Array(n);
    this.profile = new Uint16Array(n);
    this.flags = new Uint8Array(n);
    this.candidateAcceleration = new Float32Array(3 * n);
    this.anchor = new Float64Array(2 * n);
    this.anchorR = new Float32Array(9 * n);
    for (let i = 0; i < n; i++) this.anchor[2 * i + 1] = -1;
    if (old !== null) this.restore(old);
    this.capacity = n;
    this.senderCount = 0;
  }

  /** Every typed array of the bank and its store, by name (for `grow`). */
  private snapshot(): Map<string, ArrayBufferView> {
    const arrays = new Map<string, ArrayBufferView>();
    const add = (prefix: string, holder: object) => {
      for (const [name, value] of Object.entries(holder)) {
        if (ArrayBuffer.isView(value) && name !== 'errors') arrays.set(`${prefix}${name}`, value);
      }
    };
    add('', this);
    add('store.', this.store);
    add('truth.', this.truth);
    return arrays;
  }

  private restore(old: Map<string, ArrayBufferView>): void {
    for (const [name, value] of this.snapshot()) {
      const previous = old.get(name) as (ArrayBufferView & ArrayLike<number>) | undefined;
      if (previous === undefined || previous.length > (value as unknown as ArrayLike<number>).length) continue;
      (value as unknown as Float64Array).set(previous as Float64Array);
    }
  }

  /**
   * The predicted positions of [from, to) (at most PREDICT_CHUNK) at tSeconds, entity `from` first: the quadratic of
   * each sent model (RPB/RVB in the pass).
   */
  private predict(tSeconds: number, from: number, to: number): void {
    const s = this.store,
      arena = this.arena,
      out = this.predicted;
    let first = from;
    if (arena !== null && to - from >= SIMD_MIN_ENTITIES) {
      const pairs = (to - from) >>> 1;
      arena.quadratic(
        pairs,
        tSeconds,
        s.location0.byteOffset + 24 * from,
        s.velocityWorld.byteOffset + 24 * from,
        s.halfAccelerationWorld.byteOffset + 24 * from,
        this.lastSentSeconds.byteOffset + 8 * from,
        out.byteOffset,
      );
      first = from + 2 * pairs;
    }
    for (let i = first; i < to; i++) positionAt(s, i, tSeconds, this.lastSentSeconds, out, i - from);
  }

  /**
   * `DeadReckoningEmitter.update`'s decision for entity i at tSeconds (its predicted position is in the chunk that
   * starts at entity `chunk`).
   */
  private decideEntity(i: number, tSeconds: number, chunk: number): number {
    if (this.sentCount[i] === 0) return EMIT_FIRST;
    const s = this.store,
      truth = this.truth,
      errors = this.errors,
      profiles = this.profiles.values,
      at = this.profile[i]! * PROFILE_STRIDE;
    const dt = tSeconds - this.lastSentSeconds[i]!;
    const i3 = 3 * i,
      p = truth.location,
      q = this.predicted,
      q3 = 3 * (i - chunk);
    if (s.kernel[i] === KERNEL_ROTATING_BODY) bodyPosition(s, i, tSeconds, this.lastSentSeconds, q, i - chunk);
    const ex = p[i3]! - q[q3]!,
      ey = p[i3 + 1]! - q[q3 + 1]!,
      ez = p[i3 + 2]! - q[q3 + 2]!;
    errors[POSITION_SQ] = ex * ex + ey * ey + ez * ez;
    const travel = profiles[at + PROFILE_TRAVEL]!;
    if (!Number.isNaN(travel)) {
      const v = truth.linearVelocity;
      const speed = Math.sqrt(v[i3]! * v[i3]! + v[i3 + 1]! * v[i3 + 1]! + v[i3 + 2]! * v[i3 + 2]!);
      this.limit[POSITION_M] = Math.min(
        profiles[at + PROFILE_MAX_M]!,
        Math.max(profiles[at + PROFILE_MIN_M]!, speed * travel),
      );
    } else this.limit[POSITION_M] = profiles[at + POSITION_M]!;
    let reasons = 0;
    if (exceedsThreshold(errors, this.limit)) reasons |= EMIT_POSITION;
    let trueR: Float64Array, ri: number;
    if (this.attitude === 'matrix') {
      trueR = truth.worldToBody;
      ri = 9 * i;
    } else {
      const o = truth.orientation;
      trueR = worldToBodyFromEuler(this.trueR, o[i3]!, o[i3 + 1]!, o[i3 + 2]!);
      ri = 0;
    }
    if (this.orientationExceeded(i, tSeconds, trueR, ri, at)) reasons |= EMIT_ORIENTATION;
    const flags = this.flags[i]!;
    const heartbeat =
      profiles[at + ((flags & FLAG_STATIONARY) !== 0 ? PROFILE_STATIONARY_HEARTBEAT : PROFILE_HEARTBEAT)]!;
    if (dt >= heartbeat) reasons |= EMIT_HEARTBEAT;
    if (truth.appearance[i] !== this.sentAppearance[i] || (flags & FLAG_CHANGE_REQUESTED) !== 0) reasons |= EMIT_CHANGE;
    return dt < profiles[at + PROFILE_MIN_INTERVAL]! ? 0 : reasons;
  }

  /**
   * `DeadReckoningEmitter.orientationExceeded` for entity i: the bound from the anchor when it settles the test,
   * else the sent model's rotation at dt, which anchors the bound again.
   */
  private orientationExceeded(i: number, tSeconds: number, trueR: Float64Array, ri: number, at: number): boolean {
    const s = this.store,
      anchor = this.anchor,
      anchorR = this.anchorR,
      a2 = 2 * i,
      a9 = 9 * i;
    // dt again rather than passed: a computed double passed to a function V8 does not inline is boxed.
    const dt = tSeconds - this.lastSentSeconds[i]!,
      dtAnchor = anchor[a2]!;
    const omega = s.kernel[i] === KERNEL_LINEAR ? 0 : s.omegaMagnitude[i]!;
    const room =
      anchor[a2 + 1]! -
      omega * (Math.SQRT2 * (1 + 1e-12) * Math.abs(dt - dtAnchor) + 1e-14 * (Math.abs(dt) + Math.abs(dtAnchor)));
    if (room > 0) {
      let d2 = 0;
      for (let k = 0; k < 9; k++) {
        const d = trueR[ri + k]! - anchorR[a9 + k]!;
        d2 += d * d;
      }
      if (d2 < room * room * (1 - 1e-12)) return false;
    }
    const model = this.predictedR;
    if (s.kernel[i] === KERNEL_LINEAR) initialWorldToBody(s, i, model, 0);
    else {
      this.oneSlot[0] = i;
      rotateSlots(s, this.oneSlot, 1, tSeconds, this.lastSentSeconds, model, 0);
    }
    writeOrientationErrors(this.errors, trueR, ri, model, 0);
    let d2 = 0,
      rounding2 = 0;
    for (let k = 0; k < 9; k++) {
      const x = trueR[ri + k]!,
        d = x - model[k]!;
      anchorR[a9 + k] = x;
      // What float32 took off the anchor (exact: x and its rounding share their leading bits).
      const r = x - anchorR[a9 + k]!;
      d2 += d * d;
      rounding2 += r * r;
    }
    anchor[a2] = dt;
    // The room is measured from the rounded anchor: ‖A − A_j‖ ≤ ‖A − fl(A_j)‖ + ‖fl(A_j) − A_j‖.
    anchor[a2 + 1] =
      this.profiles.values[at + DELTA_MAX]! - (Math.sqrt(d2) + Math.sqrt(rounding2)) * (1 + 1e-12) - 1e-12;
    return exceedsAngle(this.errors, this.profiles.values, at);
  }

  /** `DeadReckoningEmitter.send` for entity i at tSeconds. */
  private send(i: number, tSeconds: number): void {
    const truth = this.sendTruth,
      bank = this.truth,
      i3 = 3 * i;
    for (let k = 0; k < 3; k++) {
      truth.location[k] = bank.location[i3 + k]!;
      truth.linearVelocity[k] = bank.linearVelocity[i3 + k]!;
      truth.linearAcceleration[k] = bank.linearAcceleration[i3 + k]!;
      truth.angularVelocity[k] = bank.angularVelocity[i3 + k]!;
    }
    let worldToBody: Float64Array | null = null;
    if (this.attitude === 'matrix') {
      worldToBody = this.sendR;
      for (let k = 0; k < 9; k++) worldToBody[k] = bank.worldToBody[9 * i + k]!;
    } else {
      for (let k = 0; k < 3; k++) truth.orientation[k] = bank.orientation[i3 + k]!;
    }
    const at = this.profile[i]! * PROFILE_STRIDE;
    const configured = this.profiles.values[at + PROFILE_ALGORITHM]!;
    const alg = configured === AUTO ? this.chooseAlgorithm(i, tSeconds) : configured;
    const sent = this.sent;
    writeSentKinematics(sent, truth, worldToBody, alg);
    const appearance = bank.appearance[i]!;
    const s = this.store;
    resetSlot(
      s,
      i,
      truth.location,
      sent.velocity,
      sent.orientation,
      sent.acceleration,
      sent.angularVelocity,
      alg,
      appearance,
    );
    if (configured === AUTO) {
      // The FVW form of this PDU: its float32 acceleration (½A is taken where it is read, the same doubles).
      const a = truth.linearAcceleration,
        h = this.candidateAcceleration;
      for (let k = 0; k < 3; k++) h[i3 + k] = a[k]!;
    }
    this.sentAppearance[i] = appearance;
    // Decided on the float32 values sent, as receivers decide it (see RemoteEntityTable's timeout).
    const stationary = isStationaryState(alg, sent.velocity, 0, sent.acceleration, 0, sent.angularVelocity, 0);
    this.flags[i] = stationary ? FLAG_STATIONARY : 0;
    this.lastSentSeconds[i] = tSeconds;
    this.anchor[2 * i + 1] = -1;
    this.sentCount[i] = this.sentCount[i]! + 1;
  }

  /**
   * 'auto': the algorithm for entity i's truth (in `sendTruth`), choosing the V form when it would have predicted
   * the interval that just ended better than the P form (each evaluated as `DeadReckoningModel.evaluate` does).
   */
  private chooseAlgorithm(i: number, tSeconds: number): number {
    const truth = this.sendTruth,
      v = truth.linearVelocity,
      w = truth.angularVelocity,
      a = truth.linearAcceleration;
    let accelerating: boolean;
    if (this.sentCount[i] === 0) {
      accelerating = norm(a[0]!, a[1]!, a[2]!) > FIRST_ACCELERATION;
    } else {
      const dt = tSeconds - this.lastSentSeconds[i]!,
        i3 = 3 * i,
        p = truth.location,
        s = this.store,
        a32 = this.candidateAcceleration;
      // The FPW form: P0 + (V + 0·dt)·dt; the FVW form: P0 + (V + ½A·dt)·dt (store.ts `positionAt`).
      const hx = 0.5 * a32[i3]!,
        hy = 0.5 * a32[i3 + 1]!,
        hz = 0.5 * a32[i3 + 2]!;
      const x0 = s.location0[i3]!,
        y0 = s.location0[i3 + 1]!,
        z0 = s.location0[i3 + 2]!;
      const vx = s.velocity[i3]!,
        vy = s.velocity[i3 + 1]!,
        vz = s.velocity[i3 + 2]!;
      const errorP = norm(
        p[0]! - (x0 + (vx + 0 * dt) * dt),
        p[1]! - (y0 + (vy + 0 * dt) * dt),
        p[2]! - (z0 + (vz + 0 * dt) * dt),
      );
      const errorV = norm(
        p[0]! - (x0 + (vx + hx * dt) * dt),
        p[1]! - (y0 + (vy + hy * dt) * dt),
        p[2]! - (z0 + (vz + hz * dt) * dt),
      );
      accelerating = errorV < errorP;
    }
    return autoAlgorithm(norm(v[0]!, v[1]!, v[2]!), norm(w[0]!, w[1]!, w[2]!), accelerating);
  }
}
