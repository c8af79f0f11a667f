// runSweep with an AbortSignal: aborted in the middle of a long run, in this thread and on worker threads, it
// rejects with the runs already finished. (The CLI's signal handling is tested end to end in signals.test.ts.)
import { describe, expect, it } from 'vitest';
import { RunAbortedError, runExperiment } from '../../src/experiment/runner.js';
import { SweepAbortedError, runSweep } from '../../src/experiment/sweep-runner.js';
import { planExperiment } from '../../src/experiment/sweep.js';

describe('runSweep aborted', () => {
  it.each([1, 2])('on %i thread(s): stops mid-run and keeps the finished run', async (parallel) => {
    // A short run, then 1000 orbits (3.8 million steps): the abort comes while the long one runs.
    const plan = planExperiment({
      trajectory: { type: 'circle', orbits: 0.5 },
      sweep: { 'trajectory.orbits': [0.5, 1000] },
    });
    const controller = new AbortController();
    // Aborted from a timer: it fires only if the long run gives the event loop a turn (or runs on a worker).
    const onProgress = () => void setTimeout(() => controller.abort('test'), 20);
    const sweep = runSweep(plan, { parallel, signal: controller.signal, onProgress });
    const error = await sweep.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(SweepAbortedError);
    const aborted = error as SweepAbortedError;
    expect(aborted.planned).toBe(2);
    expect(aborted.reason).toBe('test');
    expect(aborted.finished.map((r) => r.settings)).toEqual([{ 'trajectory.orbits': 0.5 }]);
  });

  it('runExperiment with an aborted signal rejects with RunAbortedError', async () => {
    const { runs } = planExperiment({ trajectory: { type: 'circle', orbits: 0.1 } });
    await expect(runExperiment(runs[0]!.spec, undefined, 0, {}, AbortSignal.abort())).rejects.toThrow(RunAbortedError);
  });
});
