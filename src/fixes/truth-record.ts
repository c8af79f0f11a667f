/**
 * Truth records: one JSON object per line (NDJSON) from any program — a Unity, Unreal, Python or C++ simulation —
 * saying where an entity is, as `schemas/truth.schema.json` describes (docs/feeds.md):
 * `{"id": "tank-7", "time": 12.5, "lat": 36.6, "lon": -121.9, "alt": 20, "heading": 90, "type": "M1A2"}`, or
 * `{"id": "tank-7", "leave": true}`. Checked field by field into a `Fix`; a bad record gets one line saying what is
 * wrong with it, and nothing of it is used.
 */
import { entityTypeByName } from '../names/entity-type-search.js';
import {
  FIX_ATTITUDE,
  FIX_CALLSIGN,
  FIX_ECEF,
  FIX_FORCE,
  FIX_HEADING,
  FIX_HEIGHT,
  FIX_HEIGHT_GEOMETRIC,
  FIX_LEAVE,
  FIX_POSITION,
  FIX_TYPE,
  FIX_VELOCITY,
  type Fix,
  KeySpace,
} from './fix.js';

/** Longest id kept (characters). */
export const MAX_ID_LENGTH = 64;
const FORCES: Readonly<Record<string, number>> = { other: 0, friendly: 1, opposing: 2, neutral: 3 };
/** Entity types found by name, kept (bounded: a feed cannot grow it without end). */
const typeNames = new Map<string, Uint16Array | null>();
const MAX_TYPE_NAMES = 4096;

const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

function vector(value: unknown): value is [number, number, number] {
  return Array.isArray(value) && value.length === 3 && value.every(isNumber);
}

/**
 * Fills `fix` from one parsed record. @returns undefined when it is good, else what is wrong with it (one line).
 */
export function decodeTruthRecord(record: unknown, fix: Fix): string | undefined {
  fix.clear();
  if (record === null || typeof record !== 'object' || Array.isArray(record)) return 'a record must be a JSON object';
  const r = record as Record<string, unknown>;
  const id = r.id;
  if (typeof id === 'string') {
    if (id === '' || id.length > MAX_ID_LENGTH) return `"id" must have 1 to ${MAX_ID_LENGTH} characters`;
    fix.id = id;
  } else if (Number.isSafeInteger(id) && (id as number) >= 0) fix.id = String(id);
  else return id === undefined ? '"id" is missing' : '"id" must be a string or a whole number';
  fix.keySpace = KeySpace.NAMED;
  fix.key = 0;
  if (r.leave !== undefined) {
    if (r.leave !== true && r.leave !== false) return '"leave" must be true or false';
    if (r.leave) {
      fix.flags |= FIX_LEAVE;
      return undefined;
    }
  }
  if (r.entity !== undefined) {
    if (!(Number.isInteger(r.entity) && (r.entity as number) >= 1 && (r.entity as number) <= 65534)) {
      return '"entity" must be a whole number from 1 to 65534';
    }
    fix.entityNumber = r.entity as number;
  }
  if (r.time !== undefined) {
    if (isNumber(r.time)) fix.timeSeconds = r.time;
    else if (typeof r.time === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(r.time) && Number.isFinite(Date.parse(r.time))) {
      fix.timeSeconds = Date.parse(r.time) / 1000;
    } else return '"time" must be seconds (a number) or an ISO 8601 date-time such as 2026-11-28T12:00:00.5Z';
  }
  if (r.ecef !== undefined) {
    if (!vector(r.ecef)) return '"ecef" must be [x, y, z] in metres';
    if (r.lat !== undefined || r.lon !== undefined) return 'give "ecef" or "lat"/"lon", not both';
    fix.positionEcef.set(r.ecef);
    fix.flags |= FIX_ECEF;
  } else if (r.lat !== undefined || r.lon !== undefined) {
    if (!(isNumber(r.lat) && Math.abs(r.lat) <= 90)) return '"lat" must be degrees from -90 to 90';
    if (!(isNumber(r.lon) && Math.abs(r.lon) <= 180)) return '"lon" must be degrees from -180 to 180';
    if (r.alt !== undefined && !(isNumber(r.alt) && Math.abs(r.alt) < 1e8)) return '"alt" must be metres';
    fix.latitudeDeg = r.lat;
    fix.longitudeDeg = r.lon;
    fix.heightM = (r.alt as number | undefined) ?? 0;
    fix.flags |= FIX_POSITION | FIX_HEIGHT | FIX_HEIGHT_GEOMETRIC;
  } else return 'a position is missing: "lat" and "lon" (and "alt"), or "ecef"';
  if (r.velocity !== undefined) {
    const v = r.velocity as Record<string, unknown> | null;
    const enu = v !== null && typeof v === 'object' ? v.enu : undefined;
    const ecef = v !== null && typeof v === 'object' ? v.ecef : undefined;
    if (vector(enu) && ecef === undefined) {
      fix.velocity.set(enu);
      fix.velocityFrame = 'enu';
    } else if (vector(ecef) && enu === undefined) {
      fix.velocity.set(ecef);
      fix.velocityFrame = 'ecef';
    } else return '"velocity" must be {"enu": [east, north, up]} or {"ecef": [x, y, z]} in m/s';
    fix.flags |= FIX_VELOCITY;
  }
  for (const key of ['heading', 'pitch', 'roll'] as const) {
    if (r[key] !== undefined && !isNumber(r[key])) return `"${key}" must be degrees (a number)`;
  }
  if (isNumber(r.heading)) {
    fix.headingDeg = ((r.heading % 360) + 360) % 360;
    fix.flags |= FIX_HEADING;
  }
  if (r.pitch !== undefined || r.roll !== undefined) {
    fix.pitchDeg = (r.pitch as number | undefined) ?? 0;
    fix.rollDeg = (r.roll as number | undefined) ?? 0;
    fix.flags |= FIX_ATTITUDE;
  }
  if (r.marking !== undefined) {
    if (typeof r.marking !== 'string') return '"marking" must be a string';
    fix.callsign = r.marking.slice(0, 32);
    fix.flags |= FIX_CALLSIGN;
  }
  if (r.force !== undefined) {
    const force = typeof r.force === 'string' ? FORCES[r.force.toLowerCase()] : r.force;
    if (!(Number.isInteger(force) && (force as number) >= 0 && (force as number) <= 255)) {
      return '"force" must be 0–255 or one of other, friendly, opposing, neutral';
    }
    fix.forceId = force as number;
    fix.flags |= FIX_FORCE;
  }
  if (r.type !== undefined) {
    const problem = entityType(r.type, fix);
    if (problem) return problem;
  }
  return undefined;
}

/** "1:1:225:1:1:3:0", [1, 1, 225, 1, 1, 3, 0] or a SISO name such as "M1A2". */
function entityType(value: unknown, fix: Fix): string | undefined {
  const bad = '"type" must be kind:domain:country:category:subcategory:specific:extra, 7 numbers, or a SISO name';
  let numbers: unknown[] | undefined;
  if (Array.isArray(value)) numbers = value;
  else if (typeof value === 'string' && /^\d+(:\d+){0,6}$/.test(value.trim()))
    numbers = value.trim().split(':').map(Number);
  if (numbers) {
    if (numbers.length < 1 || numbers.length > 7) return bad;
    for (let k = 0; k < 7; k++) {
      const n = numbers[k] ?? 0;
      if (!(Number.isInteger(n) && (n as number) >= 0 && (n as number) <= (k === 2 ? 65535 : 255))) return bad;
      fix.entityType[k] = n as number;
    }
  } else if (typeof value === 'string') {
    const name = value.trim().slice(0, 120);
    let found = typeNames.get(name);
    if (found === undefined) {
      const type = entityTypeByName(name);
      found = type ? Uint16Array.from(type) : null;
      if (typeNames.size >= MAX_TYPE_NAMES) typeNames.clear();
      typeNames.set(name, found);
    }
    if (!found)
      return `"type": no SISO entity type is named "${name.slice(0, 40)}" (give its numbers, e.g. "1:1:225:1:1:3:0")`;
    fix.entityType.set(found);
  } else return bad;
  fix.entityTypeSet = true;
  fix.flags |= FIX_TYPE;
  return undefined;
}
