/**
 * A small threshold sweep, programmatically: a tank on its road course sent with RPW and RVW at four position
 * thresholds over a WAN, printed as a table (PDUs per second against the error receivers see).
 *
 *   npx tsx examples/threshold-sweep.ts [outDir]
 */
import { planExperiment, runSweep, toTextTable, writeExperimentOutputs } from '../src/experiment/index.js';

const spec = {
  name: 'tank-thresholds',
  trajectory: { type: 'tank-road-course' },
  durationSeconds: '3 min',
  sampleRateHz: '30 Hz',
  network: 'wan',
  sweep: {
    'emitter.algorithm': ['RPW', 'RVW'],
    'emitter.positionThreshold': ['0.5 m', '1 m', '2 m', '4 m'],
  },
};

const plan = planExperiment(spec);
const results = await runSweep(plan, {
  onProgress: (done, total) => process.stderr.write(`\r${done}/${total} runs`),
});
process.stderr.write('\n');
process.stdout.write(toTextTable(results));

// The cheapest run whose 95th-percentile error stays under 2 m.
const best = results
  .filter((r) => r.metrics.positionError.p95 < 2)
  .sort((a, b) => a.metrics.pdusPerSecond - b.metrics.pdusPerSecond)[0];
if (best) {
  const { pdusPerSecond, positionError } = best.metrics;
  process.stdout.write(
    `cheapest under 2 m p95: ${JSON.stringify(best.settings)} at ${pdusPerSecond.toFixed(2)} PDU/s (p95 ${positionError.p95.toFixed(2)} m)\n`,
  );
}

const outDir = process.argv[2];
if (outDir)
  process.stdout.write(`wrote ${(await writeExperimentOutputs(outDir, spec.name, spec, results)).join(', ')}\n`);
