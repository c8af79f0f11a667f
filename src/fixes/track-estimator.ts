/**
 * The cleaning of a live track, one measurement at a time: the `TrackEstimator` contract the track table uses,
 * and `GatedKalmanTracks`, a forward Kalman filter per track — constant velocity per axis of a local
 * east-north-up frame (Bar-Shalom, Li and Kirubarajan, "Estimation with Applications to Tracking and Navigation",
 * §6.3.2, white-noise acceleration) — whose position updates pass an innovation gate (§5.7: a fix further than
 * the gate's chi-square bound from the prediction is a glitch, not a 900 m/s aircraft). Struct-of-arrays over
 * track slots; nothing is allocated per measurement.
 */
import { ecefToGeodetic, ecefToEnuMatrix } from '../math/geodesy.js';

/** How a kind of vehicle moves and how well its source measures it. */
export interface EstimatorProfile {
  /** Spectral density of the white-noise acceleration, horizontal and vertical (m²/s³). */
  readonly processHorizontal: number;
  readonly processVertical: number;
  /** Standard deviation of a position fix, horizontal and vertical (m). */
  readonly positionSigmaM: number;
  readonly heightSigmaM: number;
  /** Standard deviation of a velocity measurement per axis (m/s). */
  readonly velocitySigmaMps: number;
  /**
   * Standard deviation of a fix's time (s): a position dated a little early or late is off by speed × this
   * (receivers date by arrival, aircraft.json to 0.1 s, OpenSky by the second).
   */
  readonly timeSigmaSeconds: number;
  /**
   * Time constant (s) over which a correction of the estimate is blended into the track's truth, so that the truth
   * moves without steps in position or velocity (as a receiver smooths a PDU's correction: docs/dis-reference.md §5).
   */
  readonly blendSeconds: number;
  /**
   * The largest acceleration the vehicle may pull (m/s²): a fix it could have reached so is no glitch, however far
   * the constant-velocity prediction was off (a turn between sparse fixes).
   */
  readonly manoeuvreMps2: number;
}

/**
 * Blending time of the corrections (multilateration, AIS): long enough to spread a fix's noise, short against a
 * vehicle's manoeuvres.
 */
const BLEND_SECONDS = 4;

/** A correction larger than this many deviations of a fix is taken at once, not blended (`GatedKalmanTracks`). */
const BLEND_NOISE_SIGMAS = 3;

/** Motion and measurement noise of each kind of live source: ADS-B, multilateration and AIS. */
export const ESTIMATOR_PROFILES = {
  /** ADS-B: GNSS positions through 17-bit CPR (about 5 m), 25 ft altitude steps, 1 kt velocity steps. */
  air: {
    processHorizontal: 1,
    processVertical: 0.5,
    positionSigmaM: 8,
    heightSigmaM: 8,
    velocitySigmaMps: 0.6,
    timeSigmaSeconds: 0.1,
    /** An aircraft's corrections within 3 σ are its fixes' noise, not a manoeuvre (a turn is taken at once). */
    blendSeconds: 16,
    /** A rate-one turn at 250 m/s (3°/s) is 13 m/s²; airliners bank to 25–30° (4.5–5.7 m/s²). */
    manoeuvreMps2: 6,
  },
  /** Multilateration: tens of metres. */
  mlat: {
    processHorizontal: 1,
    processVertical: 0.5,
    positionSigmaM: 60,
    heightSigmaM: 15,
    velocitySigmaMps: 2,
    timeSigmaSeconds: 0.5,
    blendSeconds: BLEND_SECONDS,
    manoeuvreMps2: 6,
  },
  /** AIS: GNSS positions in 1/10,000 minute, SOG in 0.1 kn, ships turning slowly. */
  surface: {
    processHorizontal: 0.02,
    processVertical: 1e-4,
    positionSigmaM: 10,
    heightSigmaM: 1,
    velocitySigmaMps: 0.3,
    timeSigmaSeconds: 1,
    blendSeconds: BLEND_SECONDS,
    /** A ship's hard turn or crash stop. */
    manoeuvreMps2: 0.5,
  },
} as const satisfies Record<string, EstimatorProfile>;

/** Cleans tracks measurement by measurement; one slot per track. */
export interface TrackEstimator {
  /** Makes room for `capacity` tracks (slots below it keep their state). */
  grow(capacity: number): void;
  /** Starts the track in `slot` at its first position (ECEF, m) at tSeconds. */
  start(slot: number, tSeconds: number, x: number, y: number, z: number, profile: EstimatorProfile): void;
  /**
   * A position measurement (ECEF, m); `hasHeight` false when only the horizontal position is measured.
   * @returns false when it is rejected as a glitch.
   */
  position(slot: number, tSeconds: number, x: number, y: number, z: number, hasHeight: boolean): boolean;
  /** A velocity measurement (m/s, east-north-up at the track), horizontal and/or vertical. */
  velocity(
    slot: number,
    tSeconds: number,
    east: number,
    north: number,
    up: number,
    horizontal: boolean,
    vertical: boolean,
  ): void;
  /** The track's estimate at tSeconds: position (ECEF, m) and velocity (ECEF, m/s), written into `out` (6). */
  stateAt(slot: number, tSeconds: number, out: Float64Array): void;
}

/** Chi-square bounds of the gates: 2 degrees of freedom at 99.99 % (horizontal), 1 at 99.99 % (vertical). */
const GATE_HORIZONTAL = 18.42;
const GATE_VERTICAL = 15.14;
/** This many positions rejected in a row restart the track at the newest: the vehicle really is there. */
const RESTART_AFTER = 6;
/** A track this far from its frame's origin gets a new origin (the frame's tilt stays under 0.5°). */
const REANCHOR_M = 50_000;

/**
 * Doubles per slot: origin (3), ECEF→ENU (9), state p,v per axis (6), covariance P00,P01,P11 per axis (9), t,
 * profile (8), rejections in a row, the last rejected fix (4), the truth's offset from the estimate (ECEF position
 * and velocity, 6) and the time it was taken.
 */
const ORIGIN = 0,
  FRAME = 3,
  STATE = 12,
  COVARIANCE = 18,
  TIME = 27,
  PROFILE = 28,
  REJECTED = 36,
  /** The last rejected fix: x, y, z, t. */
  CANDIDATE = 37,
  OFFSET = 41,
  OFFSET_TIME = 47,
  STRIDE = 48;

/**
 * A constant-velocity Kalman filter per axis of a local ENU frame per track, position updates gated. The truth it
 * gives (`stateAt`) is the estimate plus the offset left by its last correction, decaying as a critically damped
 * second-order system (x(s) = (x₀ + (v₀ + ωx₀)s)e^(−ωs), ω = 1/blendSeconds): position and velocity continuous
 * through a correction within the fixes' noise, so that noise does not reach the receivers as steps in the truth.
 */
export class GatedKalmanTracks implements TrackEstimator {
  /** Positions rejected by the gate, and tracks restarted after too many in a row. */
  rejected = 0;
  restarts = 0;
  private data = new Float64Array(0);
  private readonly scratch = new Float64Array(3);
  private readonly frame = new Float64Array(9);
  private readonly reanchorState = new Float64Array(6);
  private readonly before = new Float64Array(6);

  constructor(capacity = 0) {
    this.grow(capacity);
  }

  grow(capacity: number): void {
    if (capacity * STRIDE <= this.data.length) return;
    // Doubling: tracks come one at a time, and copying all at each would cost the square of their number.
    const data = new Float64Array(Math.max(capacity, 2 * (this.data.length / STRIDE), 16) * STRIDE);
    data.set(this.data);
    this.data = data;
  }

  start(slot: number, tSeconds: number, x: number, y: number, z: number, profile: EstimatorProfile): void {
    const d = this.data,
      at = slot * STRIDE;
    this.anchor(at, x, y, z);
    for (let axis = 0; axis < 3; axis++) {
      d[at + STATE + 2 * axis] = 0;
      d[at + STATE + 2 * axis + 1] = 0;
      const r = axis === 2 ? profile.heightSigmaM : profile.positionSigmaM;
      d[at + COVARIANCE + 3 * axis] = r * r;
      d[at + COVARIANCE + 3 * axis + 1] = 0;
      d[at + COVARIANCE + 3 * axis + 2] = axis === 2 ? 25 : 10_000; // speed unknown: 100 m/s horizontal, 5 m/s vertical
    }
    d[at + TIME] = tSeconds;
    d[at + PROFILE] = profile.processHorizontal;
    d[at + PROFILE + 1] = profile.processVertical;
    d[at + PROFILE + 2] = profile.positionSigmaM ** 2;
    d[at + PROFILE + 3] = profile.heightSigmaM ** 2;
    d[at + PROFILE + 4] = profile.velocitySigmaMps ** 2;
    d[at + PROFILE + 5] = profile.timeSigmaSeconds;
    d[at + PROFILE + 6] = profile.blendSeconds;
    d[at + PROFILE + 7] = profile.manoeuvreMps2;
    d[at + REJECTED] = 0;
    d.fill(0, at + OFFSET, at + OFFSET + 6);
    d[at + OFFSET_TIME] = Number.NEGATIVE_INFINITY;
  }

  position(slot: number, tSeconds: number, x: number, y: number, z: number, hasHeight: boolean): boolean {
    const d = this.data,
      at = slot * STRIDE;
    const gapSeconds = Math.max(0, tSeconds - d[at + TIME]!);
    this.predict(at, tSeconds);
    const local = this.toLocal(at, x, y, z);
    // The fix's noise, and its time's: along the track, speed × the time's deviation.
    const drift = Math.hypot(d[at + STATE + 1]!, d[at + STATE + 3]!) * d[at + PROFILE + 5]!;
    const rh = d[at + PROFILE + 2]! + drift * drift,
      rv = d[at + PROFILE + 3]!;
    // The gate on the horizontal innovation, each axis's innovation variance P00 + R, widened by how far the
    // vehicle could have manoeuvred off the prediction since (½·a·t²): a glitch is what it could not have done.
    const ye = local[0]! - d[at + STATE]!,
      yn = local[1]! - d[at + STATE + 2]!;
    const reach = 0.5 * d[at + PROFILE + 7]! * gapSeconds * gapSeconds;
    const se = d[at + COVARIANCE]! + rh + reach * reach,
      sn = d[at + COVARIANCE + 3]! + rh + reach * reach;
    if ((ye * ye) / se + (yn * yn) / sn > GATE_HORIZONTAL) {
      this.rejected++;
      // Rejected fixes that agree with one another (each plausible from the one before, not a repeat) are the
      // vehicle really elsewhere: after RESTART_AFTER of them the track starts again there.
      const dt = tSeconds - d[at + CANDIDATE + 3]!;
      const step = Math.hypot(x - d[at + CANDIDATE]!, y - d[at + CANDIDATE + 1]!, z - d[at + CANDIDATE + 2]!);
      const speed = Math.hypot(d[at + STATE + 1]!, d[at + STATE + 3]!, d[at + STATE + 5]!);
      const agrees = dt > 0 && step > 1 && step <= (2 * speed + 50) * dt + 3 * Math.sqrt(rh);
      d[at + REJECTED] = agrees ? d[at + REJECTED]! + 1 : 1;
      d[at + CANDIDATE] = x;
      d[at + CANDIDATE + 1] = y;
      d[at + CANDIDATE + 2] = z;
      d[at + CANDIDATE + 3] = tSeconds;
      if (d[at + REJECTED]! < RESTART_AFTER) return false;
      const profile = this.profileOf(at);
      this.start(slot, tSeconds, x, y, z, profile);
      this.restarts++;
      return true;
    }
    d[at + REJECTED] = 0;
    const le = local[0]!,
      ln = local[1]!,
      lu = local[2]!;
    this.stateAt(slot, d[at + TIME]!, this.before);
    this.update(at, 0, le, rh);
    this.update(at, 1, ln, rh);
    if (hasHeight) {
      const yu = lu - d[at + STATE + 4]!;
      if ((yu * yu) / (d[at + COVARIANCE + 6]! + rv) <= GATE_VERTICAL) this.update(at, 2, lu, rv);
      else this.rejected++;
    }
    this.blendFrom(at, this.before);
    if (Math.hypot(le, ln) > REANCHOR_M) this.reanchor(at);
    return true;
  }

  velocity(
    slot: number,
    tSeconds: number,
    east: number,
    north: number,
    up: number,
    horizontal: boolean,
    vertical: boolean,
  ): void {
    const d = this.data,
      at = slot * STRIDE;
    this.predict(at, tSeconds);
    const r = d[at + PROFILE + 4]!;
    // The measured velocity is east-north-up where the vehicle is, whose axes turn from the frame's as it goes (the
    // meridians converge): into the frame through ECEF.
    const v = this.velocityInFrame(at, east, north, up);
    const ve = v[0]!,
      vn = v[1]!,
      vu = v[2]!;
    this.stateAt(slot, d[at + TIME]!, this.before);
    if (horizontal) {
      this.updateVelocity(at, 0, ve, r);
      this.updateVelocity(at, 1, vn, r);
    }
    if (vertical) this.updateVelocity(at, 2, vu, r);
    this.blendFrom(at, this.before);
  }

  stateAt(slot: number, tSeconds: number, out: Float64Array): void {
    const at = slot * STRIDE;
    this.estimateAt(at, tSeconds, out);
    const d = this.data;
    const omega = 1 / d[at + PROFILE + 6]!;
    const s = Math.max(0, tSeconds - d[at + OFFSET_TIME]!);
    // No offset (its time −∞), or one decayed below e⁻⁴⁰ of itself: the truth is the estimate.
    if (!(omega * s < 40)) return;
    const decay = Math.exp(-omega * s);
    for (let k = 0; k < 3; k++) {
      const x0 = d[at + OFFSET + k]!,
        v0 = d[at + OFFSET + 3 + k]!;
      const rate = v0 + omega * x0;
      out[k] = out[k]! + (x0 + rate * s) * decay;
      out[3 + k] = out[3 + k]! + (v0 - omega * s * rate) * decay;
    }
  }

  /** The filter's own estimate at tSeconds (its state extrapolated at constant velocity), ECEF, into `out` (6). */
  private estimateAt(at: number, tSeconds: number, out: Float64Array): void {
    const d = this.data;
    const dt = tSeconds - d[at + TIME]!;
    const e = d[at + STATE]! + d[at + STATE + 1]! * dt,
      n = d[at + STATE + 2]! + d[at + STATE + 3]! * dt,
      u = d[at + STATE + 4]! + d[at + STATE + 5]! * dt;
    const ve = d[at + STATE + 1]!,
      vn = d[at + STATE + 3]!,
      vu = d[at + STATE + 5]!;
    // ECEF = origin + R_enu←ecefᵀ · local
    const f = at + FRAME;
    for (let k = 0; k < 3; k++) {
      out[k] = d[at + ORIGIN + k]! + d[f + k]! * e + d[f + 3 + k]! * n + d[f + 6 + k]! * u;
      out[3 + k] = d[f + k]! * ve + d[f + 3 + k]! * vn + d[f + 6 + k]! * vu;
    }
  }

  /** After a correction at the slot's time: the truth there (`before`) less the new estimate is the offset to blend. */
  private blendFrom(at: number, before: Float64Array): void {
    const d = this.data,
      t = d[at + TIME]!,
      estimate = this.reanchorState;
    this.estimateAt(at, t, estimate);
    for (let k = 0; k < 6; k++) d[at + OFFSET + k] = before[k]! - estimate[k]!;
    d[at + OFFSET_TIME] = t;
    // A correction within the fixes' noise is spread over the blend time; a larger one (the vehicle found elsewhere
    // after a gap, a turn or a new speed the track had not seen) is taken at once: the truth never strays from it.
    const shift = Math.hypot(d[at + OFFSET]!, d[at + OFFSET + 1]!, d[at + OFFSET + 2]!);
    const turn = Math.hypot(d[at + OFFSET + 3]!, d[at + OFFSET + 4]!, d[at + OFFSET + 5]!);
    const positionSigma = Math.sqrt(d[at + PROFILE + 2]!),
      velocitySigma = Math.sqrt(d[at + PROFILE + 4]!);
    if (shift > BLEND_NOISE_SIGMAS * positionSigma || turn > BLEND_NOISE_SIGMAS * velocitySigma) {
      d.fill(0, at + OFFSET, at + OFFSET + 6);
      d[at + OFFSET_TIME] = Number.NEGATIVE_INFINITY;
    }
  }

  /** Advances slot's state and covariance to tSeconds (a measurement from before its time is applied at it). */
  private predict(at: number, tSeconds: number): void {
    const d = this.data;
    const dt = tSeconds - d[at + TIME]!;
    if (!(dt > 0)) return;
    d[at + TIME] = tSeconds;
    for (let axis = 0; axis < 3; axis++) {
      const q = d[at + PROFILE + (axis === 2 ? 1 : 0)]!;
      const s = at + STATE + 2 * axis,
        c = at + COVARIANCE + 3 * axis;
      d[s] = d[s]! + d[s + 1]! * dt;
      const p00 = d[c]!,
        p01 = d[c + 1]!,
        p11 = d[c + 2]!;
      // P = F P Fᵀ + Q, F = [1 dt; 0 1], Q = q [dt³/3 dt²/2; dt²/2 dt]
      d[c] = p00 + 2 * dt * p01 + dt * dt * p11 + (q * dt * dt * dt) / 3;
      d[c + 1] = p01 + dt * p11 + (q * dt * dt) / 2;
      d[c + 2] = p11 + q * dt;
    }
  }

  /** Kalman update of one axis with a position measurement z of variance r. */
  private update(at: number, axis: number, z: number, r: number): void {
    const d = this.data,
      s = at + STATE + 2 * axis,
      c = at + COVARIANCE + 3 * axis;
    const p00 = d[c]!,
      p01 = d[c + 1]!,
      p11 = d[c + 2]!;
    const sInv = 1 / (p00 + r);
    const k0 = p00 * sInv,
      k1 = p01 * sInv;
    const y = z - d[s]!;
    d[s] = d[s]! + k0 * y;
    d[s + 1] = d[s + 1]! + k1 * y;
    d[c] = (1 - k0) * p00;
    d[c + 1] = (1 - k0) * p01;
    d[c + 2] = p11 - k1 * p01;
  }

  /** Kalman update of one axis with a velocity measurement v of variance r. */
  private updateVelocity(at: number, axis: number, v: number, r: number): void {
    const d = this.data,
      s = at + STATE + 2 * axis,
      c = at + COVARIANCE + 3 * axis;
    const p00 = d[c]!,
      p01 = d[c + 1]!,
      p11 = d[c + 2]!;
    const sInv = 1 / (p11 + r);
    const k0 = p01 * sInv,
      k1 = p11 * sInv;
    const y = v - d[s + 1]!;
    d[s] = d[s]! + k0 * y;
    d[s + 1] = d[s + 1]! + k1 * y;
    d[c] = p00 - k0 * p01;
    d[c + 1] = (1 - k1) * p01;
    d[c + 2] = (1 - k1) * p11;
  }

  /** A velocity east-north-up at the slot's estimated position, in its frame (scratch). */
  private velocityInFrame(at: number, east: number, north: number, up: number): Float64Array {
    const d = this.data,
      f = at + FRAME,
      out = this.scratch;
    const e = d[at + STATE]!,
      n = d[at + STATE + 2]!,
      u = d[at + STATE + 4]!;
    for (let k = 0; k < 3; k++) out[k] = d[at + ORIGIN + k]! + d[f + k]! * e + d[f + 3 + k]! * n + d[f + 6 + k]! * u;
    const geo = ecefToGeodetic(out, out[0]!, out[1]!, out[2]!);
    ecefToEnuMatrix(this.frame, geo[0]!, geo[1]!);
    const m = this.frame;
    // ECEF velocity: the rows of the ENU matrix are the east, north and up unit vectors.
    const vx = m[0]! * east + m[3]! * north + m[6]! * up,
      vy = m[1]! * east + m[4]! * north + m[7]! * up,
      vz = m[2]! * east + m[5]! * north + m[8]! * up;
    for (let k = 0; k < 3; k++) out[k] = d[f + 3 * k]! * vx + d[f + 3 * k + 1]! * vy + d[f + 3 * k + 2]! * vz;
    return out;
  }

  /** ECEF point to the slot's local ENU frame (scratch). */
  private toLocal(at: number, x: number, y: number, z: number): Float64Array {
    const d = this.data,
      out = this.scratch,
      f = at + FRAME;
    const dx = x - d[at + ORIGIN]!,
      dy = y - d[at + ORIGIN + 1]!,
      dz = z - d[at + ORIGIN + 2]!;
    for (let k = 0; k < 3; k++) out[k] = d[f + 3 * k]! * dx + d[f + 3 * k + 1]! * dy + d[f + 3 * k + 2]! * dz;
    return out;
  }

  /** The frame's origin at an ECEF point, its axes east, north and up there. */
  private anchor(at: number, x: number, y: number, z: number): void {
    const d = this.data;
    d[at + ORIGIN] = x;
    d[at + ORIGIN + 1] = y;
    d[at + ORIGIN + 2] = z;
    const geo = ecefToGeodetic(this.scratch, x, y, z);
    ecefToEnuMatrix(this.frame, geo[0]!, geo[1]!);
    d.set(this.frame, at + FRAME);
  }

  /** Moves the frame's origin to the track's position, carrying its state over (covariances kept). */
  private reanchor(at: number): void {
    const d = this.data;
    const state = this.reanchorState;
    this.estimateAt(at, d[at + TIME]!, state);
    this.anchor(at, state[0]!, state[1]!, state[2]!);
    const f = at + FRAME;
    for (let k = 0; k < 3; k++) {
      d[at + STATE + 2 * k] = 0;
      d[at + STATE + 2 * k + 1] =
        d[f + 3 * k]! * state[3]! + d[f + 3 * k + 1]! * state[4]! + d[f + 3 * k + 2]! * state[5]!;
    }
  }

  private profileOf(at: number): EstimatorProfile {
    const d = this.data;
    return {
      processHorizontal: d[at + PROFILE]!,
      processVertical: d[at + PROFILE + 1]!,
      positionSigmaM: Math.sqrt(d[at + PROFILE + 2]!),
      heightSigmaM: Math.sqrt(d[at + PROFILE + 3]!),
      velocitySigmaMps: Math.sqrt(d[at + PROFILE + 4]!),
      timeSigmaSeconds: d[at + PROFILE + 5]!,
      blendSeconds: d[at + PROFILE + 6]!,
      manoeuvreMps2: d[at + PROFILE + 7]!,
    };
  }
}
