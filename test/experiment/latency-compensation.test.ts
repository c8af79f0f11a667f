// An experiment's receiver times each PDU as the live receiver's `receiver.latencyCompensation` says: from its
// arrival (the default, as `reckon subscribe`), or from the absolute timestamp it was sent with.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runExperiment } from '../../src/experiment/runner.js';
import { planExperiment } from '../../src/experiment/sweep.js';
import { cli } from '../support/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'reckon-latency-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A 150 m/s aircraft flying straight over the WAN profile (40 ms ± 5 ms, 0.5 % loss), 1 m threshold. */
const WAN_FLIGHT = {
  trajectory: { type: 'straight-line', speed: '150 m/s', headingRad: 0.3 },
  durationSeconds: 30,
  network: 'wan',
  emitter: { algorithm: 'FPW', positionThreshold: '1 m' },
  smoothing: { method: 'snap' },
};

const runSpec = (input: unknown) => planExperiment(input).runs[0]!.spec;

describe('latency compensation in an experiment', () => {
  it('defaults to arrival: the aircraft is shown where it was 40 ms ago, about 6 m behind', async () => {
    const spec = runSpec(WAN_FLIGHT);
    expect(spec.latencyCompensation).toBe('arrival');
    const { metrics } = await runExperiment(spec);
    // 150 m/s × 40 ms = 6 m behind, every sample but the 5 ms of jitter either side.
    expect(metrics.positionError.mean).toBeGreaterThan(5);
    expect(metrics.positionError.mean).toBeLessThan(7);
    expect(metrics.shareAboveThreshold).toBeGreaterThan(0.95);
  });

  it('from the timestamp, dead-reckons from the time of sending: the latency leaves the error', async () => {
    const { metrics } = await runExperiment(runSpec({ ...WAN_FLIGHT, latencyCompensation: 'timestamp' }));
    // A straight line under FPW: only what the emitter's samples and a lost PDU leave.
    expect(metrics.positionError.mean).toBeLessThan(0.1);
    expect(metrics.shareAboveThreshold).toBeLessThan(0.02);
  });

  it('is set for every run by --latency-compensation, and a wrong value is a usage problem', async () => {
    const args = ['experiment', '--preset', 'circle', '--set', 'network=wan', '--set', 'trajectory.orbits=1'];
    const arrival = await cli(...args, '--json', '--out', join(dir, 'arrival'));
    const timestamp = await cli(...args, '--latency-compensation', 'timestamp', '--json', '--out', join(dir, 'ts'));
    expect(arrival.code, arrival.stderr).toBe(0);
    expect(timestamp.code, timestamp.stderr).toBe(0);
    const mean = (stdout: string) =>
      (JSON.parse(stdout) as { runs: Array<{ metrics: { positionError: { mean: number } } }> }).runs[0]!.metrics
        .positionError.mean;
    expect(mean(timestamp.stdout)).toBeLessThan(mean(arrival.stdout) / 2);
    const wrong = await cli(...args, '--latency-compensation', 'never');
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(/latencyCompensation/);
  });
});
