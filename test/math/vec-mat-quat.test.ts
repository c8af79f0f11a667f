import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as mat3 from '../../src/math/mat3.js';
import * as quat from '../../src/math/quat.js';
import * as vec3 from '../../src/math/vec3.js';
import { worldToBodyFromEuler } from '../../src/math/euler.js';
import { expectClose } from '../support/close.js';

const A = [1, -2, 3];
const B = [-4, 5, 0.5];

describe('vec3 out-parameter contract', () => {
  // Separate out, out = a, out = b: same result, returns out, inputs unchanged.
  it.each([
    ['add', (o: Float64Array, a: Float64Array, b: Float64Array) => vec3.add(o, a, b), [-3, 3, 3.5]],
    ['subtract', (o: Float64Array, a: Float64Array, b: Float64Array) => vec3.subtract(o, a, b), [5, -7, 2.5]],
    ['cross', (o: Float64Array, a: Float64Array, b: Float64Array) => vec3.cross(o, a, b), [-16, -12.5, -3]],
    ['scaleAndAdd', (o: Float64Array, a: Float64Array, b: Float64Array) => vec3.scaleAndAdd(o, a, b, 2), [-7, 8, 4]],
    ['lerp', (o: Float64Array, a: Float64Array, b: Float64Array) => vec3.lerp(o, a, b, 0.5), [-1.5, 1.5, 1.75]],
  ] as const)('%s', (_name, fn, expected) => {
    const a = Float64Array.from(A),
      b = Float64Array.from(B),
      out = vec3.create();
    expect(fn(out, a, b)).toBe(out);
    expectClose(out, expected, 1e-12, 'separate');
    expectClose(a, A, 0, 'a unchanged');
    expectClose(b, B, 0, 'b unchanged');
    expectClose(fn(a, a, b), expected, 1e-12, 'out = a');
    const a2 = Float64Array.from(A);
    expectClose(fn(b, a2, b), expected, 1e-12, 'out = b');
  });

  it('length, distance, dot, normalize of zero, fround', () => {
    expect(vec3.length([3, 4, 12])).toBe(13);
    expect(vec3.distance([1, 1, 1], [4, 5, 13])).toBe(13);
    expect(vec3.dot(A, B)).toBe(-4 - 10 + 1.5);
    expect(vec3.normalize(vec3.create(), [0, 0, 0])).toBeNull();
    expectClose(vec3.fround(vec3.create(), [0.1, 1, 1e-50]), [Math.fround(0.1), 1, 0], 0, 'fround');
  });
});

const anyAngle = fc.double({ min: -Math.PI, max: Math.PI, noNaN: true });
const rotation = fc
  .tuple(anyAngle, fc.double({ min: -1.5, max: 1.5, noNaN: true }), anyAngle)
  .map(([a, b, c]) => worldToBodyFromEuler(mat3.create(), a, b, c));

describe('mat3', () => {
  it('multiply and transpose are safe when out aliases an input', () => {
    const a = mat3.fromValues(1, 2, 3, 4, 5, 6, 7, 8, 10);
    const b = mat3.fromValues(0, 1, 0, -1, 0, 0, 0, 0, 2);
    const expected = mat3.multiply(mat3.create(), a, b);
    expectClose(expected, [-2, 1, 6, -5, 4, 12, -8, 7, 20], 0, 'a·b');
    expectClose(mat3.multiply(mat3.copy(mat3.create(), a), mat3.copy(mat3.create(), a), b), expected, 0, 'out = a');
    const b2 = mat3.copy(mat3.create(), b);
    expectClose(mat3.multiply(b2, a, b2), expected, 0, 'out = b');
    expectClose(mat3.transpose(a, a), [1, 4, 7, 2, 5, 8, 3, 6, 10], 0, 'transpose in place');
    expect(mat3.determinant(mat3.fromValues(2, 0, 0, 0, 3, 0, 0, 0, 4))).toBe(24);
  });

  it('skew(w)·v = w × v and transformTranspose inverts a rotation', () => {
    fc.assert(
      fc.property(rotation, fc.tuple(anyAngle, anyAngle, anyAngle), (r, [x, y, z]) => {
        const w = vec3.fromValues(x, z, y),
          v = vec3.fromValues(y, x, z);
        const viaSkew = mat3.transformVec3(vec3.create(), mat3.skew(mat3.create(), w), v);
        expectClose(viaSkew, vec3.cross(vec3.create(), w, v), 1e-12, 'skew');
        const back = mat3.transformTransposeVec3(vec3.create(), r, mat3.transformVec3(vec3.create(), r, v));
        expectClose(back, v, 1e-12, 'Rᵀ·R·v');
      }),
    );
  });

  it('rotationAngleBetween is accurate for tiny and large angles', () => {
    const r0 = worldToBodyFromEuler(mat3.create(), 0.3, 0.2, 0.1);
    for (const angle of [1e-9, 1e-4, 0.5, 3]) {
      const r1 = mat3.multiply(mat3.create(), worldToBodyFromEuler(mat3.create(), 0, 0, angle), r0);
      expect(mat3.rotationAngleBetween(r1, r0) / angle).toBeCloseTo(1, 6);
    }
  });
});

describe('quat', () => {
  it('fromMat3 and toMat3 round-trip any rotation, and the angle agrees with the matrix angle', () => {
    fc.assert(
      fc.property(rotation, rotation, (ra, rb) => {
        const qa = quat.fromMat3(quat.create(), ra),
          qb = quat.fromMat3(quat.create(), rb);
        expectClose(quat.toMat3(mat3.create(), qa), ra, 1e-12, 'toMat3(fromMat3(R))');
        expect(quat.angleBetween(qa, qb)).toBeCloseTo(mat3.rotationAngleBetween(ra, rb), 9);
        // Hamilton product matches matrix product.
        const qab = quat.multiply(quat.create(), qa, qb);
        expectClose(quat.toMat3(mat3.create(), qab), mat3.multiply(mat3.create(), ra, rb), 1e-12, 'qa·qb');
      }),
    );
  });

  it('slerp starts at a, ends at b, and moves at a constant angular rate along the shorter arc', () => {
    fc.assert(
      fc.property(rotation, rotation, fc.double({ min: 0, max: 1, noNaN: true }), (ra, rb, t) => {
        const qa = quat.fromMat3(quat.create(), ra),
          qb = quat.fromMat3(quat.create(), rb);
        const total = quat.angleBetween(qa, qb);
        expect(quat.angleBetween(quat.slerp(quat.create(), qa, qb, 0), qa)).toBeLessThan(1e-7);
        expect(quat.angleBetween(quat.slerp(quat.create(), qa, qb, 1), qb)).toBeLessThan(1e-7);
        const mid = quat.slerp(quat.create(), qa, qb, t);
        expect(quat.angleBetween(mid, qa)).toBeCloseTo(t * total, 6);
        // −b is the same orientation: slerp must take the same (short) path.
        const negB = Float64Array.from(qb, (c) => -c);
        expect(quat.angleBetween(quat.slerp(quat.create(), qa, negB, t), mid)).toBeLessThan(1e-7);
      }),
    );
  });
});
