/**
 * open-dis (open-dis-javascript 1.3.6) as an independent reference codec, and the mapping between its objects and
 * a comparable plain form.
 *
 * open-dis ships DIS v6 (`dist/dis6.min.js`, the package main) and DIS v7 (`dist/dis7.min.js`). Both builds assign
 * their classes to one global `dis` object, created on first load and reused, so loading both in one realm makes
 * the later build overwrite the earlier one's classes (and every constructor re-assigns prototype methods). Each
 * build is therefore run in its own `vm` context, with its own `dis`, `exports` and the real `require` (for `long`).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import vm from 'node:vm';
import type { EntityStatePdu } from '../../src/pdu/schema/schema.js';

const require = createRequire(import.meta.url);

/* eslint-disable @typescript-eslint/no-explicit-any -- open-dis has no types */
export type OpenDis = Record<string, any>;

export function loadOpenDis(version: 6 | 7): OpenDis {
  const file = require.resolve(version === 6 ? 'open-dis' : 'open-dis/dist/dis7.min.js');
  const exports: OpenDis = {};
  vm.runInContext(readFileSync(file, 'utf8'), vm.createContext({ exports, require }), { filename: file });
  return exports;
}

/** What both codecs must agree on: every field, float32 fields after `Math.fround`, records as raw hex. */
export interface Comparable {
  header: number[];
  entity: number[];
  entityType: number[];
  alternativeEntityType: number[];
  float32: number[];
  location: number[];
  appearance: number;
  dr: number[];
  marking: number[];
  capabilities: number;
  records: string[];
}

const f = Math.fround;
const hex = (bytes: ArrayLike<number>) => Buffer.from(Uint8Array.from(bytes, (b) => b & 0xff)).toString('hex');
const markingBytes = (text: string) => Array.from({ length: 11 }, (_, i) => (i < text.length ? text.charCodeAt(i) : 0));
const typeOf = (t: EntityStatePdu['entityType']) => [
  t.kind,
  t.domain,
  t.country,
  t.category,
  t.subcategory,
  t.specific,
  t.extra,
];

/** The comparable form of one of our JSON PDUs (what the wire carries of it). */
export function comparableFromPdu(pdu: EntityStatePdu): Comparable {
  const dr = pdu.deadReckoning;
  return {
    header: [
      pdu.protocolVersion,
      pdu.exerciseId,
      1,
      pdu.protocolFamily,
      pdu.timestamp.raw,
      144 + 16 * pdu.variableParameters.length,
      pdu.protocolVersion >= 7 ? pdu.pduStatus : 0,
    ],
    entity: [
      pdu.entityId.site,
      pdu.entityId.application,
      pdu.entityId.entity,
      pdu.forceId,
      pdu.variableParameters.length,
    ],
    entityType: typeOf(pdu.entityType),
    alternativeEntityType: typeOf(pdu.alternativeEntityType),
    float32: [...pdu.linearVelocity, ...pdu.orientation, ...dr.linearAcceleration, ...dr.angularVelocity].map(f),
    location: [...pdu.location],
    appearance: pdu.appearance,
    dr: [dr.algorithm, ...Buffer.from(dr.otherParameters.padEnd(30, '0'), 'hex')],
    marking: [pdu.marking.characterSet, ...markingBytes(pdu.marking.text)],
    capabilities: pdu.capabilities,
    records: pdu.variableParameters.map((p) => p.raw),
  };
}

/** The comparable form of an open-dis EntityStatePdu object (v6 or v7 names). */
export function comparableFromOpenDis(o: OpenDis, version: 6 | 7): Comparable {
  const v6 = version === 6;
  const id = o.entityID;
  const type = (t: OpenDis) => [
    t.entityKind,
    t.domain,
    t.country,
    t.category,
    t.subcategory,
    v6 ? t.spec : t.specific,
    t.extra,
  ];
  const vec = (v: OpenDis) => [v.x, v.y, v.z];
  const dr = o.deadReckoningParameters;
  const records: OpenDis[] = v6 ? o.articulationParameters : o.variableParameters;
  return {
    header: [
      o.protocolVersion,
      o.exerciseID,
      o.pduType,
      o.protocolFamily,
      o.timestamp,
      v6 ? o.pduLength : o.length,
      v6 ? 0 : o.pduStatus,
    ],
    entity: v6
      ? [id.site, id.application, id.entity, o.forceId, o.numberOfArticulationParameters & 0xff]
      : [id.siteID, id.applicationID, id.entityID, o.forceId, o.numberOfVariableParameters],
    entityType: type(o.entityType),
    alternativeEntityType: type(o.alternativeEntityType),
    float32: [
      ...vec(o.entityLinearVelocity),
      o.entityOrientation.psi,
      o.entityOrientation.theta,
      o.entityOrientation.phi,
      ...vec(dr.entityLinearAcceleration),
      ...vec(dr.entityAngularVelocity),
    ],
    location: vec(o.entityLocation),
    appearance: o.entityAppearance >>> 0, // v6 reads it with the signed readInt
    dr: [dr.deadReckoningAlgorithm, ...(v6 ? dr.otherParameters : dr.parameters).map((b: number) => b & 0xff)],
    marking: [o.marking.characterSet, ...o.marking.characters.map((b: number) => b & 0xff)],
    capabilities: o.capabilities >>> 0,
    records: records.map((r) => (v6 ? articulationToHex(r) : variableToHex(r))),
  };
}

/** v6 articulation parameter: designator, change, attached-to, type (read signed), value read as a float64. */
function articulationToHex(r: OpenDis): string {
  const view = new DataView(new ArrayBuffer(16));
  view.setUint8(0, r.parameterTypeDesignator);
  view.setUint8(1, r.changeIndicator);
  view.setUint16(2, r.partAttachedTo);
  view.setInt32(4, r.parameterType);
  view.setFloat64(8, r.parameterValue);
  return hex(new Uint8Array(view.buffer));
}

/** v7 variable parameter as open-dis splits it: type u8, then float64, uint32, uint16, uint8 over the 15 bytes. */
function variableToHex(r: OpenDis): string {
  const view = new DataView(new ArrayBuffer(16));
  view.setUint8(0, r.recordType);
  view.setFloat64(1, r.variableParameterFields1);
  view.setUint32(9, r.variableParameterFields2);
  view.setUint16(13, r.variableParameterFields3);
  view.setUint8(15, r.variableParameterFields4);
  return hex(new Uint8Array(view.buffer));
}

/** Decodes bytes with open-dis the documented way: an InputStream over an ArrayBuffer, `initFromBinary`. */
export function openDisDecode(lib: OpenDis, bytes: Uint8Array): OpenDis {
  const pdu = new lib.EntityStatePdu();
  pdu.initFromBinary(new lib.InputStream(bytes.slice().buffer));
  return pdu;
}

/** Builds an open-dis EntityStatePdu from our JSON form and encodes it (setting the Length it does not compute). */
export function openDisEncode(lib: OpenDis, version: 6 | 7, pdu: EntityStatePdu): Uint8Array {
  const v6 = version === 6;
  const o = new lib.EntityStatePdu();
  const length = 144 + 16 * pdu.variableParameters.length;
  o.protocolVersion = pdu.protocolVersion;
  o.exerciseID = pdu.exerciseId;
  o.protocolFamily = pdu.protocolFamily;
  o.timestamp = pdu.timestamp.raw;
  if (v6) o.pduLength = length;
  else {
    o.length = length;
    o.pduStatus = pdu.pduStatus;
  }
  const id = o.entityID;
  if (v6)
    Object.assign(id, { site: pdu.entityId.site, application: pdu.entityId.application, entity: pdu.entityId.entity });
  else
    Object.assign(id, {
      siteID: pdu.entityId.site,
      applicationID: pdu.entityId.application,
      entityID: pdu.entityId.entity,
    });
  o.forceId = pdu.forceId;
  const setType = (t: OpenDis, from: EntityStatePdu['entityType']) =>
    Object.assign(t, {
      entityKind: from.kind,
      domain: from.domain,
      country: from.country,
      category: from.category,
      subcategory: from.subcategory,
      extra: from.extra,
      [v6 ? 'spec' : 'specific']: from.specific,
    });
  setType(o.entityType, pdu.entityType);
  setType(o.alternativeEntityType, pdu.alternativeEntityType);
  const setVec = (v: OpenDis, [x, y, z]: readonly number[]) => Object.assign(v, { x, y, z });
  setVec(o.entityLinearVelocity, pdu.linearVelocity);
  setVec(o.entityLocation, pdu.location);
  Object.assign(o.entityOrientation, { psi: pdu.orientation[0], theta: pdu.orientation[1], phi: pdu.orientation[2] });
  o.entityAppearance = pdu.appearance;
  const dr = o.deadReckoningParameters;
  dr.deadReckoningAlgorithm = pdu.deadReckoning.algorithm;
  const other = [...Buffer.from(pdu.deadReckoning.otherParameters.padEnd(30, '0'), 'hex')];
  if (v6) dr.otherParameters = other;
  else dr.parameters = other;
  setVec(dr.entityLinearAcceleration, pdu.deadReckoning.linearAcceleration);
  setVec(dr.entityAngularVelocity, pdu.deadReckoning.angularVelocity);
  o.marking.characterSet = pdu.marking.characterSet;
  o.marking.characters = markingBytes(pdu.marking.text);
  o.capabilities = pdu.capabilities;
  for (const p of pdu.variableParameters) {
    const raw = Buffer.from(p.raw, 'hex');
    const at = new DataView(raw.buffer, raw.byteOffset, 16);
    if (v6) {
      const r = new lib.ArticulationParameter();
      Object.assign(r, {
        parameterTypeDesignator: raw[0],
        changeIndicator: raw[1],
        partAttachedTo: at.getUint16(2),
        parameterType: at.getInt32(4),
        parameterValue: at.getFloat64(8),
      });
      o.articulationParameters.push(r);
    } else {
      const r = new lib.VariableParameter();
      Object.assign(r, {
        recordType: raw[0],
        variableParameterFields1: at.getFloat64(1),
        variableParameterFields2: at.getUint32(9),
        variableParameterFields3: at.getUint16(13),
        variableParameterFields4: raw[15],
      });
      o.variableParameters.push(r);
    }
  }
  if (v6) o.numberOfArticulationParameters = pdu.variableParameters.length;
  else o.numberOfVariableParameters = pdu.variableParameters.length;
  const out = new lib.OutputStream(new ArrayBuffer(length));
  o.encodeToBinary(out);
  return new Uint8Array(out.toByteArray());
}
