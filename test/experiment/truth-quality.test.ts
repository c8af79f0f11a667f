// Every run measures the truth it used — largest speed, acceleration and turn rate, what the estimator dropped and
// repaired of a recording — and says so in results.json, results.csv and the report, with a note when the truth
// itself is implausible for its kind (its errors would measure the truth's artefacts).
import { describe, expect, it } from 'vitest';
import { RunContext, runExperiment, simulate } from '../../src/experiment/runner.js';
import { experimentReportHtml, resultsJson } from '../../src/experiment/report.js';
import { toCsv } from '../../src/experiment/results-table.js';
import { planExperiment } from '../../src/experiment/sweep.js';
import { circle, type Trajectory } from '../../src/truth/index.js';
import { implausibleTruth } from '../../src/truth/truth-quality.js';

const runSpec = (input: unknown) => planExperiment(input).runs[0]!.spec;
const fixture = (path: string) => new URL(`../fixtures/tracks/${path}`, import.meta.url).pathname;

describe('the truth of a run, measured', () => {
  it('on a circle: its speed v, its acceleration v²/R, its turn rate v/R, nothing dropped', async () => {
    const spec = runSpec({ trajectory: { type: 'circle', speed: '100 m/s', radius: '1 km' }, durationSeconds: 30 });
    const result = await runExperiment(spec);
    expect(result.truth.maxSpeedMps).toBeCloseTo(100, 6);
    expect(result.truth.maxAccelerationMps2).toBeCloseTo(10, 2);
    expect(result.truth.maxTurnRateDegPerS).toBeCloseTo((0.1 * 180) / Math.PI, 1);
    expect(result.truth).toMatchObject({ fixesDropped: 0, fixesRepaired: 0 });
    expect(result.notes).toBeUndefined();
    const run = JSON.parse(resultsJson('circle', {}, [result])).runs[0];
    expect(run.truth).toEqual(result.truth);
    const [header, row] = toCsv([result]).split('\n');
    const column = (name: string) => Number(row!.split(',')[header!.split(',').indexOf(name)]);
    expect(column('truth_max_speed_mps')).toBeCloseTo(100, 3);
    expect(column('truth_max_accel_mps2')).toBeCloseTo(10, 1);
  });

  it('on a recording: the fixes its estimator dropped and repaired, and a truth no faster than reported', async () => {
    const file = fixture('aircraft_adsb_noisy_time_issue.json.gz');
    const result = await runExperiment(runSpec({ trajectory: { type: 'recorded', file }, durationSeconds: 600 }));
    // 1888 held positions and 18 outliers not used (test/experiment/runner.test.ts names them).
    expect(result.truth.fixesDropped).toBeGreaterThanOrEqual(1888 + 18);
    expect(result.truth.fixesRepaired).toBeGreaterThan(0);
    expect(result.truth.maxSpeedMps).toBeGreaterThan(100);
    expect(result.truth.maxSpeedMps).toBeLessThan(320);
    expect(result.notes?.some((n) => n.includes('implausible'))).toBe(false);
    const html = await experimentReportHtml('adsb', [result]);
    expect(html).toContain('the truth’s largest speed (m/s)');
    expect(html).toContain(`fixes dropped ${result.truth.fixesDropped}`);
  });

  it('in the report, a column per figure when the runs fly different truths', async () => {
    const results = await Promise.all(
      ['100 m/s', '200 m/s'].map((speed) =>
        runExperiment(runSpec({ trajectory: { type: 'circle', speed, radius: '1 km' }, durationSeconds: 10 })),
      ),
    );
    const html = await experimentReportHtml('circles', results);
    expect(html).toMatch(/>truth</);
    expect(html).toContain('max speed (m/s)');
  });
});

describe('a truth implausible for its kind', () => {
  const quality = {
    maxSpeedMps: 52,
    maxAccelerationMps2: 4,
    maxTurnRateDegPerS: 10,
    fixesDropped: 0,
    fixesRepaired: 0,
  };

  it('is plausible within the kind’s bounds, and names each figure beyond them', () => {
    expect(implausibleTruth('air', quality)).toBeUndefined();
    expect(implausibleTruth('air', { ...quality, maxSpeedMps: 862, maxAccelerationMps2: 2400 })).toBe(
      'the truth itself is implausible for an aircraft: speed 862 m/s (at most 700), acceleration 2400 m/s² ' +
        "(at most 100); its errors measure the truth's artefacts too",
    );
    expect(implausibleTruth('ground', { ...quality, maxTurnRateDegPerS: 5064 })).toMatch(/turn rate 5064°\/s/);
  });

  it('is noted in the run’s result, results.json and the report', async () => {
    // A truth a recording's kind forbids: the run's result carries the note for a recorded trajectory of that kind.
    const fast = circle({ speed: 900, radius: 20_000 });
    const recorded: Trajectory = {
      ...fast,
      name: 'fast',
      recording: { kind: 'air', fixesDropped: 0, fixesRepaired: 0 },
      sample: (t, out) => fast.sample(t, out),
    };
    const spec = runSpec({ trajectory: { type: 'circle', speed: 900, radius: 20_000 }, durationSeconds: 5 });
    const result = simulate(spec, recorded, new RunContext());
    const note = expect.stringMatching(/^the truth itself is implausible for an aircraft: speed 900 m\/s/);
    expect(result.notes).toEqual([note]);
    expect(JSON.parse(resultsJson('fast', {}, [result])).runs[0].notes).toEqual([note]);
    expect(await experimentReportHtml('fast', [result])).toContain('the truth itself is implausible for an aircraft');
  });
});
