import { describe, expect, it } from 'vitest';
import { createRandom, createRandomFromState } from '../../src/math/random.js';

const N = 200_000;

function meanAndStd(draw: () => number, n = N): { mean: number; std: number } {
  let sum = 0;
  let sumSq = 0;
  for (let i = 0; i < n; i++) {
    const x = draw();
    sum += x;
    sumSq += x * x;
  }
  const mean = sum / n;
  return { mean, std: Math.sqrt(sumSq / n - mean * mean) };
}

describe('createRandom', () => {
  it('reproduces the xoshiro128** reference sequence for state {1, 2, 3, 4}', () => {
    // First outputs of the reference C implementation (prng.di.unimi.it/xoshiro128starstar.c).
    const r = createRandomFromState([1, 2, 3, 4]);
    const got = Array.from({ length: 10 }, () => r.nextUint32());
    expect(got).toEqual([
      11520, 0, 5927040, 70819200, 2031721883, 1637235492, 1287239034, 3734860849, 3729100597, 4258142804,
    ]);
  });

  it('gives the same sequence for the same seed and different ones for neighbouring seeds', () => {
    const draw = (seed: number) => {
      const r = createRandom(seed);
      return [r.next(), r.normal(), r.exponential(2), r.int(1000), r.pareto(2, 1)];
    };
    expect(draw(7)).toEqual(draw(7));
    expect(draw(7)).not.toEqual(draw(8));
    expect(draw(2 ** 40)).not.toEqual(draw(0));
    expect(draw(-3.7)).toEqual(draw(-3));
  });

  it('next() is in [0, 1) with mean 1/2 and variance 1/12', () => {
    const r = createRandom(1);
    let min = 1;
    let max = 0;
    const { mean, std } = meanAndStd(() => {
      const x = r.next();
      if (x < min) min = x;
      if (x > max) max = x;
      return x;
    });
    expect(min).toBeGreaterThanOrEqual(0);
    expect(max).toBeLessThan(1);
    expect(mean).toBeCloseTo(0.5, 2);
    expect(std).toBeCloseTo(Math.sqrt(1 / 12), 2);
  });

  it('int(n) covers [0, n) evenly', () => {
    const r = createRandom(2);
    const counts = new Array<number>(7).fill(0);
    for (let i = 0; i < 70_000; i++) counts[r.int(7)]!++;
    for (const c of counts) expect(Math.abs(c - 10_000)).toBeLessThan(400); // ~4 σ
  });

  it.each([
    ['normal(3, 2)', (r: ReturnType<typeof createRandom>) => r.normal(3, 2), 3, 2],
    ['exponential(5)', (r: ReturnType<typeof createRandom>) => r.exponential(5), 5, 5],
    ['pareto(3, 2)', (r: ReturnType<typeof createRandom>) => r.pareto(3, 2), 3, Math.sqrt(3)],
    ['uniform(-1, 3)', (r: ReturnType<typeof createRandom>) => r.uniform(-1, 3), 1, 4 / Math.sqrt(12)],
  ])('%s has the expected mean and standard deviation', (_name, draw, mean, std) => {
    const r = createRandom(3);
    const got = meanAndStd(() => draw(r));
    expect(Math.abs(got.mean - mean) / std).toBeLessThan(0.02);
    // The Pareto variance with α = 3 is finite but converges slowly; allow more there.
    expect(Math.abs(got.std - std) / std).toBeLessThan(_name.startsWith('pareto') ? 0.15 : 0.02);
  });

  it('pareto never falls below its scale and chance(p) hits p', () => {
    const r = createRandom(4);
    let below = 0;
    let hits = 0;
    for (let i = 0; i < N; i++) {
      if (r.pareto(1.5, 10) < 10) below++;
      if (r.chance(0.3)) hits++;
    }
    expect(below).toBe(0);
    expect(hits / N).toBeCloseTo(0.3, 2);
  });
});
