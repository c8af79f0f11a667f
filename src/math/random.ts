/**
 * A seeded, platform-independent pseudo-random generator: xoshiro128** (Blackman & Vigna) in 32-bit integer
 * math, seeded through splitmix32. The same seed gives the same sequence on every platform and Node version
 * (unlike `Math.random`, which cannot be seeded), which makes simulations reproducible to the byte.
 * Nothing here allocates after `createRandom`.
 */

/** A seeded random source. Every draw advances the one internal state. */
export interface Random {
  /** Uniform in [0, 1), 32 bits of resolution. */
  next(): number;
  /** Uniform 32-bit unsigned integer. */
  nextUint32(): number;
  /** Uniform integer in [0, n) for 1 ≤ n ≤ 2^32, without modulo bias. */
  int(n: number): number;
  /** Uniform in [min, max). */
  uniform(min: number, max: number): number;
  /** Normal (Gaussian) with the given mean and standard deviation. Defaults to the standard normal. */
  normal(mean?: number, standardDeviation?: number): number;
  /** Exponential with the given mean (> 0). */
  exponential(mean: number): number;
  /**
   * Pareto (type I) with shape α > 0 and scale (minimum) x_m > 0: P(X > x) = (x_m / x)^α for x ≥ x_m.
   * The mean is α·x_m / (α − 1) for α > 1.
   */
  pareto(shape: number, scale: number): number;
  /** True with probability p. */
  chance(p: number): boolean;
}

const TWO_POW_MINUS_32 = 2 ** -32;

/** splitmix32: spreads a seed's bits so that neighbouring seeds give unrelated streams. */
function splitmix32(state: Uint32Array): number {
  state[0] = (state[0]! + 0x9e3779b9) >>> 0;
  let z = state[0];
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
  return (z ^ (z >>> 16)) >>> 0;
}

/**
 * Creates a generator from a seed.
 * @param seed - any finite number; the integer part below 2^53 is used (negative and fractional seeds are fine).
 */
export function createRandom(seed: number): Random {
  const state = new Uint32Array(4);
  const mix = new Uint32Array(1);
  const whole = Math.trunc(Number.isFinite(seed) ? seed : 0);
  // Fold the high and low 32 bits together so that seeds above 2^32 still differ.
  mix[0] = (whole >>> 0) ^ Math.imul(Math.floor(whole / 0x1_0000_0000) >>> 0, 0x9e3779b1);
  for (let i = 0; i < 4; i++) state[i] = splitmix32(mix);
  return createRandomFromState(state);
}

/**
 * Creates a generator from an explicit xoshiro128** state (four 32-bit words, not all zero), for reproducing
 * published reference sequences. Most code wants `createRandom(seed)`.
 */
export function createRandomFromState(words: ArrayLike<number>): Random {
  const s = Uint32Array.from({ length: 4 }, (_, i) => words[i] ?? 0);
  if ((s[0]! | s[1]! | s[2]! | s[3]!) === 0) s[0] = 1; // the all-zero state is a fixed point

  let spareNormal = 0;
  let hasSpare = false;

  const nextUint32 = (): number => {
    // xoshiro128**: result = rotl(s1 * 5, 7) * 9.
    const s1 = s[1]!;
    const r = Math.imul(s1, 5);
    const result = Math.imul((r << 7) | (r >>> 25), 9) >>> 0;
    const t = s1 << 9;
    s[2]! ^= s[0]!;
    s[3]! ^= s1;
    s[1]! ^= s[2]!;
    s[0]! ^= s[3]!;
    s[2]! ^= t;
    s[3] = (s[3]! << 11) | (s[3]! >>> 21);
    return result;
  };
  const next = (): number => nextUint32() * TWO_POW_MINUS_32;

  return {
    next,
    nextUint32,
    int(n) {
      if (!(n >= 1)) return 0;
      if (n > 0x1_0000_0000) return Math.floor(next() * n);
      // Rejection sampling: draws above the largest multiple of n would favour small results.
      const limit = 0x1_0000_0000 - (0x1_0000_0000 % n);
      let x = nextUint32();
      while (x >= limit) x = nextUint32();
      return x % n;
    },
    uniform(min, max) {
      return min + (max - min) * next();
    },
    normal(mean = 0, standardDeviation = 1) {
      if (hasSpare) {
        hasSpare = false;
        return mean + standardDeviation * spareNormal;
      }
      // Marsaglia polar method: two independent normals per accepted pair; keep the second.
      let u: number, v: number, q: number;
      do {
        u = 2 * next() - 1;
        v = 2 * next() - 1;
        q = u * u + v * v;
      } while (q >= 1 || q === 0);
      const f = Math.sqrt((-2 * Math.log(q)) / q);
      spareNormal = v * f;
      hasSpare = true;
      return mean + standardDeviation * u * f;
    },
    exponential(mean) {
      // 1 − U is in (0, 1], so the log is finite.
      return -mean * Math.log(1 - next());
    },
    pareto(shape, scale) {
      return scale / (1 - next()) ** (1 / shape);
    },
    chance(p) {
      return next() < p;
    },
  };
}
