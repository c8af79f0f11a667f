import { expect } from 'vitest';

/**
 * Asserts every component of `actual` is within `tolerance` of `expected`, naming the component that is off
 * (e.g. "location[1]: 12.51 vs 12.5 (±0.01)") instead of a bare "expected false to be true".
 */
export function expectClose(
  actual: ArrayLike<number>,
  expected: ArrayLike<number>,
  tolerance: number,
  label = 'value',
): void {
  expect(actual.length, `${label}.length`).toBe(expected.length);
  for (let i = 0; i < expected.length; i++) {
    const a = actual[i]!,
      e = expected[i]!;
    if (!(Math.abs(a - e) <= tolerance)) {
      expect.fail(`${label}[${i}]: ${a} vs ${e} (±${tolerance}, off by ${Math.abs(a - e)})`);
    }
  }
}

export const DEG = Math.PI / 180;
