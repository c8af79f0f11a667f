import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as mat3 from '../../src/math/mat3.js';
import {
  bodyRatesFromEulerRates,
  eulerFromWorldToBody,
  eulerRatesFromBodyRates,
  worldToBodyFromEuler,
} from '../../src/math/euler.js';
import { DEG, expectClose } from '../support/close.js';

const angle = fc.double({ min: -Math.PI, max: Math.PI, noNaN: true });
const pitch = fc.double({ min: -Math.PI / 2, max: Math.PI / 2, noNaN: true });

/** Elementary frame (passive) rotations, built independently of the closed form. */
function frameRotation(axis: 0 | 1 | 2, a: number): Float64Array {
  const c = Math.cos(a),
    s = Math.sin(a);
  if (axis === 0) return mat3.fromValues(1, 0, 0, 0, c, s, 0, -s, c);
  if (axis === 1) return mat3.fromValues(c, 0, -s, 0, 1, 0, s, 0, c);
  return mat3.fromValues(c, s, 0, -s, c, 0, 0, 0, 1);
}

describe('DIS Euler angles', () => {
  it('R_wb = Rx(φ)·Ry(θ)·Rz(ψ) and is a proper rotation', () => {
    fc.assert(
      fc.property(angle, pitch, angle, (psi, theta, phi) => {
        const r = worldToBodyFromEuler(mat3.create(), psi, theta, phi);
        const composed = mat3.multiply(
          mat3.create(),
          frameRotation(0, phi),
          mat3.multiply(mat3.create(), frameRotation(1, theta), frameRotation(2, psi)),
        );
        expectClose(r, composed, 1e-14, 'R_wb');
        expect(mat3.orthonormalityError(r)).toBeLessThan(1e-14);
        expect(mat3.determinant(r)).toBeCloseTo(1, 14);
      }),
    );
  });

  it('maps the body x axis to the heading direction: ψ = 90° points the nose along ECEF +Y', () => {
    const r = worldToBodyFromEuler(mat3.create(), 90 * DEG, 0, 0);
    expectClose(mat3.transformTransposeVec3(new Float64Array(3), r, [1, 0, 0]), [0, 1, 0], 1e-15, 'nose');
    expectClose(mat3.transformTransposeVec3(new Float64Array(3), r, [0, 0, 1]), [0, 0, 1], 1e-15, 'body z');
  });

  it('extraction returns the same rotation for any angles (angles themselves are not unique)', () => {
    fc.assert(
      fc.property(angle, angle, angle, (psi, theta, phi) => {
        const r = worldToBodyFromEuler(mat3.create(), psi, theta, phi);
        const e = eulerFromWorldToBody(new Float64Array(3), r);
        expect(Math.abs(e[1]!)).toBeLessThanOrEqual(Math.PI / 2);
        expectClose(worldToBodyFromEuler(mat3.create(), e[0]!, e[1]!, e[2]!), r, 1e-8, 'R(extract(R))');
      }),
    );
  });

  it.each([90, -90])('handles gimbal lock at θ = %d° (ψ = 0, φ carries the rotation)', (thetaDeg) => {
    const r = worldToBodyFromEuler(mat3.create(), 0.7, thetaDeg * DEG, -0.4);
    const e = eulerFromWorldToBody(new Float64Array(3), r);
    expect(e[0]).toBe(0);
    expect(Number.isFinite(e[2])).toBe(true);
    expectClose(worldToBodyFromEuler(mat3.create(), e[0]!, e[1]!, e[2]!), r, 1e-12, 'gimbal R');
  });

  it('body rates and Euler rates convert both ways, and match a finite difference of the matrix', () => {
    fc.assert(
      fc.property(
        angle,
        fc.double({ min: -1.4, max: 1.4, noNaN: true }),
        angle,
        angle,
        angle,
        angle,
        (psi, theta, phi, wx, wy, wz) => {
          const euler = [psi, theta, phi],
            body = [wx, wy, wz];
          const rates = eulerRatesFromBodyRates(new Float64Array(3), euler, body)!;
          expectClose(bodyRatesFromEulerRates(new Float64Array(3), euler, rates), body, 1e-9, 'ω round trip');
          // dR/dt = −Ω·R for body rates ω (R_wb evolves by exp(−Ωt)); compare with a central difference.
          const h = 1e-6;
          const rp = worldToBodyFromEuler(
            mat3.create(),
            psi + rates[0]! * h,
            theta + rates[1]! * h,
            phi + rates[2]! * h,
          );
          const rm = worldToBodyFromEuler(
            mat3.create(),
            psi - rates[0]! * h,
            theta - rates[1]! * h,
            phi - rates[2]! * h,
          );
          const r = worldToBodyFromEuler(mat3.create(), psi, theta, phi);
          const expected = mat3.multiply(mat3.create(), mat3.skew(mat3.create(), body), r).map((v) => -v);
          const numeric = rp.map((v, i) => (v - rm[i]!) / (2 * h));
          expectClose(numeric, expected, 1e-5 * (1 + Math.hypot(...rates)), 'dR/dt');
        },
      ),
    );
    expect(eulerRatesFromBodyRates(new Float64Array(3), [0, Math.PI / 2, 0], [0, 1, 0])).toBeNull();
  });
});
