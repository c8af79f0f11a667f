/**
 * The estimator's tests of a measurement against what it expects: an innovation gate (the normalised innovation
 * squared against a χ² bound, with a margin for the manoeuvre the kind could fly meanwhile), the test of a held
 * position or height (unchanged while the vehicle moved) and when a track that keeps being rejected is taken up
 * again. docs/recorded-tracks.md ("The estimator") explains the choices.
 */

/**
 * χ² bound of a horizontal (2 degrees of freedom) innovation: exceeded by chance once in a million fixes of
 * Gaussian noise (−2 ln 10⁻⁶), so that only what the noise cannot explain is rejected.
 */
export const GATE_HORIZONTAL = 27.6;
/** χ² bound of a scalar (1 degree of freedom) innovation, once in a million: 4.89². */
export const GATE_SCALAR = 23.9;

/**
 * After this many positions rejected in a row, over at least REACQUIRE_SECONDS, the vehicle is where they say:
 * a forward filter takes the track up again there (a run of glitches is shorter than this; a real jump or a
 * filter that lost the track is not).
 */
export const REACQUIRE_FIXES = 4;
/** See REACQUIRE_FIXES, seconds. */
export const REACQUIRE_SECONDS = 3;

/**
 * Metres the kind can stray from a constant-acceleration prediction in dtSeconds: ½·a·dt², with a its largest
 * plausible acceleration (added, squared, to the innovation's variance: the gate stays open for a manoeuvre the
 * model's jerk noise would call unlikely).
 */
export function manoeuvreMarginM(dtSeconds: number, maxAccelerationMps2: number): number {
  return 0.5 * maxAccelerationMps2 * dtSeconds * dtSeconds;
}

/**
 * Whether a position (or height) that repeats the previous one bit for bit is held rather than fresh: the vehicle
 * moved, at `speedMps`, further than the noise explains (`noiseM`, and at least a metre) in the `dtSeconds` since
 * that one — a receiver repeats the last position it decoded until a new one comes. At rest a repeated position is
 * a good one.
 */
export function isHeld(speedMps: number, dtSeconds: number, noiseM: number): boolean {
  return speedMps * dtSeconds > Math.max(noiseM, 1);
}
