/**
 * How the scheduler treated this process's main thread: time on a CPU and time runnable but waiting for one
 * (Linux `/proc/thread-self/schedstat`: run time and run-queue wait in ns, see the kernel's
 * Documentation/scheduler/sched-stats.rst). A loop that falls behind while its thread mostly waits for a CPU is
 * short of CPU, not slow; one that sleeps while behind is slow by its own doing.
 */
import { readFileSync } from 'node:fs';

/** Seconds the calling thread has spent on a CPU and waiting for one since it started. */
export interface ThreadCpuTimes {
  readonly onCpuSeconds: number;
  readonly waitingSeconds: number;
}

/** Shares of a span of wall-clock time: on a CPU, runnable and waiting for one, and the rest (sleeping). */
export interface ThreadCpuShares {
  readonly onCpu: number;
  readonly waitingForCpu: number;
  readonly idle: number;
}

/** The calling thread's times, or null where the kernel does not give them (not Linux, no schedstats). */
export function threadCpuTimes(): ThreadCpuTimes | null {
  let text: string;
  try {
    text = readFileSync('/proc/thread-self/schedstat', 'utf8');
  } catch {
    return null;
  }
  const [run, wait] = text.trim().split(/\s+/).map(Number);
  if (!Number.isFinite(run) || !Number.isFinite(wait)) return null;
  return { onCpuSeconds: run! / 1e9, waitingSeconds: wait! / 1e9 };
}

/** The shares of `wallSeconds` between two readings (rounded to 0.001), or null when either is missing. */
export function threadCpuShares(
  start: ThreadCpuTimes | null,
  end: ThreadCpuTimes | null,
  wallSeconds: number,
): ThreadCpuShares | null {
  if (!start || !end || !(wallSeconds > 0)) return null;
  const share = (seconds: number): number => Math.round(1000 * Math.min(1, Math.max(0, seconds / wallSeconds))) / 1000;
  const onCpu = share(end.onCpuSeconds - start.onCpuSeconds);
  const waitingForCpu = share(end.waitingSeconds - start.waitingSeconds);
  return { onCpu, waitingForCpu, idle: Math.max(0, Math.round(1000 * (1 - onCpu - waitingForCpu)) / 1000) };
}
