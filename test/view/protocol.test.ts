/**
 * The view protocol: binary feed framing (hand-built bytes, round trip, hostile bytes), client message parsing and
 * normalising, filter matching including the antimeridian.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  EMPTY_FILTER,
  FEED_RECORD_HEADER_BYTES,
  FEED_TRUNCATED,
  FeedWriter,
  MAX_FEED_MESSAGE_BYTES,
  filterMatches,
  isEmptyFilter,
  longitudeInSpan,
  normalizeFilter,
  parseClientMessage,
  parseServerMessage,
  readFeedMessage,
  type ViewFilter,
} from '../../src/view/protocol.js';

function readAll(message: Uint8Array): { status: number; records: Array<{ timeMs: number; pdu: number[] }> } {
  const records: Array<{ timeMs: number; pdu: number[] }> = [];
  const status = readFeedMessage(message, (timeMs, bytes, offset, length) =>
    records.push({ timeMs, pdu: [...bytes.subarray(offset, offset + length)] }),
  );
  return { status, records };
}

describe('feed framing', () => {
  it('writes [float64 BE time][uint16 BE length][bytes] per record, byte for byte', () => {
    const writer = new FeedWriter();
    const pdu = Uint8Array.of(0xaa, 7, 1, 1, 0xbb, 0xcc);
    // 1.5 as float64 BE is 3f f8 00 00 00 00 00 00 (IEEE 754), written out by hand.
    expect(writer.add(1.5, pdu, 2, 3)).toBe(true);
    expect(writer.add(-2, pdu, 0, 1)).toBe(true);
    expect([...writer.bytes()]).toEqual([
      0x3f, 0xf8, 0, 0, 0, 0, 0, 0, 0x00, 0x03, 1, 1, 0xbb, 0xc0, 0x00, 0, 0, 0, 0, 0, 0, 0x00, 0x01, 0xaa,
    ]);
    expect(writer.records).toBe(2);
    expect(readAll(writer.bytes())).toEqual({
      status: 2,
      records: [
        { timeMs: 1.5, pdu: [1, 1, 0xbb] },
        { timeMs: -2, pdu: [0xaa] },
      ],
    });
    writer.reset();
    expect(writer.bytes().length).toBe(0);
  });

  it('refuses a record that does not fit, or an empty or over-long PDU, writing nothing', () => {
    const writer = new FeedWriter(40);
    const pdu = new Uint8Array(20);
    expect(writer.add(1, pdu, 0, 20)).toBe(true); // 30 bytes
    expect(writer.add(2, pdu, 0, 1)).toBe(false); // 30 + 11 > 40
    expect(writer.add(2, pdu, 0, 0)).toBe(false);
    expect(writer.length).toBe(30);
    expect(new FeedWriter().add(0, new Uint8Array(0x10000), 0, 0x10000)).toBe(false);
    expect(new FeedWriter().buffer.length).toBe(MAX_FEED_MESSAGE_BYTES);
  });

  it('round-trips any records that fit (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.double({ noNaN: true }), fc.uint8Array({ minLength: 1, maxLength: 300 })), {
          maxLength: 40,
        }),
        (records) => {
          const writer = new FeedWriter();
          for (const [timeMs, pdu] of records) expect(writer.add(timeMs, pdu, 0, pdu.length)).toBe(true);
          const read = readAll(writer.bytes());
          expect(read.status).toBe(records.length);
          expect(read.records).toEqual(records.map(([timeMs, pdu]) => ({ timeMs, pdu: [...pdu] })));
        },
      ),
    );
  });

  it('reports a message that ends inside a record, after visiting the complete ones', () => {
    const writer = new FeedWriter();
    writer.add(5, Uint8Array.of(1, 2, 3), 0, 3);
    writer.add(6, Uint8Array.of(4, 5, 6), 0, 3);
    const whole = writer.bytes().slice();
    for (let cut = 1; cut < whole.length; cut++) {
      if (cut === 13) continue; // a record boundary: a complete message of one record
      const read = readAll(whole.subarray(0, cut));
      expect(read.status, `cut at ${cut}`).toBe(FEED_TRUNCATED);
      expect(read.records.length).toBe(cut > 13 ? 1 : 0);
    }
    expect(readAll(whole.subarray(0, 13)).status).toBe(1);
    // A zero length cannot hold a PDU.
    expect(readAll(new Uint8Array(FEED_RECORD_HEADER_BYTES)).status).toBe(FEED_TRUNCATED);
    expect(readAll(new Uint8Array(0)).status).toBe(0);
  });

  it('never throws on random bytes, and reads a view into a larger buffer at its offset', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => {
        const status = readFeedMessage(bytes, () => {});
        expect(status === FEED_TRUNCATED || status >= 0).toBe(true);
      }),
    );
    const writer = new FeedWriter();
    writer.add(9, Uint8Array.of(7, 8), 0, 2);
    const big = new Uint8Array(100);
    big.set(writer.bytes(), 33);
    expect(readAll(big.subarray(33, 33 + writer.length))).toEqual({ status: 1, records: [{ timeMs: 9, pdu: [7, 8] }] });
  });
});

describe('client messages', () => {
  it.each([
    ['not JSON', '{', 'BAD_JSON'],
    ['an array', '[]', 'BAD_MESSAGE'],
    ['a number', '3', 'BAD_MESSAGE'],
    ['null', 'null', 'BAD_MESSAGE'],
    ['no type', '{}', 'BAD_MESSAGE'],
    ['a numeric type', '{"type":1}', 'BAD_MESSAGE'],
    ['an unknown type', '{"type":"subscribe"}', 'UNKNOWN_TYPE'],
    ['exercise out of range', '{"type":"filter","exercise":256}', 'BAD_MESSAGE'],
    ['exercise not an integer', '{"type":"filter","exercise":1.5}', 'BAD_MESSAGE'],
    ['forces not an array', '{"type":"filter","forces":1}', 'BAD_MESSAGE'],
    ['a kind out of range', '{"type":"filter","kinds":[1,300]}', 'BAD_MESSAGE'],
    ['a domain as text', '{"type":"filter","domains":["1"]}', 'BAD_MESSAGE'],
    ['bbox of 3 numbers', '{"type":"filter","bbox":[1,2,3]}', 'BAD_MESSAGE'],
    ['bbox south above north', '{"type":"filter","bbox":[0,10,1,5]}', 'BAD_MESSAGE'],
    ['bbox longitude 200', '{"type":"filter","bbox":[0,0,200,5]}', 'BAD_MESSAGE'],
    ['bbox latitude -91', '{"type":"filter","bbox":[0,-91,1,5]}', 'BAD_MESSAGE'],
    ['bbox with text', '{"type":"filter","bbox":[0,"a",1,5]}', 'BAD_MESSAGE'],
  ])('answers %s with %s', (_name, text, code) => {
    const parsed = parseClientMessage(text);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) {
      expect(parsed.error.type).toBe('error');
      expect(parsed.error.code).toBe(code);
      expect(parsed.error.message.length).toBeGreaterThan(10);
    }
  });

  it('parses ping, and a filter normalised (sorted, deduplicated, absent = null)', () => {
    expect(parseClientMessage('{"type":"ping"}')).toEqual({ ok: true, message: { type: 'ping' } });
    expect(parseClientMessage('{"type":"filter","forces":[3,1,3],"bbox":[170,-10,-170,10],"extra":true}')).toEqual({
      ok: true,
      message: {
        type: 'filter',
        exercise: null,
        forces: [1, 3],
        kinds: null,
        domains: null,
        bbox: [170, -10, -170, 10],
      },
    });
    expect(normalizeFilter({ exercise: 4, kinds: [], domains: null })).toEqual({
      exercise: 4,
      forces: null,
      kinds: [],
      domains: null,
      bbox: null,
    });
  });

  it('never throws on arbitrary text or JSON', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.json(),
          fc.json().map((j) => `{"type":"filter","bbox":${j}}`),
        ),
        (text) => {
          const parsed = parseClientMessage(text);
          expect(typeof parsed.ok).toBe('boolean');
        },
      ),
    );
  });
});

describe('server messages', () => {
  it('returns objects with a string type and undefined for anything else', () => {
    expect(parseServerMessage('{"type":"pong","serverTimeMs":5}')).toEqual({ type: 'pong', serverTimeMs: 5 });
    for (const text of ['', '{', '[]', 'null', '{"type":3}', '"hello"'])
      expect(parseServerMessage(text)).toBeUndefined();
  });
});

describe('filter matching', () => {
  const filter = (f: Partial<ViewFilter>): ViewFilter => ({ ...EMPTY_FILTER, ...f });

  it('lets everything through with the empty filter', () => {
    expect(isEmptyFilter(EMPTY_FILTER)).toBe(true);
    expect(filterMatches(EMPTY_FILTER, 9, 2, 1, 2, -89, 179.9)).toBe(true);
    expect(isEmptyFilter(filter({ kinds: [] }))).toBe(false);
  });

  it.each([
    ['exercise', filter({ exercise: 2 }), [2, 1, 1, 1, 0, 0], [3, 1, 1, 1, 0, 0]],
    ['force', filter({ forces: [1, 3] }), [1, 3, 1, 1, 0, 0], [1, 2, 1, 1, 0, 0]],
    ['kind', filter({ kinds: [1] }), [1, 1, 1, 4, 0, 0], [1, 1, 3, 4, 0, 0]],
    ['domain', filter({ domains: [2] }), [1, 1, 1, 2, 0, 0], [1, 1, 1, 1, 0, 0]],
    ['empty list', filter({ domains: [] }), null, [1, 1, 1, 1, 0, 0]],
    ['bbox', filter({ bbox: [10, 40, 20, 50] }), [1, 1, 1, 1, 45, 15], [1, 1, 1, 1, 45, 21]],
    ['bbox latitude', filter({ bbox: [10, 40, 20, 50] }), [1, 1, 1, 1, 40, 10], [1, 1, 1, 1, 39.9, 15]],
    [
      'bbox across the antimeridian, east side',
      filter({ bbox: [170, -10, -170, 10] }),
      [1, 1, 1, 1, 0, 175],
      [1, 1, 1, 1, 0, 0],
    ],
    [
      'bbox across the antimeridian, west side',
      filter({ bbox: [170, -10, -170, 10] }),
      [1, 1, 1, 1, 0, -175],
      [1, 1, 1, 1, 0, -160],
    ],
  ] as const)('%s', (_name, f, pass, fail) => {
    type Entity = readonly [number, number, number, number, number, number];
    const matches = (e: Entity) => filterMatches(f, e[0], e[1], e[2], e[3], e[4], e[5]);
    if (pass) expect(matches(pass)).toBe(true);
    expect(matches(fail)).toBe(false);
  });

  it('longitude spans: normal, crossing, and the antimeridian itself', () => {
    expect(longitudeInSpan(180, 170, -170)).toBe(true);
    expect(longitudeInSpan(-180, 170, -170)).toBe(true);
    expect(longitudeInSpan(169.9, 170, -170)).toBe(false);
    expect(longitudeInSpan(-180, -180, 180)).toBe(true);
  });
});
