/**
 * The codecs of every PDU type beyond Entity State: round trips (record and JSON form) over random PDUs built from
 * the standard's layouts (test/fixtures/pdu/random-pdus.ts), status codes for every way a PDU can be wrong, and
 * the lengths that other libraries get wrong: bits where the standard says bits, bytes where it says bytes.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createRandom } from '../../src/math/random.js';
import { encodeAnyPduInto, OtherPduRecord, PduRecords } from '../../src/pdu/wire/any-pdu.js';
import {
  addVariableDatum,
  DatumPduRecord,
  decodeDatumPduInto,
  encodeDatumPduInto,
  variableDatumValue,
} from '../../src/pdu/wire/datum-pdus.js';
import { decodePdu, encodePdu, pduJsonSchema } from '../../src/pdu/json/pdu-json.js';
import type { DatumPdu, SignalPdu, TransmitterPdu } from '../../src/pdu/schema/pdu-schemas.js';
import {
  decodeSignalInto,
  decodeTransmitterInto,
  encodeSignalInto,
  SignalRecord,
  signalData,
  TransmitterRecord,
  transmitterParts,
} from '../../src/pdu/wire/radio.js';
import { pduStatusMessage } from '../../src/pdu/wire/length-rules.js';
import { CodecStatus, codecStatusMessage, codecStatusName } from '../../src/pdu/wire/status.js';
import {
  DetonationRecord,
  decodeDetonationInto,
  decodeFireInto,
  encodeFireInto,
  FireRecord,
} from '../../src/pdu/wire/warfare.js';
import { RANDOM_PDU_TYPES, randomPdu } from '../fixtures/pdu/random-pdus.js';

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
const seeds = fc.integer({ min: 0, max: 0x7fffffff });

describe.each(RANDOM_PDU_TYPES.map((type) => ({ type })))('PDU type $type', ({ type }) => {
  const records = new PduRecords();
  const out = new Uint8Array(0x10000);

  it('decodes a random PDU and encodes the same bytes, from the record and from its JSON form', () => {
    fc.assert(
      fc.property(seeds, (seed) => {
        const pdu = randomPdu(createRandom(seed), type);
        expect(codecStatusName(records.decode(pdu))).toBe('OK');
        expect(records.record!.pduType).toBe(type);
        const written = encodeAnyPduInto(out, records.record!, 0);
        expect(hex(out.subarray(0, written))).toBe(hex(pdu));
        const json = decodePdu(pdu);
        expect(pduJsonSchema(type).safeParse(json).success).toBe(true);
        // Through text, as a user's JSON would come back.
        expect(hex(encodePdu(JSON.parse(JSON.stringify(json))))).toBe(hex(pdu));
      }),
      { numRuns: 60 },
    );
  });

  it('decodes inside a datagram, between offset and end, and at every shorter end answers without throwing', () => {
    fc.assert(
      fc.property(seeds, fc.integer({ min: 0, max: 40 }), (seed, before) => {
        const pdu = randomPdu(createRandom(seed), type);
        const datagram = new Uint8Array(before + pdu.length + 7).fill(0xa5);
        datagram.set(pdu, before);
        expect(records.decode(datagram, before, before + pdu.length)).toBe(CodecStatus.OK);
        expect(hex(out.subarray(0, encodeAnyPduInto(out, records.record!, 0)))).toBe(hex(pdu));
        for (let end = before; end < before + pdu.length; end += 1 + (end % 5)) {
          expect(records.decode(datagram, before, end)).toBe(CodecStatus.TRUNCATED);
        }
      }),
      { numRuns: 12 },
    );
  });

  it('refuses versions before 5 and names a Length that cannot hold the PDU', () => {
    const pdu = randomPdu(createRandom(type), type);
    const old = pdu.slice();
    old[0] = 4;
    expect(records.decode(old)).toBe(CodecStatus.UNSUPPORTED_VERSION);
    const short = pdu.slice();
    new DataView(short.buffer).setUint16(8, 12);
    expect([CodecStatus.BAD_LENGTH, CodecStatus.BAD_RECORD_LENGTH]).toContain(records.decode(short.subarray(0, 12)));
  });
});

/**
 * The fixed part of each PDU type, bytes, from the layouts of IEEE 1278.1-2012 §7 (docs/pdu-families.md), and the
 * name it goes by (SISO-REF-010 UID 4): what a BAD_LENGTH of that type must name.
 */
const FIXED_PART: Record<number, [string, number]> = {
  2: ['Fire', 96],
  3: ['Detonation', 104],
  4: ['Collision', 60],
  11: ['Create Entity', 28],
  12: ['Remove Entity', 28],
  13: ['Start/Resume', 44],
  14: ['Stop/Freeze', 40],
  15: ['Acknowledge', 32],
  16: ['Action Request', 40],
  17: ['Action Response', 40],
  18: ['Data Query', 40],
  19: ['Set Data', 40],
  20: ['Data', 40],
  21: ['Event Report', 40],
  22: ['Comment', 32],
  23: ['Electromagnetic Emission', 28],
  24: ['Designator', 88],
  25: ['Transmitter', 104],
  26: ['Signal', 32],
  27: ['Receiver', 36],
  28: ['IFF', 60],
  41: ['Environmental Process', 32],
  66: ['Collision-Elastic', 100],
};

describe('a Length too short for the PDU', () => {
  it.each(RANDOM_PDU_TYPES.map((type) => ({ type, name: FIXED_PART[type]![0], bytes: FIXED_PART[type]![1] })))(
    'of a $name PDU names its own layout ($bytes bytes), never the Entity State one',
    ({ type, name, bytes }) => {
      const pdu = randomPdu(createRandom(type), type);
      const short = pdu.slice(0, bytes - 4);
      new DataView(short.buffer).setUint16(8, bytes - 4);
      expect(codecStatusName(new PduRecords().decode(short))).toBe('BAD_LENGTH');
      expect(() => decodePdu(short)).toThrow(`${name} PDU:`);
      expect(() => decodePdu(short)).toThrow(new RegExp(`: (exactly |at least )?${bytes} bytes`));
      expect(pduStatusMessage(CodecStatus.BAD_LENGTH, type)).not.toMatch(/Entity State|144/);
    },
  );

  it('of an Entity State PDU names its layout; of a type reckon does not decode, the header', () => {
    expect(pduStatusMessage(CodecStatus.BAD_LENGTH, 1)).toContain('Entity State PDU: 144 bytes + 16 per variable');
    expect(pduStatusMessage(CodecStatus.BAD_LENGTH, 67)).toContain('Entity State Update PDU: 72 bytes + 16 per');
    expect(pduStatusMessage(CodecStatus.BAD_LENGTH, 200)).toContain('PDU type 200: at least 12 bytes');
    expect(codecStatusMessage(CodecStatus.BAD_LENGTH)).not.toMatch(/Entity State|144/);
    expect(pduStatusMessage(CodecStatus.TRUNCATED, 2)).toBe(codecStatusMessage(CodecStatus.TRUNCATED));
  });
});

describe('status codes', () => {
  it('a decoder of one type answers WRONG_PDU_TYPE for another, and leaves its record as it was', () => {
    const fire = new FireRecord();
    const firePdu = randomPdu(createRandom(1), 2);
    expect(decodeFireInto(fire, firePdu)).toBe(CodecStatus.OK);
    const before = JSON.stringify(fire);
    const detonation = randomPdu(createRandom(2), 3);
    expect(codecStatusName(decodeFireInto(fire, detonation))).toBe('WRONG_PDU_TYPE');
    expect(JSON.stringify(fire)).toBe(before);
    expect(codecStatusName(decodeDetonationInto(new DetonationRecord(), firePdu))).toBe('WRONG_PDU_TYPE');
  });

  it('a fixed-size PDU whose Length is not its size is BAD_LENGTH', () => {
    const pdu = randomPdu(createRandom(3), 2);
    const longer = new Uint8Array(100);
    longer.set(pdu);
    new DataView(longer.buffer).setUint16(8, 100);
    expect(codecStatusName(decodeFireInto(new FireRecord(), longer))).toBe('BAD_LENGTH');
  });

  it('more records than the record holds is TOO_MANY_PARAMETERS', () => {
    let pdu: Uint8Array;
    const random = createRandom(4);
    do pdu = randomPdu(random, 3, { maxRecords: 3 });
    while (pdu[101]! < 2);
    expect(codecStatusName(decodeDetonationInto(new DetonationRecord(1), pdu))).toBe('TOO_MANY_PARAMETERS');
  });

  it('encoders refuse what they cannot write, and never throw', () => {
    const record = new FireRecord();
    expect(encodeFireInto(new Uint8Array(95), record)).toBe(-CodecStatus.BUFFER_TOO_SMALL);
    record.protocolVersion = 4;
    expect(encodeFireInto(new Uint8Array(96), record)).toBe(-CodecStatus.UNSUPPORTED_VERSION);
    const other = new OtherPduRecord();
    other.bodyLength = 5;
    expect(encodeAnyPduInto(new Uint8Array(100), other)).toBe(-CodecStatus.BAD_RECORD_LENGTH);
  });

  it('a PDU of a type reckon does not read passes through with its header and body', () => {
    const records = new PduRecords();
    const attribute = Uint8Array.from([7, 1, 72, 1, 0, 0, 0, 9, 0, 16, 0, 0, 0xde, 0xad, 0xbe, 0xef]);
    expect(records.decode(attribute)).toBe(CodecStatus.OK);
    expect(records.record).toBeInstanceOf(OtherPduRecord);
    expect(decodePdu(attribute)).toMatchObject({ pduType: 72, length: 16, body: 'deadbeef', exerciseId: 1 });
    expect(hex(encodePdu(decodePdu(attribute)))).toBe(hex(attribute));
  });
});

/** A Signal PDU: header, entity 1:2:3, radio 4, encoding, TDL, sample rate, data length, samples, data, padding. */
function signalPdu(dataLengthField: number, data: number[], padding: number): Uint8Array {
  const length = 32 + data.length + padding;
  const bytes = new Uint8Array(length);
  const v = new DataView(bytes.buffer);
  bytes.set([7, 1, 26, 4]);
  v.setUint16(8, length);
  bytes.set([0, 1, 0, 2, 0, 3, 0, 4], 12);
  v.setUint16(20, 0x0004); // encoded audio, 16-bit linear PCM
  v.setUint32(24, 8000);
  v.setUint16(28, dataLengthField);
  v.setUint16(30, data.length / 2);
  bytes.set(data, 32);
  return bytes;
}

describe('lengths in bits and in bytes', () => {
  it('a Signal PDU counts its data in bits: 20 bits are 3 bytes, padded to 32 bits', () => {
    const bytes = signalPdu(20, [0xab, 0xcd, 0xe0], 1);
    const record = new SignalRecord();
    expect(decodeSignalInto(record, bytes)).toBe(CodecStatus.OK);
    expect([record.dataLengthBits, hex(signalData(record))]).toEqual([20, 'abcde0']);
    // The data is a view of the datagram, not a copy.
    expect(record.data).toBe(bytes);
    expect((decodePdu(bytes) as SignalPdu).data).toBe('abcde0');
    const out = new Uint8Array(64);
    expect(encodeSignalInto(out, record)).toBe(36);
    expect(hex(out.subarray(0, 36))).toBe(hex(bytes));
  });

  it('a Signal PDU whose data length is given in bytes is BAD_RECORD_LENGTH, not 1/8 of its data', () => {
    const samples = Array.from({ length: 320 }, (_, i) => i & 0xff);
    expect(decodeSignalInto(new SignalRecord(), signalPdu(2560, samples, 0))).toBe(CodecStatus.OK);
    const inBytes = signalPdu(320, samples, 0);
    expect(codecStatusName(decodeSignalInto(new SignalRecord(), inBytes))).toBe('BAD_RECORD_LENGTH');
  });

  it("a Transmitter PDU's modulation parameter and antenna pattern lengths count bytes, not records", () => {
    const json = decodePdu(randomPdu(createRandom(5), 25, { version: 6 })) as TransmitterPdu;
    const pdu = { ...json, modulationParameters: '0102030405', antennaPattern: '11'.repeat(40) };
    const bytes = encodePdu(pdu);
    expect(bytes.length).toBe(104 + 5 + 40);
    expect([bytes[100], (bytes[70]! << 8) | bytes[71]!]).toEqual([5, 40]);
    const record = new TransmitterRecord();
    expect(decodeTransmitterInto(record, bytes)).toBe(CodecStatus.OK);
    const parts = transmitterParts(record);
    expect([hex(parts.modulationParameters), parts.antennaPattern.length]).toEqual(['0102030405', 40]);
  });

  it('a variable datum counts bits and is padded to 64 bits; the next datum starts after the padding', () => {
    const record = new DatumPduRecord(22);
    addVariableDatum(record, 10_000, Uint8Array.from([0x41, 0x42, 0x40]), 18); // 18 bits: 3 bytes
    addVariableDatum(record, 10_001, new TextEncoder().encode('Hello Comment'));
    const out = new Uint8Array(200);
    const length = encodeDatumPduInto(out, record);
    expect(length).toBe(32 + (8 + 8) + (8 + 16));
    expect(hex(out.subarray(32, 48))).toBe('0000271000000012' + '4142400000000000');
    const back = new DatumPduRecord();
    expect(decodeDatumPduInto(back, out, 0, length)).toBe(CodecStatus.OK);
    expect([back.variableDatumBits[0], back.variableDatumBits[1]]).toEqual([18, 104]);
    expect(new TextDecoder().decode(variableDatumValue(back, 1))).toBe('Hello Comment');
    const json = decodePdu(out.subarray(0, length)) as DatumPdu;
    expect(json.variableDatums.map((d) => d.text)).toEqual(['AB@', 'Hello Comment']);
  });

  it('a variable datum whose bit length runs past the PDU is BAD_RECORD_LENGTH', () => {
    const record = new DatumPduRecord(20);
    addVariableDatum(record, 1, Uint8Array.from([1, 2, 3, 4]));
    const out = new Uint8Array(100);
    const length = encodeDatumPduInto(out, record);
    new DataView(out.buffer).setUint32(44, 8 * 100);
    expect(codecStatusName(decodeDatumPduInto(new DatumPduRecord(), out, 0, length))).toBe('BAD_RECORD_LENGTH');
  });
});

describe('a Length field of 0', () => {
  it.each(RANDOM_PDU_TYPES.map((type) => ({ type })))(
    'type $type: read as the rest of the datagram, as the framing reads it',
    ({ type }) => {
      const records = new PduRecords();
      const pdu = randomPdu(createRandom(type + 100), type);
      const unset = pdu.slice();
      unset[8] = unset[9] = 0;
      expect(codecStatusName(records.decode(unset))).toBe('OK');
      expect(records.record!.length).toBe(pdu.length);
      const out = new Uint8Array(0x10000);
      expect(hex(out.subarray(0, encodeAnyPduInto(out, records.record!, 0)))).toBe(hex(pdu));
    },
  );
});
