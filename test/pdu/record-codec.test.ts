import { describe, expect, it } from 'vitest';
import { ENTITY_STATE_FIXTURES, ENTITY_STATE_UPDATE_HEX } from '../fixtures/pdu/entity-state.js';
import {
  decodeEntityStateInto,
  decodeEntityStateOrUpdateInto,
  decodeEntityStateUpdateInto,
} from '../../src/pdu/wire/entity-state-decoder.js';
import { EntityStateEncoder, encodeEntityStateInto } from '../../src/pdu/wire/entity-state-encoder.js';
import { entityStateRecordFromPdu, entityStateRecordToPdu } from '../../src/pdu/json/entity-state-json.js';
import { EntityStateRecord, markingText, setMarkingText } from '../../src/pdu/wire/entity-state-record.js';
import { forEachPdu, pduLengthAt } from '../../src/pdu/wire/header.js';
import { CodecStatus, codecStatusMessage, codecStatusName } from '../../src/pdu/wire/status.js';

const fromHex = (hex: string): Uint8Array => Uint8Array.from(Buffer.from(hex, 'hex'));
const toHex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');
const withBytes = (i: number) => ({ ...ENTITY_STATE_FIXTURES[i]!, bytes: fromHex(ENTITY_STATE_FIXTURES[i]!.hex) });
const [v5, v6, v7] = [withBytes(0), withBytes(1), withBytes(2)];

describe('decodeEntityStateInto', () => {
  it('fills the record with the fixture values, reusing one record across PDUs', () => {
    const record = new EntityStateRecord();
    for (const f of [v7, v5, v6]) {
      expect(decodeEntityStateInto(record, f.bytes)).toBe(CodecStatus.OK);
      expect(entityStateRecordToPdu(record)).toEqual(f.pdu);
    }
    expect(record.variableParameterCount).toBe(1); // not piled up from the 3-record PDU before
    expect(record.timestampRaw).toBe(0x8000_0001);
    expect(record.capabilities).toBe(0x8000_0003);
  });

  it('leaves the record untouched when it rejects a PDU', () => {
    const record = new EntityStateRecord();
    decodeEntityStateInto(record, v6.bytes);
    const before = entityStateRecordToPdu(record);
    const bad = v7.bytes.slice();
    bad[19] = 2; // record count disagrees with Length
    expect(decodeEntityStateInto(record, bad)).toBe(CodecStatus.BAD_LENGTH);
    expect(entityStateRecordToPdu(record)).toEqual(before);
  });

  it('refuses more records than the record holds', () => {
    expect(decodeEntityStateInto(new EntityStateRecord(2), v7.bytes)).toBe(CodecStatus.TOO_MANY_PARAMETERS);
    expect(decodeEntityStateInto(new EntityStateRecord(3), v7.bytes)).toBe(CodecStatus.OK);
  });

  it('decodes a PDU inside a datagram between offset and end', () => {
    const datagram = new Uint8Array(5 + v6.bytes.length + 7);
    datagram.set(v6.bytes, 5);
    const record = new EntityStateRecord();
    expect(decodeEntityStateInto(record, datagram, 5, 5 + v6.bytes.length)).toBe(CodecStatus.OK);
    expect(entityStateRecordToPdu(record)).toEqual(v6.pdu);
    expect(decodeEntityStateInto(record, datagram, 5, 5 + 150)).toBe(CodecStatus.TRUNCATED);
  });

  it('answers TRUNCATED, without throwing, for an end past the array or a negative offset', () => {
    const record = new EntityStateRecord();
    const pooled = Buffer.concat([Buffer.alloc(7), v6.bytes]).subarray(7); // more bytes behind it in the pool
    const short = pooled.subarray(0, 150);
    expect(decodeEntityStateInto(record, short, 0, v6.bytes.length)).toBe(CodecStatus.TRUNCATED);
    expect(decodeEntityStateOrUpdateInto(record, short, 0, v6.bytes.length)).toBe(CodecStatus.TRUNCATED);
    expect(decodeEntityStateInto(record, pooled, -2)).toBe(CodecStatus.TRUNCATED);
    expect(decodeEntityStateOrUpdateInto(record, pooled, -2)).toBe(CodecStatus.TRUNCATED);
    expect(decodeEntityStateInto(record, pooled)).toBe(CodecStatus.OK);
  });

  it('decodes and encodes in turn across many buffers, each through its own view', () => {
    const record = new EntityStateRecord();
    const sendBuffers = [new Uint8Array(400), Buffer.alloc(400)];
    for (let i = 0; i < 12; i++) {
      const f = [v5, v6, v7][i % 3]!;
      const datagram = i % 2 === 0 ? Buffer.from(f.bytes) : Uint8Array.from(f.bytes); // pooled Buffer or own array
      expect(decodeEntityStateInto(record, datagram)).toBe(CodecStatus.OK);
      const out = sendBuffers[i % 2]!;
      const at = (i * 16) % 200;
      expect(encodeEntityStateInto(out, record, at)).toBe(f.bytes.length);
      expect(toHex(out.subarray(at, at + f.bytes.length))).toBe(f.hex);
    }
  });

  it('reports v5/v6 byte 10 as PDU status 0 whatever was sent, v7 as sent', () => {
    const record = new EntityStateRecord();
    const v6WithJunk = v6.bytes.slice();
    v6WithJunk[10] = 0xff;
    decodeEntityStateInto(record, v6WithJunk);
    expect(record.pduStatus).toBe(0);
    decodeEntityStateInto(record, v7.bytes);
    expect(record.pduStatus).toBe(0x0a);
  });
});

describe('Entity State Update (type 67)', () => {
  const bytes = fromHex(ENTITY_STATE_UPDATE_HEX);

  it('decodes into the same record with pduType 67 and clears what the update does not carry', () => {
    const record = new EntityStateRecord();
    decodeEntityStateInto(record, v7.bytes);
    expect(decodeEntityStateUpdateInto(record, bytes)).toBe(CodecStatus.OK);
    expect(record.pduType).toBe(67);
    expect(record.length).toBe(88);
    expect([record.site, record.application, record.entity]).toEqual([1, 3001, 54]);
    expect(Array.from(record.linearVelocity)).toEqual([1.5, -2.25, 0.5]);
    expect(Array.from(record.location)).toEqual([-5506598.309127, -2241106.750128, 2302116.858405]);
    expect(Array.from(record.orientation)).toEqual([0.75, -0.125, 3.140625]);
    expect(record.appearance).toBe(0x0080_0000);
    expect(record.variableParameterCount).toBe(1);
    expect(toHex(record.variableParameters.subarray(0, 16))).toBe('000000000000100b3fa0000000000000');
    expect([record.forceId, record.drAlgorithm, record.capabilities, record.markingCharacterSet]).toEqual([0, 0, 0, 0]);
    expect(Array.from(record.entityType)).toEqual([0, 0, 0, 0, 0, 0, 0]);
  });

  it('round trips through the encoder', () => {
    const record = new EntityStateRecord();
    decodeEntityStateOrUpdateInto(record, bytes);
    expect(toHex(new EntityStateEncoder().encode(record))).toBe(ENTITY_STATE_UPDATE_HEX);
  });

  it('is told apart from type 1 by the dispatching decoder', () => {
    const record = new EntityStateRecord();
    expect(decodeEntityStateOrUpdateInto(record, v5.bytes)).toBe(CodecStatus.OK);
    expect(record.pduType).toBe(1);
    expect(decodeEntityStateInto(record, bytes)).toBe(CodecStatus.NOT_ENTITY_STATE);
    expect(decodeEntityStateUpdateInto(record, v5.bytes)).toBe(CodecStatus.NOT_ENTITY_STATE);
    const fire = v5.bytes.slice();
    fire[2] = 2;
    expect(decodeEntityStateOrUpdateInto(record, fire)).toBe(CodecStatus.NOT_ENTITY_STATE);
    fire[0] = 9;
    expect(decodeEntityStateOrUpdateInto(record, fire)).toBe(CodecStatus.UNSUPPORTED_VERSION);
  });
});

describe('encodeEntityStateInto', () => {
  const record = entityStateRecordFromPdu(new EntityStateRecord(), v7.pdu);

  it('writes at an offset and returns the byte count', () => {
    const out = new Uint8Array(300).fill(0xaa);
    expect(encodeEntityStateInto(out, record, 50)).toBe(192);
    expect(toHex(out.subarray(50, 242))).toBe(v7.hex);
    expect(out[49]).toBe(0xaa);
    expect(out[242]).toBe(0xaa);
  });

  it('writes into a Buffer view with its own byteOffset', () => {
    const backing = new ArrayBuffer(400);
    const out = new Uint8Array(backing, 100, 200);
    expect(encodeEntityStateInto(out, record, 4)).toBe(192);
    expect(toHex(new Uint8Array(backing, 104, 192))).toBe(v7.hex);
  });

  it.each([
    { name: 'no room', change: () => {}, out: new Uint8Array(191), offset: 0, status: CodecStatus.BUFFER_TOO_SMALL },
    {
      name: 'no room at the offset',
      change: () => {},
      out: new Uint8Array(200),
      offset: 9,
      status: CodecStatus.BUFFER_TOO_SMALL,
    },
    {
      name: 'version 4',
      change: (r: EntityStateRecord) => (r.protocolVersion = 4),
      out: new Uint8Array(200),
      offset: 0,
      status: CodecStatus.UNSUPPORTED_VERSION,
    },
    {
      name: 'count over capacity',
      change: (r: EntityStateRecord) => (r.variableParameterCount = 256),
      out: new Uint8Array(9000),
      offset: 0,
      status: CodecStatus.TOO_MANY_PARAMETERS,
    },
  ])('returns minus the status and writes nothing: $name', ({ change, out, offset, status }) => {
    const r = entityStateRecordFromPdu(new EntityStateRecord(), v7.pdu);
    change(r);
    expect(encodeEntityStateInto(out, r, offset)).toBe(-status);
    expect(out.every((b) => b === 0)).toBe(true);
  });

  it('encodes a fresh record as a valid v7 Entity State PDU', () => {
    const fresh = setMarkingText(new EntityStateRecord(), 'Tank 12345678');
    const bytes = new EntityStateEncoder().encode(fresh);
    expect(toHex(bytes.subarray(0, 4))).toBe('07000101');
    expect(bytes.length).toBe(144);
    expect(markingText(fresh)).toBe('Tank 123456');
  });
});

describe('EntityStateEncoder', () => {
  it('returns a view of its own buffer, valid until the next call', () => {
    const encoder = new EntityStateEncoder();
    const a = encoder.encode(entityStateRecordFromPdu(new EntityStateRecord(), v6.pdu));
    expect(toHex(a)).toBe(v6.hex);
    const b = encoder.encode(entityStateRecordFromPdu(new EntityStateRecord(), v5.pdu));
    expect(b.buffer).toBe(a.buffer);
    expect(toHex(b)).toBe(v5.hex);
  });

  it('throws a RangeError for a record it cannot encode and stays usable', () => {
    const encoder = new EntityStateEncoder();
    const bad = new EntityStateRecord();
    bad.protocolVersion = 3;
    expect(() => encoder.encode(bad)).toThrow(RangeError);
    expect(toHex(encoder.encode(entityStateRecordFromPdu(new EntityStateRecord(), v6.pdu)))).toBe(v6.hex);
  });
});

describe('bundles: pduLengthAt and forEachPdu', () => {
  const bundle = new Uint8Array(v5.bytes.length + v7.bytes.length + v6.bytes.length);
  bundle.set(v5.bytes, 0);
  bundle.set(v7.bytes, 144);
  bundle.set(v6.bytes, 336);

  it('visits each PDU with its offset, Length and type', () => {
    const seen: number[][] = [];
    expect(forEachPdu(bundle, (_b, offset, length, type) => seen.push([offset, length, type]))).toBe(CodecStatus.OK);
    expect(seen).toEqual([
      [0, 144, 1],
      [144, 192, 1],
      [336, 160, 1],
    ]);
    const record = new EntityStateRecord();
    expect(decodeEntityStateInto(record, bundle, 144, 336)).toBe(CodecStatus.OK);
    expect(entityStateRecordToPdu(record)).toEqual(v7.pdu);
  });

  it.each([
    {
      name: 'a trailing partial header',
      bytes: bundle.subarray(0, 144 + 11),
      status: CodecStatus.TRUNCATED,
      visited: 1,
    },
    { name: 'a Length past the end', bytes: bundle.subarray(0, 144 + 100), status: CodecStatus.TRUNCATED, visited: 1 },
    {
      name: 'a Length under 12',
      bytes: (() => {
        const b = bundle.slice();
        b[144 + 8] = 0;
        b[144 + 9] = 4;
        return b;
      })(),
      status: CodecStatus.BAD_LENGTH,
      visited: 1,
    },
  ])('stops at $name and says why', ({ bytes, status, visited }) => {
    let count = 0;
    expect(forEachPdu(bytes, () => count++)).toBe(status);
    expect(count).toBe(visited);
  });

  it('pduLengthAt returns the Length or minus a status', () => {
    expect(pduLengthAt(bundle, 144)).toBe(192);
    expect(pduLengthAt(bundle, 490)).toBe(-CodecStatus.TRUNCATED);
  });
});

describe('status table', () => {
  it('names and explains every code', () => {
    for (const code of Object.values(CodecStatus)) {
      expect(codecStatusName(code)).toMatch(/^[A-Z_]+$/);
      expect(codecStatusMessage(code).length).toBeGreaterThan(5);
    }
    expect(codecStatusName(99)).toBe('UNKNOWN_99');
  });
});
