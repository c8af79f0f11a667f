/**
 * One entity's state as the GPU dead-reckons it (src/view/page/gpu/dr-glsl.ts): the table's model of its last PDU
 * and the correction being smoothed, re-expressed so that float32 arithmetic on the GPU keeps centimetres:
 *
 * - the place of the PDU (P0) as longitude and latitude in degrees, each a float pair (high part and the rest:
 *   deck.gl's 64-bit position split, its `positions64Low`), with the height and sin φ, cos φ computed here in float64;
 * - every vector in the local East-North-Up frame at P0, so the GPU adds metres to P0 and turns them into degrees
 *   once (velocity and ½·acceleration of the world-frame models; body velocity and acceleration as sent for RPB/RVB);
 * - the orientation R_wb(0) as a quaternion from ENU to body, the turn axis −ω/|ω| and |ω|;
 * - times as seconds after the page's time base (a float pair for the reference time), so the GPU's dt is exact to
 *   microseconds however long the page runs; the time a Stop/Freeze holds the entity at, after the reference;
 * - the correction (correction-smoother.ts): its start after the reference, e0 and ė0 in ENU, and the error
 *   rotation E (a quaternion on the body side, the same in any world frame).
 *
 * Free of WebGL: the page packs the records of the entities that changed (`GpuStaging`), the GPU state scatters
 * them into its texture. 40 floats (10 RGBA texels) per record; the flags, icon and force are integers in the same
 * 32 bits (read back with the Uint32Array view).
 */
import type { RemoteEntityTable } from '../../../dr/receiver/remote-entity-table.js';
import { DR_RVB } from '../../../dr/models/algorithm.js';
import { KERNEL_LINEAR, KERNEL_ROTATING_BODY } from '../../../dr/models/store.js';
import * as quat from '../../../math/quat.js';
import { geodeticOf } from '../map/map-coordinates.js';

/** RGBA texels per record, and floats. */
export const RECORD_TEXELS = 10;
export const RECORD_FLOATS = 4 * RECORD_TEXELS;

/** Float offsets in a record. */
export const R_LON_HI = 0;
export const R_LON_LO = 1;
export const R_LAT_HI = 2;
export const R_LAT_LO = 3;
export const R_REF_HI = 4;
export const R_REF_LO = 5;
export const R_HOLD = 6;
export const R_SMOOTH_START = 7;
export const R_VELOCITY = 8;
export const R_FLAGS = 11;
export const R_ACCELERATION = 12;
export const R_ICON = 15;
export const R_ATTITUDE = 16;
export const R_TURN_AXIS = 20;
export const R_OMEGA = 23;
export const R_ERROR_POSITION = 24;
export const R_FORCE = 27;
export const R_ERROR_VELOCITY = 28;
export const R_ERROR_ROTATION = 32;
export const R_SIN_LAT = 36;
export const R_COS_LAT = 37;
export const R_HEIGHT = 38;

/** Flag bits (R_FLAGS). */
export const FLAG_ACTIVE = 1;
/** A correction is being smoothed. */
export const FLAG_SMOOTHING = 2;
/** The kernel (store.ts KERNEL_*) in bits 2–3. */
export const FLAG_KERNEL_SHIFT = 2;

/** `R_HOLD` of an entity that runs: no dt reaches it. */
export const NEVER_HELD = 3e38;

const DEG = Math.PI / 180;

/** Scratch (no allocation per record). */
const geodetic = new Float64Array(5);
const enu = new Float64Array(9);
const r0 = new Float64Array(9);
const r0Enu = new Float64Array(9);
const q0 = new Float64Array(4);
const correction = new Float64Array(11);

/** v in ENU (rows of `enu`) at out[o…o+2]. */
function toEnu(out: Float32Array, o: number, x: number, y: number, z: number): void {
  out[o] = enu[0]! * x + enu[1]! * y + enu[2]! * z;
  out[o + 1] = enu[3]! * x + enu[4]! * y + enu[5]! * z;
  out[o + 2] = enu[6]! * x + enu[7]! * y + enu[8]! * z;
}

/**
 * Packs the record of `slot` (its model as loaded: read after the table resolved its pending PDUs) at `o` of `out`
 * (a Float32Array, with `bits` the Uint32Array over the same memory). An inactive slot gets a record of zeros.
 * @param timeBaseSeconds - the page's time base, on the table's time axis.
 * @param icon - the symbol's index in the page's icon list.
 */
export function packRecord(
  table: RemoteEntityTable,
  slot: number,
  timeBaseSeconds: number,
  icon: number,
  out: Float32Array,
  bits: Uint32Array,
  o: number,
): void {
  out.fill(0, o, o + RECORD_FLOATS);
  if (table.active[slot] !== 1) return;
  const s = table.store,
    s3 = 3 * slot;
  const x = s.location0[s3]!,
    y = s.location0[s3 + 1]!,
    z = s.location0[s3 + 2]!;
  geodeticOf(geodetic, x, y, z);
  const lon = geodetic[1]!,
    sinLat = geodetic[3]!,
    cosLat = geodetic[4]!;
  const lonDeg = lon / DEG,
    latDeg = geodetic[0]! / DEG;
  out[o + R_LON_HI] = lonDeg;
  out[o + R_LON_LO] = lonDeg - out[o + R_LON_HI]!;
  out[o + R_LAT_HI] = latDeg;
  out[o + R_LAT_LO] = latDeg - out[o + R_LAT_HI]!;
  out[o + R_SIN_LAT] = sinLat;
  out[o + R_COS_LAT] = cosLat;
  out[o + R_HEIGHT] = geodetic[2]!;
  const sinLon = Math.sin(lon),
    cosLon = Math.cos(lon);
  // Rows: East, North, Up in ECEF (src/math/geodesy.ts ecefToEnuMatrix).
  enu[0] = -sinLon;
  enu[1] = cosLon;
  enu[2] = 0;
  enu[3] = -sinLat * cosLon;
  enu[4] = -sinLat * sinLon;
  enu[5] = cosLat;
  enu[6] = cosLat * cosLon;
  enu[7] = cosLat * sinLon;
  enu[8] = sinLat;

  const reference = table.referenceSeconds[slot]!;
  const relative = reference - timeBaseSeconds;
  out[o + R_REF_HI] = relative;
  out[o + R_REF_LO] = relative - out[o + R_REF_HI]!;
  const heldAt = table.freezes.frozenAt(slot);
  out[o + R_HOLD] = Number.isFinite(heldAt) ? heldAt - reference : NEVER_HELD;

  const kernel = s.kernel[slot]!;
  if (kernel === KERNEL_ROTATING_BODY) {
    // Body frame as sent; the acceleration only where the model reads it (RVB).
    const acc = s.effectiveAlgorithm[slot] === DR_RVB ? 1 : 0;
    for (let k = 0; k < 3; k++) {
      out[o + R_VELOCITY + k] = s.velocity[s3 + k]!;
      out[o + R_ACCELERATION + k] = acc * s.acceleration[s3 + k]!;
    }
  } else {
    const v = s.velocityWorld,
      a = s.halfAccelerationWorld;
    toEnu(out, o + R_VELOCITY, v[s3]!, v[s3 + 1]!, v[s3 + 2]!);
    toEnu(out, o + R_ACCELERATION, a[s3]!, a[s3 + 1]!, a[s3 + 2]!);
  }

  // R_wb(0) from ψθφ (store.ts resetSlot), then from ENU: R0·Eᵀ, as a quaternion.
  const psi = s.orientation0[s3]!,
    theta = s.orientation0[s3 + 1]!,
    phi = s.orientation0[s3 + 2]!;
  const cpsi = Math.cos(psi),
    spsi = Math.sin(psi),
    cth = Math.cos(theta),
    sth = Math.sin(theta),
    cphi = Math.cos(phi),
    sphi = Math.sin(phi);
  r0[0] = cth * cpsi;
  r0[1] = cth * spsi;
  r0[2] = -sth;
  r0[3] = sphi * sth * cpsi - cphi * spsi;
  r0[4] = sphi * sth * spsi + cphi * cpsi;
  r0[5] = sphi * cth;
  r0[6] = cphi * sth * cpsi + sphi * spsi;
  r0[7] = cphi * sth * spsi - sphi * cpsi;
  r0[8] = cphi * cth;
  for (let i = 0; i < 3; i++) {
    for (let j = 0; j < 3; j++) {
      r0Enu[3 * i + j] = r0[3 * i]! * enu[3 * j]! + r0[3 * i + 1]! * enu[3 * j + 1]! + r0[3 * i + 2]! * enu[3 * j + 2]!;
    }
  }
  quat.fromMat3(q0, r0Enu);
  for (let k = 0; k < 4; k++) out[o + R_ATTITUDE + k] = q0[k]!;
  const omega = kernel === KERNEL_LINEAR ? 0 : s.omegaMagnitude[slot]!;
  if (omega > 0) {
    const w = s.angularVelocity;
    for (let k = 0; k < 3; k++) out[o + R_TURN_AXIS + k] = -w[s3 + k]! / omega;
    out[o + R_OMEGA] = omega;
  }

  let flags = FLAG_ACTIVE | (kernel << FLAG_KERNEL_SHIFT);
  if (table.corrections.correctionInto(slot, correction, 0)) {
    flags |= FLAG_SMOOTHING;
    out[o + R_SMOOTH_START] = correction[0]! - reference;
    toEnu(out, o + R_ERROR_POSITION, correction[1]!, correction[2]!, correction[3]!);
    toEnu(out, o + R_ERROR_VELOCITY, correction[4]!, correction[5]!, correction[6]!);
    for (let k = 0; k < 4; k++) out[o + R_ERROR_ROTATION + k] = correction[7 + k]!;
  }
  bits[o + R_FLAGS] = flags;
  bits[o + R_ICON] = icon;
  bits[o + R_FORCE] = table.forceId[slot]!;
}
