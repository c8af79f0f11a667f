import { describe, expect, it } from 'vitest';
import { ENTITY_STATE_FIXTURES } from '../fixtures/pdu/entity-state.js';
import { decodeEntityState, encodeEntityState } from '../../src/pdu/json/entity-state-json.js';
import { EntityStatePduSchema } from '../../src/pdu/schema/schema.js';
import { PduDecodeError } from '../../src/pdu/wire/status.js';

const fromHex = (hex: string): Uint8Array => Uint8Array.from(Buffer.from(hex, 'hex'));
const toHex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');

describe.each(ENTITY_STATE_FIXTURES)('$name', ({ pdu, hex }) => {
  it('decodes the bytes to the object', () => {
    expect(decodeEntityState(fromHex(hex))).toEqual(pdu);
  });
  it('encodes the object to the bytes', () => {
    expect(toHex(encodeEntityState(pdu))).toBe(hex);
  });
  it('round trips both ways', () => {
    expect(toHex(encodeEntityState(decodeEntityState(fromHex(hex))))).toBe(hex);
    expect(decodeEntityState(encodeEntityState(pdu))).toEqual(pdu);
  });
  it('decodes to an object the schema accepts', () => {
    expect(EntityStatePduSchema.safeParse(decodeEntityState(fromHex(hex))).success).toBe(true);
  });
  it('decodes from a pooled Buffer at a non-zero byteOffset, and at an offset inside a datagram', () => {
    const backing = new Uint8Array(13 + hex.length / 2).fill(0xee);
    backing.set(fromHex(hex), 13);
    const pooled = Buffer.from(backing.buffer, 13, hex.length / 2);
    expect(decodeEntityState(pooled)).toEqual(pdu);
    expect(decodeEntityState(fromHex('abcd' + hex), 2)).toEqual(pdu);
  });
});

describe('encodeEntityState', () => {
  const base = ENTITY_STATE_FIXTURES[2]!.pdu;

  it('computes Length from the records and ignores the given one', () => {
    const bytes = encodeEntityState({ ...base, length: 7 });
    expect(bytes.length).toBe(192);
    expect((bytes[8]! << 8) | bytes[9]!).toBe(192);
  });

  it('builds typed records without raw bytes', () => {
    const bytes = encodeEntityState({
      ...base,
      variableParameters: [
        { recordType: 0, changeIndicator: 1, partAttachedTo: 1, parameterType: 4433, parameterValue: -0.5, raw: '' },
      ],
    });
    expect(toHex(bytes.subarray(144))).toBe('0001000100001151bf00000000000000');
  });

  it('zero-fills a short marking and rounds float32 fields as the wire does', () => {
    const bytes = encodeEntityState({ ...base, marking: { characterSet: 1, text: 'A' }, linearVelocity: [0.1, 0, 0] });
    expect(toHex(bytes.subarray(128, 140))).toBe('014100000000000000000000');
    expect(decodeEntityState(bytes).linearVelocity[0]).toBe(Math.fround(0.1));
  });

  it('lists every invalid field with its path', () => {
    const bad = { ...base, exerciseId: 300, entityId: { site: -1, application: 1, entity: 1 } };
    expect(() => encodeEntityState(bad)).toThrow(/exerciseId[\s\S]*entityId\.site/);
  });

  it('rejects marking characters outside Latin-1', () => {
    expect(() => encodeEntityState({ ...base, marking: { characterSet: 1, text: 'tank ✈' } })).toThrow(/Latin-1/);
  });
});

describe('decodeEntityState errors', () => {
  const good = fromHex(ENTITY_STATE_FIXTURES[1]!.hex); // 160 bytes, one record
  const patched = (at: number, ...values: number[]): Uint8Array => {
    const copy = good.slice();
    values.forEach((v, i) => (copy[at + i] = v));
    return copy;
  };
  const cases: ReadonlyArray<{ name: string; bytes: Uint8Array; code: string; offset: number }> = [
    { name: 'empty', bytes: new Uint8Array(0), code: 'TRUNCATED', offset: 0 },
    { name: 'header only', bytes: good.subarray(0, 12), code: 'TRUNCATED', offset: 12 },
    { name: 'cut inside the body', bytes: good.subarray(0, 100), code: 'TRUNCATED', offset: 100 },
    { name: 'cut inside the records', bytes: good.subarray(0, 150), code: 'TRUNCATED', offset: 150 },
    { name: 'version 4', bytes: patched(0, 4), code: 'UNSUPPORTED_VERSION', offset: 0 },
    { name: 'version 8', bytes: patched(0, 8), code: 'UNSUPPORTED_VERSION', offset: 0 },
    { name: 'a Fire PDU', bytes: patched(2, 2), code: 'NOT_ENTITY_STATE', offset: 2 },
    { name: 'Length 144 with one record', bytes: patched(8, 0, 144), code: 'BAD_LENGTH', offset: 8 },
    { name: 'record count 0 with Length 160', bytes: patched(19, 0), code: 'BAD_LENGTH', offset: 8 },
    { name: 'Length beyond the datagram', bytes: patched(8, 0, 176), code: 'TRUNCATED', offset: 160 },
  ];
  it.each(cases)('$name → $code at byte $offset', ({ bytes, code, offset }) => {
    let error: unknown;
    try {
      decodeEntityState(bytes);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(PduDecodeError);
    expect(error).toMatchObject({ code, offset });
    // The next good PDU still decodes.
    expect(decodeEntityState(good)).toEqual(ENTITY_STATE_FIXTURES[1]!.pdu);
  });
});
