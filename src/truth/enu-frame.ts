/**
 * The estimator's Cartesian frames: east-north-up at a fix, a new one every ANCHOR_DISTANCE_M along the track.
 * Positions go through ECEF exactly, so a frame is a rotated, shifted ECEF (no flat-Earth error); vectors measured in
 * the local east-north-up of a fix (a ground speed and track, a vertical rate) are turned into it through ECEF.
 */
import { ecefToGeodeticDegrees, WGS84_A, WGS84_E2 } from '../math/geodesy.js';

const DEG = Math.PI / 180;

/**
 * How far a track goes from its frame's origin before it gets a new frame, m: within 20 km the frame's up is within
 * 0.18° of the local vertical, so a level flight's height and its horizontal motion stay on their own axes (a single
 * frame for a 1,000 km flight would tilt 9° and feed the cruise speed into the vertical axis).
 */
export const ANCHOR_DISTANCE_M = 20_000;

export class EnuFrame {
  readonly originEcef = new Float64Array(3);
  /** Rows: the origin's east, north and up unit vectors in ECEF. */
  readonly ecefToEnu = new Float64Array(9);
  private readonly ecef = new Float64Array(3);
  private readonly rotation = new Float64Array(9);
  /** Sines and cosines of the last fix's latitude and longitude: [sinLat, cosLat, sinLon, cosLon]. */
  private readonly fixSinCos = new Float64Array(4);

  constructor(
    readonly latitudeDeg: number,
    readonly longitudeDeg: number,
    readonly heightM: number,
  ) {
    const sc = this.fixSinCos;
    this.ecefOf(this.originEcef, latitudeDeg, longitudeDeg, heightM);
    const m = this.ecefToEnu;
    m[0] = -sc[2]!;
    m[1] = sc[3]!;
    m[2] = 0;
    m[3] = -sc[0]! * sc[3]!;
    m[4] = -sc[0]! * sc[2]!;
    m[5] = sc[1]!;
    m[6] = sc[1]! * sc[3]!;
    m[7] = sc[1]! * sc[2]!;
    m[8] = sc[0]!;
  }

  /** ECEF of a geodetic point, keeping its latitude's and longitude's sines and cosines for `localVector`. */
  private ecefOf(out: Float64Array, latitudeDeg: number, longitudeDeg: number, heightM: number): Float64Array {
    const lat = latitudeDeg * DEG,
      lon = longitudeDeg * DEG;
    const sc = this.fixSinCos;
    const sinLat = Math.sin(lat),
      cosLat = Math.cos(lat),
      sinLon = Math.sin(lon),
      cosLon = Math.cos(lon);
    sc[0] = sinLat;
    sc[1] = cosLat;
    sc[2] = sinLon;
    sc[3] = cosLon;
    const n = WGS84_A / Math.sqrt(1 - WGS84_E2 * sinLat * sinLat);
    const r = (n + heightM) * cosLat;
    out[0] = r * cosLon;
    out[1] = r * sinLon;
    out[2] = (n * (1 - WGS84_E2) + heightM) * sinLat;
    return out;
  }

  /**
   * Writes the frame coordinates of a geodetic point into out at `at` (east, north, up). The point's latitude and
   * longitude are kept for a following `localVector`.
   */
  fromGeodetic(out: Float64Array, at: number, latitudeDeg: number, longitudeDeg: number, heightM: number): void {
    const e = this.ecefOf(this.ecef, latitudeDeg, longitudeDeg, heightM);
    const m = this.ecefToEnu;
    const dx = e[0]! - this.originEcef[0]!,
      dy = e[1]! - this.originEcef[1]!,
      dz = e[2]! - this.originEcef[2]!;
    out[at] = m[0]! * dx + m[1]! * dy + m[2]! * dz;
    out[at + 1] = m[3]! * dx + m[4]! * dy + m[5]! * dz;
    out[at + 2] = m[6]! * dx + m[7]! * dy + m[8]! * dz;
  }

  /**
   * Turns a vector given in the local east-north-up of the last point passed to `fromGeodetic` into the frame,
   * writing it into out at `at`.
   */
  localVector(out: Float64Array, at: number, east: number, north: number, up: number): void {
    const sc = this.fixSinCos;
    const sinLat = sc[0]!,
      cosLat = sc[1]!,
      sinLon = sc[2]!,
      cosLon = sc[3]!;
    // ECEF = Mᵀ (east, north, up) with M the local ecefToEnu rows.
    const x = -sinLon * east - sinLat * cosLon * north + cosLat * cosLon * up;
    const y = cosLon * east - sinLat * sinLon * north + cosLat * sinLon * up;
    const z = cosLat * north + sinLat * up;
    const m = this.ecefToEnu;
    out[at] = m[0]! * x + m[1]! * y + m[2]! * z;
    out[at + 1] = m[3]! * x + m[4]! * y + m[5]! * z;
    out[at + 2] = m[6]! * x + m[7]! * y + m[8]! * z;
  }

  /** Frame coordinates of an ECEF point, written into out at `at`. */
  fromEcef(out: Float64Array, at: number, ecef: ArrayLike<number>): void {
    const m = this.ecefToEnu;
    const dx = ecef[0]! - this.originEcef[0]!,
      dy = ecef[1]! - this.originEcef[1]!,
      dz = ecef[2]! - this.originEcef[2]!;
    out[at] = m[0]! * dx + m[1]! * dy + m[2]! * dz;
    out[at + 1] = m[3]! * dx + m[4]! * dy + m[5]! * dz;
    out[at + 2] = m[6]! * dx + m[7]! * dy + m[8]! * dz;
  }

  /** ECEF of frame coordinates (east, north, up at `at`). */
  toEcef(out: Float64Array, enu: ArrayLike<number>, at = 0): Float64Array {
    this.vectorToEcef(out, enu, at);
    out[0] = out[0]! + this.originEcef[0]!;
    out[1] = out[1]! + this.originEcef[1]!;
    out[2] = out[2]! + this.originEcef[2]!;
    return out;
  }

  /** A frame vector in ECEF (rotation only). */
  vectorToEcef(out: Float64Array, v: ArrayLike<number>, at = 0): Float64Array {
    const m = this.ecefToEnu;
    const e = v[at]!,
      n = v[at + 1]!,
      u = v[at + 2]!;
    out[0] = m[0]! * e + m[3]! * n + m[6]! * u;
    out[1] = m[1]! * e + m[4]! * n + m[7]! * u;
    out[2] = m[2]! * e + m[5]! * n + m[8]! * u;
    return out;
  }

  /** Geodetic [latitudeDeg, longitudeDeg, heightM] of frame coordinates. */
  toGeodeticDegrees(out: Float64Array, enu: ArrayLike<number>, at = 0): Float64Array {
    const e = this.toEcef(this.ecef, enu, at);
    return ecefToGeodeticDegrees(out, e[0]!, e[1]!, e[2]!);
  }

  /**
   * The local east, north and up unit vectors (rows, in the frame) at frame coordinates `enu`: the ellipsoid's normal
   * there (exact on the ellipsoid, within 1e-5 rad at aircraft heights), for attitudes relative to the local horizon.
   */
  localAxes(out: Float64Array, enu: ArrayLike<number>, at = 0): Float64Array {
    const p = this.toEcef(this.ecef, enu, at);
    // Normal of the ellipsoid through p: ∝ (x, y, z / (1 − e²)).
    let ux = p[0]!,
      uy = p[1]!,
      uz = p[2]! / (1 - WGS84_E2);
    const inv = 1 / Math.hypot(ux, uy, uz);
    ux *= inv;
    uy *= inv;
    uz *= inv;
    // East = ẑ × up (normalised); north = up × east.
    const horizontal = Math.hypot(ux, uy);
    const ex = horizontal > 0 ? -uy / horizontal : 0,
      ey = horizontal > 0 ? ux / horizontal : 1;
    const nx = -uz * ey,
      ny = uz * ex,
      nz = ux * ey - uy * ex;
    this.rowToFrame(out, 0, ex, ey, 0);
    this.rowToFrame(out, 3, nx, ny, nz);
    this.rowToFrame(out, 6, ux, uy, uz);
    return out;
  }

  /** An ECEF direction in frame coordinates, written at `at`. */
  private rowToFrame(out: Float64Array, at: number, x: number, y: number, z: number): void {
    const m = this.ecefToEnu;
    out[at] = m[0]! * x + m[1]! * y + m[2]! * z;
    out[at + 1] = m[3]! * x + m[4]! * y + m[5]! * z;
    out[at + 2] = m[6]! * x + m[7]! * y + m[8]! * z;
  }

  /**
   * Re-expresses a state of this frame in `to`, in place: [p, v, a] of east, north and up at `at` (the layout of
   * `motion-model.ts`), positions moved and turned, velocities and accelerations turned.
   */
  stateInto(to: EnuFrame, state: Float64Array, at: number): void {
    const r = this.rotation;
    const a = this.ecefToEnu,
      b = to.ecefToEnu;
    // R = M_to · M_fromᵀ: a vector's frame coordinates in `to`.
    for (let i = 0; i < 3; i++)
      for (let j = 0; j < 3; j++)
        r[3 * i + j] = b[3 * i]! * a[3 * j]! + b[3 * i + 1]! * a[3 * j + 1]! + b[3 * i + 2]! * a[3 * j + 2]!;
    const dx = this.originEcef[0]! - to.originEcef[0]!,
      dy = this.originEcef[1]! - to.originEcef[1]!,
      dz = this.originEcef[2]! - to.originEcef[2]!;
    for (let k = 0; k < 3; k++) {
      const e = state[at + k]!,
        n = state[at + 3 + k]!,
        u = state[at + 6 + k]!;
      for (let i = 0; i < 3; i++) {
        const shift = k === 0 ? b[3 * i]! * dx + b[3 * i + 1]! * dy + b[3 * i + 2]! * dz : 0;
        state[at + 3 * i + k] = r[3 * i]! * e + r[3 * i + 1]! * n + r[3 * i + 2]! * u + shift;
      }
    }
  }
}
