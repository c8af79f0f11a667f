/**
 * Interop with open-dis both ways, randomised over every field: what reckon encodes open-dis decodes to the same
 * values, and what open-dis encodes reckon decodes to the same values (and the same bytes). open-dis has both
 * DIS v6 and v7 Entity State PDUs; v5 shares the v6 layout and is checked through the v6 build.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeEntityState, encodeEntityState } from '../../src/pdu/json/entity-state-json.js';
import type { EntityStatePdu } from '../../src/pdu/schema/schema.js';
import { comparableFromOpenDis, comparableFromPdu, loadOpenDis, openDisDecode, openDisEncode } from './open-dis.js';

const u8 = fc.integer({ min: 0, max: 0xff });
const u16 = fc.integer({ min: 0, max: 0xffff });
const u32 = fc.integer({ min: 0, max: 0xffff_ffff });
const hexBytes = (n: number) =>
  fc.uint8Array({ minLength: n, maxLength: n }).map((b) => Buffer.from(b).toString('hex'));
// Doubles for float32 fields: the comparison applies Math.fround, as the wire does.
const float32Field = fc.double({ min: -1e30, max: 1e30, noNaN: true });
const vec3f = fc.tuple(float32Field, float32Field, float32Field);
const ecef = fc.double({ min: -1e8, max: 1e8, noNaN: true });
const entityType = fc.record({
  kind: u8,
  domain: u8,
  country: u16,
  category: u8,
  subcategory: u8,
  specific: u8,
  extra: u8,
});
const latin1 = fc.string({ unit: fc.integer({ min: 1, max: 255 }).map((c) => String.fromCharCode(c)), maxLength: 11 });

/**
 * Raw records. open-dis reads part of each record as a float64 (v6: bytes 8–15, v7: bytes 1–8) and holds it as a
 * JS number, which canonicalises NaN payloads; the high exponent bit of that float is cleared so no NaN occurs.
 */
const record = (nanSafeByte: number) =>
  fc.uint8Array({ minLength: 16, maxLength: 16 }).map((raw) => {
    raw[nanSafeByte] = raw[nanSafeByte]! & 0xbf;
    return { recordType: raw[0]!, raw: Buffer.from(raw).toString('hex') };
  });

const pduArbitrary = (versions: number[], nanSafeByte: number): fc.Arbitrary<EntityStatePdu> =>
  fc.record({
    protocolVersion: fc.constantFrom(...versions),
    exerciseId: u8,
    pduType: fc.constant(1 as const),
    protocolFamily: u8,
    timestamp: u32.map((raw) => ({ raw, absolute: (raw & 1) === 1, secondsPastHour: ((raw >>> 1) * 3600) / 2 ** 31 })),
    length: fc.constant(144),
    pduStatus: u8,
    entityId: fc.record({ site: u16, application: u16, entity: u16 }),
    forceId: u8,
    entityType,
    alternativeEntityType: entityType,
    linearVelocity: vec3f,
    location: fc.tuple(ecef, ecef, ecef),
    orientation: vec3f,
    appearance: u32,
    deadReckoning: fc.record({
      algorithm: u8,
      otherParameters: hexBytes(15),
      linearAcceleration: vec3f,
      angularVelocity: vec3f,
    }),
    marking: fc.record({ characterSet: u8, text: latin1 }),
    capabilities: u32,
    variableParameters: fc.array(record(nanSafeByte), { maxLength: 6 }),
  });

const cases = [
  { version: 6 as const, versions: [5, 6], nanSafeByte: 8 },
  { version: 7 as const, versions: [7], nanSafeByte: 1 },
];

describe.each(cases)('open-dis v$version', ({ version, versions, nanSafeByte }) => {
  const lib = loadOpenDis(version);

  it('decodes what reckon encodes to the same values', () => {
    fc.assert(
      fc.property(pduArbitrary(versions, nanSafeByte), (pdu) => {
        const theirs = comparableFromOpenDis(openDisDecode(lib, encodeEntityState(pdu)), version);
        expect(theirs).toEqual(comparableFromPdu(pdu));
      }),
      { numRuns: 300 },
    );
  });

  it('encodes what reckon decodes to the same values and the same bytes', () => {
    fc.assert(
      fc.property(pduArbitrary(versions, nanSafeByte), (pdu) => {
        const bytes = openDisEncode(lib, version, pdu);
        expect(comparableFromPdu(decodeEntityState(bytes))).toEqual(comparableFromPdu(pdu));
        expect(Buffer.from(encodeEntityState(pdu)).equals(Buffer.from(bytes))).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('has the documented traps: Length not computed on encode, records piling up on reuse', () => {
    const pdu = new lib.EntityStatePdu();
    expect(version === 6 ? pdu.pduLength : pdu.length).toBe(0);
    const bytes = encodeEntityState({
      ...decodeEntityState(
        openDisEncode(lib, version, fc.sample(pduArbitrary(versions, nanSafeByte), { numRuns: 1, seed: 1 })[0]!),
      ),
      variableParameters: [{ recordType: 0, raw: '' }],
    });
    const reused = new lib.EntityStatePdu();
    for (let i = 0; i < 2; i++) reused.initFromBinary(new lib.InputStream(bytes.slice().buffer));
    expect((version === 6 ? reused.articulationParameters : reused.variableParameters).length).toBe(2);
  });
});
