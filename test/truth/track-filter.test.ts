import { describe, expect, it } from 'vitest';
import { createRandom } from '../../src/math/random.js';
import { predictAxis, smoothAxis, updateAxis, initialiseAxis } from '../../src/truth/motion-model.js';
import { SOURCE_NOISE } from '../../src/truth/measurement-noise.js';
import { TrackFilter } from '../../src/truth/track-filter.js';
import {
  FixStatus,
  createFixMeasurement,
  createTrackEstimate,
  type FixMeasurement,
} from '../../src/truth/track-fix.js';

type Matrix = number[][];
const multiply = (a: Matrix, b: Matrix): Matrix =>
  a.map((row) => b[0]!.map((_, j) => row.reduce((sum, v, k) => sum + v * b[k]![j]!, 0)));
const transpose = (a: Matrix): Matrix => a[0]!.map((_, j) => a.map((row) => row[j]!));
const add = (a: Matrix, b: Matrix, sign = 1): Matrix => a.map((row, i) => row.map((v, j) => v + sign * b[i]![j]!));
/** 3×3 inverse by Gauss–Jordan, written out independently of the cofactors `smoothAxis` uses. */
function inverse(m: Matrix): Matrix {
  const a = m.map((row, i) => [...row, ...[0, 1, 2].map((j) => (i === j ? 1 : 0))]);
  for (let c = 0; c < 3; c++) {
    let pivot = c;
    for (let r = c + 1; r < 3; r++) if (Math.abs(a[r]![c]!) > Math.abs(a[pivot]![c]!)) pivot = r;
    [a[c], a[pivot]] = [a[pivot]!, a[c]!];
    const p = a[c]![c]!;
    for (let j = 0; j < 6; j++) a[c]![j]! /= p;
    for (let r = 0; r < 3; r++) {
      if (r === c) continue;
      const f = a[r]![c]!;
      for (let j = 0; j < 6; j++) a[r]![j]! -= f * a[c]![j]!;
    }
  }
  return a.map((row) => row.slice(3));
}
const full = (c: Float64Array): Matrix => [
  [c[0]!, c[1]!, c[2]!],
  [c[1]!, c[3]!, c[4]!],
  [c[2]!, c[4]!, c[5]!],
];
const column = (x: ArrayLike<number>): Matrix => [[x[0]!], [x[1]!], [x[2]!]];

describe('motion model (one constant-acceleration axis)', () => {
  it('predicts a noise-free constant acceleration exactly, forwards and back', () => {
    const x = Float64Array.from([5, 3, 0.5]);
    const p = new Float64Array(6);
    predictAxis(x, 0, p, 0, 4, 0);
    expect(Array.from(x)).toEqual([5 + 3 * 4 + 0.25 * 16, 3 + 2, 0.5]);
    predictAxis(x, 0, p, 0, -4, 0);
    expect(x[0]).toBeCloseTo(5, 12);
    expect(x[1]).toBeCloseTo(3, 12);
  });

  it('adds the white-jerk noise q·∫g gᵀ, the position–velocity terms negated backwards', () => {
    const p = new Float64Array(6);
    predictAxis(new Float64Array(3), 0, p, 0, 2, 3);
    // q [h⁵/20, h⁴/8, h³/6; h³/3, h²/2; h] at h = 2 (Bar-Shalom, Li & Kirubarajan 2001, eq. 6.2.3-7).
    expect(Array.from(p)).toEqual(
      [3 * (32 / 20), 3 * (16 / 8), 3 * (8 / 6), 3 * (8 / 3), 3 * 2, 3 * 2].map((v) => expect.closeTo(v, 12)),
    );
    const back = new Float64Array(6);
    predictAxis(new Float64Array(3), 0, back, 0, -2, 3);
    expect(back[1]).toBeCloseTo(-p[1]!, 12);
    expect(back[4]).toBeCloseTo(-p[4]!, 12);
    expect(back[2]).toBeCloseTo(p[2]!, 12);
  });

  it('updates like the matrix Kalman filter', () => {
    const x = Float64Array.from([1, 2, 3]);
    const p = Float64Array.from([4, 1, 0.5, 3, 0.2, 2]);
    const before = full(p);
    updateAxis(x, 0, p, 0, 1, 2.5, 0.7);
    const h: Matrix = [[0, 1, 0]];
    const s = multiply(multiply(h, before), transpose(h))[0]![0]! + 0.7;
    const k = multiply(before, transpose(h)).map((r) => [r[0]! / s]);
    const expectedP = add(before, multiply(k, multiply(h, before)), -1);
    expect(Array.from(x)).toEqual([1, 2, 3].map((v, i) => expect.closeTo(v + k[i]![0]! * 0.5, 12)));
    expect(full(p).flat()).toEqual(expectedP.flat().map((v) => expect.closeTo(v, 12)));
  });

  it('smooths one Rauch–Tung–Striebel step like the matrix formulas, on random states', () => {
    const random = createRandom(7);
    const uniform = () => random.next();
    for (let trial = 0; trial < 100; trial++) {
      const x = new Float64Array(3),
        p = new Float64Array(6);
      initialiseAxis(x, 0, p, 0, 100 * uniform(), 1 + 50 * uniform(), 10 * uniform(), 1 + 5 * uniform(), 1 + uniform());
      updateAxis(x, 0, p, 0, 1, uniform(), 0.5);
      const dt = 30 * uniform(),
        q = 3 * uniform();
      const next = Float64Array.from(x),
        nextP = Float64Array.from(p);
      predictAxis(next, 0, nextP, 0, dt, q);
      const predictedP = full(nextP);
      const smoothedNext = Float64Array.from(next, (v) => v + uniform());
      const smoothedNextP = Float64Array.from(nextP, (v) => 0.5 * v);
      const f: Matrix = [
        [1, dt, (dt * dt) / 2],
        [0, 1, dt],
        [0, 0, 1],
      ];
      const c = multiply(multiply(full(p), transpose(f)), inverse(predictedP));
      const expectedX = add(column(x), multiply(c, add(column(smoothedNext), multiply(f, column(x)), -1)));
      const expectedP = add(full(p), multiply(multiply(c, add(full(smoothedNextP), predictedP, -1)), transpose(c)));
      expect(smoothAxis(x, 0, p, 0, smoothedNext, 0, smoothedNextP, 0, dt, q, new Float64Array(15))).toBe(true);
      for (let i = 0; i < 3; i++) expect(x[i]).toBeCloseTo(expectedX[i]![0]!, 6);
      full(p)
        .flat()
        .forEach((v, i) => expect(v).toBeCloseTo(expectedP.flat()[i]!, 5));
    }
  });
});

/** Fixes of an aircraft flying east at 200 m/s from (47°, 8°), 1 Hz, with seeded position noise. */
function straightFlight(seconds: number, noiseM: number, seed = 3): Array<{ t: number; fix: FixMeasurement }> {
  const random = createRandom(seed);
  const gauss = () => random.normal();
  const metresPerDegree = 111_320;
  return Array.from({ length: seconds + 1 }, (_, t) => {
    const fix = createFixMeasurement();
    const east = 200 * t + noiseM * gauss(),
      north = noiseM * gauss();
    fix.latitudeDeg = 47 + north / metresPerDegree;
    fix.longitudeDeg = 8 + east / (metresPerDegree * Math.cos((47 * Math.PI) / 180));
    fix.heightM = 10_000;
    fix.groundSpeedMps = 200;
    fix.trackDeg = 90;
    fix.verticalRateMps = 0;
    return { t: 1_700_000_000 + t, fix };
  });
}

describe('TrackFilter (a live track, one fix at a time)', () => {
  it('follows a noisy straight flight: speed and track within a few tenths, position within the noise', () => {
    const filter = new TrackFilter({ kind: 'air', noise: SOURCE_NOISE.adsb });
    const estimate = createTrackEstimate();
    for (const { t, fix } of straightFlight(120, 15)) {
      const status = filter.update(t, fix);
      expect(status & (FixStatus.POSITION_REJECTED | FixStatus.HEIGHT_REJECTED)).toBe(0);
    }
    filter.estimate(filter.timeSeconds, estimate);
    expect(estimate.groundSpeedMps).toBeCloseTo(200, 0);
    expect(estimate.trackDeg).toBeCloseTo(90, 0);
    expect(estimate.heightM).toBeCloseTo(10_000, 0);
    expect(estimate.positionSigmaM).toBeLessThan(15);
  });

  it('extrapolates with estimate() and leaves the filter as it was', () => {
    const filter = new TrackFilter({ kind: 'air' });
    for (const { t, fix } of straightFlight(30, 0)) filter.update(t, fix);
    const time = filter.timeSeconds;
    const state = Float64Array.from(filter.state);
    const now = createTrackEstimate(),
      later = createTrackEstimate();
    filter.estimate(time, now);
    filter.estimate(time + 10, later);
    expect(filter.timeSeconds).toBe(time);
    expect(Array.from(filter.state)).toEqual(Array.from(state));
    // 10 s at 200 m/s east: 2 km, 0.0263° of longitude at 47° N (within the half percent between the fixes' sphere
    // and WGS-84 at 10 km).
    const expected = 2000 / (111_320 * Math.cos((47 * Math.PI) / 180));
    expect(Math.abs(later.longitudeDeg - now.longitudeDeg - expected)).toBeLessThan(0.005 * expected);
    expect(later.latitudeDeg).toBeCloseTo(now.latitudeDeg, 5);
  });

  it('says which parts it used: a held position, a jump, an older fix', () => {
    const filter = new TrackFilter({ kind: 'air', noise: SOURCE_NOISE.adsb });
    const flight = straightFlight(60, 5);
    for (const { t, fix } of flight.slice(0, 40)) filter.update(t, fix);
    // The receiver repeats fix 39's position at 40 while the aircraft flew on.
    const held = {
      ...flight[40]!.fix,
      latitudeDeg: flight[39]!.fix.latitudeDeg,
      longitudeDeg: flight[39]!.fix.longitudeDeg,
    };
    expect(filter.update(flight[40]!.t, held) & FixStatus.POSITION_HELD).toBeTruthy();
    // Two kilometres off the track.
    const jump = { ...flight[41]!.fix, latitudeDeg: flight[41]!.fix.latitudeDeg + 0.02 };
    const status = filter.update(flight[41]!.t, jump);
    expect(status & FixStatus.POSITION_REJECTED).toBeTruthy();
    expect(status & FixStatus.VELOCITY_USED).toBeTruthy();
    expect(filter.update(flight[30]!.t, flight[30]!.fix)).toBe(FixStatus.OUT_OF_ORDER);
    // The track goes on from where it was.
    expect(filter.update(flight[42]!.t, flight[42]!.fix) & FixStatus.POSITION_USED).toBeTruthy();
  });

  it('takes the track up again after a run of rejected positions the vehicle could have reached', () => {
    const filter = new TrackFilter({ kind: 'ground', noise: SOURCE_NOISE.gnss });
    const at = (northM: number): FixMeasurement => {
      const fix = createFixMeasurement();
      fix.latitudeDeg = 47 + northM / 111_320;
      fix.longitudeDeg = 8;
      fix.heightM = 400;
      return fix;
    };
    for (let t = 0; t < 20; t++) filter.update(t, at(10 * t));
    // A GNSS receiver re-acquires 300 m further on and stays there.
    let started = -1;
    for (let t = 20; t < 30; t++) {
      const status = filter.update(t, at(10 * t + 300));
      if (status & FixStatus.STARTED) started = t;
    }
    expect(started).toBeGreaterThan(20);
    expect(started).toBeLessThan(26);
  });

  it('keeps its accuracy across frames: 1 000 km of straight flight', () => {
    const filter = new TrackFilter({ kind: 'air', noise: SOURCE_NOISE.adsb });
    const estimate = createTrackEstimate();
    for (const { t, fix } of straightFlight(5000, 0)) filter.update(t, fix);
    filter.estimate(filter.timeSeconds, estimate);
    expect(estimate.heightM).toBeCloseTo(10_000, 0);
    expect(estimate.verticalRateMps).toBeCloseTo(0, 1);
    expect(estimate.groundSpeedMps).toBeCloseTo(200, 1);
  });
});
