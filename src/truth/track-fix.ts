/** One fix of a live or recorded track, what the track filter did with it, and where it puts the vehicle. */
/** What `update` did with each part of a fix: bits, combined. */
export const FixStatus = {
  /** The position was used. */
  POSITION_USED: 1,
  /** The position repeats the one before while the vehicle moved: held by the receiver, not used. */
  POSITION_HELD: 2,
  /** The position is further from the track than the noise and a manoeuvre explain: not used. */
  POSITION_REJECTED: 4,
  HEIGHT_USED: 8,
  HEIGHT_HELD: 16,
  HEIGHT_REJECTED: 32,
  /** Ground speed and track. */
  VELOCITY_USED: 64,
  VELOCITY_REJECTED: 128,
  VERTICAL_RATE_USED: 256,
  VERTICAL_RATE_REJECTED: 512,
  /** The track started at this fix, or was taken up again after a run of rejected positions. */
  STARTED: 1024,
  /** The fix is older than the filter's time: not used (the filter only goes forward). */
  OUT_OF_ORDER: 2048,
  /** Ground speed, track and vertical rate repeat a held report's: old, not used. */
  VELOCITY_HELD: 4096,
} as const;

/** Bits of the parts a fix holds, used (`decided` of `updateLocal`). */
export const USED_BITS =
  FixStatus.POSITION_USED | FixStatus.HEIGHT_USED | FixStatus.VELOCITY_USED | FixStatus.VERTICAL_RATE_USED;

/** One fix as a source gives it; NaN where it has no such measurement. Reuse one object: nothing is kept. */
export interface FixMeasurement {
  latitudeDeg: number;
  longitudeDeg: number;
  /** Metres above the ellipsoid (or mean sea level, or pressure altitude: only changes matter). */
  heightM: number;
  /** Speed over ground, m/s. */
  groundSpeedMps: number;
  /** Course over ground, degrees clockwise from true north. */
  trackDeg: number;
  /** Vertical speed, m/s, positive up. */
  verticalRateMps: number;
  /** Standard deviations for this fix (NaN: the source's default): horizontal position, m. */
  positionSigmaM: number;
  heightSigmaM: number;
  speedSigmaMps: number;
}

/** A `FixMeasurement` with nothing measured. */
export function createFixMeasurement(): FixMeasurement {
  return {
    latitudeDeg: Number.NaN,
    longitudeDeg: Number.NaN,
    heightM: Number.NaN,
    groundSpeedMps: Number.NaN,
    trackDeg: Number.NaN,
    verticalRateMps: Number.NaN,
    positionSigmaM: Number.NaN,
    heightSigmaM: Number.NaN,
    speedSigmaMps: Number.NaN,
  };
}

/** One fix in the filter's frame: NaN where not measured; variances of each measurement. */
export interface LocalFix {
  east: number;
  north: number;
  up: number;
  velocityEast: number;
  velocityNorth: number;
  velocityUp: number;
  /** Per horizontal axis, m². */
  horizontalVariance: number;
  verticalVariance: number;
  /** Per horizontal axis, (m/s)². */
  speedVariance: number;
  verticalRateVariance: number;
  /** The position repeats the previous position measurement bit for bit (a held position, when moving). */
  repeatsPosition: boolean;
  /** The height repeats the previous height measurement. */
  repeatsHeight: boolean;
  /**
   * Ground speed, track and vertical rate all repeat the previous fix's: with a held height, the whole report is
   * the receiver's old one and its position the receiver's own extrapolation.
   */
  repeatsVelocity: boolean;
  /** The ground speed the source reports with the fix, m/s (NaN: none). */
  reportedSpeedMps: number;
}

/** A `LocalFix` with nothing measured and unit variances. */
export function createLocalFix(): LocalFix {
  return {
    east: Number.NaN,
    north: Number.NaN,
    up: Number.NaN,
    velocityEast: Number.NaN,
    velocityNorth: Number.NaN,
    velocityUp: Number.NaN,
    horizontalVariance: 1,
    verticalVariance: 1,
    speedVariance: 1,
    verticalRateVariance: 1,
    repeatsPosition: false,
    repeatsHeight: false,
    repeatsVelocity: false,
    reportedSpeedMps: Number.NaN,
  };
}

/** Where the filter puts the vehicle at a time: geodetic position, local velocity and their uncertainty. */
export interface TrackEstimate {
  latitudeDeg: number;
  longitudeDeg: number;
  heightM: number;
  /** Speed over ground, m/s. */
  groundSpeedMps: number;
  /** Course over ground, degrees clockwise from true north at the position (NaN below the noise's speed). */
  trackDeg: number;
  verticalRateMps: number;
  /** Horizontal position standard deviation (per axis), m. */
  positionSigmaM: number;
  /** Horizontal velocity standard deviation (per axis), m/s. */
  speedSigmaMps: number;
}

/** A `TrackEstimate` with nothing estimated yet, for `TrackFilter.estimate` to fill. */
export function createTrackEstimate(): TrackEstimate {
  return {
    latitudeDeg: Number.NaN,
    longitudeDeg: Number.NaN,
    heightM: Number.NaN,
    groundSpeedMps: Number.NaN,
    trackDeg: Number.NaN,
    verticalRateMps: Number.NaN,
    positionSigmaM: Number.NaN,
    speedSigmaMps: Number.NaN,
  };
}
