import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sinCos } from '../../src/math/trig.js';

describe('sinCos', () => {
  const out = new Float64Array(2);
  const check = (x: number) => {
    sinCos(out, x);
    const s = Math.sin(x),
      c = Math.cos(x);
    // Relative to the larger of the pair: near a zero of one, its absolute error is what a rotation sees.
    const scale = Math.max(Math.abs(s), Math.abs(c)) * Number.EPSILON;
    expect(Math.abs(out[0]! - s) / scale, `sin(${x}) ${out[0]} vs ${s}`).toBeLessThanOrEqual(2);
    expect(Math.abs(out[1]! - c) / scale, `cos(${x}) ${out[1]} vs ${c}`).toBeLessThanOrEqual(2);
  };

  it('agrees with Math.sin and Math.cos within 2 ulp over the reduced range and beyond', () => {
    fc.assert(
      fc.property(fc.double({ min: -2e6, max: 2e6, noNaN: true }), (x) => check(x)),
      { numRuns: 20_000 },
    );
    fc.assert(
      fc.property(fc.double({ min: -10, max: 10, noNaN: true }), (x) => check(x)),
      { numRuns: 20_000 },
    );
  });

  it('is exact where it must be and close at multiples of π/2, the quadrant boundaries', () => {
    for (let k = -8; k <= 8; k++) for (const d of [0, 1e-12, -1e-12, 1e-6]) check((k * Math.PI) / 2 + d);
    expect(Array.from(sinCos(out, 0))).toEqual([0, 1]);
    for (const x of [1e-300, -1e-20, 1e-9]) {
      sinCos(out, x);
      expect(out[0]).toBe(x);
      expect(out[1]).toBe(1);
    }
    expect(Array.from(sinCos(out, Number.NaN)).every(Number.isNaN)).toBe(true);
    expect(Array.from(sinCos(out, Infinity)).every(Number.isNaN)).toBe(true);
  });
});
