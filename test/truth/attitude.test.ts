// Attitude from the smoothed motion of a recorded track: heading along the velocity only where the velocity is known
// better than its noise (held below), pitch from the smoothed climb, every rate within the kind's bound, a recorded
// heading column used and checked. Cars logged as a phone or dashcam GPS logs them (test/truth/parked-car.ts).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createTruthState } from '../../src/dr/owner/truth-state.js';
import { runExperiment } from '../../src/experiment/runner.js';
import { planExperiment } from '../../src/experiment/sweep.js';
import { ecefToGeodeticDegrees } from '../../src/math/geodesy.js';
import { rotationAngleBetween } from '../../src/math/mat3.js';
import { createRandom } from '../../src/math/random.js';
import { loadTrack, recordedTrajectory, type TrackPoint } from '../../src/truth/index.js';
import { createTruthWithAttitude, type TruthWithAttitude } from '../../src/truth/trajectory.js';
import { parkedCarCsv, parkedCarTruth } from './parked-car.js';

const directory = mkdtempSync(join(tmpdir(), 'reckon-attitude-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));
const DEG = 180 / Math.PI;

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
}

/** The pitch of a state's body x axis above the local horizontal (the ellipsoid's normal at its position), °. */
function pitchDeg(s: TruthWithAttitude): number {
  const geo = ecefToGeodeticDegrees(new Float64Array(3), s.location[0]!, s.location[1]!, s.location[2]!);
  const lat = geo[0]! / DEG,
    lon = geo[1]! / DEG;
  const up = [Math.cos(lat) * Math.cos(lon), Math.cos(lat) * Math.sin(lon), Math.sin(lat)];
  const r = s.worldToBody; // row 0: the body x axis in ECEF
  return Math.asin(r[0]! * up[0]! + r[1]! * up[1]! + r[2]! * up[2]!) * DEG;
}

describe('a car driving up a 5 % grade: parked, pulling away, stopping at lights, parked again', () => {
  const GRADE = 0.05;
  // The parked car's town drive (stops, pull-aways at 1.5 m/s², long parked stretches), its road climbing 5 %.
  const flat = parkedCarTruth();
  const random = createRandom(11);
  const s = createTruthState(),
    geo = new Float64Array(3);
  const points: TrackPoint[] = [];
  let travelled = 0;
  const previous = new Float64Array(3);
  for (let t = 0; t <= flat.durationSeconds; t++) {
    flat.sample(t, s);
    if (t > 0) travelled += Math.hypot(...s.location.map((x, i) => x - previous[i]!));
    previous.set(s.location);
    ecefToGeodeticDegrees(geo, s.location[0]!, s.location[1]!, s.location[2]!);
    // A consumer GPS's noise: 3 m horizontal, 5 m vertical.
    points.push({
      timeSeconds: t,
      latitudeDeg: geo[0]! + (3 * random.normal()) / 111_200,
      longitudeDeg: geo[1]! + (3 * random.normal()) / 74_400,
      heightM: 520 + GRADE * travelled + 5 * random.normal(),
    });
  }
  const trajectory = recordedTrajectory('uphill', points, { kind: 'ground' });

  it('turns at most 90°/s, through the noise of every stop and pull-away', () => {
    const a = createTruthWithAttitude(),
      b = createTruthWithAttitude();
    const step = 1 / 60;
    let fastest = 0;
    trajectory.sample(0, a);
    for (let t = step; t <= trajectory.durationSeconds; t += step) {
      trajectory.sample(t, b);
      fastest = Math.max(fastest, (rotationAngleBetween(a.worldToBody, b.worldToBody) * DEG) / step);
      a.worldToBody.set(b.worldToBody);
    }
    expect(fastest).toBeLessThanOrEqual(90);
  });

  it('pitches with the road, within 1° of its 2.9°, standing or driving', () => {
    const slope = Math.atan(GRADE) * DEG;
    const a = createTruthWithAttitude();
    let worst = 0;
    for (let t = 0; t <= trajectory.durationSeconds; t += 0.5) {
      trajectory.sample(t, a);
      worst = Math.max(worst, Math.abs(pitchDeg(a) - slope));
    }
    expect(worst).toBeLessThanOrEqual(1);
  });
});

describe('a parked car whose GPS fixes wander', () => {
  const file = join(directory, 'car.csv');
  writeFileSync(file, parkedCarCsv());

  it('holds heading and pitch still while it stands, at lights and parked', async () => {
    const truth = parkedCarTruth();
    const recorded = await loadTrack(file);
    const a = createTruthWithAttitude(),
      b = createTruthWithAttitude(),
      start = createTruthWithAttitude();
    // How far the received attitude turns from where it was 10 s into each stop, up to 10 s before it ends.
    const turned: number[] = [];
    let stoppedAt = Number.NaN;
    for (let t = 0; t < truth.durationSeconds; t += 0.5) {
      truth.sample(t, a);
      if (Math.hypot(...a.linearVelocity) > 0.01) {
        stoppedAt = Number.NaN;
        continue;
      }
      if (Number.isNaN(stoppedAt)) stoppedAt = t;
      truth.sample(Math.min(t + 10, truth.durationSeconds), a);
      if (t < stoppedAt + 10 || Math.hypot(...a.linearVelocity) > 0.01) continue;
      if (t === stoppedAt + 10) recorded.sample(t, start);
      recorded.sample(t, b);
      turned.push(rotationAngleBetween(start.worldToBody, b.worldToBody) * DEG);
    }
    expect(turned.length).toBeGreaterThan(1000);
    // Following the noise, it turned by a median of 60° and up to 180°.
    expect(percentile(turned, 0.5)).toBeLessThan(0.5);
    expect(percentile(turned, 1)).toBeLessThan(2);
  });

  it('costs an experiment with the default settings an orientation error p95 of at most 10°', async () => {
    const spec = planExperiment({ trajectory: { type: 'recorded', file } }).runs[0]!.spec;
    const { metrics } = await runExperiment(spec);
    expect(metrics.durationSeconds).toBe(1381);
    // 13° and 11,200 PDUs, nearly all for orientation, while the attitude followed the noise.
    expect(metrics.orientationErrorDeg.p95).toBeLessThanOrEqual(10);
    expect(metrics.pdus).toBeLessThan(4000);
  });
});

describe('a recorded heading column', () => {
  /** A yacht's 1 Hz fixes due east at 3 m/s, with a heading column. */
  const yacht = (headingDeg: (i: number) => number): TrackPoint[] =>
    Array.from({ length: 120 }, (_, i) => ({
      timeSeconds: i,
      latitudeDeg: 59.7,
      longitudeDeg: 24.7 + (3 * i) / 56_000,
      headingDeg: headingDeg(i),
    }));
  const headingAt = (trajectory: ReturnType<typeof recordedTrajectory>, t: number) => {
    const s = createTruthWithAttitude();
    trajectory.sample(t, s);
    const geo = ecefToGeodeticDegrees(new Float64Array(3), s.location[0]!, s.location[1]!, s.location[2]!);
    const lat = geo[0]! / DEG,
      lon = geo[1]! / DEG;
    const north = [-Math.sin(lat) * Math.cos(lon), -Math.sin(lat) * Math.sin(lon), Math.cos(lat)];
    const east = [-Math.sin(lon), Math.cos(lon), 0];
    const x = s.worldToBody;
    const n = x[0]! * north[0]! + x[1]! * north[1]! + x[2]! * north[2]!;
    const e = x[0]! * east[0]! + x[1]! * east[1]! + x[2]! * east[2]!;
    return (((Math.atan2(e, n) * DEG) % 360) + 360) % 360;
  };

  it('is the heading, crabbing 10° off the course, without a note', () => {
    const trajectory = recordedTrajectory(
      'yacht',
      yacht(() => 80),
      { kind: 'surface' },
    );
    expect(headingAt(trajectory, 60)).toBeCloseTo(80, 1);
    expect(trajectory.notes).toBeUndefined();
  });

  it('is checked against the course: a heading 90° off is noted (magnetic, or the wrong column)', () => {
    const trajectory = recordedTrajectory(
      'yacht',
      yacht(() => 0),
      { kind: 'surface' },
    );
    expect(trajectory.notes).toEqual([
      expect.stringMatching(/^the recorded heading differs from the course over ground by a median 90° while moving/),
    ]);
  });
});
