import { describe, expect, it } from 'vitest';
import { EMIT_HEARTBEAT, EMIT_POSITION } from '../../src/dr/owner/emitter.js';
import { RunContext, runExperiment, simulate } from '../../src/experiment/runner.js';
import { experimentReportHtml, resultsJson } from '../../src/experiment/report.js';
import { planExperiment } from '../../src/experiment/sweep.js';
import { runSweep } from '../../src/experiment/sweep-runner.js';
import { circle, straightLine } from '../../src/truth/index.js';

const runSpec = (input: unknown) => planExperiment(input).runs[0]!.spec;

describe('runExperiment: metrics with known answers', () => {
  it('a straight line at constant speed under FPW sends only heartbeats', async () => {
    const spec = runSpec({
      trajectory: { type: 'straight-line', speed: '20 m/s', headingRad: 1 },
      durationSeconds: 60,
      emitter: { algorithm: 'FPW', positionThreshold: '1 m', heartbeat: '5 s' },
    });
    const { metrics } = await runExperiment(spec);
    expect(metrics.pdusByReason).toEqual({
      first: 1,
      position: 0,
      orientation: 0,
      heartbeat: metrics.pdus - 1,
      change: 0,
    });
    // One every 5 s (or the next 60 Hz sample after it): 11 or 12 in 60 s.
    expect(metrics.pdusByReason.heartbeat).toBeGreaterThanOrEqual(11);
    expect(metrics.pdusByReason.heartbeat).toBeLessThanOrEqual(12);
    expect(metrics.positionError.max).toBeLessThan(1e-3);
  });

  it('a circle under FPW sends each time ½·(v²/R)·t² reaches the threshold (the classic circle)', () => {
    const speed = 100,
      radius = 1000,
      threshold = 1,
      rate = 60;
    const spec = runSpec({
      trajectory: { type: 'circle', speed, radius, orbits: 3 },
      sampleRateHz: rate,
      emitter: { algorithm: 'FPW', positionThreshold: threshold, heartbeat: '1 h', orientationThreshold: '180 deg' },
      smoothing: { method: 'snap' },
      traces: true,
    });
    const result = simulate(spec, circle({ speed, radius, orbits: 3 }), new RunContext());
    // FPW flies the tangent; the circle falls away from it by ½·(v²/R)·t² (to first order): 1 m after
    // √(2·1·1000)/100 = 0.447 s. The emitter sees it at the first 60 Hz sample past that: 27/60 = 0.45 s.
    const crossing = Math.sqrt((2 * threshold * radius) / speed ** 2);
    const interval = Math.ceil(crossing * rate) / rate;
    expect(interval).toBeCloseTo(0.45, 12);
    const times = result.traces!.pduTime;
    for (let i = 2; i < times.length; i++) expect(times[i]! - times[i - 1]!).toBeCloseTo(interval, 9);
    const m = result.metrics;
    expect(m.pdusByReason.position).toBe(m.pdus - 1);
    const orbitSeconds = (2 * Math.PI * radius) / speed;
    expect(m.pdusPerOrbit).toBeCloseTo(orbitSeconds / interval, 0);
    expect(m.pdusPerOrbit! * 3).toBeCloseTo(m.pdus, 9);
    // Perfect network, no smoothing: the receiver never shows more than the error just before a send.
    expect(m.positionError.max).toBeLessThan(threshold);
    expect(m.shareAboveThreshold).toBe(0);
    expect(m.bytesPerPdu).toBe(144 + 28);
    expect(m.bytesPerSecond).toBeCloseTo((m.pdus * 172) / m.durationSeconds, 9);
    expect(m.reductionPercent).toBeCloseTo(100 * (1 - m.pdus / (Math.floor(m.durationSeconds * 15) + 1)), 9);
  });

  it('counts what a lossy link drops and measures the error it causes', async () => {
    const base = { trajectory: { type: 'aircraft-orbit', orbits: 0.5 }, emitter: { algorithm: 'RVW' } };
    const clean = await runExperiment(runSpec({ ...base, network: 'perfect' }));
    const lossy = await runExperiment(
      runSpec({ ...base, network: { profile: 'perfect', latencyMs: 100, lossPercent: 20 } }),
    );
    expect(clean.metrics.lost).toBe(0);
    expect(lossy.metrics.lost).toBeGreaterThan(0);
    // Every PDU is delivered or lost, except those still in flight (< 100 ms) when the run ends.
    expect(lossy.metrics.delivered + lossy.metrics.lost).toBeLessThanOrEqual(lossy.metrics.pdus);
    expect(lossy.metrics.delivered + lossy.metrics.lost).toBeGreaterThan(lossy.metrics.pdus - 5);
    // 100 ms late at 120 m/s: about 12 m behind, against almost nothing on a perfect link.
    expect(lossy.metrics.positionError.mean).toBeGreaterThan(10);
    expect(clean.metrics.positionError.mean).toBeLessThan(1);
  });

  it('reports heartbeat and position reasons as bits', () => {
    expect(EMIT_POSITION | EMIT_HEARTBEAT).toBe(10);
    const spec = runSpec({
      trajectory: { type: 'straight-line' },
      durationSeconds: 30,
      emitter: { algorithm: 'FPW' },
      traces: true,
    });
    const result = simulate(spec, straightLine(), new RunContext());
    expect(result.traces!.pduReasons.every((r) => r > 0)).toBe(true);
    expect(result.metrics.pdusByReason.position).toBeGreaterThan(0); // the speed changes at 20–30 s
  });
});

describe('a run longer than its trajectory', () => {
  it('stops at the end of a trajectory that is over there (the tank course ends at rest) and says so', async () => {
    const course = await runExperiment(runSpec({ trajectory: { type: 'tank-road-course' } }));
    const long = await runExperiment(runSpec({ trajectory: { type: 'tank-road-course' }, durationSeconds: 7200 }));
    expect(course.metrics.durationSeconds).toBeGreaterThan(200);
    expect(long.metrics.durationSeconds).toBe(course.metrics.durationSeconds);
    expect(long.metrics.positionError.p95).toBe(course.metrics.positionError.p95);
    expect(long.notes).toEqual([
      expect.stringMatching(
        /^stopped at the end of the trajectory tank-road-course \(4 min \d+ s\), not after the 2 h 0 min durationSeconds asks for/,
      ),
    ]);
    expect(JSON.parse(resultsJson('long', {}, [long])).runs[0].notes).toEqual(long.notes);
    const html = await experimentReportHtml('long', [long]);
    expect(html).toContain('<h2>Notes</h2>');
    expect(html).toContain('stopped at the end of the trajectory tank-road-course');
    expect(course.notes).toBeUndefined();
  });

  it('runs on where the trajectory goes on: an orbit keeps orbiting, a straight run at speed keeps running', async () => {
    for (const trajectory of [
      { type: 'circle', orbits: 1 },
      { type: 'straight-line', speed: 10 },
    ]) {
      const result = await runExperiment(runSpec({ trajectory, durationSeconds: 600 }));
      expect(result.metrics.durationSeconds).toBe(600);
      expect(result.notes).toBeUndefined();
    }
  });
});

describe('a recorded track with receiver artefacts', () => {
  it('runs on the repaired track, and its result, results.json and report name the rows not used', async () => {
    const file = new URL('../fixtures/tracks/aircraft_adsb_noisy_time_issue.json.gz', import.meta.url).pathname;
    const result = await runExperiment(runSpec({ trajectory: { type: 'recorded', file }, durationSeconds: 20 }));
    const held = expect.stringMatching(/^1888 held positions \(rows 330, 439, .* and 1878 more\)/);
    const outliers = expect.stringMatching(/^18 outliers \(rows 2420, 2424, .* and 8 more\)/);
    expect(result.notes).toEqual(expect.arrayContaining([held, outliers]));
    expect(JSON.parse(resultsJson('adsb', {}, [result])).runs[0].notes).toEqual(result.notes);
    expect(await experimentReportHtml('adsb', [result])).toContain('1888 held positions (rows 330, 439');
    const strict = runSpec({ trajectory: { type: 'recorded', file, strict: true }, durationSeconds: 20 });
    await expect(runExperiment(strict)).rejects.toThrow(/row 1145: 882 m\/s from row 1144/);
  });
});

describe('determinism', () => {
  const sweep = {
    name: 'determinism',
    trajectory: { type: 'figure-8', speed: 40 },
    durationSeconds: 40,
    sampleRateHz: 30,
    network: 'lossy-wifi',
    traces: true,
    sweep: { 'emitter.positionThreshold': ['0.5 m', '2 m'], seed: [1, 2] },
  };

  it('the same spec and seed give byte-identical results, in this thread and on worker threads', async () => {
    const plan = planExperiment(sweep);
    const first = resultsJson('d', sweep, await runSweep(plan, { parallel: 1 }));
    const again = resultsJson('d', sweep, await runSweep(plan, { parallel: 1 }));
    const workers = resultsJson('d', sweep, await runSweep(plan, { parallel: 2 }));
    expect(again).toBe(first);
    expect(workers).toBe(first);
    // And the seed matters: runs 0 and 1 differ only by seed.
    const runs = (JSON.parse(first) as { runs: Array<{ metrics: { lost: number } }> }).runs;
    expect(runs[0]!.metrics).not.toEqual(runs[1]!.metrics);
  });
});
