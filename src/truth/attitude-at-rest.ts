/**
 * When a recorded vehicle stands still, the course and climb between its fixes are the receiver's noise: a parked
 * car's heading spins and its pitch swings by tens of degrees. Below a speed the fixes' own noise could make, the
 * attitude derived from a track (or recorded beside it) is held at its last moving value.
 */
/** A position spline: writes [y, y′, y″, y‴] at t into out from `at` (`CubicSpline` of recorded.ts). */
interface Spline {
  evaluate(out: Float64Array, at: number, t: number): void;
}

/** Seconds over which the displacement is taken that decides whether the vehicle moves. */
export const REST_WINDOW_SECONDS = 10;

/**
 * The horizontal speed (m/s) at which the fixes' noise moves a track at (times, north, east) from one fix to the
 * next: the median of their horizontal second differences (which a smooth motion keeps small and noise does
 * not) over the median fix spacing. Slower than that, the course between fixes is mostly noise.
 */
export function restSpeedMps(times: Float64Array, north: Float64Array, east: Float64Array): number {
  const n = times.length;
  if (n < 3) return 0;
  const magnitudes = new Float64Array(n - 2);
  for (let i = 1; i < n - 1; i++) {
    const ratio = (times[i + 1]! - times[i]!) / (times[i]! - times[i - 1]!);
    const dn = north[i + 1]! - north[i]! - (north[i]! - north[i - 1]!) * ratio;
    const de = east[i + 1]! - east[i]! - (east[i]! - east[i - 1]!) * ratio;
    magnitudes[i - 1] = Math.hypot(dn, de);
  }
  const steps = Float64Array.from(times.subarray(1), (t, i) => t - times[i]!).sort();
  return magnitudes.sort()[magnitudes.length >> 1]! / steps[steps.length >> 1]!;
}

/**
 * Whether the course of the vehicle on `splines` (NED) is noise at each time of `grid`: it moves slower than
 * `restSpeed` over the rest window, or slower than twice that between its fixes (where noise of that speed turns
 * the course by up to 30°).
 */
export function restMask(splines: readonly Spline[], grid: Float64Array, restSpeed: number): Uint8Array {
  const end = grid[grid.length - 1]!;
  const scratch = new Float64Array(8);
  const mask = new Uint8Array(grid.length);
  for (let i = 0; i < grid.length; i++) {
    const from = Math.max(0, grid[i]! - REST_WINDOW_SECONDS / 2),
      to = Math.min(end, grid[i]! + REST_WINDOW_SECONDS / 2);
    splines[0]!.evaluate(scratch, 0, from);
    splines[0]!.evaluate(scratch, 4, to);
    const dn = scratch[4]! - scratch[0]!;
    splines[1]!.evaluate(scratch, 0, from);
    splines[1]!.evaluate(scratch, 4, to);
    const de = scratch[4]! - scratch[0]!;
    splines[0]!.evaluate(scratch, 0, grid[i]!);
    splines[1]!.evaluate(scratch, 4, grid[i]!);
    const speed = Math.hypot(scratch[1]!, scratch[5]!);
    mask[i] = (to > from && Math.hypot(dn, de) / (to - from) < restSpeed) || speed < 2 * restSpeed ? 1 : 0;
  }
  return mask;
}

/** Holds the angles (rows of `angles`) over the rest stretches of `mask`: the last moving value, or the first. */
export function holdAtRest(angles: readonly Float64Array[], mask: Uint8Array): void {
  const firstMoving = mask.indexOf(0);
  if (firstMoving < 0) return;
  for (let i = 0; i < mask.length; i++) {
    if (!mask[i]) continue;
    const from = i < firstMoving ? firstMoving : i - 1;
    for (const row of angles) row[i] = row[from]!;
  }
}
