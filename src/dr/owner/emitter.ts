/**
 * The owner side of dead reckoning: decides, for one local entity, when receivers need a new Entity State PDU
 * (IEEE 1278.1 §E.7.5; docs/dis-reference.md §3.9). The emitter dead-reckons its own last PDU exactly as receivers will — from
 * the float32-rounded velocity, acceleration, angles and rates — and sends when the true state has drifted past a
 * threshold, when the heartbeat is due, or when a non-kinematic field changed. Zero allocation per decision.
 *
 * Two heartbeats (IEEE 1278.1-2012 Table 25, HBT_ESPDU_* and HBT_STATIONARY): while the last PDU sent describes an
 * entity that receivers do not move (`isStationaryState`: static algorithm, or zero velocity, acceleration and
 * rates where the algorithm uses them), the stationary heartbeat (60 s) applies; otherwise the regular one (5 s).
 * A parked entity that starts moving sends as soon as the truth drifts past a threshold from where it was parked,
 * and that PDU, carrying its velocity, brings the regular heartbeat back.
 */
import type { EntityStateRecord } from '../../pdu/wire/entity-state-record.js';
import { worldToBodyFromEulerVec } from '../../math/euler.js';
import { DR_FPW, DR_FVW, DR_RVW, usesAcceleration } from '../models/algorithm.js';
import {
  COS2,
  DELTA_MAX,
  FIRST_ACCELERATION,
  LAST_DT,
  POSITION_M,
  POSITION_SQ,
  SKEW_SQ,
  autoAlgorithm,
  createSentKinematics,
  exceedsAngle,
  exceedsThreshold,
  fround3,
  norm,
  writeOrientationErrors,
  writeOrientationLimits,
  writeSentKinematics,
} from './emitter-decision.js';
import { HEARTBEAT_STATIONARY_SECONDS, isStationaryState } from './heartbeat.js';
import { DeadReckoningModel } from '../models/model.js';
import { KERNEL_LINEAR, KERNEL_ROTATING_BODY, bodyPosition, initialWorldToBody, rotateSlots } from '../models/store.js';
import { createTruthState, type TruthState } from './truth-state.js';
import { PoseRateEstimator } from './pose-rates.js';

/** Why a PDU is sent; `update` returns a bit set of these (0 = nothing to send). */
export const EMIT_FIRST = 1;
/** Reason bit: the position drifted past its threshold. */
export const EMIT_POSITION = 2;
/** Reason bit: the orientation drifted past its threshold. */
export const EMIT_ORIENTATION = 4;
/** Reason bit: the heartbeat was due. */
export const EMIT_HEARTBEAT = 8;
/** The DR algorithm, appearance or another non-kinematic field changed. */
export const EMIT_CHANGE = 16;
/** Names by bit index. */
export const EMIT_REASON_NAMES: readonly string[] = ['first', 'position', 'orientation', 'heartbeat', 'change'];

/** Names of the reasons in a bit set, e.g. ['position', 'heartbeat'] (allocates: for display and logs). */
export function emitReasonNames(reasons: number): string[] {
  return EMIT_REASON_NAMES.filter((_, bit) => (reasons & (1 << bit)) !== 0);
}

/** The threshold grows with speed: clamp(speed × secondsOfTravel, minMeters, maxMeters). */
export interface AdaptiveThreshold {
  /** Position error allowed per m/s of speed, i.e. seconds of travel. */
  readonly secondsOfTravel: number;
  readonly minMeters: number;
  readonly maxMeters: number;
}

/** Options of a `DeadReckoningEmitter`. */
export interface EmitterOptions {
  /** Position threshold DRA_POS_THRSH, metres (Euclidean distance). Defaults to 1. */
  positionThresholdMeters?: number;
  /** Orientation threshold DRA_ORIENT_THRSH, radians. Defaults to 3° (0.05236). */
  orientationThresholdRad?: number;
  /** Heartbeat, seconds; see `heartbeatSecondsFor`. Defaults to 5. */
  heartbeatSeconds?: number;
  /**
   * Heartbeat while the last PDU sent is stationary (`isStationaryState`), seconds (HBT_STATIONARY); never shorter
   * than heartbeatSeconds. `null` or 0 turns it off: the regular heartbeat applies at rest too. Defaults to 60.
   */
  stationaryHeartbeatSeconds?: number | null;
  /** Never send more often than this, seconds (the first PDU is exempt). Defaults to 0 (no cap). */
  minIntervalSeconds?: number;
  /**
   * DR algorithm to send (1–9), or 'auto': static at rest, FPW/RPW for steady motion and FVW/RVW when
   * accelerating — whichever of the P and V forms predicted the last interval better — rotating when the entity
   * turns. Defaults to 4 (RVW).
   */
  algorithm?: number | 'auto';
  /** Speed-proportional position threshold, replacing positionThresholdMeters. Defaults to none. */
  adaptiveThreshold?: AdaptiveThreshold | null;
}

const DEG = Math.PI / 180;

/** Indices of DeadReckoningEmitter's `anchor`. */
const ANCHOR_DT = 0,
  ANCHOR_ROOM = 1;
/** The one slot of a DeadReckoningModel's store, for `rotateSlots`. */
const SLOT_0 = new Int32Array(1);

/** Decides when one local entity needs an Entity State PDU: threshold, heartbeat or a changed field. */
export class DeadReckoningEmitter {
  readonly positionThresholdMeters: number;
  readonly orientationThresholdRad: number;
  readonly heartbeatSeconds: number;
  /** Heartbeat of a stationary entity, seconds (at least heartbeatSeconds; equal to it when turned off). */
  readonly stationaryHeartbeatSeconds: number;
  readonly minIntervalSeconds: number;
  readonly algorithm: number | 'auto';
  readonly adaptiveThreshold: AdaptiveThreshold | null;

  /** PDUs decided so far. */
  sentCount = 0;
  /** Time of the last PDU, seconds (NaN before the first). */
  lastSentSeconds = Number.NaN;
  /** At the last `update`: distance truth ↔ receivers' dead-reckoned position, metres. */
  get positionErrorMeters(): number {
    // Computed when read, as is the angle: deciding needs only their comparisons with the thresholds.
    return Math.sqrt(this.errors[POSITION_SQ]!);
  }
  /** At the last `update`: rotation angle truth ↔ receivers' dead-reckoned orientation, radians. */
  get orientationErrorRad(): number {
    if (this.orientationStale) this.writeOrientationErrors(this.lastTrueR, this.predictedRotation());
    return Math.atan2(Math.sqrt(this.errors[SKEW_SQ]!), this.errors[COS2]!);
  }
  /** The position threshold used at the last `update`, metres. */
  get thresholdMeters(): number {
    return this.limits[POSITION_M]!;
  }
  /** Algorithm of the last PDU. */
  sentAlgorithm = 0;
  /** The last PDU describes an entity that receivers do not move (`isStationaryState`). */
  sentStationary = false;
  /** The heartbeat in force since the last PDU, seconds: stationaryHeartbeatSeconds or heartbeatSeconds. */
  currentHeartbeatSeconds: number;

  private sentAppearance = 0;
  private changeRequested = false;
  private readonly model = new DeadReckoningModel();
  /** The FPW and FVW forms of the last PDU, which `algorithm: 'auto'` compares when it next sends (null otherwise). */
  private readonly candidateP: DeadReckoningModel | null;
  private readonly candidateV: DeadReckoningModel | null;
  /**
   * Doubles handed between methods through typed arrays rather than arguments, since V8 boxes a computed double
   * passed to a function it does not inline: the time of the current `update`, and −dt, the model's reference
   * time on an axis where now is 0 (0 − (−dt) = dt exactly).
   */
  private readonly now = new Float64Array(1);
  private readonly minusDt = new Float64Array(1);
  /**
   * The errors of the last `update` as the decision reads them (indices POSITION_SQ, SKEW_SQ, COS2): |error|²,
   * and (2·sin)² and 2·cos of the orientation error angle (`rotationSinCos`; [0, 0, 2] after a send), and dt.
   */
  private readonly errors = Float64Array.of(0, 0, 2, 0);
  /** The orientation errors are not computed yet (`orientationExceeded` needed no more); the truth is in lastTrueR. */
  private orientationStale = false;
  private readonly lastTrueR = new Float64Array(9);
  /** Where `orientationExceeded` last evaluated the model: dt_j and the room left by ‖A_j − B_j‖_F (−1: none); A_j. */
  private readonly anchor = Float64Array.of(0, -1);
  private readonly anchorR = new Float64Array(9);
  /**
   * The thresholds as the decision reads them (indices POSITION_M, COS, SIN, COS_SQ, DELTA_MAX): doubles in an
   * array, never boxed.
   */
  private readonly limits = new Float64Array(5);
  private readonly predicted = new Float64Array(3);
  private readonly predictedR = new Float64Array(9);
  private readonly trueR = new Float64Array(9);
  /** The fields of the last PDU (`writeSentKinematics`). */
  private readonly sent = createSentKinematics();
  /** The estimator and truth of `updateFromPose`, made on its first call: most emitters never need them. */
  private pose: { readonly rates: PoseRateEstimator; readonly truth: TruthState } | null = null;

  constructor(options: EmitterOptions = {}) {
    this.positionThresholdMeters = options.positionThresholdMeters ?? 1;
    this.orientationThresholdRad = options.orientationThresholdRad ?? 3 * DEG;
    writeOrientationLimits(this.limits, 0, this.orientationThresholdRad);
    this.heartbeatSeconds = options.heartbeatSeconds ?? 5;
    const stationary =
      options.stationaryHeartbeatSeconds === undefined
        ? HEARTBEAT_STATIONARY_SECONDS
        : options.stationaryHeartbeatSeconds;
    this.stationaryHeartbeatSeconds = Math.max(this.heartbeatSeconds, stationary ?? 0);
    this.currentHeartbeatSeconds = this.heartbeatSeconds;
    this.minIntervalSeconds = options.minIntervalSeconds ?? 0;
    this.algorithm = options.algorithm ?? DR_RVW;
    const auto = this.algorithm === 'auto';
    this.candidateP = auto ? new DeadReckoningModel() : null;
    this.candidateV = auto ? new DeadReckoningModel() : null;
    this.adaptiveThreshold = options.adaptiveThreshold ?? null;
    this.limits[POSITION_M] = this.positionThresholdMeters;
  }

  /** Makes the next `update` send (reason `change`): call when the marking, type or another field changed. */
  requestUpdate(): void {
    this.changeRequested = true;
  }

  /**
   * Decides whether to send at time tSeconds. When it returns non-zero, `out`'s kinematic fields, DR algorithm and
   * appearance hold the PDU to send (entity id, type, marking and timestamp are the caller's).
   * @param truth - the true state: ECEF location, velocity, acceleration; ψθφ; body rates.
   * @param tSeconds - the current time, seconds on any steady axis.
   * @param appearance - the entity's appearance bits now; a change is sent at once.
   * @param trueWorldToBody - R_wb of the true orientation (row-major) when the caller has it, e.g. a
   *   `TruthWithAttitude` from a trajectory: it saves six sines and cosines per decision, and truth.orientation
   *   is then not read (the angles sent are derived from the matrix). Defaults to computing it from the angles.
   * @returns reason bits (EMIT_*), 0 when nothing is to be sent.
   */
  update(
    truth: TruthState,
    tSeconds: number,
    out: EntityStateRecord,
    appearance = 0,
    trueWorldToBody: Float64Array | null = null,
  ): number {
    // Kept small so that V8 inlines it into the caller's loop, where storing tSeconds allocates nothing.
    this.now[0] = tSeconds;
    const reasons = this.sentCount === 0 ? EMIT_FIRST : this.decide(truth, appearance, trueWorldToBody);
    if (reasons !== 0) this.send(truth, out, appearance, trueWorldToBody);
    return reasons;
  }

  /** The reasons to send at `now` (0: none, or not before minIntervalSeconds). Allocates nothing. */
  private decide(truth: TruthState, appearance: number, trueWorldToBody: Float64Array | null): number {
    const store = this.model.store,
      errors = this.errors;
    const dt = this.now[0]! - this.lastSentSeconds;
    errors[LAST_DT] = dt;
    const p = truth.location;
    // The sent model's position at dt, exactly as the store's kernels evaluate it (their dt is 0 − (−dt) = dt).
    let ex: number, ey: number, ez: number;
    if (store.kernel[0] !== KERNEL_ROTATING_BODY) {
      const p0 = store.location0,
        v = store.velocityWorld,
        a = store.halfAccelerationWorld;
      ex = p[0]! - (p0[0]! + (v[0]! + a[0]! * dt) * dt);
      ey = p[1]! - (p0[1]! + (v[1]! + a[1]! * dt) * dt);
      ez = p[2]! - (p0[2]! + (v[2]! + a[2]! * dt) * dt);
    } else {
      this.minusDt[0] = -dt;
      const q = this.predicted;
      bodyPosition(store, 0, 0, this.minusDt, q, 0);
      ex = p[0]! - q[0]!;
      ey = p[1]! - q[1]!;
      ez = p[2]! - q[2]!;
    }
    errors[POSITION_SQ] = ex * ex + ey * ey + ez * ez;
    const adaptive = this.adaptiveThreshold;
    if (adaptive !== null) {
      const v = truth.linearVelocity;
      const speed = Math.sqrt(v[0]! * v[0]! + v[1]! * v[1]! + v[2]! * v[2]!);
      this.limits[POSITION_M] = Math.min(
        adaptive.maxMeters,
        Math.max(adaptive.minMeters, speed * adaptive.secondsOfTravel),
      );
    }
    let reasons = 0;
    if (exceedsThreshold(errors, this.limits)) reasons |= EMIT_POSITION;
    if (this.orientationExceeded(trueWorldToBody ?? worldToBodyFromEulerVec(this.trueR, truth.orientation)))
      reasons |= EMIT_ORIENTATION;
    if (dt >= this.currentHeartbeatSeconds) reasons |= EMIT_HEARTBEAT;
    if (appearance !== this.sentAppearance || this.changeRequested) reasons |= EMIT_CHANGE;
    return dt < this.minIntervalSeconds ? 0 : reasons;
  }

  /**
   * Whether the orientation error at errors[LAST_DT] exceeds the threshold, for the true R_wb `trueR`. Decided as
   * `rotationSinCos` and `exceedsAngle` decide it; but most decisions need not evaluate the sent model's rotation.
   * Each evaluation anchors a bound: for any matrices, ‖A − B‖_F ≤ ‖A − A_j‖_F + ‖A_j − B_j‖_F + ‖B_j − B‖_F, where
   * A_j, B_j are truth and model at the anchor and ‖B_j − B‖_F ≤ √2·|ω|·|dt − dt_j| (a turn about a fixed axis).
   * While the bound stays below `limits[DELTA_MAX]` the angle is provably within the threshold
   * (`maxErrorNormWithin`), and only ‖A − A_j‖_F is computed: nine differences instead of a sine, a cosine, a quaternion
   * product and the 27 products of the comparison.
   */
  private orientationExceeded(trueR: Float64Array): boolean {
    const store = this.model.store,
      errors = this.errors,
      anchor = this.anchor,
      anchorR = this.anchorR;
    const dt = errors[LAST_DT]!,
      dtAnchor = anchor[ANCHOR_DT]!;
    const omega = store.kernel[0] === KERNEL_LINEAR ? 0 : store.omegaMagnitude[0]!;
    // The model's turn since the anchor, with room for the roundings of its half angle 0.5·|ω|·dt.
    const room =
      anchor[ANCHOR_ROOM]! -
      omega * (Math.SQRT2 * (1 + 1e-12) * Math.abs(dt - dtAnchor) + 1e-14 * (Math.abs(dt) + Math.abs(dtAnchor)));
    if (room > 0) {
      const last = this.lastTrueR;
      let d2 = 0;
      for (let k = 0; k < 9; k++) {
        const x = trueR[k]!,
          d = x - anchorR[k]!;
        last[k] = x;
        d2 += d * d;
      }
      // √d2 < room, with a relative 1e-12 to spare for the roundings of d2 (NaN fails, and evaluates below).
      if (d2 < room * room * (1 - 1e-12)) {
        this.orientationStale = true;
        return false;
      }
    }
    const predictedR = this.predictedRotation();
    this.writeOrientationErrors(trueR, predictedR);
    let d2 = 0;
    for (let k = 0; k < 9; k++) {
      const x = trueR[k]!,
        d = x - predictedR[k]!;
      anchorR[k] = x;
      d2 += d * d;
    }
    anchor[ANCHOR_DT] = dt;
    anchor[ANCHOR_ROOM] = this.limits[DELTA_MAX]! - Math.sqrt(d2) * (1 + 1e-12) - 1e-12;
    return exceedsAngle(errors, this.limits);
  }

  /** R_wb of the sent model at errors[LAST_DT] (row-major), as `evaluateRotating` computes it; R0 when fixed. */
  private predictedRotation(): Float64Array {
    const store = this.model.store;
    if (store.kernel[0] === KERNEL_LINEAR) {
      initialWorldToBody(store, 0, this.predictedR, 0);
      return this.predictedR;
    }
    this.minusDt[0] = -this.errors[LAST_DT]!;
    rotateSlots(store, SLOT_0, 1, 0, this.minusDt, this.predictedR, 0);
    return this.predictedR;
  }

  /** errors[SKEW_SQ] and errors[COS2] of truth `a` against model `b` (`writeOrientationErrors`). */
  private writeOrientationErrors(a: Float64Array, b: Float64Array): void {
    writeOrientationErrors(this.errors, a, 0, b, 0);
    this.orientationStale = false;
  }

  /**
   * `update` for sources that give only positions and orientations (tracks, recordings): velocity and
   * acceleration come from a quadratic through the last three positions, body rates from the last two
   * orientations.
   * @param location - ECEF metres.
   * @param orientation - ψ, θ, φ radians.
   */
  updateFromPose(
    location: ArrayLike<number>,
    orientation: ArrayLike<number>,
    tSeconds: number,
    out: EntityStateRecord,
    appearance = 0,
  ): number {
    const pose = (this.pose ??= { rates: new PoseRateEstimator(), truth: createTruthState() });
    pose.rates.add(location, orientation, tSeconds, pose.truth);
    return this.update(pose.truth, tSeconds, out, appearance);
  }

  private send(
    truth: TruthState,
    out: EntityStateRecord,
    appearance: number,
    trueWorldToBody: Float64Array | null,
  ): void {
    const tSeconds = this.now[0]!;
    const alg = this.chooseAlgorithm(truth);
    const sent = this.sent;
    writeSentKinematics(sent, truth, trueWorldToBody, alg);
    const sentV = sent.velocity,
      sentA = sent.acceleration,
      sentO = sent.orientation,
      sentW = sent.angularVelocity;
    this.model.reset(truth.location, sentV, sentO, sentA, sentW, alg, appearance);
    if (this.candidateP !== null && this.candidateV !== null) {
      this.candidateP.reset(truth.location, sentV, sentO, sentA, sentW, DR_FPW, 0);
      this.candidateV.reset(truth.location, sentV, sentO, fround3(sentA, truth.linearAcceleration), sentW, DR_FVW, 0);
      if (!usesAcceleration(alg)) sentA.fill(0);
    }

    out.location.set(truth.location);
    out.linearVelocity.set(sentV);
    out.orientation.set(sentO);
    out.linearAcceleration.set(sentA);
    out.angularVelocity.set(sentW);
    out.drAlgorithm = alg;
    out.appearance = appearance >>> 0;
    this.sentAppearance = appearance;
    this.sentAlgorithm = alg;
    // Decided on the float32 values sent, as receivers decide it (see RemoteEntityTable's timeout).
    this.sentStationary = isStationaryState(alg, sentV, 0, sentA, 0, sentW, 0);
    this.currentHeartbeatSeconds = this.sentStationary ? this.stationaryHeartbeatSeconds : this.heartbeatSeconds;
    this.changeRequested = false;
    this.lastSentSeconds = tSeconds;
    this.errors[POSITION_SQ] = 0;
    this.errors[SKEW_SQ] = 0;
    this.errors[COS2] = 2;
    this.orientationStale = false;
    this.anchor[ANCHOR_ROOM] = -1;
    this.sentCount++;
  }

  private chooseAlgorithm(truth: TruthState): number {
    if (this.algorithm !== 'auto') return this.algorithm;
    const v = truth.linearVelocity,
      w = truth.angularVelocity;
    let accelerating: boolean;
    if (this.sentCount === 0) {
      const a = truth.linearAcceleration;
      accelerating = norm(a[0]!, a[1]!, a[2]!) > FIRST_ACCELERATION;
    } else {
      // Which form would have predicted the interval that just ended better?
      const dt = this.now[0]! - this.lastSentSeconds,
        p = truth.location,
        q = this.predicted;
      this.candidateP!.evaluate(dt, q);
      const errorP = norm(p[0]! - q[0]!, p[1]! - q[1]!, p[2]! - q[2]!);
      this.candidateV!.evaluate(dt, q);
      accelerating = norm(p[0]! - q[0]!, p[1]! - q[1]!, p[2]! - q[2]!) < errorP;
    }
    return autoAlgorithm(norm(v[0]!, v[1]!, v[2]!), norm(w[0]!, w[1]!, w[2]!), accelerating);
  }
}
