import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  advanceTimestamp,
  isAbsoluteTimestamp,
  isNewerTimestamp,
  secondsPastHourFromTimestamp,
  timestampDeltaSeconds,
  timestampFromEpochMillis,
  timestampFromSeconds,
  timestampUnits,
  timestampUnitsDelta,
} from '../../src/pdu/wire/timestamp.js';

const UNIT = 3600 / 2 ** 31;

describe('timestamp conversions', () => {
  it.each([
    { seconds: 0, absolute: false, raw: 0 },
    { seconds: 0, absolute: true, raw: 1 },
    { seconds: UNIT, absolute: false, raw: 2 },
    { seconds: 1800, absolute: true, raw: 0x8000_0001 },
    { seconds: 3600 - UNIT, absolute: false, raw: 0xffff_fffe },
    { seconds: 3600, absolute: false, raw: 0 }, // the next hour starts again at 0
    { seconds: -UNIT, absolute: true, raw: 0xffff_ffff }, // wraps back into the previous hour
  ])('$seconds s, absolute $absolute ↔ 0x$raw', ({ seconds, absolute, raw }) => {
    expect(timestampFromSeconds(seconds, absolute)).toBe(raw);
    expect(isAbsoluteTimestamp(raw)).toBe(absolute);
  });

  it('uses `* 2` and an unsigned read: no negative field once units ≥ 2^30', () => {
    const raw = timestampFromSeconds(2700, false);
    expect(raw).toBeGreaterThan(0x7fff_ffff);
    expect(raw).toBe(2 ** 31 * 0.75 * 2);
    // The pitfall this guards against: `units << 1` is a signed int32.
    expect((2 ** 31 * 0.75) << 1).toBeLessThan(0);
    expect(secondsPastHourFromTimestamp(raw)).toBe(2700);
    expect(secondsPastHourFromTimestamp(raw | 0)).toBe(2700); // a signed int32 input reads the same
  });

  it('keeps all 31 time bits (open-dis-javascript masks them with 0xFE)', () => {
    const raw = 0xdead_beef;
    expect(timestampUnits(raw)).toBe(0x6f56_df77);
    expect(timestampUnits(raw)).not.toBe((raw >>> 1) & 0xfe);
    expect(secondsPastHourFromTimestamp(raw)).toBeCloseTo(0x6f56_df77 * UNIT, 9);
  });

  it('round trips every whole unit exactly (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 31 - 1 }), fc.boolean(), (units, absolute) => {
        const raw = units * 2 + (absolute ? 1 : 0);
        return timestampFromSeconds(secondsPastHourFromTimestamp(raw), absolute) === raw;
      }),
    );
  });

  it('takes seconds past the UTC hour from an epoch time', () => {
    const epochMillis = Date.UTC(2024, 0, 1, 13, 30, 0); // 13:30:00 UTC → 1800 s past the hour
    expect(timestampFromEpochMillis(epochMillis)).toBe(0x8000_0001);
    expect(timestampFromEpochMillis(epochMillis, false)).toBe(0x8000_0000);
  });
});

describe('timestamp ordering and age', () => {
  const at = (seconds: number) => timestampFromSeconds(seconds, true);
  it.each([
    { name: 'newer', a: at(10), b: at(11), seconds: 1 },
    { name: 'older', a: at(11), b: at(10), seconds: -1 },
    { name: 'equal', a: at(10), b: at(10), seconds: 0 },
    { name: 'across the hour wrap', a: at(3599), b: at(1), seconds: 2 },
    { name: 'back across the wrap', a: at(1), b: at(3599), seconds: -2 },
    { name: 'just under half an hour', a: at(0), b: at(1799), seconds: 1799 },
    { name: 'just over half an hour is older', a: at(0), b: at(1801), seconds: -1799 },
  ])('$name', ({ a, b, seconds }) => {
    expect(timestampDeltaSeconds(a, b)).toBeCloseTo(seconds, 5);
    expect(isNewerTimestamp(b, a)).toBe(seconds > 0);
  });

  it('counts exactly half an hour as newer and ignores the absolute flag', () => {
    expect(timestampUnitsDelta(0, 0x8000_0000)).toBe(2 ** 30);
    expect(timestampUnitsDelta(0x8000_0000, 0)).toBe(2 ** 30);
    expect(timestampUnitsDelta(at(5), timestampFromSeconds(5, false))).toBe(0);
  });

  it('is antisymmetric except at exactly half an hour (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 0xffff_ffff }), fc.integer({ min: 0, max: 0xffff_ffff }), (a, b) => {
        const d = timestampUnitsDelta(a, b);
        if (Math.abs(d) === 2 ** 30) return true;
        return d === -timestampUnitsDelta(b, a) && d > -(2 ** 30) && d < 2 ** 30;
      }),
    );
  });

  it('advances by whole units, wraps at the hour and keeps the flag', () => {
    expect(advanceTimestamp(at(3599.5), 1)).toBe(at(0.5));
    expect(advanceTimestamp(timestampFromSeconds(0.25, false), -0.5)).toBe(timestampFromSeconds(3599.75, false));
    expect(advanceTimestamp(0xffff_ffff, UNIT)).toBe(1);
  });
});
