/**
 * Hostile input: 100k random and mutated datagrams (truncations, bit flips, wrong lengths of real PDUs) through the
 * zero-allocation decoders and the bundle walker. Only status codes come back — no exception, no hang — and the
 * same record then decodes a valid PDU correctly.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ENTITY_STATE_FIXTURES, ENTITY_STATE_UPDATE_HEX } from '../fixtures/pdu/entity-state.js';
import { decodeEntityStateOrUpdateInto } from '../../src/pdu/wire/entity-state-decoder.js';
import { entityStateRecordToPdu } from '../../src/pdu/json/entity-state-json.js';
import { EntityStateRecord } from '../../src/pdu/wire/entity-state-record.js';
import { forEachPdu } from '../../src/pdu/wire/header.js';
import { CodecStatus } from '../../src/pdu/wire/status.js';

const seeds = [...ENTITY_STATE_FIXTURES.map((f) => f.hex), ENTITY_STATE_UPDATE_HEX].map((h) =>
  Uint8Array.from(Buffer.from(h, 'hex')),
);
const valid = seeds[2]!;
const validPdu = ENTITY_STATE_FIXTURES[2]!.pdu;
const statuses = new Set<number>(Object.values(CodecStatus));

/** Deterministic xorshift so a failure reproduces. */
function rng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s;
  };
}

function mutate(next: () => number, buffer: Uint8Array): Uint8Array {
  const seed = seeds[next() % seeds.length]!;
  switch (next() % 5) {
    case 0: // random bytes of random length
      return buffer.subarray(0, next() % 300).map(() => next() & 0xff);
    case 1: // truncation of a real PDU
      buffer.set(seed);
      return buffer.subarray(0, next() % seed.length);
    case 2: {
      // bit flips in a real PDU (header fields included)
      buffer.set(seed);
      const flips = 1 + (next() % 8);
      for (let i = 0; i < flips; i++) buffer[next() % seed.length]! ^= 1 << (next() % 8);
      return buffer.subarray(0, seed.length);
    }
    case 3: {
      // a wrong Length or record count in a real PDU
      buffer.set(seed);
      const at = next() % 2 === 0 ? 8 : 19;
      buffer[at] = next() & 0xff;
      buffer[at + 1] = next() & 0xff;
      return buffer.subarray(0, seed.length + (next() % 40));
    }
    default: {
      // a bundle of real PDUs with a random cut
      let n = 0;
      for (let k = 0; k < 4; k++) {
        const s = seeds[next() % seeds.length]!;
        buffer.set(s, n);
        n += s.length;
      }
      return buffer.subarray(0, next() % (n + 1));
    }
  }
}

describe('decoders on hostile input', () => {
  it('answer 100 000 random and mutated datagrams with status codes only', () => {
    const next = rng(0x5eed);
    const record = new EntityStateRecord(8);
    const buffer = new Uint8Array(2048);
    const seen = new Map<number, number>();
    let pdusVisited = 0;
    const visit = (bytes: Uint8Array, offset: number, length: number) => {
      pdusVisited++;
      const status = decodeEntityStateOrUpdateInto(record, bytes, offset, offset + length);
      if (!statuses.has(status)) throw new Error(`not a status: ${status}`);
    };
    for (let i = 0; i < 100_000; i++) {
      const datagram = mutate(next, buffer);
      const status = decodeEntityStateOrUpdateInto(record, datagram);
      expect(statuses.has(status)).toBe(true);
      seen.set(status, (seen.get(status) ?? 0) + 1);
      expect(statuses.has(forEachPdu(datagram, visit))).toBe(true);
      if (i % 10_000 === 0) {
        expect(decodeEntityStateOrUpdateInto(record, valid)).toBe(CodecStatus.OK);
        expect(entityStateRecordToPdu(record)).toEqual(validPdu);
      }
    }
    // The mutations reach every decode status, and plenty of PDUs still decode.
    for (const status of [
      CodecStatus.OK,
      CodecStatus.TRUNCATED,
      CodecStatus.BAD_LENGTH,
      CodecStatus.UNSUPPORTED_VERSION,
      CodecStatus.NOT_ENTITY_STATE,
    ]) {
      expect(seen.get(status) ?? 0).toBeGreaterThan(100);
    }
    expect(pdusVisited).toBeGreaterThan(50_000);
    expect(decodeEntityStateOrUpdateInto(record, valid)).toBe(CodecStatus.OK);
    expect(entityStateRecordToPdu(record)).toEqual(validPdu);
  });

  it('reject more records than a small record holds, then decode a valid PDU', () => {
    const small = new EntityStateRecord(2);
    expect(decodeEntityStateOrUpdateInto(small, valid)).toBe(CodecStatus.TOO_MANY_PARAMETERS);
    expect(decodeEntityStateOrUpdateInto(small, seeds[1]!)).toBe(CodecStatus.OK);
  });

  it('never throw on arbitrary bytes at any offset (property)', () => {
    const record = new EntityStateRecord();
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 400 }), fc.nat(400), (bytes, offset) => {
        const status = decodeEntityStateOrUpdateInto(record, bytes, Math.min(offset, bytes.length));
        return statuses.has(status) && statuses.has(forEachPdu(bytes, () => {}));
      }),
      { numRuns: 2000 },
    );
  });
});
