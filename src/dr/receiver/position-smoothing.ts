/**
 * Smoothing of dead-reckoning corrections (docs/dis-reference.md §5): when a new PDU moves an entity's dead-reckoned path, the
 * displayed state converges to the new path over `durationSeconds` instead of jumping. Every method is written
 * as an offset added to the new path, so it starts at the previously displayed state (offset e0 at τ = 0) and
 * ends exactly on the new path (offset 0 at τ ≥ duration):
 *
 * - `snap`: no smoothing.
 * - `linear`: offset (1 − s)·e0 with s = τ/T (KDIS `GenerateSmoothingPoints` is the same straight blend).
 * - `projective`: projective velocity blending (Murphy, Game Engine Gems 2; Delta3D): blend the velocity from the
 *   old displayed one to the new, project from the old displayed position, then blend that projection into the
 *   new path: Q = P_t + (P′_t − P_t)·s, P_t = P′₀ + (V′₀ + (V₀ − V′₀)·s)·τ + ½A₀τ².
 * - `convergence`: a critically damped spring on the error, e(τ) = (e0 + (ė0 + k·e0)·τ)·e^(−kτ) with k = 5/T
 *   (Airbus SEN style), minus its small residual at T spread linearly (τ/T)·e(T) so it ends on the path.
 *
 * Orientation always slerps the error rotation E = R_disp·R_newᵀ to identity over the same time
 * (orientation-smoothing.ts). Corrections larger than the teleport distance, new and re-activated entities and
 * frozen ones snap.
 */

export const SMOOTH_SNAP = 0;
/** The correction is removed linearly over the smoothing time. */
export const SMOOTH_LINEAR = 1;
/** Projective velocity blending onto the new path. */
export const SMOOTH_PROJECTIVE = 2;
/** A critically damped spring on the error, ending exactly on the new path. */
export const SMOOTH_CONVERGENCE = 3;
/** The smoothing methods by name. */
export const SMOOTHING_METHODS = {
  snap: SMOOTH_SNAP,
  linear: SMOOTH_LINEAR,
  projective: SMOOTH_PROJECTIVE,
  convergence: SMOOTH_CONVERGENCE,
} as const;
/** The name of a smoothing method. */
export type SmoothingMethodName = keyof typeof SMOOTHING_METHODS;

/** How corrections are smoothed: method, duration, and the jump beyond which they snap. */
export interface SmoothingOptions {
  /** Defaults to 'linear'. */
  method?: SmoothingMethodName;
  /** Time to converge onto the new path, seconds. Defaults to 0.5. */
  durationSeconds?: number;
  /** Corrections larger than this snap, metres. Defaults to 100. */
  teleportMeters?: number;
}

/** Decay rate of `convergence` in units of 1/duration: e^(−5)·6 ≈ 4 % left at T, then removed linearly. */
const CONVERGENCE_RATE = 5;

/** Where `positionOffset` reads τ and the duration (seconds) and writes the blend fraction s in its `time` array. */
export const SMOOTH_TAU = 0;
export const SMOOTH_DURATION = 1;
export const SMOOTH_FRACTION = 2;

/**
 * The position offset to add to the new path at τ seconds into a correction (writes out[o..o+2]).
 * Times come in and the fraction goes out through `time` rather than as numbers: a double passed to or returned
 * from a function V8 does not inline is boxed on the heap, and this runs per smoothing slot per frame.
 * @param time - τ at SMOOTH_TAU and the correction's duration at SMOOTH_DURATION, seconds; the blend fraction s
 *   in [0, 1] is written at SMOOTH_FRACTION.
 * @param e0 - displayed − new path at τ = 0, metres (at e[3i]).
 * @param edot0 - displayed − new path velocity at τ = 0, m/s (convergence), or V′₀ − V₀ (projective).
 */
export function positionOffset(
  method: number,
  time: Float64Array,
  e0: Float32Array,
  edot0: Float32Array,
  i: number,
  out: Float64Array,
  o: number,
): void {
  const i3 = 3 * i,
    o3 = 3 * o;
  const tau = time[SMOOTH_TAU]!,
    duration = time[SMOOTH_DURATION]!;
  const s = tau >= duration ? 1 : tau <= 0 ? 0 : tau / duration;
  time[SMOOTH_FRACTION] = s;
  if (s === 1) {
    out[o3] = out[o3 + 1] = out[o3 + 2] = 0;
    return;
  }
  if (method === SMOOTH_CONVERGENCE) {
    const k = CONVERGENCE_RATE / duration;
    const decay = Math.exp(-k * tau),
      decayT = Math.exp(-k * duration);
    for (let c = 0; c < 3; c++) {
      const e = e0[i3 + c]!,
        ed = edot0[i3 + c]!;
      const residual = (e + (ed + k * e) * duration) * decayT;
      out[o3 + c] = (e + (ed + k * e) * tau) * decay - s * residual;
    }
  } else if (method === SMOOTH_PROJECTIVE) {
    // P_t − P′_t with P′ the new path: (P′₀ − P₀) + (V′₀ − V₀)(1 − s)·τ, as both share ½A₀τ² and V₀τ;
    // the displayed point is P_t + (P′_t − P_t)·s, i.e. an offset (1 − s)·(P_t − P′_t).
    const k = (1 - s) * tau;
    for (let c = 0; c < 3; c++) out[o3 + c] = (1 - s) * (e0[i3 + c]! + edot0[i3 + c]! * k);
  } else {
    for (let c = 0; c < 3; c++) out[o3 + c] = (1 - s) * e0[i3 + c]!;
  }
}
