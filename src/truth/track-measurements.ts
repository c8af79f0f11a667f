/**
 * A recording's fixes as the smoother's measurements: positions in the east-north-up frame of the first fix,
 * ground speed and track and vertical rate turned into that frame, each with its variance — the source's
 * defaults, unless the recording's own positions show how noisy they are (`estimateNoiseSigma`).
 */
import { ANCHOR_DISTANCE_M, EnuFrame } from './enu-frame.js';
import { estimateNoiseSigma, quantisationVariance, type SourceNoise } from './measurement-noise.js';
import type { TrackPoint } from './track-point.js';
import { REPEATS_HEIGHT, REPEATS_POSITION, REPEATS_VELOCITY, VARIANCES, type PreparedFixes } from './smoother.js';

/** Smallest position noise a recording's own fixes may set, m: noise-free (synthetic) fixes are followed closely. */
const MIN_ESTIMATED_SIGMA_M = 1e-4;

/** What the recording's own fixes say about their noise (NaN where they cannot tell). */
export interface NoiseFound {
  readonly positionSigmaM: number;
  readonly heightSigmaM: number;
}

/**
 * The fixes (in time order, not decreasing) as arrays for `smoothFixes`. A fix's `positionSigmaM` is its horizontal
 * noise; otherwise the noise the fixes show (their third differences) stands for the source's position noise and
 * the timing it explains, and the source's default where there are too few fixes to tell.
 */
export function prepareFixes(
  points: readonly TrackPoint[],
  noise: SourceNoise,
  heightRangeM: readonly [number, number] = [Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY],
): { prepared: PreparedFixes; found: NoiseFound; heightsOutOfRange: Uint8Array } {
  const n = points.length;
  const first = points[0]!;
  const inRange = (h: number | undefined): h is number =>
    h !== undefined && h >= heightRangeM[0] && h <= heightRangeM[1];
  const firstHeight = points.find((p) => inRange(p.heightM))?.heightM ?? 0;
  let frame = new EnuFrame(first.latitudeDeg, first.longitudeDeg, firstHeight);
  const frames = [frame];
  const frameIndex = new Uint32Array(n);
  const times = new Float64Array(n);
  const position = new Float64Array(3 * n);
  const velocity = new Float64Array(3 * n).fill(Number.NaN);
  const variance = new Float64Array(VARIANCES * n);
  const repeats = new Uint8Array(n);
  const reportedSpeed = new Float64Array(n).fill(Number.NaN);
  const heights = new Float64Array(n).fill(Number.NaN);
  const scratch = new Float64Array(3);
  const fresh = new Uint8Array(n);
  const freshHeight = new Uint8Array(n);
  const outOfRange = new Uint8Array(n);
  const trackSigma = (noise.trackSigmaDeg * Math.PI) / 180;
  // A fix without a height is placed at the last height known (its horizontal position depends on it a little).
  let knownHeight = firstHeight;
  for (let i = 0; i < n; i++) {
    const p = points[i]!;
    const previous = i > 0 ? points[i - 1]! : undefined;
    times[i] = p.timeSeconds;
    let height = p.heightM ?? Number.NaN;
    if (!(height >= heightRangeM[0] && height <= heightRangeM[1]) && Number.isFinite(height)) {
      outOfRange[i] = 1; // not a height the vehicle can be at: not measured
      height = Number.NaN;
    }
    const hasHeight = Number.isFinite(height);
    if (hasHeight) {
      knownHeight = height;
      heights[i] = height;
    }
    const h = knownHeight;
    frame.fromGeodetic(position, 3 * i, p.latitudeDeg, p.longitudeDeg, h);
    if (Math.hypot(position[3 * i]!, position[3 * i + 1]!) > ANCHOR_DISTANCE_M) {
      frame = new EnuFrame(p.latitudeDeg, p.longitudeDeg, h);
      frames.push(frame);
      frame.fromGeodetic(position, 3 * i, p.latitudeDeg, p.longitudeDeg, h);
    }
    frameIndex[i] = frames.length - 1;
    if (!hasHeight) position[3 * i + 2] = Number.NaN;
    const samePosition =
      previous !== undefined && p.latitudeDeg === previous.latitudeDeg && p.longitudeDeg === previous.longitudeDeg;
    const sameHeight = previous !== undefined && hasHeight && height === previous.heightM && !outOfRange[i - 1];
    const sameVelocity =
      previous !== undefined &&
      p.groundSpeedMps !== undefined &&
      p.groundSpeedMps === previous.groundSpeedMps &&
      p.trackDeg === previous.trackDeg &&
      p.verticalRateMps === previous.verticalRateMps;
    repeats[i] =
      (samePosition ? REPEATS_POSITION : 0) | (sameHeight ? REPEATS_HEIGHT : 0) | (sameVelocity ? REPEATS_VELOCITY : 0);
    fresh[i] = samePosition ? 0 : 1;
    freshHeight[i] = sameHeight || !hasHeight ? 0 : 1;
    const speed = p.groundSpeedMps ?? Number.NaN;
    const track = p.trackDeg ?? Number.NaN;
    const rate = p.verticalRateMps ?? Number.NaN;
    if (Number.isFinite(speed)) reportedSpeed[i] = speed;
    const horizontal = Number.isFinite(speed) && Number.isFinite(track);
    const vertical = Number.isFinite(rate);
    if (horizontal || vertical) {
      // One vector through ECEF: in a frame anchored elsewhere a level velocity has a little "up" and a climb a
      // little "east".
      const t = horizontal ? (track * Math.PI) / 180 : 0;
      const s = horizontal ? speed : 0;
      frame.localVector(scratch, 0, s * Math.sin(t), s * Math.cos(t), vertical ? rate : 0);
      if (horizontal) {
        velocity[3 * i] = scratch[0]!;
        velocity[3 * i + 1] = scratch[1]!;
      }
      if (vertical) velocity[3 * i + 2] = scratch[2]!;
    }
  }
  const estimatedHorizontal = estimateNoiseSigma(times, [position, position], 3, [0, 1], fresh);
  const estimatedVertical = estimateNoiseSigma(times, [position], 3, [2], freshHeight);
  const found = { positionSigmaM: estimatedHorizontal, heightSigmaM: estimatedVertical };
  const quantum = quantisationVariance(noise.heightQuantumM);
  const anyNoise = noise.noiseFromFixes === 'any';
  const heightSigma = Number.isFinite(estimatedVertical)
    ? anyNoise
      ? Math.max(estimatedVertical, MIN_ESTIMATED_SIGMA_M)
      : Math.max(estimatedVertical, noise.heightSigmaM)
    : noise.heightSigmaM;
  const verticalVariance = heightSigma * heightSigma + quantum;
  for (let i = 0; i < n; i++) {
    const p = points[i]!;
    const speed = Number.isFinite(reportedSpeed[i]!) ? reportedSpeed[i]! : 0;
    // The source's noise, with what a late fix adds along the track at this speed.
    const along = speed * noise.timingSigmaSeconds;
    const sourceVariance = noise.positionSigmaM ** 2 + along * along;
    let horizontal: number;
    if (p.positionSigmaM !== undefined && Number.isFinite(p.positionSigmaM)) horizontal = p.positionSigmaM ** 2;
    else if (!Number.isFinite(estimatedHorizontal)) horizontal = sourceVariance;
    else if (anyNoise) horizontal = Math.max(estimatedHorizontal, MIN_ESTIMATED_SIGMA_M) ** 2;
    else horizontal = Math.max(estimatedHorizontal ** 2, sourceVariance);
    const across = speed * trackSigma;
    const v = VARIANCES * i;
    variance[v] = horizontal;
    variance[v + 1] = verticalVariance;
    variance[v + 2] = noise.speedSigmaMps ** 2 + across * across;
    variance[v + 3] = noise.verticalRateSigmaMps ** 2;
  }
  return {
    prepared: { frames, frameIndex, count: n, times, position, velocity, variance, repeats, reportedSpeed, heights },
    found,
    heightsOutOfRange: outOfRange,
  };
}
