// The report of a sweep far larger than can be drawn run by run stays readable: a 100 000-run sweep of one setting
// wrote a 155 MB report over 517 s (a bar per swept value in the reasons chart, each found by a scan of every run;
// a point per run in the error-against-rate chart; every value in the settings panel). Past the bounds the charts
// aggregate and say so; here with 5 000 runs of one axis, every run a colour of its own.
import { describe, expect, it } from 'vitest';
import { MAX_REASON_BARS, reasonsSpec } from '../../src/experiment/report-charts.js';
import { DENSITY_CELLS, MAX_DRAWN_RUNS, errorRateDensitySpec } from '../../src/experiment/report-density.js';
import { experimentReportHtml } from '../../src/experiment/report.js';
import { runEncoding } from '../../src/experiment/run-encoding.js';
import { planExperiment } from '../../src/experiment/sweep.js';
import { fakeResults } from './fake-results.js';

const RUNS = 5000;
const plan = planExperiment({
  durationSeconds: 1,
  sweep: { 'emitter.positionThreshold': Array.from({ length: RUNS }, (_, i) => (i + 1) / 1000) },
});
const results = fakeResults(plan, false);

describe(`the report of a ${RUNS}-run sweep of one setting`, () => {
  it('groups the reasons chart into bars of neighbouring values, each the mean of its runs', () => {
    const rows = (reasonsSpec(results, runEncoding(results)) as { data: { values: Array<{ label: string }> } }).data
      .values;
    const bars = [...new Set(rows.map((r) => r.label))];
    expect(bars).toHaveLength(MAX_REASON_BARS);
    // 5 000 values in 30 bars: 167 or 166 values each, in sweep order.
    expect(bars[0]).toBe('0.001 … 0.167 (mean of 167)');
    expect(bars.at(-1)).toBe('4.835 … 5 (mean of 166)');
  });

  it('counts the runs per cell of the error-against-rate chart: at most the grid, every run counted', () => {
    const spec = errorRateDensitySpec(results) as { layer: Array<{ data?: { values: Array<{ runs?: number }> } }> };
    const cells = spec.layer[0]!.data!.values;
    expect(cells.length).toBeLessThanOrEqual(DENSITY_CELLS.columns * DENSITY_CELLS.rows);
    expect(cells.reduce((n, c) => n + c.runs!, 0)).toBe(RUNS);
  });

  it('is a page under 1 MB that says what it aggregated', async () => {
    const html = await experimentReportHtml('large', results, { plan });
    expect(Buffer.byteLength(html)).toBeLessThan(1_000_000);
    expect(MAX_DRAWN_RUNS).toBe(1000);
    expect(html).toContain('5 000 runs are more than the 1 000 this chart draws one by one');
    expect(html).toContain(
      `The 5 000 values of emitter.positionThreshold are grouped, in sweep order, into ${MAX_REASON_BARS} bars`,
    );
    expect(html).toContain(
      'swept: 0.001, 0.002, 0.003, 0.004, 0.005, 0.006, …, 4.995, 4.996, 4.997, 4.998, 4.999, 5 (5 000 values)',
    );
  }, 60_000);
});
