import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { paretoFront } from '../../src/experiment/report.js';
import { applySets, planExperiment, setPath, SpecError } from '../../src/experiment/sweep.js';
import { summarize } from '../../src/experiment/metrics.js';
import { ROOT } from '../support/binary.js';
import { bundled } from '../support/bundle.js';

function problemsOf(input: unknown): Array<{ path: string; message: string }> {
  try {
    planExperiment(input);
  } catch (error) {
    if (error instanceof SpecError) return [...error.problems];
    throw error;
  }
  return [];
}

describe('planExperiment', () => {
  it('crosses every swept setting, last one fastest, converting units', () => {
    const plan = planExperiment({
      sweep: {
        'emitter.positionThreshold': ['50 cm', 2],
        network: ['lan', { profile: 'wan', lossPercent: 5 }],
        'smoothing.method': ['snap', 'linear', 'projective'],
      },
    });
    expect(plan.runs).toHaveLength(12);
    expect(plan.runs.map((r) => r.index)).toEqual([...Array(12).keys()]);
    expect(plan.runs[0]!.settings).toEqual({
      'emitter.positionThreshold': '50 cm',
      network: 'lan',
      'smoothing.method': 'snap',
    });
    expect(plan.runs[1]!.spec.smoothing.method).toBe('linear');
    expect(plan.runs[3]!.spec.network).toEqual({ profile: 'wan', lossPercent: 5 });
    expect(plan.runs[6]!.spec.emitter.positionThreshold).toBe(2);
    expect(plan.runs[0]!.spec.emitter.positionThreshold).toBe(0.5);
  });

  it('fills defaults: the IEEE thresholds, 60 Hz, a perfect network, one run', () => {
    const { runs } = planExperiment({});
    expect(runs).toHaveLength(1);
    expect(runs[0]!.spec).toMatchObject({
      sampleRateHz: 60,
      network: 'perfect',
      emitter: { algorithm: 4, positionThreshold: 1, orientationThreshold: (3 * Math.PI) / 180, heartbeat: 5 },
      metrics: { baselineRateHz: 15, includeEthernet: false },
    });
  });

  it('reports every problem with its path and an example', () => {
    const problems = problemsOf({
      sampleRateHz: '-3 Hz',
      emitter: { heartbeat: '5 m' },
      trajectory: { type: 'boat' },
      extra: 1,
    });
    expect(problems).toHaveLength(4);
    expect(problems).toEqual(
      expect.arrayContaining([
        { path: 'sampleRateHz', message: 'must be positive; e.g. "60 Hz"' },
        { path: 'emitter.heartbeat', message: '"5 m" is not a duration (expected units like s), e.g. "5 s"' },
        { path: 'trajectory.type', message: expect.stringMatching(/'circle' \| 'aircraft-orbit'/) },
        { path: '<spec>', message: 'unknown field "extra"' },
      ]),
    );
    expect(problemsOf({ sweep: { 'emitter.positionThreshold': ['1 m', 'far'], 'trajectory.radius': [-5] } })).toEqual([
      {
        path: 'sweep["emitter.positionThreshold"][1]',
        message: '"far" is not a quantity with a known unit, e.g. "1 m"',
      },
      { path: 'sweep["trajectory.radius"][0]', message: 'must be positive; e.g. "1 km"' },
    ]);
  });
});

describe('--set', () => {
  it('sets dotted paths, reads JSON values, keeps unit strings, and turns a named network into fields', () => {
    const { input, problems } = applySets({ network: 'wan', emitter: { algorithm: 'FPW' } }, [
      'emitter.positionThreshold=2.5 m',
      'network.lossPercent=5',
      'traces=true',
      'trajectory={"type":"missile"}',
    ]);
    expect(problems).toEqual([]);
    expect(input).toEqual({
      network: { profile: 'wan', lossPercent: 5 },
      emitter: { algorithm: 'FPW', positionThreshold: '2.5 m' },
      traces: true,
      trajectory: { type: 'missile' },
    });
    expect(applySets({}, ['=1', 'a..b=2']).problems).toHaveLength(2);
    const original = { a: { b: 1 } };
    setPath(original, 'a.b', 2);
    expect(original).toEqual({ a: { b: 1 } });
  });
});

describe('metrics helpers', () => {
  it('summarize gives mean, RMS, nearest-rank p95 and max', () => {
    const values = Float64Array.from({ length: 100 }, (_, i) => 100 - i); // 100 … 1, unsorted for the selection
    expect(summarize(values, 100)).toEqual({ mean: 50.5, rms: Math.sqrt(3383.5), p95: 95, max: 100 });
    expect(summarize(Float64Array.of(3), 1, 2)).toEqual({ mean: 6, rms: 6, p95: 6, max: 6 });
  });

  it('paretoFront keeps the runs no other run beats on both rate and error', () => {
    const points: Array<[number, number]> = [
      [1, 5],
      [2, 3],
      [3, 4],
      [4, 1],
      [2, 2],
      [5, 1],
    ];
    expect(paretoFront(points)).toEqual([0, 4, 3]);
  });
});

describe('examples/threshold-sweep.ts', () => {
  it('runs a small sweep from the package entry and writes its outputs', async () => {
    const out = mkdtempSync(join(tmpdir(), 'reckon-example-'));
    // Bundled by esbuild with what it imports from the built package, run by plain node: its workers load dist/.
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [await bundled('examples/threshold-sweep.ts', { dist: true }), out],
      { cwd: ROOT },
    );
    expect(stdout).toMatch(/^run\s+emitter\.algorithm\s+emitter\.positionThreshold\s+pdus/);
    expect(stdout.split('\n').filter((l) => /^\d+ /.test(l))).toHaveLength(8);
    expect(stdout).toMatch(/cheapest under 2 m p95: .* PDU\/s/);
    expect(JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')).runs).toHaveLength(8);
  });
});

describe('traces by default', () => {
  const sweep = { 'emitter.positionThreshold': Array.from({ length: 20 }, (_, i) => `${i + 1} m`) };

  it('left out, the runs the report draws keep them: six spread over the sweep (first and last among them)', () => {
    const { runs } = planExperiment({ sweep });
    const traced = runs.filter((r) => r.spec.traces).map((r) => r.index);
    expect(traced).toEqual([0, 4, 6, 8, 11, 13, 15, 19]); // six error panels and four track panels, evenly
    expect(runs.every((r) => r.spec.traces === true || r.spec.traces === false)).toBe(true);
  });

  it('one run per trajectory when the sweep varies it', () => {
    const { runs } = planExperiment({
      sweep: { trajectory: [{ type: 'circle' }, { type: 'missile' }, { type: 'tank-road-course' }], ...sweep },
    });
    const tracedTrajectories = new Set(runs.filter((r) => r.spec.traces).map((r) => r.spec.trajectory.type));
    expect([...tracedTrajectories].sort()).toEqual(['circle', 'missile', 'tank-road-course']);
  });

  it('true keeps them for every run, false for none', () => {
    expect(planExperiment({ sweep, traces: true }).runs.every((r) => r.spec.traces)).toBe(true);
    expect(planExperiment({ sweep, traces: false }).runs.some((r) => r.spec.traces)).toBe(false);
  });
});
