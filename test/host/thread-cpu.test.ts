// The scheduler's account of the main thread (/proc/thread-self/schedstat): shares of a span of wall time.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { threadCpuShares } from '../../src/host/thread-cpu.js';
import { ROOT } from '../support/binary.js';

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
    // In a process of its own: a test worker's process may have other threads busy, from files run before.
    const script = `
      import { threadCpuShares, threadCpuTimes } from ${JSON.stringify(pathToFileURL(join(ROOT, 'dist/host/thread-cpu.js')).href)};
      const before = threadCpuTimes();
      const processBefore = process.cpuUsage();
      const started = performance.now();
      while (performance.now() - started < 200);
      const after = threadCpuTimes();
      const used = process.cpuUsage(processBefore);
      const shares = threadCpuShares(before, after, (performance.now() - started) / 1000);
      console.log(JSON.stringify({ shares, onCpuSeconds: after.onCpuSeconds - before.onCpuSeconds, processSeconds: (used.user + used.system) / 1e6 }));`;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    const { shares, onCpuSeconds, processSeconds } = JSON.parse(out) as {
      shares: { onCpu: number; waitingForCpu: number };
      onCpuSeconds: number;
      processSeconds: number;
    };
    // The thread's time on a CPU is the process's, less what its other threads (GC, compiling) used meanwhile.
    expect(onCpuSeconds).toBeLessThanOrEqual(processSeconds + 0.005);
    expect(onCpuSeconds).toBeGreaterThanOrEqual(0.75 * processSeconds - 0.005);
    expect(shares.onCpu + shares.waitingForCpu).toBeGreaterThan(0.5);
  });
});
