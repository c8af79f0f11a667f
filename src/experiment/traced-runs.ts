/**
 * Which runs of a sweep keep traces (error over time, tracks) when the spec leaves `traces` unset: those the
 * report can draw — its error panels and track panels, spread evenly over the sweep, and one run per trajectory —
 * so the report always has its plots while a sweep of thousands of runs keeps a bounded few.
 */

/** Runs whose traces are drawn: at most this many error panels and track panels. */
export const ERROR_PANELS = 6;
export const TRACK_PANELS = 4;
/** Track panels when the sweep varies the trajectory: one per trajectory, up to this many. */
export const TRAJECTORY_PANELS = 8;

/** `n` items spread evenly over `items`, first and last included (all of them when there are no more than `n`). */
export function pickEvenly<T>(items: readonly T[], n: number): T[] {
  if (items.length <= n) return [...items];
  return Array.from({ length: n }, (_, i) => items[Math.round((i * (items.length - 1)) / (n - 1))]!);
}

/** The indices of the runs the report would draw: evenly spread ones, and the first run of each trajectory. */
export function runsToTrace(
  runs: ReadonlyArray<{ readonly index: number; readonly spec: { readonly trajectory: unknown } }>,
): Set<number> {
  const indices = runs.map((r) => r.index);
  const chosen = new Set([...pickEvenly(indices, ERROR_PANELS), ...pickEvenly(indices, TRACK_PANELS)]);
  const firstOfTrajectory = new Map<string, number>();
  for (const run of runs) {
    const key = JSON.stringify(run.spec.trajectory);
    if (!firstOfTrajectory.has(key)) firstOfTrajectory.set(key, run.index);
  }
  if (firstOfTrajectory.size > 1)
    for (const i of pickEvenly([...firstOfTrajectory.values()], TRAJECTORY_PANELS)) chosen.add(i);
  return chosen;
}
