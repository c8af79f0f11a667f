/**
 * The geodetic view of an Entity State PDU's ECEF location and DIS Euler angles, for the JSON lines of
 * `reckon subscribe --json` and `reckon decode --json`: WGS-84 latitude, longitude and height, and the local
 * heading, pitch and roll (IEEE 1278.1 §6.2.33 angles taken into the local north-east-down frame).
 */
import { ecefToGeodetic, headingPitchRollFromEuler } from '../../math/geodesy.js';

export interface GeodeticJson {
  readonly latitudeDeg: number;
  readonly longitudeDeg: number;
  /** Metres above the WGS-84 ellipsoid. */
  readonly heightM: number;
  /** Degrees clockwise from true north, [0, 360). */
  readonly headingDeg: number;
  /** Degrees, nose up. */
  readonly pitchDeg: number;
  /** Degrees, right wing down. */
  readonly rollDeg: number;
}

const DEG = 180 / Math.PI;

/** Rounds to `decimals` places (0.1 mm for degrees of latitude at 9, 0.1 mm of height at 4). */
function round(value: number, decimals: number): number {
  const scale = 10 ** decimals;
  return Math.round(value * scale) / scale;
}

/** The geodetic fields of an ECEF location (m) and DIS Euler angles ψ, θ, φ (rad); null where not finite. */
export function geodeticJson(
  location: readonly [number, number, number],
  orientation: readonly [number, number, number],
): GeodeticJson | null {
  if (![...location, ...orientation].every(Number.isFinite)) return null;
  const lla = ecefToGeodetic(new Float64Array(3), location[0], location[1], location[2]);
  const hpr = headingPitchRollFromEuler(new Float64Array(3), lla[0]!, lla[1]!, ...orientation);
  const heading = ((hpr[0]! * DEG) % 360) + (hpr[0]! < 0 ? 360 : 0);
  return {
    latitudeDeg: round(lla[0]! * DEG, 9),
    longitudeDeg: round(lla[1]! * DEG, 9),
    heightM: round(lla[2]!, 4),
    headingDeg: round(heading === 360 ? 0 : heading, 6) % 360,
    pitchDeg: round(hpr[1]! * DEG, 6),
    rollDeg: round(hpr[2]! * DEG, 6),
  };
}

/** Where a shot left or went off, or a radio's antenna: WGS-84 latitude, longitude and height. */
export interface GeodeticPositionJson {
  readonly latitudeDeg: number;
  readonly longitudeDeg: number;
  /** Metres above the WGS-84 ellipsoid. */
  readonly heightM: number;
}

/** The geodetic position of an ECEF location (m); null where not finite, or all zero (a location left unset). */
export function geodeticPositionJson(location: readonly [number, number, number]): GeodeticPositionJson | null {
  if (!location.every(Number.isFinite) || location.every((v) => v === 0)) return null;
  const lla = ecefToGeodetic(new Float64Array(3), location[0], location[1], location[2]);
  return { latitudeDeg: round(lla[0]! * DEG, 9), longitudeDeg: round(lla[1]! * DEG, 9), heightM: round(lla[2]!, 4) };
}
