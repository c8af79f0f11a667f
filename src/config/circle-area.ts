/**
 * A circular area of interest as text, `"LAT,LON,RADIUS"`: read in one place, so that the configuration refuses
 * what the NATS subscriber could not use (a latitude of 91, a radius of 0) with exit 2 and the setting's path.
 */

/** A circle on the Earth. */
export interface CircleArea {
  readonly latitudeDeg: number;
  readonly longitudeDeg: number;
  readonly radiusM: number;
}

const UNIT_M: Record<string, number> = { m: 1, km: 1000, nmi: 1852, mi: 1609.344 };

/** Largest radius of a circular area, m. */
export const MAX_AREA_RADIUS_M = 5_000_000;

/**
 * Reads `"LAT,LON,RADIUS"` (degrees, and metres unless a unit m, km, nmi or mi follows), e.g. `"48.1,11.6,50 km"`.
 * @throws RangeError saying what is wrong.
 */
export function parseCircleArea(text: string): CircleArea {
  const match = /^\s*([-+]?\d+(?:\.\d+)?)\s*,\s*([-+]?\d+(?:\.\d+)?)\s*,\s*(\d+(?:\.\d+)?)\s*(m|km|nmi|mi)?\s*$/i.exec(
    text,
  );
  if (!match) throw new RangeError(`area "${text}" is not "LAT,LON,RADIUS", e.g. "48.1,11.6,50 km"`);
  const latitudeDeg = Number(match[1]),
    longitudeDeg = Number(match[2]);
  const radiusM = Number(match[3]) * UNIT_M[(match[4] ?? 'm').toLowerCase()]!;
  if (Math.abs(latitudeDeg) > 90) throw new RangeError(`area latitude ${latitudeDeg} is outside −90…90 degrees`);
  if (Math.abs(longitudeDeg) > 180) throw new RangeError(`area longitude ${longitudeDeg} is outside −180…180 degrees`);
  if (!(radiusM > 0 && radiusM <= MAX_AREA_RADIUS_M))
    throw new RangeError(`area radius must be more than 0 and at most ${MAX_AREA_RADIUS_M / 1000} km`);
  return { latitudeDeg, longitudeDeg, radiusM };
}
