// The experiment report's charts are data (Vega-Lite specs): their encodings are tested as data, and a few are
// rendered to SVG to check what a reader sees (tick labels, tooltips, escaping, size).
import { describe, expect, it } from 'vitest';
import { errorRateSpec, errorWindow, reasonsSpec } from '../../src/experiment/report-charts.js';
import {
  ALGORITHM_COLOURS,
  REASON_COLOURS,
  REASONS,
  categoricalColours,
  colourChannel,
  runEncoding,
} from '../../src/experiment/run-encoding.js';
import { experimentReportHtml, renderVegaLite, tablePresetSections } from '../../src/experiment/report.js';
import { reasonShares, settingsPanel } from '../../src/experiment/report-text.js';
import { runLockstepComparison } from '../../src/experiment/lockstep-comparison.js';
import { runExperiment } from '../../src/experiment/runner.js';
import { PRESETS } from '../../src/experiment/presets.js';
import { planExperiment } from '../../src/experiment/sweep.js';
import { withTitles } from '../../src/report/vega.js';
import { fakeResults, fakeTraces } from './fake-results.js';

const thresholdsPlan = () => planExperiment((PRESETS.thresholds as { spec: unknown }).spec);

describe('run encoding', () => {
  it('colours by algorithm in the standard order, a fixed colour each, shapes by threshold: 15 runs, 15 looks', () => {
    const results = fakeResults(thresholdsPlan(), false);
    const enc = runEncoding(results);
    expect(enc.colourKey).toBe('emitter.algorithm');
    expect(enc.colourDomain).toEqual(['FPW', 'RVW', 'FVW']);
    expect(enc.colourRange).toEqual([ALGORITHM_COLOURS.FPW, ALGORITHM_COLOURS.RVW, ALGORITHM_COLOURS.FVW]);
    expect(enc.pointDomain).toEqual(['0.25 m', '0.5 m', '1 m', '2 m', '4 m']);
    const looks = results.map(
      (r) =>
        `${enc.colourRange[enc.colourDomain.indexOf(enc.series(r))]}/` +
        `${enc.shapeRange![enc.pointDomain.indexOf(enc.point(r))]}`,
    );
    expect(new Set(looks).size).toBe(15);
  });

  it('gives an algorithm the same colour whatever else the report holds, by name or number', () => {
    const one = runEncoding(fakeResults(planExperiment({ sweep: { 'emitter.algorithm': ['RVW'] } }), false));
    const numbers = runEncoding(fakeResults(planExperiment({ sweep: { 'emitter.algorithm': [9, 4] } }), false));
    expect(one.colourRange).toEqual([ALGORITHM_COLOURS.RVW]);
    expect(numbers.colourDomain).toEqual(['RVW', 'FVB']);
    expect(numbers.colourRange).toEqual([ALGORITHM_COLOURS.RVW, ALGORITHM_COLOURS.FVB]);
  });

  it('gives 15 values of one swept setting 15 distinct colours, in sweep order', () => {
    const thresholds = Array.from({ length: 15 }, (_, i) => `${i + 1} m`);
    const enc = runEncoding(fakeResults(planExperiment({ sweep: { 'emitter.positionThreshold': thresholds } }), false));
    expect(enc.colourDomain).toEqual(thresholds);
    expect(new Set(enc.colourRange).size).toBe(15);
  });

  it('keeps distinct colours and the legend above 24 runs', () => {
    for (const n of [21, 30, 60, 100]) expect(new Set(categoricalColours(n)).size).toBe(n);
    const values = Array.from({ length: 30 }, (_, i) => `${(i + 1) / 10} m`);
    const enc = runEncoding(fakeResults(planExperiment({ sweep: { 'emitter.positionThreshold': values } }), false));
    const channel = colourChannel(enc);
    expect(channel.legend).not.toBeNull();
    expect((channel.scale as { domain: string[] }).domain).toHaveLength(30);
  });

  it('colours PDU reasons the same in every report, whichever reasons occur', () => {
    const results = fakeResults(planExperiment({ sweep: { 'emitter.algorithm': ['FPW'] } }), false);
    const spec = reasonsSpec(results, runEncoding(results)) as {
      encoding: { color: { scale: { domain: string[]; range: string[] } } };
    };
    expect(spec.encoding.color.scale.domain).toEqual(['first', 'position', 'orientation', 'heartbeat', 'change']);
    expect(spec.encoding.color.scale.range).toEqual(REASONS.map((r) => REASON_COLOURS[r]));
    expect(reasonShares(results)).toMatch(/^Over all runs: orientation \d+ %, (position|heartbeat) \d+ %/);
  });
});

describe('error against rate', () => {
  it('draws the Pareto front only when every run flew the same trajectory', () => {
    const plan = thresholdsPlan();
    const same = fakeResults(plan, false);
    const layers = (results: typeof same) =>
      (errorRateSpec(results, runEncoding(results)) as { layer: Array<{ mark: { strokeDash?: unknown } }> }).layer;
    expect(layers(same).some((l) => l.mark.strokeDash)).toBe(true);
    let n = 0;
    const mixed = fakeResults(plan, false, () => (n++ % 2 ? 'circle' : 'missile'));
    expect(layers(mixed).some((l) => l.mark.strokeDash)).toBe(false);
  });

  it('gives a one-run chart readable axes, and every point a tooltip', async () => {
    const results = fakeResults(planExperiment({}), false);
    const svg = await renderVegaLite(errorRateSpec(results, runEncoding(results)));
    const axisLabels = [...svg.matchAll(/role-axis-label[\s\S]*?<\/g>/g)].map(
      (m) => (m[0].match(/<text/g) ?? []).length,
    );
    expect(axisLabels).toHaveLength(2);
    for (const n of axisLabels) expect(n).toBeGreaterThanOrEqual(3);
    expect(svg).toContain(
      '<title>experiment: 0.167 PDUs/s, 28.7 bytes/s; position error RMS 0.2 m, p95 0.36 m, max 0.6 m</title>',
    );
  });

  it('turns aria labels into titles without letting their text out', () => {
    const svg = '<g><path aria-label="run: &lt;/svg&gt;&lt;script&gt;" role="graphics-symbol" d="M0,0"/></g>';
    expect(withTitles(svg)).toBe(
      '<g><path role="graphics-symbol" d="M0,0"><title>run: &lt;/svg&gt;&lt;script&gt;</title></path></g>',
    );
  });
});

describe('error over time', () => {
  it('picks the 10 s window where the displayed error varies most', () => {
    const traces = fakeTraces(0);
    const positionError = traces.errorTime.map((t) => (t >= 41 && t <= 44 ? 5 : 0.3));
    const result = { ...fakeResults(planExperiment({}), false)[0]!, traces: { ...traces, positionError } };
    const [t0, t1] = errorWindow([result]);
    expect(t1 - t0).toBe(10);
    expect(t0).toBeLessThanOrEqual(41);
    expect(t1).toBeGreaterThanOrEqual(44);
  });

  it('records the dead-reckoning error apart from what the network adds: within the threshold, below', async () => {
    const { runs } = planExperiment({
      trajectory: { type: 'circle', orbits: 0.5 },
      network: 'wan',
      emitter: { algorithm: 'FPW', positionThreshold: '1 m' },
      traces: true,
    });
    const t = (await runExperiment(runs[0]!.spec)).traces!;
    const dr = t.deadReckoningError.filter(Number.isFinite);
    expect(dr.length).toBeGreaterThan(1500); // half an orbit: 31 s of 60 Hz frames
    // The owner checks the threshold at each 60 Hz sample: 100 m/s moves 1.7 m between samples, and the
    // error grows quadratically on the circle, so it stays within a few cm of 1 m.
    expect(Math.max(...dr)).toBeLessThan(1.1);
    const mean = (a: number[]) => a.reduce((s, v) => s + v, 0) / a.length;
    // 40 ms of WAN latency at 100 m/s: about 4 m more.
    expect(mean(t.positionError.filter((_, i) => Number.isFinite(t.deadReckoningError[i])))).toBeGreaterThan(
      mean(dr) + 2,
    );
  });
});

describe('report page', () => {
  it('lists the settings, the sweep and the defaults in the settings panel', () => {
    const panel = Object.fromEntries(settingsPanel(thresholdsPlan()));
    expect(panel).toMatchObject({
      runs: '15 (5 emitter.positionThreshold × 3 emitter.algorithm)',
      trajectory: 'tank-road-course',
      'emitter.algorithm': 'swept: FPW, FVW, RVW',
      'emitter.positionThreshold': 'swept: 0.25 m, 0.5 m, 1 m, 2 m, 4 m',
      'emitter.orientationThreshold': '3.00°',
      'emitter.heartbeat': '5 s',
      network: 'wan',
      smoothing: 'linear, 0.5 s, snap beyond 100 m',
      sampleRateHz: '60 Hz',
      renderRateHz: '60 Hz',
      seed: '1',
    });
  });

  it('shows a swept trajectory by name in the settings and once in the table', async () => {
    const plan = planExperiment((PRESETS.vehicles as { spec: unknown }).spec);
    expect(Object.fromEntries(settingsPanel(plan)).trajectory).toBe(
      'swept: circle, aircraft-orbit (orbits=1), ellipse, figure-8, missile, straight-line, tank-road-course, ' +
        'ship-turning-circles',
    );
    const html = await experimentReportHtml('vehicles', fakeResults(plan, false), { plan });
    const header = html.slice(html.indexOf('<h2>Results</h2>')).match(/<tr><th>#<\/th>.*?<\/tr>/)![0];
    expect(header.match(/<th>trajectory<\/th>/g)).toHaveLength(1);
  });

  it('says when the results are partial', async () => {
    const plan = thresholdsPlan();
    const html = await experimentReportHtml('thresholds', fakeResults(plan, false).slice(0, 4), {
      plan,
      partial: { runsPlanned: 15, reason: 'interrupted by SIGINT' },
    });
    expect(html).toContain('Partial results: the experiment stopped (interrupted by SIGINT) after 4 of 15 runs');
    expect(html).toContain('<title>thresholds (partial)');
  });

  it('escapes text from the spec in charts, tooltips and tables', async () => {
    // A name may not hold '/' (it names the results folder), so no closing tags; opening ones are enough to test.
    const hostile = '<svg onload=alert(0)><script>alert(1)<img src=x onerror=alert(2)>';
    const plan = planExperiment({ name: hostile, sweep: { name: [hostile, 'b"&'] }, traces: true });
    const html = await experimentReportHtml(hostile, fakeResults(plan), { plan });
    expect(html).not.toMatch(/<script|<img/i);
    expect((html.match(/<svg/g) ?? []).length).toBe((html.match(/<\/svg>/g) ?? []).length);
    expect(html).toContain('&lt;svg onload=alert(0)&gt;&lt;script&gt;');
  });

  it('draws error over time and tracks for a spec that does not mention traces; says how to get them when off', async () => {
    const spec = {
      trajectory: { type: 'circle', orbits: 0.2 },
      sweep: { 'emitter.positionThreshold': ['1 m', '3 m'] },
    };
    const run = async (input: object) => {
      const plan = planExperiment(input);
      const results = await Promise.all(plan.runs.map((r) => runExperiment(r.spec, undefined, r.index, r.settings)));
      return experimentReportHtml('traces', results, { plan });
    };
    const drawn = await run(spec);
    expect(drawn).toContain('<h2>Displayed position error over time</h2>');
    expect(drawn).toContain('<h2>Tracks and PDUs sent</h2>');
    const off = await run({ ...spec, traces: false });
    expect(off).not.toContain('<h2>Tracks and PDUs sent</h2>');
    expect(off).toMatch(/<h2>Error over time and tracks<\/h2>\n<p>Not drawn: .*"traces": false.*--set traces=true/);
  });

  it('stays under 1 MB for a 1,000-run sweep with traces', async () => {
    const plan = planExperiment({
      sweep: {
        'emitter.algorithm': ['FPW', 'RPW', 'RVW', 'FVW', 'FPB', 'RPB', 'RVB', 'FVB', 'static', 'auto'],
        'emitter.positionThreshold': Array.from({ length: 100 }, (_, i) => `${(i + 1) / 20} m`),
      },
      traces: true,
    });
    expect(plan.runs).toHaveLength(1000);
    const html = await experimentReportHtml('large', fakeResults(plan), { plan });
    expect(Buffer.byteLength(html)).toBeLessThan(1_000_000);
    expect(html).toContain('Pareto-optimal runs');
  }, 60_000);

  it('stays under 1 MB for a 1,000-run sweep over eight trajectories, with a track panel for each', async () => {
    const trajectories = [
      'circle',
      'aircraft-orbit',
      'ellipse',
      'figure-8',
      'missile',
      'straight-line',
      'tank-road-course',
      'ship-turning-circles',
    ];
    const plan = planExperiment({
      sweep: {
        trajectory: trajectories.map((type) => ({ type })),
        'emitter.positionThreshold': Array.from({ length: 125 }, (_, i) => `${(i + 1) / 25} m`),
      },
      traces: true,
    });
    let n = 0;
    const html = await experimentReportHtml(
      'vehicles',
      fakeResults(plan, true, () => trajectories[Math.floor(n++ / 125)]!),
      { plan },
    );
    expect(Buffer.byteLength(html)).toBeLessThan(1_000_000);
    expect(html).toContain('One run per trajectory.');
    expect(html).toContain('no Pareto front: the runs fly different trajectories');
    const tracks = html.slice(html.indexOf('<h2>Tracks and PDUs sent</h2>'));
    for (const type of trajectories) expect(tracks).toContain(`trajectory=${type} · positionThreshold=0.04 m`);
  }, 60_000);
});

describe('lockstep-vs-tcp report', () => {
  it('charts hitches and stalls by transport and explains the 1-byte TCP payload', async () => {
    const rows = runLockstepComparison({ durationSeconds: 10 });
    const sections = await tablePresetSections(rows as unknown as Array<Record<string, unknown>>);
    expect(sections.map((s) => s.title)).toEqual(['Hitches and stalls by transport', 'Results']);
    expect(sections[0]!.html).toMatch(/^<svg/);
    expect(sections[0]!.html).toContain('hitches per minute');
    expect(sections[1]!.html).toContain('<th>largest payload (bytes)</th>');
    expect(sections[1]!.caption).toContain('TCP sends one 1-byte input per segment');
  });
});
