// Sizes are checked before anything is allocated or run: a value past its limit is a usage error (exit 2) that
// names the setting and the limit, never an internal error such as "Invalid typed array length" (exit 1).
import { describe, expect, it } from 'vitest';
import { cli } from '../support/cli.js';
import { MAX_RUN_STEPS, runExperiment } from '../../src/experiment/runner.js';
import { MAX_SWEEP_RUNS, planExperiment } from '../../src/experiment/sweep.js';
import { TIME_SCALE_RANGE } from '../../src/cli/time-scale.js';
import { MAX_ADAPTIVE_TRAVEL_SECONDS, MAX_TIMEOUT_MULTIPLIER } from '../../src/config/schema.js';
import { ROOT } from '../support/binary.js';

const CAPTURE = `${ROOT}test/fixtures/dis/dis7_vrforces_gaz69_90deg_turn.pcap`;

describe('limits are usage errors with the limit in the message', () => {
  it('subscribe --max-entities and --receive-buffer-size past their limits', async () => {
    const { code, stderr } = await cli(
      'subscribe',
      '--max-entities',
      '1000000000',
      '--receive-buffer-size',
      '99999999999',
      '--duration',
      '1',
    );
    expect(code).toBe(2);
    expect(stderr).toContain('receiver.maxEntities (from --max-entities): at most 1000000 entities');
    expect(stderr).toContain('network.receiveBufferSize (from --receive-buffer-size): at most 1073741824 bytes');
    expect(stderr).not.toMatch(/Invalid typed array length|must be a positive integer/);
  });

  it.each(['1e9', '100000'])(
    'experiment --set trajectory.orbits=%s is too large to simulate, said before it runs',
    async (orbits) => {
      const { code, stderr, stdout } = await cli(
        'experiment',
        '--preset',
        'circle',
        '--set',
        `trajectory.orbits=${orbits}`,
        '--out',
        '/nonexistent/never-written',
      );
      expect(code).toBe(2);
      expect(stdout).toBe('');
      expect(stderr).toMatch(
        new RegExp(`trajectory\\.orbits: .* steps; a run holds at most ${MAX_RUN_STEPS} \\(19\\.4 h at 60 Hz\\)`),
      );
      expect(stderr).not.toMatch(/Invalid typed array length/);
    },
  );

  it('durationSeconds is named when it sets the length, and the render rate when it is the larger', async () => {
    const { code, stderr } = await cli(
      'experiment',
      '--preset',
      'circle',
      '--set',
      'durationSeconds=100 h',
      '--set',
      'sampleRateHz=1',
      '--set',
      'renderRateHz=60',
      '--out',
      '/nonexistent/x',
    );
    expect(code).toBe(2);
    expect(stderr).toMatch(/durationSeconds: 3\.600e\+5 s of simulated time at 60 Hz \(renderRateHz\)/);
  });

  it('a sweep of more than MAX_SWEEP_RUNS runs, and --parallel past 256, are refused before planning them', async () => {
    const values = (n: number) => Array.from({ length: n }, (_, i) => i + 1);
    const sweep = JSON.stringify({ seed: values(400), 'emitter.heartbeat': values(300) });
    const big = await cli('experiment', '--preset', 'circle', '--set', `sweep=${sweep}`, '--out', '/nonexistent/x');
    expect(big.code).toBe(2);
    expect(big.stderr).toContain(
      `sweep: crosses 400 (seed) × 300 (emitter.heartbeat) = 120000 runs; at most ${MAX_SWEEP_RUNS}`,
    );
    const threads = await cli('experiment', '--preset', 'circle', '--parallel', '100000', '--out', '/nonexistent/x');
    expect(threads.code).toBe(2);
    expect(threads.stderr).toContain('--parallel: expected a whole number of worker threads from 1 to 256');
  });

  // replay --speed 1e-300 was taken and then waited about 1e299 s for its second datagram.
  it.each(['1e-300', '0.0009', '1001', '1e300', '-1', 'Infinity', 'NaN', ''])(
    'replay and publish --speed %j: a time scale outside 0.001–1000 is refused naming the flag',
    async (speed) => {
      const { min, max } = TIME_SCALE_RANGE;
      const replay = await cli('replay', CAPTURE, '--to', '127.0.0.1:9', '--speed', speed);
      expect(replay.code).toBe(2);
      expect(replay.stderr).toContain(
        `reckon replay: --speed: expected a time scale from ${min} to ${max} (2 = twice as fast, 0.5 = half speed), ` +
          `or 0 for as fast as possible; got "${speed}"`,
      );
      const publish = await cli('publish', '--speed', speed, '--duration', '0.1');
      expect(publish.code).toBe(2);
      expect(publish.stderr).toContain(`reckon publish: --speed: expected a time scale from ${min} to ${max}`);
    },
  );

  it('publish --speed 0 is refused (a track cannot stand still); the ends of the range are taken', async () => {
    expect((await cli('publish', '--speed', '0', '--duration', '0.1')).stderr).toContain('--speed: expected');
    for (const speed of ['0.001', '1000']) {
      const run = await cli('publish', '--speed', speed, '--duration', '0.1', '--port', '9');
      expect(run.stderr).not.toContain('--speed');
    }
  });

  it('heartbeat.timeoutMultiplier and emitter.adaptiveTravelTime past their bounds, from flags', async () => {
    const multiplier = await cli('subscribe', '--timeout-multiplier', '1e300', '--duration', '0.1');
    expect(multiplier.code).toBe(2);
    expect(multiplier.stderr).toContain(
      `heartbeat.timeoutMultiplier (from --timeout-multiplier): Too big: expected number to be <=${MAX_TIMEOUT_MULTIPLIER}`,
    );
    const travel = await cli('publish', '--adaptive-travel-time', '1 h', '--duration', '0.1');
    expect(travel.code).toBe(2);
    expect(travel.stderr).toContain(
      `emitter.adaptiveTravelTime (from --adaptive-travel-time): must be at most ${MAX_ADAPTIVE_TRAVEL_SECONDS} s`,
    );
    const taken = await cli('subscribe', '--timeout-multiplier', String(MAX_TIMEOUT_MULTIPLIER), '--duration', '0.1');
    expect(taken.code).toBe(0);
  });

  it('runExperiment refuses a run past the limit before allocating it', async () => {
    const { runs } = planExperiment({ trajectory: { type: 'circle', orbits: 1e9 } });
    await expect(runExperiment(runs[0]!.spec)).rejects.toThrow(/run too large: .* at most 4194304/);
  });
});
