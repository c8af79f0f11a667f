/**
 * The truth of a DIS capture: each Entity State PDU is the sender's own state, exact, with the velocity,
 * acceleration, orientation and angular velocity it says; between two PDUs the sender's own dead reckoning
 * (IEEE 1278.1 Annex E, the PDU's algorithm) is the best guess of its motion. The position is the dead reckoning
 * of the PDU before, blended into the dead reckoning (backwards) of the PDU after with the quintic smootherstep
 * w = 10u³ − 15u⁴ + 6u⁵, whose first and second derivatives vanish at both ends: at every PDU the truth is its
 * position, velocity and acceleration exactly, and between them it is C². The orientation turns from one PDU's to
 * the next along the cubic Hermite of the rotation vector between them, leaving each at its angular velocity: a
 * constant rotation is the sender's own dead reckoning exactly, and a PDU whose angular velocity stopped (or
 * started) does not send the body spinning, as extrapolating it backwards over seconds would. A PDU that the one before could not have
 * led to — the correction it brings would need a speed the kind never has (a teleport at impact, a restart) — is
 * kept (it is the simulation's state) and named.
 */
import type { TruthState } from '../dr/owner/truth-state.js';
import { DeadReckoningModel } from '../dr/models/model.js';
import { isFrozen } from '../dr/models/algorithm.js';
import { eulerFromWorldToBody, worldToBodyFromEuler } from '../math/euler.js';
import type { CapturedState } from './dis-capture.js';
import type { TrackRepair } from './repairs.js';
import { MAX_SPEED_MPS, type TrackKind } from './track-checks.js';
import type { Trajectory, TruthWithAttitude } from './trajectory.js';

/** Seconds of the central differences of velocity and attitude (1 ms: far below any PDU interval's time scale). */
const DIFFERENCE_SECONDS = 1e-3;
/** Largest value of w′ = 30u²(1 − u)² (at u = ½): a correction Δ over h adds up to 1.875·Δ/h of speed. */
const SMOOTHERSTEP_PEAK_SLOPE = 1.875;
/** Distance within which two PDUs at one time are the same state, m. */
const SAME_PLACE_M = 0.1;

/**
 * The PDUs to keep: every one, but a PDU at the time of the one before (the first stands; one at another place is
 * dropped and named). Each PDU is the sender's own state, so none is dropped for where it is; a PDU whose
 * correction of the dead reckoning before it would make the blend faster than the kind can move (a teleport at
 * impact, a restart) is named in `teleports`, with the speed the truth passes it at.
 */
export function keptStates(
  states: readonly CapturedState[],
  kind: TrackKind,
): { kept: CapturedState[]; repairs: TrackRepair[]; teleports: string[] } {
  const kept: CapturedState[] = [];
  const repairs: TrackRepair[] = [];
  const teleports: string[] = [];
  const model = new DeadReckoningModel();
  const predicted = new Float64Array(3),
    velocity = new Float64Array(3);
  const limit = MAX_SPEED_MPS[kind];
  states.forEach((s, i) => {
    const before = kept[kept.length - 1];
    if (before === undefined) {
      kept.push(s);
      return;
    }
    resetModel(model, before);
    const h = s.timeSeconds - before.timeSeconds;
    model.evaluate(h, predicted);
    const off = distance(predicted, s.location);
    if (h <= 0) {
      if (off > SAME_PLACE_M) repairs.push({ reason: 'jump', row: s.row, fix: i, distanceM: off, dropped: true });
      return; // the same time again: the first PDU stands
    }
    model.velocityWorld(h, velocity);
    const speed = Math.hypot(velocity[0]!, velocity[1]!, velocity[2]!) + (SMOOTHERSTEP_PEAK_SLOPE * off) / h;
    if (speed > limit) {
      teleports.push(
        `frame ${s.row}: ${off.toFixed(1)} m from the sender's own dead reckoning ${(h * 1000).toFixed(0)} ms after ` +
          `frame ${before.row}; the truth passes through it at up to ${speed.toFixed(0)} m/s`,
      );
    }
    kept.push(s);
  });
  return { kept, repairs, teleports };
}

function resetModel(model: DeadReckoningModel, s: CapturedState): void {
  model.reset(
    s.location,
    s.linearVelocity,
    s.orientation,
    s.linearAcceleration,
    s.angularVelocity,
    s.algorithm,
    s.appearance,
  );
}

function distance(a: ArrayLike<number>, b: ArrayLike<number>): number {
  return Math.hypot(a[0]! - b[0]!, a[1]! - b[1]!, a[2]! - b[2]!);
}

/**
 * The truth of a captured entity from its PDUs (in time order, at least two; `keptStates` first), from the first
 * PDU (time 0) to the last.
 * @param name - shown in reports.
 */
export function disTruthTrajectory(
  name: string,
  states: readonly CapturedState[],
  notes: readonly string[] = [],
): Trajectory {
  const n = states.length;
  const models = states.map((s) => {
    const m = new DeadReckoningModel();
    resetModel(m, s);
    return m;
  });
  const times = Float64Array.from(states, (s) => s.timeSeconds - states[0]!.timeSeconds);
  const a = new Float64Array(3),
    b = new Float64Array(3),
    va = new Float64Array(3),
    vb = new Float64Array(3);
  // Each PDU's R_wb, and its angular velocity (body axes).
  const rotations = new Float64Array(9 * n);
  const rates = new Float64Array(3 * n);
  states.forEach((s, i) => {
    worldToBodyFromEuler(rotations.subarray(9 * i, 9 * i + 9), s.orientation[0]!, s.orientation[1]!, s.orientation[2]!);
    rates.set(s.algorithm === 1 || isFrozen(s.appearance) ? [0, 0, 0] : s.angularVelocity, 3 * i);
  });
  const matrix = new Float64Array(9),
    before = new Float64Array(9),
    after = new Float64Array(9);
  const scratchLocation = new Float64Array(3),
    scratchVelocity = new Float64Array(3),
    scratchVelocity2 = new Float64Array(3);
  let hint = 0;

  /** The interval [k, k + 1] holding t (clamped), by a search from the last one. */
  const interval = (t: number): number => {
    let k = Math.min(hint, n - 2);
    if (!(times[k]! <= t && t < times[k + 1]!)) {
      let lo = 0,
        hi = n - 2;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (times[mid]! <= t) lo = mid;
        else hi = mid - 1;
      }
      k = lo;
    }
    hint = k;
    return k;
  };

  /** Position and world velocity of the blend at t, into `position`, `velocity`; R_wb into `rotation` if given. */
  const blend = (t: number, position: Float64Array, velocity: Float64Array, rotation: Float64Array | null): void => {
    if (n === 1) {
      models[0]!.evaluate(t, position, null, rotation);
      models[0]!.velocityWorld(t, velocity);
      return;
    }
    // (rotation: hermiteRotation below)
    const k = interval(t);
    const t0 = times[k]!,
      h = times[k + 1]! - t0;
    const u = Math.min(Math.max((t - t0) / h, 0), 1);
    const w = u * u * u * (10 + u * (-15 + 6 * u));
    const slope = (30 * u * u * (1 - u) * (1 - u)) / h;
    models[k]!.evaluate(t - t0, a);
    models[k + 1]!.evaluate(t - times[k + 1]!, b);
    models[k]!.velocityWorld(t - t0, va);
    models[k + 1]!.velocityWorld(t - times[k + 1]!, vb);
    for (let i = 0; i < 3; i++) {
      const d = b[i]! - a[i]!;
      position[i] = a[i]! + w * d;
      velocity[i] = va[i]! + w * (vb[i]! - va[i]!) + slope * d;
    }
    if (rotation) hermiteRotation(rotation, rotations, rates, k, t - t0, h);
  };

  return {
    name,
    durationSeconds: times[n - 1]!,
    ...(notes.length > 0 ? { notes } : {}),
    sample(timeSeconds: number, out: TruthState): TruthState {
      const withAttitude = out as Partial<TruthWithAttitude>;
      const wb = withAttitude.worldToBody ?? matrix;
      blend(timeSeconds, out.location, out.linearVelocity, wb);
      // Acceleration and body rates as central differences of the blend (exact to O(δ²)).
      const d = DIFFERENCE_SECONDS;
      blend(timeSeconds + d, scratchLocation, scratchVelocity, after);
      blend(timeSeconds - d, scratchLocation, scratchVelocity2, before);
      const acc = out.linearAcceleration;
      for (let i = 0; i < 3; i++) acc[i] = (scratchVelocity[i]! - scratchVelocity2[i]!) / (2 * d);
      // Ṙ_wb = −[ω_b]× R_wb, so [ω_b]× = −Ṙ R_wbᵀ, read off its antisymmetric part.
      const w = out.angularVelocity;
      const dot = (r: number, c: number): number => {
        let sum = 0;
        for (let j = 0; j < 3; j++) sum += ((after[3 * r + j]! - before[3 * r + j]!) / (2 * d)) * wb[3 * c + j]!;
        return -sum;
      };
      w[0] = 0.5 * (dot(2, 1) - dot(1, 2));
      w[1] = 0.5 * (dot(0, 2) - dot(2, 0));
      w[2] = 0.5 * (dot(1, 0) - dot(0, 1));
      if (withAttitude.matrixOnly !== true) eulerFromWorldToBody(out.orientation, wb);
      if (n > 1) interval(timeSeconds); // the hint back where the sample is, after the differences
      return out;
    },
  };
}

const hermiteScratch = new Float64Array(9 + 3);

/**
 * R_wb at dt into the interval [k, k + 1] (of length h) into out: R = exp(−[θ(u)]×) R_k, with θ the cubic Hermite
 * from 0 (rate ω_k) to the rotation vector taking R_k to R_(k+1) (rate ω_(k+1)) — in the body axes of k, where
 * Ṙ_wb = −[ω_b]× R_wb.
 */
function hermiteRotation(
  out: Float64Array,
  rotations: Float64Array,
  rates: Float64Array,
  k: number,
  dt: number,
  h: number,
): void {
  const r0 = rotations.subarray(9 * k, 9 * k + 9),
    r1 = rotations.subarray(9 * k + 9, 9 * k + 18);
  // M = R1 R0ᵀ = exp(−[θ]×): θ = −log M.
  const m = hermiteScratch;
  for (let i = 0; i < 3; i++)
    for (let j = 0; j < 3; j++)
      m[3 * i + j] = r1[3 * i]! * r0[3 * j]! + r1[3 * i + 1]! * r0[3 * j + 1]! + r1[3 * i + 2]! * r0[3 * j + 2]!;
  const vx = m[7]! - m[5]!,
    vy = m[2]! - m[6]!,
    vz = m[3]! - m[1]!;
  const sin2 = Math.sqrt(vx * vx + vy * vy + vz * vz); // 2 sin θ
  const angle = Math.atan2(0.5 * sin2, 0.5 * (m[0]! + m[4]! + m[8]! - 1));
  const scale = sin2 > 1e-12 ? -angle / sin2 : -0.5;
  const tx = vx * scale,
    ty = vy * scale,
    tz = vz * scale;
  const u = dt / h;
  const u2 = u * u,
    u3 = u2 * u;
  const h10 = (u3 - 2 * u2 + u) * h,
    h01 = -2 * u3 + 3 * u2,
    h11 = (u3 - u2) * h;
  const w = rates;
  const ax = h10 * w[3 * k]! + h01 * tx + h11 * w[3 * k + 3]!,
    ay = h10 * w[3 * k + 1]! + h01 * ty + h11 * w[3 * k + 4]!,
    az = h10 * w[3 * k + 2]! + h01 * tz + h11 * w[3 * k + 5]!;
  // E = exp(−[a]×) by Rodrigues, then out = E R0.
  const theta = Math.sqrt(ax * ax + ay * ay + az * az);
  const sinc = theta > 1e-9 ? Math.sin(theta) / theta : 1 - (theta * theta) / 6;
  const cosc = theta > 1e-6 ? (1 - Math.cos(theta)) / (theta * theta) : 0.5 - (theta * theta) / 24;
  const kx = -ax,
    ky = -ay,
    kz = -az;
  const e = m;
  e[0] = 1 + cosc * (-(ky * ky) - kz * kz);
  e[1] = -sinc * kz + cosc * kx * ky;
  e[2] = sinc * ky + cosc * kx * kz;
  e[3] = sinc * kz + cosc * kx * ky;
  e[4] = 1 + cosc * (-(kx * kx) - kz * kz);
  e[5] = -sinc * kx + cosc * ky * kz;
  e[6] = -sinc * ky + cosc * kx * kz;
  e[7] = sinc * kx + cosc * ky * kz;
  e[8] = 1 + cosc * (-(kx * kx) - ky * ky);
  for (let i = 0; i < 3; i++)
    for (let j = 0; j < 3; j++)
      out[3 * i + j] = e[3 * i]! * r0[j]! + e[3 * i + 1]! * r0[3 + j]! + e[3 * i + 2]! * r0[6 + j]!;
}
