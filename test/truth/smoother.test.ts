// The track estimator on fixes whose truth is known: noise-free samples of every parametric trajectory come back
// within a centimetre; a held position, an outlier, an altitude step and quantised altitudes, irregular and repeated
// times are each handled as what they are.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createTruthState } from '../../src/dr/owner/truth-state.js';
import { ecefToGeodeticDegrees } from '../../src/math/geodesy.js';
import { createRandom } from '../../src/math/random.js';
import {
  FixStatus,
  SOURCE_NOISE,
  aircraftOrbit,
  circle,
  ellipse,
  estimateTrack,
  figureEight,
  missile,
  shipTurningCircles,
  straightLine,
  tankRoadCourse,
  zeroGParabolas,
  type TrackPoint,
  type Trajectory,
} from '../../src/truth/index.js';
import { altitudeStepFeet } from '../../src/truth/measurement-noise.js';
import type { TrackKind } from '../../src/truth/track-kinds.js';
import { createTruthWithAttitude, type Origin } from '../../src/truth/trajectory.js';

/** Fixes of `trajectory` every `stepSeconds` (its first `seconds`), as a recorder would log them. */
function fixesOf(trajectory: Trajectory, stepSeconds: number, seconds = trajectory.durationSeconds): TrackPoint[] {
  const s = createTruthState(),
    geo = new Float64Array(3);
  const points: TrackPoint[] = [];
  const end = Math.min(seconds, trajectory.durationSeconds);
  for (let i = 0; i * stepSeconds <= end; i++) {
    const t = i * stepSeconds;
    trajectory.sample(t, s);
    ecefToGeodeticDegrees(geo, s.location[0]!, s.location[1]!, s.location[2]!);
    points.push({ timeSeconds: t, latitudeDeg: geo[0]!, longitudeDeg: geo[1]!, heightM: geo[2]!, row: i + 2 });
  }
  return points;
}

/** Largest distance between the trajectory and the truth at each fix's time, m. */
function worstAtFixes(truth: Trajectory, estimated: Trajectory, points: readonly TrackPoint[]): number {
  const a = createTruthState(),
    b = createTruthWithAttitude();
  let worst = 0;
  for (const p of points) {
    const t = p.timeSeconds - points[0]!.timeSeconds;
    truth.sample(p.timeSeconds, a);
    estimated.sample(t, b);
    const d = Math.hypot(
      a.location[0]! - b.location[0]!,
      a.location[1]! - b.location[1]!,
      a.location[2]! - b.location[2]!,
    );
    worst = Math.max(worst, d);
  }
  return worst;
}

/**
 * The median distance between the trajectory and the truth halfway between consecutive fixes, m: where the
 * backward pass matters (a forward filter alone meets each fix but lags between them).
 */
function medianBetweenFixes(truth: Trajectory, estimated: Trajectory, points: readonly TrackPoint[]): number {
  const a = createTruthState(),
    b = createTruthWithAttitude();
  const distances = points.slice(1).map((p, i) => {
    const t = (p.timeSeconds + points[i]!.timeSeconds) / 2;
    truth.sample(t, a);
    estimated.sample(t - points[0]!.timeSeconds, b);
    return Math.hypot(
      a.location[0]! - b.location[0]!,
      a.location[1]! - b.location[1]!,
      a.location[2]! - b.location[2]!,
    );
  });
  return distances.sort((x, y) => x - y)[distances.length >> 1]!;
}

/** Every parametric family, with the kind that flies or drives it. */
const FAMILIES: ReadonlyArray<[string, (origin: Origin, headingRad: number, speed: number) => Trajectory, TrackKind]> =
  [
    ['circle', (origin, headingRad, speed) => circle({ origin, headingRad, speed, radius: 400 }), 'air'],
    ['aircraft orbit', (origin, headingRad) => aircraftOrbit({ origin, headingRad }), 'air'],
    ['ellipse', (origin, _h, speed) => ellipse({ origin, speed, banked: true }), 'air'],
    ['figure-8', (origin, _h, speed) => figureEight({ origin, speed, banked: true }), 'air'],
    ['missile', (origin, headingRad) => missile({ origin, headingRad }), 'munition'],
    ['straight line', (origin, headingRad) => straightLine({ origin, headingRad }), 'ground'],
    ['tank road course', (origin, headingRad) => tankRoadCourse({ origin, headingRad }), 'ground'],
    ['ship turning circles', (origin, headingRad) => shipTurningCircles({ origin, headingRad }), 'surface'],
    ['zero-g parabolas', (origin, headingRad) => zeroGParabolas({ origin, headingRad }), 'air'],
  ];

describe('the smoother on noise-free samples', () => {
  it('returns the samples of every parametric trajectory within 1 cm, and the motion between them', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...FAMILIES),
        fc.double({ min: 0.1, max: 1, noNaN: true }),
        fc.double({ min: -70, max: 70, noNaN: true }),
        fc.double({ min: -180, max: 180, noNaN: true }),
        fc.double({ min: 0, max: 2 * Math.PI, noNaN: true }),
        fc.double({ min: 30, max: 80, noNaN: true }),
        ([name, make, kind], step, latitudeDeg, longitudeDeg, headingRad, speed) => {
          const heightM = kind === 'surface' ? 0 : 300; // a ship at sea level
          const truth = make({ latitudeDeg, longitudeDeg, heightM }, headingRad, speed);
          const points = fixesOf(truth, step, 300);
          // Told they are exact (a simulation's own states, as a DIS capture's are), it keeps to them.
          const { trajectory, repairs } = estimateTrack(name, points, { kind, noise: SOURCE_NOISE.dis });
          expect(repairs, name).toEqual([]);
          expect(worstAtFixes(truth, trajectory, points), name).toBeLessThan(0.01);
          expect(medianBetweenFixes(truth, trajectory, points), name).toBeLessThan(0.01);
        },
      ),
      { numRuns: 40, seed: 32 },
    );
  });
});

/** A straight flight north at 200 m/s, 1 Hz, with ADS-B's ground speed and track, from 47° N 8° E at 3 000 m. */
function northbound(count: number): TrackPoint[] {
  return Array.from({ length: count }, (_, i) => ({
    timeSeconds: 1000 + i,
    latitudeDeg: 47 + (200 * i) / 111_200,
    longitudeDeg: 8,
    heightM: 3000,
    groundSpeedMps: 200,
    trackDeg: 0,
    verticalRateMps: 0,
    row: i + 1,
  }));
}

const reasons = (repairs: ReadonlyArray<{ reason: string; row?: number }>) =>
  repairs.map((r) => `${r.row}:${r.reason}`);

describe('what the estimator does with each fix', () => {
  it('drops a position held while the aircraft flew on, then takes the catch-up fix', () => {
    const points = northbound(40);
    // Rows 11–14 repeat row 10's position: the receiver's old fix while the aircraft flew 800 m on.
    for (let i = 10; i < 14; i++) points[i] = { ...points[i]!, latitudeDeg: points[9]!.latitudeDeg };
    const { repairs, status, trajectory } = estimateTrack('held', points, { kind: 'air', noise: SOURCE_NOISE.adsb });
    expect(reasons(repairs)).toEqual(['11:held', '12:held', '13:held', '14:held']);
    expect(status[15]! & FixStatus.POSITION_USED).toBeTruthy();
    // The truth flies on through them at 200 m/s.
    const s = createTruthState();
    for (let t = 9; t <= 15; t += 0.25) {
      trajectory.sample(t, s);
      expect(Math.hypot(...s.linearVelocity)).toBeCloseTo(200, 0);
    }
  });

  it('keeps a repeated position when the vehicle stands still', () => {
    const points = Array.from({ length: 30 }, (_, i) => ({ timeSeconds: i, latitudeDeg: 47, longitudeDeg: 8 }));
    expect(estimateTrack('parked', points, { kind: 'ground', noise: SOURCE_NOISE.gnss }).repairs).toEqual([]);
  });

  it('rejects an outlier by its innovation, whichever side of it the track is known from', () => {
    for (const at of [1, 20, 38]) {
      const points = northbound(40);
      points[at] = { ...points[at]!, longitudeDeg: 8 + 1500 / 75_800 }; // 1.5 km east, at 200 m/s: reachable
      const { repairs } = estimateTrack('outlier', points, { kind: 'air', noise: SOURCE_NOISE.adsb });
      expect(repairs.map((r) => r.row)).toEqual([at + 1]);
      expect(repairs[0]!.dropped).toBe(true);
    }
  });

  it('takes an altitude step that stays, holds a held altitude, and reads 25 ft and 100 ft steps', () => {
    const random = createRandom(7);
    // A climb at 10 m/s reported in 25 ft steps, the altitude held for 6 s, then on (the velocity reports vary: the
    // receiver is not repeating a whole old report, whose position would be held too).
    const points = northbound(80).map((p, i) => {
      const feet = Math.round((3000 + 10 * i) / 0.3048 / 25) * 25;
      return { ...p, heightM: feet * 0.3048, verticalRateMps: 10, groundSpeedMps: 200 + 0.5 * (i % 2) };
    });
    for (let i = 30; i < 36; i++) points[i] = { ...points[i]!, heightM: points[29]!.heightM };
    const { repairs, trajectory } = estimateTrack('climb', points, {
      kind: 'air',
      noise: { ...SOURCE_NOISE.adsb, heightQuantumM: 25 * 0.3048 },
    });
    expect(reasons(repairs)).toEqual([
      '32:height-held',
      '33:height-held',
      '34:height-held',
      '35:height-held',
      '36:height-held',
    ]);
    // The truth climbs through the held altitude.
    const s = createTruthState(),
      geo = new Float64Array(3);
    trajectory.sample(33, s);
    ecefToGeodeticDegrees(geo, s.location[0]!, s.location[1]!, s.location[2]!);
    expect(geo[2]).toBeCloseTo(3000 + 330, -1);
    expect(altitudeStepFeet(Array.from({ length: 200 }, () => 25 * Math.round(random.uniform(0, 1) * 1000)))).toBe(25);
    expect(altitudeStepFeet(Array.from({ length: 200 }, () => 100 * Math.round(random.uniform(0, 1) * 300)))).toBe(100);
    expect(altitudeStepFeet(Array.from({ length: 200 }, () => 3000 + random.uniform(0, 1) * 1000))).toBe(0);
  });

  it('flies through irregular times, and a fix repeated at one time is one fix', () => {
    const truth = circle({ speed: 60, radius: 500 });
    const random = createRandom(3);
    const points: TrackPoint[] = [];
    let t = 0;
    for (let i = 0; t < truth.durationSeconds; i++) {
      const [fix] = fixesOf({ ...truth, sample: (u, out) => truth.sample(u + t, out) }, 1, 0);
      points.push({ ...fix!, timeSeconds: t });
      if (i % 7 === 3) points.push({ ...fix!, timeSeconds: t }); // the same fix twice
      t += 0.2 + 2.5 * random.uniform(0, 1);
    }
    const { trajectory, repairs } = estimateTrack('irregular', points, { kind: 'air', noise: SOURCE_NOISE.dis });
    expect(repairs).toEqual([]);
    expect(worstAtFixes(truth, trajectory, points)).toBeLessThan(0.01);
  });
});
