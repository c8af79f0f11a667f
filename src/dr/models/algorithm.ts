/**
 * DIS dead-reckoning algorithm numbers (IEEE 1278.1 Annex E, SISO-REF-010 UID 44) and the appearance bits that
 * change how an entity is dead-reckoned.
 */

export const DR_OTHER = 0;
/** Static: the entity does not move. */
export const DR_STATIC = 1;
/** DRM(F,P,W): fixed orientation, constant velocity, world frame. */
export const DR_FPW = 2;
/** DRM(R,P,W): rotating, constant velocity, world frame. */
export const DR_RPW = 3;
/** DRM(R,V,W): rotating, constant acceleration, world frame. */
export const DR_RVW = 4;
/** DRM(F,V,W): fixed orientation, constant acceleration, world frame. */
export const DR_FVW = 5;
/** DRM(F,P,B): fixed orientation, constant velocity, body frame. */
export const DR_FPB = 6;
/** DRM(R,P,B): rotating, constant velocity, body frame. */
export const DR_RPB = 7;
/** DRM(R,V,B): rotating, constant acceleration (d/dt of body velocity), body frame. */
export const DR_RVB = 8;
/** DRM(F,V,B): fixed orientation, constant acceleration, body frame. */
export const DR_FVB = 9;

/** Short names by algorithm number, as in SISO-REF-010. */
export const DR_ALGORITHM_NAMES: readonly string[] = [
  'other',
  'static',
  'FPW',
  'RPW',
  'RVW',
  'FVW',
  'FPB',
  'RPB',
  'RVB',
  'FVB',
];

/** Appearance bit 21: a frozen entity is drawn where it is and never dead-reckoned (SISO-REF-010). */
export const APPEARANCE_FROZEN = 1 << 21;
/** Appearance bit 23: State = Deactivated; receivers remove the entity. */
export const APPEARANCE_DEACTIVATED = 1 << 23;

/** True for 1–9; 0 ("other") and unknown numbers are dead-reckoned as static and counted by the caller. */
export function isKnownAlgorithm(algorithm: number): boolean {
  return algorithm >= DR_STATIC && algorithm <= DR_FVB;
}

/** R models (3, 4, 7, 8) extrapolate orientation. */
export function isRotatingAlgorithm(algorithm: number): boolean {
  return algorithm === DR_RPW || algorithm === DR_RVW || algorithm === DR_RPB || algorithm === DR_RVB;
}

/** B models (6–9) carry velocity and acceleration in body axes. */
export function isBodyAlgorithm(algorithm: number): boolean {
  return algorithm >= DR_FPB && algorithm <= DR_FVB;
}

/** V models (4, 5, 8, 9) use the acceleration field; P models ignore it. */
export function usesAcceleration(algorithm: number): boolean {
  return algorithm === DR_RVW || algorithm === DR_FVW || algorithm === DR_RVB || algorithm === DR_FVB;
}

/** Whether the appearance says the entity is frozen (bit 21): receivers hold it where it is. */
export function isFrozen(appearance: number): boolean {
  return (appearance & APPEARANCE_FROZEN) !== 0;
}

/** Whether the appearance says the entity is deactivated (bit 23): receivers remove it. */
export function isDeactivated(appearance: number): boolean {
  return (appearance & APPEARANCE_DEACTIVATED) !== 0;
}
