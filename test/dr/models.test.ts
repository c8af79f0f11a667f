import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as mat3 from '../../src/math/mat3.js';
import { worldToBodyFromEuler } from '../../src/math/euler.js';
import { DeadReckoningModel, deadReckon } from '../../src/dr/models/model.js';
import { drMatrix } from '../../src/dr/models/rotation.js';
import { APPEARANCE_FROZEN } from '../../src/dr/models/algorithm.js';
import { DEG, expectClose } from '../support/close.js';

const V = [30, 35, 40];
const A = [-80, -85, -90];
const EULER = [15 * DEG, 20 * DEG, 25 * DEG];
const ESPDU4 = { p0: [-6378137, -5, -10], w: [60 * DEG, 65 * DEG, 70 * DEG] };
const ESPDU8 = { p0: [6378137, 5, 10], w: [-60 * DEG, -65 * DEG, -70 * DEG] };

function state(alg: number, c: typeof ESPDU4, appearance = 0) {
  return {
    location: c.p0,
    linearVelocity: V,
    orientation: EULER,
    appearance,
    deadReckoning: { algorithm: alg, linearAcceleration: A, angularVelocity: c.w },
  };
}

/** Orientations are compared as rotations: Euler triples are not unique. */
function expectSameOrientation(actual: ArrayLike<number>, expectedDeg: readonly number[], toleranceDeg: number): void {
  const ra = worldToBodyFromEuler(mat3.create(), actual[0]!, actual[1]!, actual[2]!);
  const re = worldToBodyFromEuler(mat3.create(), expectedDeg[0]! * DEG, expectedDeg[1]! * DEG, expectedDeg[2]! * DEG);
  const angle = mat3.rotationAngleBetween(ra, re) / DEG;
  if (angle > toleranceDeg)
    expect.fail(`orientation off by ${angle}° (got ${Array.from(actual, (a) => a / DEG)}°, want ${expectedDeg}°)`);
}

// open-dis-java DeadReckonerTest (docs/dis-reference.md §3.6): Δt = 0.5 s; values printed to 2 decimals.
const VECTORS = [
  { alg: 1, c: ESPDU4, p: ESPDU4.p0, o: [15, 20, 25], v: V },
  { alg: 2, c: ESPDU4, p: [-6378122.0, 12.5, 10.0], o: [15, 20, 25], v: V },
  { alg: 3, c: ESPDU4, p: [-6378122.0, 12.5, 10.0], o: [64.32, 14.84, 72.5], v: V },
  { alg: 4, c: ESPDU4, p: [-6378132.0, 1.875, -1.25], o: [64.32, 14.84, 72.5], v: [-10, -7.5, -5] },
  { alg: 5, c: ESPDU4, p: [-6378132.0, 1.875, -1.25], o: [15, 20, 25], v: [-10, -7.5, -5] },
  { alg: 6, c: ESPDU8, p: [6378157.13, 18.06, 28.85], o: [15, 20, 25], v: V },
  { alg: 7, c: ESPDU8, p: [6378156.77, 18.75, 28.73], o: [-23.07, -8.68, -10.86], v: V },
  { alg: 8, c: ESPDU8, p: [6378144.03, 10.46, 18.32], o: [-23.07, -8.68, -10.86], v: [-10, -7.5, -5] },
  { alg: 9, c: ESPDU8, p: [6378144.46, 9.62, 18.47], o: [15, 20, 25], v: [-10, -7.5, -5] },
];

describe('deadReckon: the open-dis-java vectors (Towers & Hines for 4 and 8)', () => {
  it.each(VECTORS)('algorithm $alg', ({ alg, c, p, o, v }) => {
    const r = deadReckon(state(alg, c), 0.5);
    expectClose(r.location, p, 0.006, `DR${alg} location`);
    expectSameOrientation(r.orientation, o, 0.006);
    expectClose(r.linearVelocity, v, 1e-12, `DR${alg} velocity`);
  });

  it.each([0, 10, 255])('extrapolates algorithm %d ("other" / unknown) as static and says so', (alg) => {
    const model = new DeadReckoningModel().resetFrom(state(alg, ESPDU4));
    expect(model.knownAlgorithm).toBe(false);
    expectClose(model.evaluate(3, new Float64Array(3)), ESPDU4.p0, 0, 'location');
  });

  it.each([2, 4, 7, 8])('does not extrapolate a frozen entity (appearance bit 21), algorithm %d', (alg) => {
    const r = deadReckon(state(alg, ESPDU8, APPEARANCE_FROZEN), 2);
    expectClose(r.location, ESPDU8.p0, 0, 'location');
    expectClose(r.orientation, EULER, 1e-15, 'orientation');
  });
});

const rate = fc.double({ min: -3, max: 3, noNaN: true });
const omega = fc.tuple(rate, rate, rate);
const dt = fc.double({ min: -5, max: 30, noNaN: true });
const angle = fc.double({ min: -Math.PI, max: Math.PI, noNaN: true });
const euler = fc.tuple(angle, fc.double({ min: -1.5, max: 1.5, noNaN: true }), angle);
const vec = fc.tuple(
  fc.double({ min: -300, max: 300, noNaN: true }),
  fc.double({ min: -300, max: 300, noNaN: true }),
  fc.double({ min: -300, max: 300, noNaN: true }),
);

describe('dead-reckoning properties for any input', () => {
  it('RPB with ω about body z and constant body velocity traces the exact circle', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 1, max: 300, noNaN: true }),
        fc.double({ min: 0.01, max: 2, noNaN: true }),
        fc.double({ min: 0, max: 60, noNaN: true }),
        euler,
        (speed, w, t, e) => {
          const model = new DeadReckoningModel().reset([1e6, 2e6, 3e6], [speed, 0, 0], e, [0, 0, 0], [0, 0, w], 7);
          const p = model.evaluate(t, new Float64Array(3));
          // In the initial body frame: (V/ω·sin ωt, V/ω·(1 − cos ωt), 0).
          const r0 = worldToBodyFromEuler(mat3.create(), e[0], e[1], e[2]);
          const body = mat3.transformVec3(new Float64Array(3), r0, [p[0]! - 1e6, p[1]! - 2e6, p[2]! - 3e6]);
          expectClose(
            body,
            [(speed / w) * Math.sin(w * t), (speed / w) * (1 - Math.cos(w * t)), 0],
            1e-6 * (1 + speed / w),
            'circle',
          );
        },
      ),
    );
  });

  it('the orientation stays orthonormal and rotates by |ω|·t; F models never change it', () => {
    fc.assert(
      fc.property(euler, omega, dt, fc.integer({ min: 1, max: 9 }), (e, w, t, alg) => {
        const m = new Float64Array(9),
          o = new Float64Array(3);
        new DeadReckoningModel()
          .reset([0, 0, 6.4e6], [1, 2, 3], e, [1, 1, 1], w, alg)
          .evaluate(t, new Float64Array(3), o, m);
        expect(mat3.orthonormalityError(m)).toBeLessThan(1e-12);
        expectClose(worldToBodyFromEuler(mat3.create(), o[0]!, o[1]!, o[2]!), m, 1e-7, 'R(ψθφ) vs R');
        const r0 = worldToBodyFromEuler(mat3.create(), e[0], e[1], e[2]);
        const rotating = alg === 3 || alg === 4 || alg === 7 || alg === 8;
        const turned = (Math.hypot(...w) * Math.abs(t)) % (2 * Math.PI);
        const expected = rotating ? Math.min(turned, 2 * Math.PI - turned) : 0;
        expect(mat3.rotationAngleBetween(m, r0)).toBeCloseTo(expected, 6);
      }),
    );
  });

  it('R(t) of the rotating models is DR(t)·R0 with the closed-form DR of rotation.ts (quaternion kernel vs matrices)', () => {
    fc.assert(
      fc.property(euler, omega, dt, fc.constantFrom(3, 4, 7, 8), (e, w, t, alg) => {
        const m = new Float64Array(9);
        new DeadReckoningModel()
          .reset([0, 0, 6.4e6], [1, 2, 3], e, [1, 1, 1], w, alg)
          .evaluate(t, new Float64Array(3), null, m);
        const expected = mat3.multiply(
          mat3.create(),
          drMatrix(mat3.create(), w, t),
          worldToBodyFromEuler(mat3.create(), e[0], e[1], e[2]),
        );
        expectClose(m, expected, 1e-12, `DR${alg} R_wb`);
      }),
    );
  });

  it('reported world velocity is the time derivative of the position, every algorithm', () => {
    fc.assert(
      fc.property(
        euler,
        omega,
        vec,
        vec,
        fc.double({ min: 0, max: 20, noNaN: true }),
        fc.integer({ min: 1, max: 9 }),
        (e, w, v, a, t, alg) => {
          const model = new DeadReckoningModel().reset([3e6, -4e6, 3.5e6], v, e, a, w, alg);
          const h = 1e-4;
          const p1 = model.evaluate(t + h, new Float64Array(3));
          const p0 = model.evaluate(t - h, new Float64Array(3));
          // Differences of ECEF-sized numbers: subtract the base first to keep the digits.
          const numeric = [0, 1, 2].map((k) => (p1[k]! - p0[k]!) / (2 * h));
          const scale = Math.hypot(...v) + Math.hypot(...a) * (t + 1);
          expectClose(model.velocityWorld(t, new Float64Array(3)), numeric, 1e-4 * (1 + scale), `DR${alg} velocity`);
        },
      ),
    );
  });

  it('is continuous as ω → 0: 1e-12, 1e-9 and 1e-4 rad/s differ from 0 only by their first-order effect', () => {
    const t = 10,
      speed = Math.hypot(...V),
      accel = Math.hypot(...A);
    for (const alg of [3, 4, 7, 8]) {
      const at = (w: number) => {
        const p = new Float64Array(3),
          o = new Float64Array(3);
        new DeadReckoningModel().reset([6378137, 0, 0], V, EULER, A, [w, -2 * w, 3 * w], alg).evaluate(t, p, o);
        return { p, o };
      };
      const zero = at(0);
      for (const w of [1e-12, 1e-9, 1e-4]) {
        const { p, o } = at(w);
        const rate = w * Math.sqrt(14);
        // Body models turn V and A with the body: the drift is ≈ ω·(t²|V|/2 + t³|A|/3); world models do not move.
        const positionBound = 1e-8 + (alg >= 7 ? rate * (t * t * speed + t ** 3 * accel) : 0);
        const moved = Math.hypot(p[0]! - zero.p[0]!, p[1]! - zero.p[1]!, p[2]! - zero.p[2]!);
        expect(moved, `DR${alg} ω = ${w} position`).toBeLessThanOrEqual(positionBound);
        const r = worldToBodyFromEuler(mat3.create(), o[0]!, o[1]!, o[2]!);
        const r0 = worldToBodyFromEuler(mat3.create(), zero.o[0]!, zero.o[1]!, zero.o[2]!);
        expect(mat3.rotationAngleBetween(r, r0) / (rate * t), `DR${alg} ω = ${w} turn`).toBeCloseTo(
          1,
          w < 1e-9 ? 2 : 6,
        );
      }
    }
  });

  it('at ω = 0 the body models equal their fixed counterparts (R1 = tI, R2 = ½t²I)', () => {
    fc.assert(
      fc.property(euler, vec, vec, dt, (e, v, a, t) => {
        const at = (alg: number) =>
          new DeadReckoningModel().reset([0, 0, 0], v, e, a, [0, 0, 0], alg).evaluate(t, new Float64Array(3));
        expectClose(at(7), at(6), 1e-8 * (1 + t * t), 'RPB vs FPB');
        expectClose(at(8), at(9), 1e-8 * (1 + t * t * 300), 'RVB vs FVB');
      }),
    );
  });
});
