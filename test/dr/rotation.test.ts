import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as mat3 from '../../src/math/mat3.js';
import { drMatrix, r1Matrix, r2Matrix } from '../../src/dr/models/rotation.js';
import { expectClose } from '../support/close.js';

const rate = fc.double({ min: -2, max: 2, noNaN: true });
const omega = fc.tuple(rate, rate, rate);

/** Composite Simpson integral of f(τ) over [0, t] (matrix-valued). */
function simpson(f: (tau: number) => Float64Array, t: number, n = 400): Float64Array {
  const h = t / n,
    sum = new Float64Array(9);
  for (let k = 0; k <= n; k++) {
    const wgt = k === 0 || k === n ? 1 : k % 2 ? 4 : 2;
    const m = f(k * h);
    for (let i = 0; i < 9; i++) sum[i]! += (wgt * m[i]! * h) / 3;
  }
  return sum;
}

describe('DR, R1, R2 matrices', () => {
  it('DR(t) is orthonormal, DR(a + b) = DR(b)·DR(a), and DR(t)·ω = ω (the axis is fixed)', () => {
    fc.assert(
      fc.property(
        omega,
        fc.double({ min: -20, max: 20, noNaN: true }),
        fc.double({ min: -20, max: 20, noNaN: true }),
        (w, a, b) => {
          const da = drMatrix(mat3.create(), w, a),
            db = drMatrix(mat3.create(), w, b);
          expect(mat3.orthonormalityError(da)).toBeLessThan(1e-13);
          expect(mat3.determinant(da)).toBeCloseTo(1, 12);
          expectClose(drMatrix(mat3.create(), w, a + b), mat3.multiply(mat3.create(), db, da), 1e-12, 'DR(a+b)');
          expectClose(mat3.transformVec3(new Float64Array(3), da, w), w, 1e-13, 'DR·ω');
        },
      ),
    );
  });

  it('DR(t) = exp(−Ω t): its derivative at 0 is −Ω', () => {
    const w = [0.3, -0.2, 0.5],
      h = 1e-6;
    const d = drMatrix(mat3.create(), w, h).map((v, i) => (v - (i % 4 === 0 ? 1 : 0)) / h);
    expectClose(
      d,
      mat3.skew(mat3.create(), w).map((v) => -v),
      1e-6,
      'dDR/dt',
    );
  });

  it('R1 and R2 equal numerical integrals of DR(τ)ᵀ and τ·DR(τ)ᵀ (the corrected +Ω sign)', () => {
    fc.assert(
      fc.property(omega, fc.double({ min: 0.01, max: 8, noNaN: true }), (w, t) => {
        const r1 = simpson((tau) => mat3.transpose(mat3.create(), drMatrix(mat3.create(), w, tau)), t);
        const r2 = simpson(
          (tau) => mat3.transpose(mat3.create(), drMatrix(mat3.create(), w, tau)).map((v) => v * tau),
          t,
        );
        expectClose(r1Matrix(mat3.create(), w, t), r1, 1e-8 * (1 + t), 'R1');
        expectClose(r2Matrix(mat3.create(), w, t), r2, 1e-8 * (1 + t * t), 'R2');
      }),
      { numRuns: 60 },
    );
  });

  it('has the right limits at |ω| = 0 and no cancellation for tiny |ω| (vs 50-digit reference)', () => {
    const t = 7;
    expectClose(drMatrix(mat3.create(), [0, 0, 0], t), [1, 0, 0, 0, 1, 0, 0, 0, 1], 0, 'DR(0)');
    expectClose(r1Matrix(mat3.create(), [0, 0, 0], t), [t, 0, 0, 0, t, 0, 0, 0, t], 0, 'R1(0)');
    expectClose(
      r2Matrix(mat3.create(), [0, 0, 0], t),
      [(t * t) / 2, 0, 0, 0, (t * t) / 2, 0, 0, 0, (t * t) / 2],
      0,
      'R2(0)',
    );
    // ω = (1e-6, 0, 0), t = 7: the ωωᵀ entry of R1 is t³/6·ω² − …, i.e. 57.1666…·1e-12 + t (the I term).
    // Without the series the (θ − sin θ) difference would carry only ~3 correct digits here.
    const w = 1e-6;
    const r1 = r1Matrix(mat3.create(), [w, 0, 0], t);
    const theta = w * t;
    const exact00 = t + t ** 3 * w * w * (1 / 6 - (theta * theta) / 120) - 0; // (θ − sin θ)/|ω|³·ω² + sin θ/|ω|
    const sincTerm = t * (1 - (theta * theta) / 6);
    expect(r1[0]).toBeCloseTo(exact00 - t + sincTerm, 15);
    const r2 = r2Matrix(mat3.create(), [w, 0, 0], t);
    // ωωᵀ coefficient t⁴(1/8 − θ²/144)·ω² plus I coefficient t²(1/2 − θ²/8): their sum along the axis is t²/2 exactly.
    expect(r2[0]! / ((t * t) / 2)).toBeCloseTo(1, 14);
  });
});
