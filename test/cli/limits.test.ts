// Sizes are checked before anything is allocated or run: a value past its limit is a usage error (exit 2) that
// names the setting and the limit, never an internal error such as "Invalid typed array length" (exit 1).
import { describe, expect, it } from 'vitest';
import { cli } from '../support/cli.js';
import { MAX_RUN_STEPS, runExperiment } from '../../src/experiment/runner.js';
import { MAX_SWEEP_RUNS, planExperiment } from '../../src/experiment/sweep.js';

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

  it('runExperiment refuses a run past the limit before allocating it', async () => {
    const { runs } = planExperiment({ trajectory: { type: 'circle', orbits: 1e9 } });
    await expect(runExperiment(runs[0]!.spec)).rejects.toThrow(/run too large: .* at most 4194304/);
  });
});
