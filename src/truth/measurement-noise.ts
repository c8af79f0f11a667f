/**
 * How noisy each source's measurements are: a default per source (what its receivers typically deliver) and, for a
 * whole recording, the noise its own positions show. docs/recorded-tracks.md ("Measurement noise") gives the
 * figures and where they come from.
 */

/** Where a track's measurements come from. */
export type TrackSource = 'adsb' | 'gnss' | 'dis';

/** Standard deviations of a source's measurements. */
export interface SourceNoise {
  /** Horizontal position, each axis, m. */
  readonly positionSigmaM: number;
  /** Height, m (before quantisation, which `heightQuantumM` adds). */
  readonly heightSigmaM: number;
  /** Horizontal velocity (ground speed and track), each axis, m/s. */
  readonly speedSigmaMps: number;
  /** Vertical rate, m/s. */
  readonly verticalRateSigmaMps: number;
  /**
   * How far off a fix's time may be, s: a position timed late by δ is δ·speed behind along the track (OpenSky
   * state vectors carry a position up to a second old under the vector's own time).
   */
  readonly timingSigmaSeconds: number;
  /** Step of the reported height, m (25 ft or 100 ft for ADS-B barometric altitude); 0 when not quantised. */
  readonly heightQuantumM: number;
  /** Track (course over ground) angle, degrees: at speed v it adds v·σ across the track. */
  readonly trackSigmaDeg: number;
  /**
   * Whether the noise a recording's own positions show may set its position and height noise below these defaults.
   * A GNSS track may be post-processed to centimetres (or be a noise-free simulation); an ADS-B track's smooth
   * stretches are the receiver's own extrapolation, so its fixes' scatter only ever raises the noise.
   */
  readonly noiseFromFixes: 'any' | 'above-default';
}

/**
 * How late an OpenSky state vector's position may be under the vector's own time, s, when the vector does not say
 * when the position was decoded (no `last_position`): consecutive 1 s vectors then show steps of one to two
 * seconds' travel (the Boeing 787 of test/fixtures/tracks: 423 steps faster than 350 m/s at 180–270 m/s).
 */
export const STATE_VECTOR_TIMING_SIGMA_SECONDS = 0.35;

/**
 * Defaults per source: ADS-B positions of navigation accuracy category 8–9 (95 % within 30–93 m) with 25 ft
 * altitudes, velocities of category 1–2 (95 % within 3–10 m/s); a consumer GNSS receiver (3 m horizontal, 5 m
 * vertical, 0.2 m/s from Doppler); a DIS simulation's own state, exact to the float it was sent as.
 */
export const SOURCE_NOISE: Readonly<Record<TrackSource, SourceNoise>> = {
  adsb: {
    positionSigmaM: 15,
    heightSigmaM: 8,
    speedSigmaMps: 1.5,
    verticalRateSigmaMps: 0.6,
    timingSigmaSeconds: 0.05,
    heightQuantumM: 0,
    trackSigmaDeg: 0.5,
    noiseFromFixes: 'above-default',
  },
  gnss: {
    positionSigmaM: 3,
    heightSigmaM: 5,
    speedSigmaMps: 0.3,
    verticalRateSigmaMps: 0.3,
    timingSigmaSeconds: 0.1,
    heightQuantumM: 0,
    trackSigmaDeg: 0,
    noiseFromFixes: 'above-default',
  },
  dis: {
    positionSigmaM: 0.001,
    heightSigmaM: 0.001,
    speedSigmaMps: 0.001,
    verticalRateSigmaMps: 0.001,
    timingSigmaSeconds: 0,
    heightQuantumM: 0,
    trackSigmaDeg: 0,
    noiseFromFixes: 'any',
  },
};

/** Variance of a uniform quantisation error of step q: q²/12. */
export function quantisationVariance(stepM: number): number {
  return (stepM * stepM) / 12;
}

/** Fewest differences a noise estimate is made from; fewer, and the source's default stands. */
const MIN_DIFFERENCES = 12;
/** Samples of one difference: the sixth divided difference of seven. */
const DIFFERENCE_SAMPLES = 7;
/**
 * Longest span of the samples of a difference, s: over longer spans a turn or a change of speed is not a polynomial
 * of the difference's order and would be read as noise (a glider circling, fixes 20 s apart). 1 Hz fixes a little
 * late fit.
 */
const MAX_DIFFERENCE_SPAN_SECONDS = 8;

/**
 * The white noise σ of samples (times, values), from their sixth divided differences: over seven consecutive
 * samples, the combination Σ wⱼ yⱼ with wⱼ = 1 / Πₖ≠ⱼ (tⱼ − tₖ) is zero for any motion that is a quintic in time,
 * whatever the spacing — a circle flown at 100 m/s on a 1 km radius leaves 0.03 mm at 1 Hz (the fourth difference
 * 12 mm, which a smoother told the fixes are that noisy would not follow to the centimetre) — and, divided by |w|,
 * has the noise's σ for white noise. The median of its magnitude (× 1.4826, the normal distribution's MAD) ignores
 * the jumps and manoeuvres a few differences hold. Only samples close in time (MAX_DIFFERENCE_SPAN_SECONDS) are
 * differenced. Samples whose `mask` is 0 are skipped; several series (east and north) are pooled.
 * @returns σ, or NaN when there are fewer than MIN_DIFFERENCES differences.
 */
export function estimateNoiseSigma(
  times: Float64Array,
  series: readonly Float64Array[],
  stride: number,
  offsets: readonly number[],
  mask: Uint8Array,
): number {
  const n = times.length;
  const magnitudes = new Float64Array(n * series.length);
  const index = new Int32Array(DIFFERENCE_SAMPLES).fill(-1);
  const w = new Float64Array(DIFFERENCE_SAMPLES);
  let found = 0;
  for (let i = 0; i < n; i++) {
    if (mask[i] === 0) continue;
    index.copyWithin(0, 1);
    index[DIFFERENCE_SAMPLES - 1] = i;
    if (index[0]! < 0) continue;
    if (times[index[DIFFERENCE_SAMPLES - 1]!]! - times[index[0]!]! > MAX_DIFFERENCE_SPAN_SECONDS) continue;
    let norm = 0;
    for (let j = 0; j < DIFFERENCE_SAMPLES; j++) {
      let product = 1;
      for (let k = 0; k < DIFFERENCE_SAMPLES; k++) if (k !== j) product *= times[index[j]!]! - times[index[k]!]!;
      w[j] = 1 / product;
      norm += w[j]! * w[j]!;
    }
    const inverseNorm = 1 / Math.sqrt(norm);
    // Repeated times give infinite weights and a zero or NaN inverse norm: skipped.
    if (!(inverseNorm > 0)) continue;
    for (let s = 0; s < series.length; s++) {
      const values = series[s]!,
        o = offsets[s]!;
      let z = 0;
      for (let j = 0; j < DIFFERENCE_SAMPLES; j++) z += w[j]! * values[index[j]! * stride + o]!;
      const magnitude = Math.abs(z * inverseNorm);
      if (magnitude < Number.POSITIVE_INFINITY) magnitudes[found++] = magnitude;
    }
  }
  if (found < MIN_DIFFERENCES) return Number.NaN;
  return 1.4826 * median(magnitudes.subarray(0, found));
}

/** The median of `values` (reordered in place): Hoare's selection, linear on average. */
function median(values: Float64Array): number {
  const k = values.length >> 1;
  let lo = 0,
    hi = values.length - 1;
  while (lo < hi) {
    const pivot = values[(lo + hi) >> 1]!;
    let i = lo,
      j = hi;
    while (i <= j) {
      while (values[i]! < pivot) i++;
      while (values[j]! > pivot) j--;
      if (i <= j) {
        const swap = values[i]!;
        values[i++] = values[j]!;
        values[j--] = swap;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else break;
  }
  return values[k]!;
}

/**
 * The step ADS-B altitudes (feet) are reported in: 100 ft when nearly all are whole hundreds (Gillham-coded Mode C),
 * 25 ft when nearly all are multiples of 25, else 0 (not quantised, or geometric); judged on the distinct values.
 */
export function altitudeStepFeet(feet: readonly number[]): number {
  let count = 0,
    hundreds = 0,
    quarters = 0;
  // Distinct values: a level cruise repeats one whole-hundred altitude, whatever the step.
  for (const f of new Set(feet)) {
    if (!Number.isFinite(f)) continue;
    count++;
    if (f % 100 === 0) hundreds++;
    if (f % 25 === 0) quarters++;
  }
  if (count < 10) return 0;
  if (hundreds >= 0.95 * count) return 100;
  if (quarters >= 0.95 * count) return 25;
  return 0;
}
