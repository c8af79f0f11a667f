/**
 * The forward filter of the track estimator, one fix at a time: a Kalman filter of the motion model
 * (`motion-model.ts`) in the east-north-up frame of the track's first fix, with every measurement a source has
 * (position, height, ground speed and track, vertical rate), an innovation gate (`gating.ts`), held positions and
 * heights dropped, and the track taken up again after a run of rejections. Time is a parameter: the filter knows no
 * clock. A live feed cleans its tracks with one `TrackFilter` each; the recorded-track smoother runs the same
 * filter forward and adds a backward pass (`smoother.ts`).
 *
 * ## Example
 * ```ts
 * import { FixStatus, SOURCE_NOISE, TrackFilter, createFixMeasurement, createTrackEstimate } from 'reckon/truth';
 *
 * const filter = new TrackFilter({ kind: 'air', noise: SOURCE_NOISE.adsb });
 * const fix = createFixMeasurement();
 * fix.latitudeDeg = 48.99; fix.longitudeDeg = 2.61; fix.heightM = 400;
 * fix.groundSpeedMps = 76; fix.trackDeg = 86;
 * const status = filter.update(1512132477, fix);
 * if (status & FixStatus.POSITION_REJECTED) console.log('a jump');
 * const estimate = createTrackEstimate();
 * filter.estimate(filter.timeSeconds + 0.5, estimate); // where it is half a second later
 * ```
 */
import { ANCHOR_DISTANCE_M, EnuFrame } from './enu-frame.js';
import {
  GATE_HORIZONTAL,
  GATE_SCALAR,
  REACQUIRE_FIXES,
  REACQUIRE_SECONDS,
  isHeld,
  manoeuvreMarginM,
} from './gating.js';
import { SOURCE_NOISE, quantisationVariance, type SourceNoise } from './measurement-noise.js';
import { MOTION_MODELS, initialiseAxis, predictAxis, updateAxis, type MotionModel } from './motion-model.js';
import { MAX_SPEED_MPS, type TrackKind } from './track-checks.js';
import {
  FixStatus,
  USED_BITS,
  createLocalFix,
  type FixMeasurement,
  type LocalFix,
  type TrackEstimate,
} from './track-fix.js';

/** Options of a `TrackFilter`. */
export interface TrackFilterOptions {
  /** What the track records: its motion model (`MOTION_MODELS`). Defaults to air. */
  readonly kind?: TrackKind;
  /** The source's measurement noise. Defaults to `SOURCE_NOISE.adsb` for air, `SOURCE_NOISE.gnss` otherwise. */
  readonly noise?: SourceNoise;
  /** A motion model of its own instead of the kind's. */
  readonly model?: MotionModel;
}

/** Axis offsets: state (3 doubles) and covariance (6 doubles) of east, north and up. */
const E = 0,
  N = 3,
  U = 6;
const CE = 0,
  CN = 6,
  CU = 12;

/** Variance of a height nothing measured yet, m² (10 km). */
const VAGUE_HEIGHT_VARIANCE = 1e8;
/** Standard deviation of a vertical speed nothing measured yet, m/s. */
const INITIAL_VERTICAL_SPEED_SIGMA = 20;

/** A per-track forward filter. See the module's comment; allocates nothing per fix. */
export class TrackFilter {
  /** [p, v, a] of east, north, up in the frame of the first fix (`frame`). */
  readonly state = new Float64Array(9);
  /** Upper-triangle covariances [pp, pv, pa, vv, va, aa] of east, north, up. */
  readonly covariance = new Float64Array(18);
  /** Time of the state, seconds (NaN before the first fix). */
  timeSeconds = Number.NaN;
  /** Whether a position has started the track. */
  started = false;
  /** Whether a height has started the vertical axis. */
  heightStarted = false;
  /** The east-north-up frame at the first position (set by `update`; `updateLocal` callers bring their own). */
  frame: EnuFrame | undefined;
  readonly kind: TrackKind;
  readonly model: MotionModel;
  readonly noise: SourceNoise;

  private lastPositionSeconds = Number.NaN;
  private lastHeightUsedSeconds = Number.NaN;
  /** When the position the fixes repeat was first seen, and the same for the height. */
  private positionSinceSeconds = Number.NaN;
  private heightSinceSeconds = Number.NaN;
  private rejectedRun = 0;
  private rejectedSinceSeconds = Number.NaN;
  private readonly rejectedFirst = new Float64Array(2);
  private heightRejectedRun = 0;
  private heightRejectedSinceSeconds = Number.NaN;
  private lastLatitudeDeg = Number.NaN;
  private lastLongitudeDeg = Number.NaN;
  private lastHeightM = Number.NaN;
  private readonly lastVelocity = new Float64Array(3).fill(Number.NaN);
  private readonly local = createLocalFix();
  private readonly restart = createLocalFix();
  private readonly scratch = new Float64Array(3);
  private readonly geodetic = new Float64Array(3);
  private readonly ahead = new Float64Array(27);

  constructor(options: TrackFilterOptions = {}) {
    this.kind = options.kind ?? 'air';
    this.model = options.model ?? MOTION_MODELS[this.kind];
    this.noise = options.noise ?? (this.kind === 'air' ? SOURCE_NOISE.adsb : SOURCE_NOISE.gnss);
  }

  /**
   * Takes one fix of the source at tSeconds (any epoch, never decreasing; an older fix is counted OUT_OF_ORDER and
   * not used) and returns what was done with each part (`FixStatus` bits).
   */
  update(tSeconds: number, fix: FixMeasurement): number {
    const local = this.local;
    const hasPosition = Number.isFinite(fix.latitudeDeg) && Number.isFinite(fix.longitudeDeg);
    const hasHeight = Number.isFinite(fix.heightM);
    if (this.frame === undefined) {
      if (!hasPosition) return 0;
      this.frame = new EnuFrame(fix.latitudeDeg, fix.longitudeDeg, hasHeight ? fix.heightM : 0);
    }
    let frame = this.frame;
    const noise = this.noise;
    local.east = local.north = local.up = Number.NaN;
    local.velocityEast = local.velocityNorth = local.velocityUp = Number.NaN;
    local.repeatsPosition =
      hasPosition && fix.latitudeDeg === this.lastLatitudeDeg && fix.longitudeDeg === this.lastLongitudeDeg;
    local.repeatsHeight = hasHeight && fix.heightM === this.lastHeightM;
    local.repeatsVelocity =
      Number.isFinite(fix.groundSpeedMps) &&
      fix.groundSpeedMps === this.lastVelocity[0] &&
      fix.trackDeg === this.lastVelocity[1] &&
      fix.verticalRateMps === this.lastVelocity[2];
    const speed = fix.groundSpeedMps;
    local.reportedSpeedMps = speed;
    const positionSigma = Number.isFinite(fix.positionSigmaM) ? fix.positionSigmaM : noise.positionSigmaM;
    const heightSigma = Number.isFinite(fix.heightSigmaM) ? fix.heightSigmaM : noise.heightSigmaM;
    const speedSigma = Number.isFinite(fix.speedSigmaMps) ? fix.speedSigmaMps : noise.speedSigmaMps;
    // A fix timed late by δ lies δ·speed behind along the track.
    const along = (Number.isFinite(speed) ? speed : this.horizontalSpeed()) * noise.timingSigmaSeconds;
    local.horizontalVariance = positionSigma * positionSigma + along * along;
    local.verticalVariance = heightSigma * heightSigma + quantisationVariance(noise.heightQuantumM);
    local.speedVariance = speedSigma * speedSigma;
    local.verticalRateVariance = noise.verticalRateSigmaMps * noise.verticalRateSigmaMps;
    if (hasPosition) {
      // Without a height the position is placed at the last height the filter has (only east and north are used).
      const h = hasHeight ? fix.heightM : this.heightStarted ? this.lastHeightOrZero() : frame.heightM;
      frame.fromGeodetic(this.scratch, 0, fix.latitudeDeg, fix.longitudeDeg, h);
      if (Math.hypot(this.scratch[0]!, this.scratch[1]!) > ANCHOR_DISTANCE_M) {
        this.moveToFrame(new EnuFrame(fix.latitudeDeg, fix.longitudeDeg, h));
        frame = this.frame!;
        frame.fromGeodetic(this.scratch, 0, fix.latitudeDeg, fix.longitudeDeg, h);
      }
      local.east = this.scratch[0]!;
      local.north = this.scratch[1]!;
      if (hasHeight) local.up = this.scratch[2]!;
      const horizontal = Number.isFinite(speed) && Number.isFinite(fix.trackDeg);
      const vertical = Number.isFinite(fix.verticalRateMps);
      if (horizontal || vertical) {
        const track = horizontal ? (fix.trackDeg * Math.PI) / 180 : 0;
        const s = horizontal ? speed : 0;
        frame.localVector(
          this.scratch,
          0,
          s * Math.sin(track),
          s * Math.cos(track),
          vertical ? fix.verticalRateMps : 0,
        );
        if (horizontal) {
          local.velocityEast = this.scratch[0]!;
          local.velocityNorth = this.scratch[1]!;
        }
        if (vertical) local.velocityUp = this.scratch[2]!;
      }
    } else {
      if (hasHeight) local.up = fix.heightM - frame.heightM;
      if (Number.isFinite(fix.verticalRateMps)) local.velocityUp = fix.verticalRateMps;
    }
    const status = this.updateLocal(tSeconds, local);
    if (status & FixStatus.OUT_OF_ORDER) return status;
    if (hasPosition) {
      this.lastLatitudeDeg = fix.latitudeDeg;
      this.lastLongitudeDeg = fix.longitudeDeg;
    }
    if (hasHeight) this.lastHeightM = fix.heightM;
    this.lastVelocity[0] = fix.groundSpeedMps;
    this.lastVelocity[1] = fix.trackDeg;
    this.lastVelocity[2] = fix.verticalRateMps;
    return status;
  }

  /** The height of the state above the frame's origin, or 0 before the vertical axis started. */
  private lastHeightOrZero(): number {
    return this.frame!.heightM + this.state[U]!;
  }

  /** Horizontal speed of the state, m/s (0 before the track started). */
  private horizontalSpeed(): number {
    return this.started ? Math.hypot(this.state[E + 1]!, this.state[N + 1]!) : 0;
  }

  /**
   * Re-expresses the state in another frame (a track re-anchored further along: `ANCHOR_DISTANCE_M`). The frame's
   * turn is a fraction of a degree, so the per-axis covariances are kept as they are.
   */
  moveToFrame(to: EnuFrame): void {
    if (this.frame !== undefined && this.frame !== to && this.started) this.frame.stateInto(to, this.state, 0);
    this.frame = to;
  }

  /** Advances the state to tSeconds without a measurement (a time update). Earlier times are ignored. */
  predict(tSeconds: number): void {
    if (!this.started || !(tSeconds > this.timeSeconds)) return;
    const dt = tSeconds - this.timeSeconds;
    const m = this.model;
    predictAxis(this.state, E, this.covariance, CE, dt, m.horizontalJerkDensity);
    predictAxis(this.state, N, this.covariance, CN, dt, m.horizontalJerkDensity);
    predictAxis(this.state, U, this.covariance, CU, dt, m.verticalJerkDensity);
    this.timeSeconds = tSeconds;
  }

  /**
   * Where the vehicle is at tSeconds (extrapolated from the state; the filter is not changed), written into out.
   * @returns out, or undefined before the track started.
   */
  estimate(tSeconds: number, out: TrackEstimate): TrackEstimate | undefined {
    if (!this.started || this.frame === undefined) return undefined;
    const ahead = this.ahead;
    ahead.set(this.state, 0);
    ahead.set(this.covariance, 9);
    const dt = Math.max(0, tSeconds - this.timeSeconds);
    const m = this.model;
    predictAxis(ahead, E, ahead, 9 + CE, dt, m.horizontalJerkDensity);
    predictAxis(ahead, N, ahead, 9 + CN, dt, m.horizontalJerkDensity);
    predictAxis(ahead, U, ahead, 9 + CU, dt, m.verticalJerkDensity);
    const frame = this.frame;
    const position = this.scratch;
    position[0] = ahead[E]!;
    position[1] = ahead[N]!;
    position[2] = ahead[U]!;
    frame.toGeodeticDegrees(this.geodetic, position);
    out.latitudeDeg = this.geodetic[0]!;
    out.longitudeDeg = this.geodetic[1]!;
    out.heightM = this.geodetic[2]!;
    // The velocity in the local east-north-up of the position: its axes in the frame, dotted with the velocity.
    const axes = this.ahead.subarray(18, 27);
    frame.localAxes(axes, position);
    const ve = ahead[E + 1]!,
      vn = ahead[N + 1]!,
      vu = ahead[U + 1]!;
    const east = axes[0]! * ve + axes[1]! * vn + axes[2]! * vu;
    const north = axes[3]! * ve + axes[4]! * vn + axes[5]! * vu;
    out.verticalRateMps = axes[6]! * ve + axes[7]! * vn + axes[8]! * vu;
    out.groundSpeedMps = Math.hypot(east, north);
    out.positionSigmaM = Math.sqrt(0.5 * (ahead[9 + CE]! + ahead[9 + CN]!));
    out.speedSigmaMps = Math.sqrt(0.5 * (ahead[9 + CE + 3]! + ahead[9 + CN + 3]!));
    out.trackDeg =
      out.groundSpeedMps > 3 * out.speedSigmaMps
        ? ((((Math.atan2(east, north) * 180) / Math.PI) % 360) + 360) % 360
        : Number.NaN;
    return out;
  }

  /**
   * Takes one fix already in the filter's frame (the batch smoother prepares them once for several passes).
   * @param decided - the parts to use (`FixStatus` *_USED bits), without gating or held tests; -1 (the default)
   *   gates each part and tests it for being held.
   */
  updateLocal(tSeconds: number, fix: LocalFix, decided = -1): number {
    if (tSeconds < this.timeSeconds) return FixStatus.OUT_OF_ORDER;
    const hasPosition = Number.isFinite(fix.east) && Number.isFinite(fix.north);
    const hasHeight = Number.isFinite(fix.up);
    // A held value is judged by how long it has been repeated: since it was first seen.
    if (hasPosition && !(fix.repeatsPosition && this.positionSinceSeconds <= tSeconds))
      this.positionSinceSeconds = tSeconds;
    if (hasHeight && !(fix.repeatsHeight && this.heightSinceSeconds <= tSeconds)) this.heightSinceSeconds = tSeconds;
    const hasVelocity = Number.isFinite(fix.velocityEast) && Number.isFinite(fix.velocityNorth);
    const hasVerticalRate = Number.isFinite(fix.velocityUp);
    let status = 0;
    if (!this.started) {
      if (!hasPosition || (decided >= 0 && (decided & FixStatus.POSITION_USED) === 0)) return 0;
      this.start(tSeconds, fix, hasVelocity);
      status |= FixStatus.STARTED | FixStatus.POSITION_USED | (hasVelocity ? FixStatus.VELOCITY_USED : 0);
    } else {
      const dt = tSeconds - this.timeSeconds;
      this.predict(tSeconds);
      status |=
        decided >= 0 ? decided & USED_BITS : this.gate(dt, fix, hasPosition, hasHeight, hasVelocity, hasVerticalRate);
      if (decided < 0 && status & FixStatus.POSITION_REJECTED && this.reacquire(tSeconds, fix, hasVelocity)) {
        status = (status & ~(FixStatus.POSITION_REJECTED | FixStatus.VELOCITY_REJECTED)) | FixStatus.STARTED;
        status |= FixStatus.POSITION_USED | (hasVelocity ? FixStatus.VELOCITY_USED : 0);
      } else {
        this.apply(fix, status, hasPosition, hasVelocity);
      }
    }
    if (hasHeight && (decided < 0 || (decided & FixStatus.HEIGHT_USED) !== 0)) {
      if (!this.heightStarted) {
        // The first height: the vague prior `start` gave the vertical axis becomes this measurement.
        updateAxis(this.state, U, this.covariance, CU, 0, fix.up, fix.verticalVariance);
        this.heightStarted = true;
        status |= FixStatus.HEIGHT_USED;
      } else if (decided < 0 && status & FixStatus.HEIGHT_REJECTED && this.reacquireHeight(tSeconds, fix.up)) {
        // A run of rejected heights: the height is where they say (an altitude step that stays).
        const rateVariance = hasVerticalRate ? fix.verticalRateVariance : INITIAL_VERTICAL_SPEED_SIGMA ** 2;
        const rate = hasVerticalRate ? fix.velocityUp : 0;
        const a2 = this.model.maxAccelerationMps2 ** 2 / 4;
        initialiseAxis(this.state, U, this.covariance, CU, fix.up, fix.verticalVariance, rate, rateVariance, a2);
        status = (status & ~FixStatus.HEIGHT_REJECTED) | FixStatus.HEIGHT_USED | FixStatus.STARTED;
      } else if (status & FixStatus.HEIGHT_USED) {
        updateAxis(this.state, U, this.covariance, CU, 0, fix.up, fix.verticalVariance);
      }
    }
    if (hasVerticalRate && status & FixStatus.VERTICAL_RATE_USED) {
      updateAxis(this.state, U, this.covariance, CU, 1, fix.velocityUp, fix.verticalRateVariance);
    }
    if (status & FixStatus.POSITION_USED) {
      this.lastPositionSeconds = tSeconds;
      this.rejectedRun = 0;
    }
    if (status & FixStatus.HEIGHT_USED) {
      this.heightRejectedRun = 0;
      this.lastHeightUsedSeconds = tSeconds;
    }
    return status;
  }

  /** Starts the horizontal axes at a fix. */
  private start(tSeconds: number, fix: LocalFix, hasVelocity: boolean): void {
    const speedVariance = hasVelocity ? fix.speedVariance : (MAX_SPEED_MPS[this.kind] / 3) ** 2;
    const a2 = this.model.maxAccelerationMps2 ** 2 / 4;
    const ve = hasVelocity ? fix.velocityEast : 0,
      vn = hasVelocity ? fix.velocityNorth : 0;
    initialiseAxis(this.state, E, this.covariance, CE, fix.east, fix.horizontalVariance, ve, speedVariance, a2);
    initialiseAxis(this.state, N, this.covariance, CN, fix.north, fix.horizontalVariance, vn, speedVariance, a2);
    if (!this.heightStarted) {
      // Unknown until a height comes: a vague prior, so that the first height is an ordinary update and a smoother
      // carries it back to the fixes before it.
      const v2 = INITIAL_VERTICAL_SPEED_SIGMA ** 2;
      initialiseAxis(this.state, U, this.covariance, CU, 0, VAGUE_HEIGHT_VARIANCE, 0, v2, a2);
    }
    this.started = true;
    this.timeSeconds = tSeconds;
    this.lastPositionSeconds = tSeconds;
    this.rejectedRun = 0;
  }

  /** The parts of a fix that pass their tests against the prediction (`FixStatus` bits). */
  private gate(
    dt: number,
    fix: LocalFix,
    hasPosition: boolean,
    hasHeight: boolean,
    hasVelocity: boolean,
    hasVerticalRate: boolean,
  ): number {
    const x = this.state,
      p = this.covariance;
    const maxAcceleration = this.model.maxAccelerationMps2,
      maxClimbAcceleration = this.model.maxVerticalAccelerationMps2;
    const positionMargin = manoeuvreMarginM(dt, maxAcceleration) ** 2;
    const velocityMargin = (maxAcceleration * dt) ** 2;
    const heightMargin = manoeuvreMarginM(dt, maxClimbAcceleration) ** 2;
    const climbMargin = (maxClimbAcceleration * dt) ** 2;
    let status = 0;
    if (hasPosition) {
      const sinceLast = this.timeSeconds - this.positionSinceSeconds;
      const reported = fix.reportedSpeedMps;
      const speed = Number.isFinite(reported)
        ? reported > 3 * Math.sqrt(fix.speedVariance)
          ? reported
          : 0
        : this.knownHorizontalSpeed();
      if (fix.repeatsPosition && isHeld(speed, sinceLast, 2 * Math.sqrt(fix.horizontalVariance))) {
        status |= FixStatus.POSITION_HELD;
      } else {
        const ne = fix.east - x[E]!,
          nn = fix.north - x[N]!;
        const d2 =
          (ne * ne) / (p[CE]! + fix.horizontalVariance + positionMargin) +
          (nn * nn) / (p[CN]! + fix.horizontalVariance + positionMargin);
        status |= d2 <= GATE_HORIZONTAL ? FixStatus.POSITION_USED : FixStatus.POSITION_REJECTED;
      }
    }
    if (hasVelocity) {
      const ne = fix.velocityEast - x[E + 1]!,
        nn = fix.velocityNorth - x[N + 1]!;
      const d2 =
        (ne * ne) / (p[CE + 3]! + fix.speedVariance + velocityMargin) +
        (nn * nn) / (p[CN + 3]! + fix.speedVariance + velocityMargin);
      status |= d2 <= GATE_HORIZONTAL ? FixStatus.VELOCITY_USED : FixStatus.VELOCITY_REJECTED;
    }
    if (hasHeight && this.heightStarted) {
      const sinceLast = this.timeSeconds - this.heightSinceSeconds;
      // A reported rate within its noise of zero says "level" (±64 ft/min is ADS-B's least step), not "climbing".
      const reported = Math.abs(fix.velocityUp);
      const climb = hasVerticalRate
        ? reported > 3 * Math.sqrt(fix.verticalRateVariance)
          ? reported
          : 0
        : this.knownVerticalSpeed();
      const noise = Math.max(2 * Math.sqrt(fix.verticalVariance), this.noise.heightQuantumM);
      if (fix.repeatsHeight && isHeld(climb, sinceLast, noise)) {
        status |= FixStatus.HEIGHT_HELD;
      } else {
        const nu = fix.up - x[U]!;
        const d2 = (nu * nu) / (p[CU]! + fix.verticalVariance + heightMargin);
        status |= d2 <= GATE_SCALAR ? FixStatus.HEIGHT_USED : FixStatus.HEIGHT_REJECTED;
      }
    }
    if (status & FixStatus.HEIGHT_HELD && fix.repeatsVelocity) {
      // A whole report held: its position was extrapolated by the receiver, its velocity and climb are old.
      const parts = FixStatus.POSITION_USED | FixStatus.POSITION_REJECTED | FixStatus.VELOCITY_USED;
      status = (status & ~(parts | FixStatus.VELOCITY_REJECTED)) | FixStatus.POSITION_HELD | FixStatus.VELOCITY_HELD;
      return status;
    }
    if (hasVerticalRate) {
      const nu = fix.velocityUp - x[U + 1]!;
      const d2 = (nu * nu) / (p[CU + 3]! + fix.verticalRateVariance + climbMargin);
      status |= d2 <= GATE_SCALAR ? FixStatus.VERTICAL_RATE_USED : FixStatus.VERTICAL_RATE_REJECTED;
    }
    return status;
  }

  /** The horizontal speed when the state knows it (its σ under half of it), else 0: a held position needs a move. */
  private knownHorizontalSpeed(): number {
    const p = this.covariance;
    const speed = this.horizontalSpeed();
    return Math.sqrt(p[CE + 3]! + p[CN + 3]!) < 0.5 * speed ? speed : 0;
  }

  /** The vertical speed's magnitude when the state knows it, else 0. */
  private knownVerticalSpeed(): number {
    const climb = Math.abs(this.state[U + 1]!);
    return this.heightStarted && Math.sqrt(this.covariance[CU + 3]!) < 0.5 * climb ? climb : 0;
  }

  /** Applies the horizontal parts `status` marks used. */
  private apply(fix: LocalFix, status: number, hasPosition: boolean, hasVelocity: boolean): void {
    const x = this.state,
      p = this.covariance;
    if (hasPosition && status & FixStatus.POSITION_USED) {
      updateAxis(x, E, p, CE, 0, fix.east, fix.horizontalVariance);
      updateAxis(x, N, p, CN, 0, fix.north, fix.horizontalVariance);
    }
    if (hasVelocity && status & FixStatus.VELOCITY_USED) {
      updateAxis(x, E, p, CE, 1, fix.velocityEast, fix.speedVariance);
      updateAxis(x, N, p, CN, 1, fix.velocityNorth, fix.speedVariance);
    }
  }

  /**
   * Counts a rejected position; after REACQUIRE_FIXES of them over REACQUIRE_SECONDS the track starts again at this
   * fix, moving as the rejected run did (or as measured).
   * @returns true when the track was taken up again.
   */
  private reacquire(tSeconds: number, fix: LocalFix, hasVelocity: boolean): boolean {
    if (this.rejectedRun === 0) {
      this.rejectedSinceSeconds = tSeconds;
      this.rejectedFirst[0] = fix.east;
      this.rejectedFirst[1] = fix.north;
    }
    this.rejectedRun++;
    const span = tSeconds - this.rejectedSinceSeconds;
    if (this.rejectedRun < REACQUIRE_FIXES || span < REACQUIRE_SECONDS) return false;
    // Only where the vehicle could have gone since its last good position: not to another aircraft's position.
    const jump = Math.sqrt((fix.east - this.state[E]!) ** 2 + (fix.north - this.state[N]!) ** 2);
    if (jump > MAX_SPEED_MPS[this.kind] * (tSeconds - this.lastPositionSeconds)) return false;
    const local = this.restart;
    Object.assign(local, fix);
    if (!hasVelocity) {
      local.velocityEast = (fix.east - this.rejectedFirst[0]!) / span;
      local.velocityNorth = (fix.north - this.rejectedFirst[1]!) / span;
      local.speedVariance = (2 * fix.horizontalVariance) / (span * span);
    }
    this.start(tSeconds, local, true);
    return true;
  }

  /**
   * Counts a rejected height; true when the vertical axis should start again at this one (after a run of them, at a
   * height the vehicle could have climbed to: not another aircraft's altitude reply).
   */
  private reacquireHeight(tSeconds: number, height: number): boolean {
    if (this.heightRejectedRun === 0) this.heightRejectedSinceSeconds = tSeconds;
    this.heightRejectedRun++;
    if (this.heightRejectedRun < REACQUIRE_FIXES || tSeconds - this.heightRejectedSinceSeconds < REACQUIRE_SECONDS)
      return false;
    return (
      Math.abs(height - this.state[U]!) <= this.model.maxVerticalSpeedMps * (tSeconds - this.lastHeightUsedSeconds)
    );
  }
}
