/**
 * A smoothed track as a trajectory: position, velocity and acceleration from the knots (`knot-interpolation.ts`),
 * turned into ECEF through each knot's frame; the attitude (`attitude.ts`) relative to the local north-east-down at
 * the position, so that a level flight a thousand kilometres from where it started is level there.
 */
import type { TruthState } from '../dr/owner/truth-state.js';
import { eulerFromWorldToBody, worldToBodyFromEuler } from '../math/euler.js';
import { WGS84_A, WGS84_E2 } from '../math/geodesy.js';
import {
  attitudeStep,
  attitudeTrack,
  sampleAttitude,
  type AttitudeTrack,
  type LocalMotionSource,
  type RecordedAttitude,
} from './attitude.js';
import { createKnots, interpolateKnots, type Knots } from './knot-interpolation.js';
import type { MotionModel } from './motion-model.js';
import type { SmoothedTrack } from './smoother.js';
import type { Trajectory, TruthWithAttitude } from './trajectory.js';

/** Options of `smoothedTrajectory`. */
export interface SmoothedTrajectoryOptions {
  readonly model: MotionModel;
  /** Roll into turns (coordinated). Defaults to the model's `banked`. */
  readonly banked?: boolean;
  /** Heading, pitch and roll the source recorded, used instead of the derived ones. */
  readonly recorded?: RecordedAttitude;
  /** What the trajectory should say in reports. */
  readonly notes?: readonly string[];
  /** The fastest the source reports the vehicle, m/s: legs between sparse fixes fly no faster. Defaults to +∞. */
  readonly fastestMps?: number;
}

const KNOT = 9;

/** Samples the motion of a smoothed track: in a knot's frame, and in the local east-north-up at the position. */
class KnotMotion implements LocalMotionSource {
  private hint = 0;
  /** The interval `pair` holds (−1: none). */
  private pairKnot = -1;
  private readonly pair: Knots;
  private readonly axes = new Float64Array(9);
  private readonly position = new Float64Array(3);
  private readonly knots: Knots;
  readonly out = new Float64Array(12);

  constructor(
    readonly track: SmoothedTrack,
    readonly startSeconds: number,
    model: MotionModel,
    fastestMps: number,
  ) {
    this.knots = createKnots(track.times, track.state, KNOT, model, fastestMps);
    this.pair = createKnots(new Float64Array(2), new Float64Array(2 * KNOT), KNOT, model, fastestMps);
  }

  /** Writes [p, v, a, j] of east, north, up (frame of the returned knot) at t into `out`; returns that knot. */
  frameMotion(t: number): number {
    const track = this.track;
    const time = t + this.startSeconds;
    let k = interpolateKnots(this.knots, 3, time, this.out, this.hint);
    this.hint = k;
    const frames = track.knotFrame;
    if (k + 1 < frames.length && frames[k + 1] !== frames[k]) {
      // An interval across a change of frame: both ends in the first one's frame.
      const pair = this.pair;
      if (this.pairKnot !== k) {
        pair.times[0] = track.times[k]!;
        pair.times[1] = track.times[k + 1]!;
        pair.state.set(this.track.state.subarray(KNOT * k, KNOT * (k + 2)));
        track.frames[frames[k + 1]!]!.stateInto(track.frames[frames[k]!]!, pair.state, KNOT);
        pair.leg[0] = -1;
        this.pairKnot = k;
      }
      interpolateKnots(pair, 3, time, this.out, 0);
    }
    if (k >= frames.length) k = frames.length - 1;
    return k;
  }

  localMotion(t: number, out: Float64Array): void {
    const k = this.frameMotion(t);
    const m = this.out;
    const frame = this.track.frames[this.track.knotFrame[k]!]!;
    this.position[0] = m[0]!;
    this.position[1] = m[4]!;
    this.position[2] = m[8]!;
    const axes = frame.localAxes(this.axes, this.position);
    for (let r = 0; r < 3; r++) {
      out[r] = axes[3 * r]! * m[1]! + axes[3 * r + 1]! * m[5]! + axes[3 * r + 2]! * m[9]!;
      out[3 + r] = axes[3 * r]! * m[2]! + axes[3 * r + 1]! * m[6]! + axes[3 * r + 2]! * m[10]!;
    }
    // Velocity uncertainty: the knot's, the larger of its two ends.
    const c = this.track.covariance;
    const k1 = Math.min(k + 1, this.track.times.length - 1);
    const horizontal = Math.max(c[18 * k + 3]! + c[18 * k + 9]!, c[18 * k1 + 3]! + c[18 * k1 + 9]!);
    out[6] = Math.sqrt(0.5 * horizontal);
    out[7] = Math.sqrt(Math.max(c[18 * k + 15]!, c[18 * k1 + 15]!));
  }
}

/**
 * The trajectory of a smoothed track, from its first knot (time 0) to its last.
 * @param name - shown in reports.
 */
export function smoothedTrajectory(name: string, track: SmoothedTrack, options: SmoothedTrajectoryOptions): Trajectory {
  const times = track.times;
  const start = times[0]!;
  const duration = times[times.length - 1]! - start;
  const fastest = options.fastestMps ?? Number.POSITIVE_INFINITY;
  const motion = new KnotMotion(track, start, options.model, fastest);
  const spacings = Float64Array.from(times.subarray(1), (t, i) => t - times[i]!).sort();
  const median = spacings.length > 0 ? spacings[spacings.length >> 1]! : 1;
  const notes = [...(options.notes ?? [])];
  const attitude: AttitudeTrack = attitudeTrack(
    new KnotMotion(track, start, options.model, fastest),
    duration,
    attitudeStep(duration, median > 0 ? median : 1),
    options.model,
    options.banked ?? options.model.banked,
    options.recorded,
    notes,
  );
  const angles = new Float64Array(3),
    rates = new Float64Array(3);
  const ecef = new Float64Array(3);
  const ned = new Float64Array(9);
  const body = new Float64Array(9);
  return {
    name,
    durationSeconds: duration,
    ...(notes.length > 0 ? { notes } : {}),
    sample(timeSeconds: number, out: TruthState): TruthState {
      const k = motion.frameMotion(timeSeconds);
      const m = motion.out;
      const frame = track.frames[track.knotFrame[k]!]!;
      ecef[0] = m[0]!;
      ecef[1] = m[4]!;
      ecef[2] = m[8]!;
      frame.toEcef(out.location, ecef);
      ecef[0] = m[1]!;
      ecef[1] = m[5]!;
      ecef[2] = m[9]!;
      frame.vectorToEcef(out.linearVelocity, ecef);
      ecef[0] = m[2]!;
      ecef[1] = m[6]!;
      ecef[2] = m[10]!;
      frame.vectorToEcef(out.linearAcceleration, ecef);
      sampleAttitude(attitude, timeSeconds, angles, rates);
      writeAttitude(out, out.location, angles, rates, ned, body);
      return out;
    },
  };
}

/**
 * Writes R_wb (when `out` takes it), the DIS Euler angles and the body rates of a heading/pitch/roll relative to the
 * local north-east-down at `locationEcef`: R_wb = R_nb(heading, pitch, roll) · R_ned←ecef (docs/dis-reference.md
 * §6.5), with the local vertical the ellipsoid's normal there.
 */
function writeAttitude(
  out: TruthState,
  locationEcef: Float64Array,
  angles: Float64Array,
  rates: Float64Array,
  ned: Float64Array,
  scratch: Float64Array,
): void {
  let ux = locationEcef[0]!,
    uy = locationEcef[1]!,
    uz = locationEcef[2]! / (1 - WGS84_E2);
  const inverse = 1 / Math.sqrt(ux * ux + uy * uy + uz * uz);
  ux *= inverse;
  uy *= inverse;
  uz *= inverse;
  const horizontal = Math.sqrt(ux * ux + uy * uy);
  const ex = horizontal > 0 ? -uy / horizontal : 0,
    ey = horizontal > 0 ? ux / horizontal : 1;
  // Rows north, east, down in ECEF: north = up × east.
  ned[0] = -uz * ey;
  ned[1] = uz * ex;
  ned[2] = ux * ey - uy * ex;
  ned[3] = ex;
  ned[4] = ey;
  ned[5] = 0;
  ned[6] = -ux;
  ned[7] = -uy;
  ned[8] = -uz;
  const cp = Math.cos(angles[1]!),
    sp = Math.sin(angles[1]!),
    cr = Math.cos(angles[2]!),
    sr = Math.sin(angles[2]!);
  // R_nb, the DIS Z-Y-X matrix (docs/dis-reference.md §3.2) of heading, pitch and roll in the local NED frame.
  const r = worldToBodyFromEuler(scratch, angles[0]!, angles[1]!, angles[2]!);
  // The turn of the local north-east-down itself as the vehicle moves over the Earth (its transport rate, Groves,
  // "Principles of GNSS, Inertial, and Multisensor Integrated Navigation Systems", 2013, eq. 5.44), in body axes:
  // R_nb · [v_E / R_E, −v_N / R_N, −v_E·tan(L) / R_E] (heights neglected: 0.2 % at 12 km).
  const v = out.linearVelocity;
  const north = ned[0]! * v[0]! + ned[1]! * v[1]! + ned[2]! * v[2]!,
    east = ned[3]! * v[0]! + ned[4]! * v[1]! + ned[5]! * v[2]!;
  const sin2 = uz * uz;
  const meridian = (WGS84_A * (1 - WGS84_E2)) / (1 - WGS84_E2 * sin2) ** 1.5,
    normal = WGS84_A / Math.sqrt(1 - WGS84_E2 * sin2);
  const tn = east / normal,
    te = -north / meridian,
    td = horizontal > 0 ? (-east * uz) / (horizontal * normal) : 0;
  const transportX = r[0]! * tn + r[1]! * te + r[2]! * td,
    transportY = r[3]! * tn + r[4]! * te + r[5]! * td,
    transportZ = r[6]! * tn + r[7]! * te + r[8]! * td;
  const withAttitude = out as Partial<TruthWithAttitude>;
  const wb = withAttitude.worldToBody ?? ned; // without a matrix to fill, R_wb goes over `ned` once it is read
  for (let i = 0; i < 3; i++) {
    const a = r[3 * i]!,
      b = r[3 * i + 1]!,
      c = r[3 * i + 2]!;
    const x = a * ned[0]! + b * ned[3]! + c * ned[6]!,
      y = a * ned[1]! + b * ned[4]! + c * ned[7]!,
      z = a * ned[2]! + b * ned[5]! + c * ned[8]!;
    if (wb === ned) {
      scratch[3 * i] = x; // rows of R_nb already read
      scratch[3 * i + 1] = y;
      scratch[3 * i + 2] = z;
    } else {
      wb[3 * i] = x;
      wb[3 * i + 1] = y;
      wb[3 * i + 2] = z;
    }
  }
  if (withAttitude.matrixOnly !== true) eulerFromWorldToBody(out.orientation, wb === ned ? scratch : wb);
  // Body rates from Euler rates (docs/dis-reference.md §3.2).
  const w = out.angularVelocity;
  w[0] = rates[2]! - rates[0]! * sp;
  w[1] = rates[1]! * cr + rates[0]! * sr * cp;
  w[2] = -rates[1]! * sr + rates[0]! * cr * cp;
  w[0] = w[0]! + transportX;
  w[1] = w[1]! + transportY;
  w[2] = w[2]! + transportZ;
}
