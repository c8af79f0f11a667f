/**
 * DIS → Cursor on Target (CoT) mapping: the event `uid` from the entity id and exercise, the CoT `type` from the
 * force and the entity kind, domain and category, the callsign from the marking with its control characters removed, and
 * course and speed from an ECEF velocity. The table these functions implement is in docs/cot.md.
 */
import { ecefToEnuMatrix } from '../math/geodesy.js';
import { cotTypeTail } from '../names/symbol-functions.js';
import { LISTED_COT_TAILS } from './listed-types.js';

/** CoT affiliation letters (the second atom of an `a-…` type): friend, hostile, neutral, unknown. */
export type CotAffiliation = 'f' | 'h' | 'n' | 'u';

/**
 * The affiliation of a DIS Force ID (SISO-REF-010 UID 4): 1 Friendly, 2 Opposing, 3 Neutral, then Friendly 2,
 * Opposing 2, Neutral 2 … up to 30 (Neutral 10), repeating in threes; 0 (Other) and values past 30 are unknown.
 */
export function affiliationForForce(forceId: number): CotAffiliation {
  if (!(forceId >= 1 && forceId <= 30) || !Number.isInteger(forceId)) return 'u';
  const k = (forceId - 1) % 3;
  return k === 0 ? 'f' : k === 1 ? 'h' : 'n';
}

/**
 * The CoT type hierarchy below the affiliation for a DIS entity kind, domain and category: the MIL-STD-2525C
 * battle dimension and function id of `symbolFunction` (src/names/symbol-functions.ts), letters joined by `-`:
 * `G-E-V-A-T` for a tank, `A-M-H-A` for an attack helicopter, `S-C-L-D-D` for a destroyer; `X` when nothing is known.
 * Only types MITRE's CoTtypes.xml lists are sent (`LISTED_COT_TAILS`): an unlisted function id gives way to its
 * most specific listed parent (`U-S-N-B` → `U-S-N`), and space (2525C dimension `P`, which CoTtypes.xml does not
 * have) is sent as an air track, `A`. The table is in docs/cot.md.
 */
export function cotDimensionFor(kind: number, domain: number, category = 0): string {
  return listedTail(cotTypeTail(kind, domain, category));
}

/** `tail`, or its most specific parent that CoTtypes.xml lists; `A` for the unlisted space dimension `P`. */
function listedTail(tail: string): string {
  for (let t = tail; ; t = t.slice(0, t.lastIndexOf('-'))) {
    if (LISTED_COT_TAILS.has(t)) return t;
    if (!t.includes('-')) return t === 'P' ? 'A' : 'X';
  }
}

/** The CoT `type` of a DIS entity: `a-<affiliation>-<dimension and function>`, e.g. `a-f-G-E-V-A-T`, `a-h-A-M-H-A`. */
export function cotTypeFor(forceId: number, kind: number, domain: number, category = 0): string {
  return `a-${affiliationForForce(forceId)}-${cotDimensionFor(kind, domain, category)}`;
}

/**
 * The CoT `uid` of a DIS entity: `<prefix>.<exercise>.<site>.<application>.<entity>`, e.g. `DIS.1.1.3.101`.
 * Stable for as long as the entity keeps its id, across PDUs, appearances and bridge restarts.
 */
export function cotUid(prefix: string, exercise: number, site: number, application: number, entity: number): string {
  return `${prefix}.${exercise}.${site}.${application}.${entity}`;
}

/**
 * Removes what must not reach a CoT document or a TAK display from text received from the network: C0 controls
 * (U+0000–U+001F, which XML 1.0 forbids except tab and line breaks, and which carry terminal escape sequences),
 * DEL and C1 controls (U+007F–U+009F), the bidirectional embeddings, overrides, isolates and marks
 * (U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069) that reorder what a reader sees, unpaired surrogates and
 * the non-characters U+FFFE and U+FFFF (not XML 1.0 characters either). Leading and trailing spaces are trimmed.
 * XML escaping (`<`, `&`, quotes) is left to the XML builder.
 */
export function stripControlCharacters(text: string): string {
  return text.replace(UNWANTED, '').trim();
}

// C0, DEL and C1 controls, bidi formatting characters and the non-characters U+FFFE/U+FFFF; then lone
// surrogates: a high one not followed by a low one, or a low one not preceded by a high one.
const UNWANTED = new RegExp(
  [
    '[\\u0000-\\u001f\\u007f-\\u009f\\u061c\\u200e\\u200f\\u202a-\\u202e\\u2066-\\u2069\\ufffe\\uffff]',
    '[\\ud800-\\udbff](?![\\udc00-\\udfff])',
    '(?<![\\ud800-\\udbff])[\\udc00-\\udfff]',
  ].join('|'),
  'g',
);

/** Scratch for `courseAndSpeed` (one ENU frame): the mapping runs per event, never concurrently. */
const enu = new Float64Array(9);

/**
 * Course over ground (degrees true, [0, 360)) and horizontal speed (m/s) of an ECEF velocity at a geodetic
 * position: the velocity in the local East-North-Up frame, course = atan2(east, north). A speed below 1 mm/s
 * has course 0.
 * @param out - receives [courseDeg, speedMps].
 */
export function courseAndSpeed(
  out: Float64Array,
  latitudeRad: number,
  longitudeRad: number,
  vx: number,
  vy: number,
  vz: number,
): Float64Array {
  ecefToEnuMatrix(enu, latitudeRad, longitudeRad);
  const east = enu[0]! * vx + enu[1]! * vy + enu[2]! * vz;
  const north = enu[3]! * vx + enu[4]! * vy + enu[5]! * vz;
  const speed = Math.hypot(east, north);
  let course = speed < 1e-3 ? 0 : (Math.atan2(east, north) * 180) / Math.PI;
  if (course < 0) course += 360;
  out[0] = course;
  out[1] = speed;
  return out;
}
