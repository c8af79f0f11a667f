// The bytes Python opendis sends, written out field by field from open-dis/open-dis-python (`opendis/dis7.py`,
// `EntityStatePdu.serialize` and the records it calls; `opendis/stream.py` packs big-endian with `struct`): its
// PDUs are built with `pduLength = 0`, and `serialize` writes that 0 into the header unless the program sets it.
// `examples/dis_sender.py` never does: entity 17:23:42 "Igor3d" at Monterey, facing north, exercise 0, every
// other field left at its default. Python opendis cannot be installed here, so the bytes are reproduced.

export interface PythonEntityState {
  readonly exercise?: number;
  readonly site?: number;
  readonly application?: number;
  readonly entity?: number;
  readonly marking?: string;
  /** ECEF metres. */
  readonly location: readonly [number, number, number];
  /** psi, theta, phi, radians. */
  readonly orientation: readonly [number, number, number];
  readonly velocity?: readonly [number, number, number];
  readonly drAlgorithm?: number;
  /** Written into the header, as a program that sets `pdu.length` would. Defaults to opendis's 0. */
  readonly lengthField?: number;
}

/** `EntityStatePdu().serialize(...)` of open-dis-python (DIS 7): 144 bytes, header Length as given (0). */
export function pythonOpendisEntityState(pdu: PythonEntityState): Buffer {
  const out = Buffer.alloc(144);
  let at = 0;
  const u8 = (v: number) => void (at = out.writeUInt8(v, at));
  const u16 = (v: number) => void (at = out.writeUInt16BE(v, at));
  const u32 = (v: number) => void (at = out.writeUInt32BE(v, at));
  const f32 = (v: number) => void (at = out.writeFloatBE(v, at));
  const f64 = (v: number) => void (at = out.writeDoubleBE(v, at));
  // PduSuperclass: version 7, exerciseID 0, pduType 1, protocolFamily 1, timestamp 0, length; Pdu: status, padding.
  u8(7);
  u8(pdu.exercise ?? 0);
  u8(1);
  u8(1);
  u32(0);
  u16(pdu.lengthField ?? 0);
  u8(0);
  u8(0);
  // EntityIdentifier (simulationAddress site, application; entityNumber), forceId, numberOfVariableParameters.
  u16(pdu.site ?? 17);
  u16(pdu.application ?? 23);
  u16(pdu.entity ?? 42);
  u8(0);
  u8(0);
  // entityType and alternativeEntityType: all zero by default (kind, domain, country u16, category, …, extra).
  for (let i = 0; i < 16; i++) u8(0);
  for (const v of pdu.velocity ?? [0, 0, 0]) f32(v);
  for (const v of pdu.location) f64(v);
  for (const v of pdu.orientation) f32(v);
  u32(0); // entityAppearance
  // DeadReckoningParameters: algorithm, 15 parameter bytes, linear acceleration, angular velocity.
  u8(pdu.drAlgorithm ?? 0);
  for (let i = 0; i < 15 + 24; i++) u8(0);
  // EntityMarking: characterSet (0 unless set: setString does not set it), 11 characters zero-padded.
  u8(0);
  const marking = pdu.marking ?? 'Igor3d';
  for (let i = 0; i < 11; i++) u8(i < marking.length ? marking.charCodeAt(i) : 0);
  u32(0); // capabilities
  if (at !== 144) throw new Error(`wrote ${at} bytes`);
  return out;
}

// ---- What the example asks RangeCoordinates.GPS.llarpy2ecef for: WGS-84 ECEF and the DIS Euler angles of a level
// entity facing north (its construction: NED axes, then psi, theta, phi from them; rotations by Rodrigues' formula) ----

type V = [number, number, number];
const dot = (a: V, b: V) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
/** rotate_3x3(angle, axis) applied to v. */
function rotate(angle: number, axis: V, v: V): V {
  const c = Math.cos(angle),
    s = Math.sin(angle),
    k = dot(axis, v);
  const cross: V = [axis[1] * v[2] - axis[2] * v[1], axis[2] * v[0] - axis[0] * v[2], axis[0] * v[1] - axis[1] * v[0]];
  return [0, 1, 2].map((i) => v[i]! * c + cross[i]! * s + axis[i]! * k * (1 - c)) as V;
}

/** [X, Y, Z, psi, theta, phi] of an entity at (lat, lon, alt) with roll, pitch and yaw 0. */
export function llarpy2ecefLevelNorth(latDeg: number, lonDeg: number, altMeters: number): number[] {
  const a = 6378137,
    f = 1 / 298.257223563,
    e2 = f * (2 - f);
  const lat = (latDeg * Math.PI) / 180,
    lon = (lonDeg * Math.PI) / 180;
  const n = a / Math.sqrt(1 - e2 * Math.sin(lat) ** 2);
  const x = (n + altMeters) * Math.cos(lat) * Math.cos(lon);
  const y = (n + altMeters) * Math.cos(lat) * Math.sin(lon);
  const z = (n * (1 - e2) + altMeters) * Math.sin(lat);
  // ecefvec2nedvec: north, east, down unit vectors in ECEF; with no rotation the body axes are these.
  const north: V = [-Math.sin(lat) * Math.cos(lon), -Math.sin(lat) * Math.sin(lon), Math.cos(lat)];
  const east: V = [-Math.sin(lon), Math.cos(lon), 0];
  const psi = Math.atan2(north[1], north[0]);
  const theta = Math.atan2(-north[2], Math.hypot(north[0], north[1]));
  const y2 = rotate(psi, [0, 0, 1], [0, 1, 0]);
  const z2 = rotate(theta, y2, [0, 0, 1]);
  const phi = Math.atan2(dot(east, z2), dot(east, y2));
  return [x, y, z, psi, theta, phi];
}

/** The datagram `examples/dis_sender.py` sends once a second, with the exercise it leaves at 0 unless given. */
export function pythonOpendisExampleDatagram(exercise = 0): Buffer {
  const [x, y, z, psi, theta, phi] = llarpy2ecefLevelNorth(36.6, -121.9, 1);
  return pythonOpendisEntityState({ exercise, location: [x!, y!, z!], orientation: [psi!, theta!, phi!] });
}
