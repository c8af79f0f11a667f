import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { rotationAngleBetween } from '../../src/math/mat3.js';
import { runExperiment } from '../../src/experiment/runner.js';
import { planExperiment } from '../../src/experiment/sweep.js';
import { createTruthWithAttitude } from '../../src/truth/trajectory.js';
import { loadTrack, loadTracks, recordedTrajectory } from '../../src/truth/index.js';
import { parkedCarCsv, parkedCarTruth } from './parked-car.js';

const directory = mkdtempSync(join(tmpdir(), 'reckon-parked-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));
const DEG = 180 / Math.PI;

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
}

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

describe('a track that never stops', () => {
  it('keeps the attitude derived from its course (the ship at 3.4 m/s and the helicopter)', async () => {
    for (const path of ['ship_signalk_aava_ownship_1hz_derived.csv', 'helicopter_traffic_rega_zh.json.gz']) {
      const file = new URL(`../fixtures/tracks/${path}`, import.meta.url).pathname;
      const [track] = await loadTracks(file);
      const held = track!.trajectory;
      const free = recordedTrajectory('free', track!.segment.points, {
        ...(path.endsWith('.gz') ? { smoothingWindow: 5, banked: true, attitudeSmoothingSeconds: 5 } : {}),
        holdAttitudeAtRest: false,
      });
      const a = createTruthWithAttitude(),
        b = createTruthWithAttitude();
      let worst = 0;
      for (let t = 0; t < held.durationSeconds; t += 0.5) {
        held.sample(t, a);
        free.sample(t, b);
        worst = Math.max(worst, rotationAngleBetween(a.worldToBody, b.worldToBody));
      }
      expect(worst, path).toBe(0);
    }
  });
});
