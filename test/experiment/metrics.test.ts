import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { summarize } from '../../src/experiment/metrics.js';

/** The nearest-rank 95th percentile by sorting a copy: the reference for the bucketed selection. */
function p95BySorting(values: readonly number[]): number {
  const sorted = Float64Array.from(values).sort();
  return sorted[Math.max(0, Math.ceil(0.95 * sorted.length) - 1)]!;
}

describe('summarize on run-sized series', () => {
  it('gives the p95 of sorting for series long enough to be bucketed (heavy tails, ties, zeros)', () => {
    const error = fc.oneof(
      fc.double({ min: 0, max: 5, noNaN: true }),
      fc.constantFrom(0, 0.5, 1, 1e-300, 5e-324),
      fc.double({ min: 0, max: 1e6, noNaN: true }),
    );
    fc.assert(
      fc.property(fc.array(error, { minLength: 256, maxLength: 3000 }), (values) => {
        const summary = summarize(Float64Array.from(values), values.length);
        expect(summary.p95).toBe(p95BySorting(values));
        expect(summary.max).toBe(Math.max(...values));
      }),
      { numRuns: 200 },
    );
  });

  it('reads only the first n values', () => {
    const values = Float64Array.from({ length: 1000 }, (_, i) => (i * 7919) % 1000);
    values.fill(1e9, 500);
    expect(summarize(values, 500).max).toBeLessThan(1000);
    expect(summarize(values, 500).p95).toBe(p95BySorting([...values.subarray(0, 500)]));
  });

  it('a sawtooth error series of a 10-minute run (36 001 frames)', () => {
    const values = Float64Array.from(
      { length: 36_001 },
      (_, i) => 0.5 * ((i % 27) / 27) ** 2 + (i % 1000 === 0 ? 40 : 0),
    );
    const reference = p95BySorting([...values]);
    expect(summarize(values, values.length).p95).toBe(reference);
  });
});
