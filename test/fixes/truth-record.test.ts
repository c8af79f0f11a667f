// Truth records: what each field means, one line for each thing wrong, and the hand-written checks giving the
// same verdict as the published JSON Schema's zod source on generated records.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  decodeTruthRecord,
  Fix,
  FIX_ECEF,
  FIX_FORCE,
  FIX_HEADING,
  FIX_LEAVE,
  FIX_POSITION,
  FIX_TYPE,
  FIX_VELOCITY,
} from '../../src/fixes/index.js';
import { TruthRecordSchema } from '../../src/fixes/truth-record-schema.js';

const fix = new Fix();

describe('truth records', () => {
  it('read every field: time as seconds or ISO 8601, a type by numbers or SISO name, force by name', () => {
    expect(
      decodeTruthRecord(
        {
          id: 'tank-7',
          time: '2026-11-28T12:00:00.5Z',
          lat: 36.6,
          lon: -121.9,
          alt: 20,
          velocity: { enu: [1, 2, 0] },
          heading: -90,
          type: 'M1A2',
          marking: 'TANK 7',
          force: 'opposing',
          entity: 42,
        },
        fix,
      ),
    ).toBeUndefined();
    expect(fix.flags & (FIX_POSITION | FIX_VELOCITY | FIX_HEADING | FIX_TYPE | FIX_FORCE)).toBe(
      FIX_POSITION | FIX_VELOCITY | FIX_HEADING | FIX_TYPE | FIX_FORCE,
    );
    expect(fix.timeSeconds).toBe(Date.UTC(2026, 10, 28, 12, 0, 0, 500) / 1000);
    expect([...fix.entityType]).toEqual([1, 1, 225, 1, 1, 3, 0]);
    expect([fix.headingDeg, fix.forceId, fix.entityNumber, fix.callsign]).toEqual([270, 2, 42, 'TANK 7']);
    expect(decodeTruthRecord({ id: 7, time: 1.5, ecef: [6378137, 0, 0], type: '1:3:0:81:3' }, fix)).toBeUndefined();
    expect(fix.flags & FIX_ECEF).toBe(FIX_ECEF);
    expect([fix.id, fix.timeSeconds, ...fix.entityType]).toEqual(['7', 1.5, 1, 3, 0, 81, 3, 0, 0]);
    expect(decodeTruthRecord({ id: 'x', leave: true }, fix)).toBeUndefined();
    expect(fix.flags).toBe(FIX_LEAVE);
  });

  it.each([
    [{ lat: 1, lon: 2 }, '"id" is missing'],
    [{ id: '', lat: 1, lon: 2 }, '"id" must have 1 to 64 characters'],
    [{ id: 'a' }, 'a position is missing: "lat" and "lon" (and "alt"), or "ecef"'],
    [{ id: 'a', lat: 91, lon: 2 }, '"lat" must be degrees from -90 to 90'],
    [
      { id: 'a', lat: 1, lon: 2, time: 'yesterday' },
      '"time" must be seconds (a number) or an ISO 8601 date-time such as 2026-11-28T12:00:00.5Z',
    ],
    [
      { id: 'a', lat: 1, lon: 2, velocity: [1, 2, 3] },
      '"velocity" must be {"enu": [east, north, up]} or {"ecef": [x, y, z]} in m/s',
    ],
    [
      { id: 'a', lat: 1, lon: 2, type: 'Flying Carpet' },
      '"type": no SISO entity type is named "Flying Carpet" (give its numbers, e.g. "1:1:225:1:1:3:0")',
    ],
    [{ id: 'a', lat: 1, lon: 2, force: 'enemy' }, '"force" must be 0–255 or one of other, friendly, opposing, neutral'],
    [{ id: 'a', ecef: [1, 2, 3], lat: 1, lon: 2 }, 'give "ecef" or "lat"/"lon", not both'],
    [[1, 2], 'a record must be a JSON object'],
  ])('refuse %j: %s', (record, message) => {
    expect(decodeTruthRecord(record, fix)).toBe(message);
  });

  it('are judged as the schema judges them (property test over generated records with a position)', () => {
    const number = fc.oneof(fc.double({ noNaN: true, min: -200, max: 200 }), fc.constant('1' as unknown as number));
    const record = fc.record(
      {
        id: fc.oneof(fc.string({ maxLength: 70 }), fc.integer({ min: -2, max: 1000 })),
        time: fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constant('2026-11-28T12:00:00Z')),
        lat: number,
        lon: number,
        alt: fc.double({ noNaN: true, min: -1e4, max: 1e5 }),
        heading: number,
        entity: fc.integer({ min: -1, max: 70000 }),
        force: fc.oneof(fc.integer({ min: -1, max: 300 }), fc.constantFrom('neutral', 'friendly', 'other', 'opposing')),
        type: fc.oneof(
          fc.constantFrom('1:1:225:1:1:3:0', '1:2', 'M1A2'),
          fc.array(fc.integer({ min: 0, max: 300 }), { minLength: 1, maxLength: 7 }),
        ),
        velocity: fc.oneof(
          fc.record({
            enu: fc.tuple(
              fc.double({ noNaN: true, noDefaultInfinity: true }),
              fc.double({ noNaN: true, noDefaultInfinity: true }),
              fc.constant(0),
            ),
          }),
          fc.record({ ecef: fc.tuple(fc.constant(1), fc.constant(2), fc.constant(3)) }),
        ),
        marking: fc.string({ maxLength: 20 }),
      },
      { requiredKeys: ['id', 'lat', 'lon'] },
    );
    fc.assert(
      fc.property(record, (r) => {
        const ours = decodeTruthRecord(r, fix) === undefined;
        const theirs = TruthRecordSchema.safeParse(r).success;
        // The schema cannot say that a type named "1:2" or an array may not pass a field's range (a country to
        // 65535, the rest to 255): those the checks refuse alone.
        const typeRange = Array.isArray(r.type) && r.type.some((n, k) => n > (k === 2 ? 65535 : 255));
        expect(ours).toBe(theirs && !typeRange);
      }),
      { numRuns: 2000 },
    );
  });
});
