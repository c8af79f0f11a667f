// The scheduler's account of the main thread (/proc/thread-self/schedstat): shares of a span of wall time.
import { describe, expect, it } from 'vitest';
import { threadCpuShares, threadCpuTimes } from '../../src/cli/thread-cpu.js';

describe('threadCpuShares', () => {
  it('splits a span into time on a CPU, waiting for one, and idle', () => {
    const start = { onCpuSeconds: 10, waitingSeconds: 5 };
    expect(threadCpuShares(start, { onCpuSeconds: 13, waitingSeconds: 11 }, 10)).toEqual({
      onCpu: 0.3,
      waitingForCpu: 0.6,
      idle: 0.1,
    });
    // Readings a little past the span (they are not taken at its very ends) stay within it.
    expect(threadCpuShares(start, { onCpuSeconds: 21, waitingSeconds: 5 }, 10)).toEqual({
      onCpu: 1,
      waitingForCpu: 0,
      idle: 0,
    });
    expect(threadCpuShares(null, start, 10)).toBeNull();
    expect(threadCpuShares(start, start, 0)).toBeNull();
  });

  it.runIf(process.platform === 'linux')('reads this thread: a busy second is spent on a CPU or waiting', () => {
    const before = threadCpuTimes()!;
    const started = performance.now();
    while (performance.now() - started < 200);
    const shares = threadCpuShares(before, threadCpuTimes(), (performance.now() - started) / 1000)!;
    expect(shares.onCpu + shares.waitingForCpu).toBeGreaterThan(0.9);
  });
});
