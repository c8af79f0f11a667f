/**
 * Sine and cosine of one angle together, in plain JavaScript: one range reduction and the two fdlibm kernel
 * polynomials (the ones V8's Math.sin and Math.cos evaluate), so V8 can inline it into a hot loop instead of
 * making two calls into C++. Within 2 ulp of Math.sin / Math.cos (test/math/trig.test.ts); for |x| ≥ 2^20·π/2,
 * where one Cody–Waite step no longer reduces exactly, it calls Math.sin and Math.cos.
 */

const INV_PIO2 = 6.36619772367581382433e-1;
/** π/2 = PIO2_1 + PIO2_1T: the first 33 bits, so n·PIO2_1 is exact for |n| < 2^20, and the rest. */
const PIO2_1 = 1.57079632673412561417;
const PIO2_1T = 6.07710050650619224932e-11;
const REDUCE_BELOW = 1647099.3291652855; // 2^20 · π/2

const S1 = -1.66666666666666324348e-1,
  S2 = 8.33333333332248946124e-3,
  S3 = -1.98412698298579493134e-4;
const S4 = 2.75573137070700676789e-6,
  S5 = -2.50507602534068634195e-8,
  S6 = 1.58969099521155010221e-10;
const C1 = 4.16666666666666019037e-2,
  C2 = -1.38888888888741095749e-3,
  C3 = 2.48015872894767294178e-5;
const C4 = -2.75573143513906633035e-7,
  C5 = 2.0875723212981748279e-9,
  C6 = -1.13596475577881948265e-11;

const quadrant = new Float64Array(4);

/**
 * Writes [sin x, cos x] into out[0], out[1].
 * @param x - radians.
 * @returns out
 */
export function sinCos(out: Float64Array, x: number): Float64Array {
  out[0] = x;
  return sinCosInPlace(out);
}

/**
 * `sinCos` of the angle at io[0] (radians), written over it: [sin, cos] into io[0], io[1]. For hot loops where
 * V8 may not inline the call: a double computed by the caller and passed as an argument is boxed on the heap, one
 * stored in the array is not.
 * @returns io
 */
export function sinCosInPlace(io: Float64Array): Float64Array {
  const x = io[0]!,
    out = io;
  if (!(Math.abs(x) < REDUCE_BELOW)) {
    out[0] = Math.sin(x);
    out[1] = Math.cos(x);
    return out;
  }
  // x = n·π/2 + (y0 + y1), |y0 + y1| ≤ π/4.
  const n = Math.round(x * INV_PIO2);
  const r = x - n * PIO2_1;
  const w = n * PIO2_1T;
  const y0 = r - w;
  const y1 = r - y0 - w;
  const z = y0 * y0,
    v = z * y0;
  const sr = S2 + z * (S3 + z * (S4 + z * (S5 + z * S6)));
  const sin = y0 - (z * (0.5 * y1 - v * sr) - y1 - v * S1);
  const cr = z * (C1 + z * (C2 + z * (C3 + z * (C4 + z * (C5 + z * C6)))));
  const cos = 1 - (0.5 * z - (z * cr - y0 * y1));
  // Quadrant n mod 4 picks [sin, cos] from [s, c, −s, −c] at n and n + 1: an index instead of a branch, which
  // the processor would mispredict for angles all over the circle.
  const q = quadrant;
  q[0] = sin;
  q[1] = cos;
  q[2] = -sin;
  q[3] = -cos;
  out[0] = q[n & 3]!;
  out[1] = q[(n + 1) & 3]!;
  return out;
}
