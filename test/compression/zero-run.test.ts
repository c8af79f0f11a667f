import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BitReader, BitWriter } from '../../src/compression/bit-io.js';
import { xorDelta } from '../../src/compression/xor-delta.js';
import {
  ZeroRunStatus,
  decodeZeroRuns,
  encodeZeroRuns,
  zeroRunMaxEncodedBytes,
} from '../../src/compression/zero-run.js';
import { CAPTURES, entityStateDeltas, readEntityStatePdus } from '../fixtures/dis/entity-state-pdus.js';

/** '000 011' → bytes (MSB first) and bit length. */
function fromBits(text: string): { bytes: Uint8Array; bitLength: number } {
  const bits = text.replace(/\s+/g, '');
  const bytes = new Uint8Array(Math.ceil(bits.length / 8));
  for (let i = 0; i < bits.length; i++) if (bits[i] === '1') bytes[i >> 3]! |= 0x80 >> (i & 7);
  return { bytes, bitLength: bits.length };
}

function toBits(bytes: Uint8Array, bitLength: number): string {
  let s = '';
  for (let i = 0; i < bitLength; i++) s += (bytes[i >> 3]! >> (7 - (i & 7))) & 1;
  return s;
}

/** An independent, string-based model of the format, written straight from its definition. */
function referenceEncode(bits: string): string {
  const padded = bits.padEnd(Math.ceil(bits.length / 3) * 3, '0');
  let out = '';
  let run = 0;
  const flush = () => {
    if (run > 0) out += '000' + run.toString(2).padStart(3, '0');
    run = 0;
  };
  for (let i = 0; i < padded.length; i += 3) {
    const group = padded.slice(i, i + 3);
    if (group === '000') {
      if (++run === 7) flush();
    } else {
      flush();
      out += group;
    }
  }
  flush();
  return out;
}

function encode(bits: string): string {
  const { bytes, bitLength } = fromBits(bits);
  const out = new Uint8Array(zeroRunMaxEncodedBytes(bitLength));
  const n = encodeZeroRuns(bytes, out, bitLength);
  expect(n).toBeGreaterThanOrEqual(0);
  return toBits(out, n);
}

function decode(bits: string, capacity = 64): string | number {
  const { bytes, bitLength } = fromBits(bits);
  const out = new Uint8Array(capacity);
  const n = decodeZeroRuns(bytes, out, bitLength);
  return n < 0 ? n : toBits(out, n);
}

describe('zero-run compression', () => {
  it('encodes the worked example', () => {
    const input = '000 000 000 010 000 000 000 000 110 000 000 000 000 000';
    const expected = '000 011 010 000 100 110 000 101';
    expect(encode(input)).toBe(expected.replace(/ /g, ''));
    expect(decode(expected)).toBe(input.replace(/ /g, ''));
  });

  it.each([
    ['empty', '', ''],
    ['one set group', '101', '101'],
    ['one zero group', '000', '000001'],
    ['seven zero groups make one full run', '000'.repeat(7), '000111'],
    ['eight zero groups make a full run and a run of one', '000'.repeat(8), '000111000001'],
    ['fifteen zero groups', '000'.repeat(15), '000111000111000001'],
    ['partial trailing group 1 bit, set', '1', '100'],
    ['partial trailing group 2 bits, clear', '111 00', '111000001'],
  ])('%s', (_name, input, expected) => {
    expect(encode(input)).toBe(expected.replace(/ /g, ''));
  });

  it('pads a trailing partial group with zeros and ignores bits past the length', () => {
    const garbage = Uint8Array.of(0b1011_1111); // only the first 4 bits count: 101 1 → 101 100
    const out = new Uint8Array(4);
    const n = encodeZeroRuns(garbage, out, 4);
    expect(toBits(out, n)).toBe('101100');
    const back = new Uint8Array(4);
    expect(decodeZeroRuns(out, back, n)).toBe(6);
    expect(toBits(back, 6)).toBe('101100');
  });

  it('matches the reference model and round-trips (decode ∘ encode = identity)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.constant('000'), fc.constantFrom('001', '010', '100', '111')), { maxLength: 200 }),
        fc.integer({ min: 0, max: 2 }),
        (groups, cut) => {
          const bits = groups.join('').slice(0, Math.max(0, groups.length * 3 - cut));
          const encoded = encode(bits);
          expect(encoded).toBe(referenceEncode(bits));
          const decoded = decode(encoded, 128);
          expect(decoded).toBe(bits.padEnd(Math.ceil(bits.length / 3) * 3, '0'));
        },
      ),
    );
  });

  it('matches the reference model on mostly-zero bytes cut at any bit length, bits past the length ignored', () => {
    const byte = fc.oneof(
      { weight: 3, arbitrary: fc.constant(0) },
      { weight: 1, arbitrary: fc.integer({ min: 0, max: 255 }) },
    );
    fc.assert(
      fc.property(fc.array(byte, { maxLength: 80 }), fc.nat(640), (values, cut) => {
        const bytes = Uint8Array.from(values);
        const bitLength = Math.min(cut, bytes.length * 8);
        const encoded = new Uint8Array(zeroRunMaxEncodedBytes(bitLength));
        const n = encodeZeroRuns(bytes, encoded, bitLength);
        expect(toBits(encoded, n)).toBe(referenceEncode(toBits(bytes, bitLength)));
      }),
      { numRuns: 500 },
    );
  });

  it('round-trips random bytes and stays within the size bound', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (input) => {
        const encoded = new Uint8Array(zeroRunMaxEncodedBytes(input.length * 8));
        const bits = encodeZeroRuns(input, encoded);
        expect(bits).toBeGreaterThanOrEqual(0);
        const decoded = new Uint8Array(input.length + 1);
        const n = decodeZeroRuns(encoded, decoded, bits);
        expect(n).toBe(Math.ceil((input.length * 8) / 3) * 3);
        expect(decoded.subarray(0, input.length)).toEqual(input);
      }),
    );
  });

  it.each([
    ['a stream that is not whole groups', '101 1', ZeroRunStatus.TRUNCATED],
    ['a run marker without its count', '101 000', ZeroRunStatus.TRUNCATED],
    ['a run of zero', '000 000', ZeroRunStatus.BAD_RUN],
  ])('rejects %s', (_name, bits, status) => {
    expect(decode(bits)).toBe(status);
  });

  it('reports overflow instead of writing past the output', () => {
    const out = new Uint8Array(1);
    expect(decodeZeroRuns(fromBits('000111 000111').bytes, out, 12)).toBe(ZeroRunStatus.OVERFLOW);
    expect(encodeZeroRuns(Uint8Array.of(0xff, 0xff), out)).toBe(ZeroRunStatus.OVERFLOW);
    // The next call on good input is unaffected.
    expect(decode('000 011 010 000 100 110 000 101')).toBe('000000000010000000000000110000000000000000');
  });

  it('never throws on hostile bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), fc.nat(600), fc.nat(80), (bytes, bitLength, capacity) => {
        const n = decodeZeroRuns(bytes, new Uint8Array(capacity), bitLength);
        expect(
          n === ZeroRunStatus.OVERFLOW ||
            n === ZeroRunStatus.TRUNCATED ||
            n === ZeroRunStatus.BAD_RUN ||
            (n >= 0 && n % 3 === 0),
        ).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it.each(CAPTURES)('shrinks and restores the XOR deltas of every ESPDU in %s', (name) => {
    const pdus = readEntityStatePdus(name);
    expect(pdus.length).toBeGreaterThan(50);
    const deltas = entityStateDeltas(pdus, xorDelta);
    let rawBytes = 0;
    let encodedBytes = 0;
    const previous = new Map<string, Uint8Array>();
    deltas.forEach((delta, i) => {
      const encoded = new Uint8Array(zeroRunMaxEncodedBytes(delta.length * 8));
      const bits = encodeZeroRuns(delta, encoded);
      rawBytes += delta.length;
      encodedBytes += Math.ceil(bits / 8);
      const decoded = new Uint8Array(delta.length + 1);
      expect(decodeZeroRuns(encoded, decoded, bits)).toBeGreaterThanOrEqual(delta.length * 8);
      // Undo the delta with the previous PDU of the same entity: the original PDU comes back.
      const key = Array.from(pdus[i]!.subarray(12, 18)).join('.');
      const restored = xorDelta(
        new Uint8Array(delta.length),
        decoded.subarray(0, delta.length),
        previous.get(key) ?? new Uint8Array(0),
      );
      expect(restored).toEqual(pdus[i]);
      previous.set(key, pdus[i]!);
    });
    // Consecutive states of one entity differ in a few fields only.
    expect(encodedBytes / rawBytes).toBeLessThan(0.6); // measured: 0.55 (v7 capture), 0.51 (v5)
  });
});

describe('bit reader and writer', () => {
  it('round-trips fields of every width and clears stale bits of a reused buffer', () => {
    const buffer = new Uint8Array(16).fill(0xff);
    const writer = new BitWriter(buffer);
    const fields: Array<[number, number]> = [
      [1, 1],
      [0, 1],
      [5, 3],
      [0xabcd, 16],
      [0xdeadbeef, 32],
      [0, 7],
    ];
    for (const [v, n] of fields) writer.write(v, n);
    expect(writer.bitLength).toBe(60);
    expect(writer.overflowed).toBe(false);
    const reader = new BitReader().reset(buffer, writer.bitLength);
    for (const [v, n] of fields) expect(reader.read(n)).toBe(v);
    expect(reader.remaining).toBe(0);
    expect(reader.overrun).toBe(false);
    expect(reader.read(1)).toBe(0);
    expect(reader.overrun).toBe(true);
  });

  it('flags overflow without writing past the buffer', () => {
    const writer = new BitWriter(new Uint8Array(1));
    writer.write(0x7f, 7);
    writer.write(3, 2);
    expect(writer.overflowed).toBe(true);
    expect(writer.bitLength).toBe(7);
  });
});
