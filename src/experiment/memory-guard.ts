/**
 * Stops a sweep before it runs out of memory: past a share of the heap limit, the sweep is stopped like an
 * interrupted one, and the runs finished so far are written (marked partial) instead of lost to an abort.
 */
import { getHeapStatistics } from 'node:v8';

/** Share of the heap limit in use past which a sweep stops. */
export const MEMORY_LIMITS = { heapFraction: 0.8 };

/** Why the sweep should stop now, or undefined while the heap has room. */
export function memoryShortReason(): string | undefined {
  const { used_heap_size: used, heap_size_limit: limit } = getHeapStatistics();
  if (used <= MEMORY_LIMITS.heapFraction * limit) return undefined;
  const mib = (bytes: number) => `${Math.round(bytes / 2 ** 20)} MiB`;
  return `memory running short: ${mib(used)} of the ${mib(limit)} heap in use`;
}
