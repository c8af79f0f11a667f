/**
 * Vega-Lite x/y encodings for a plan view in metres east/north, with equal metres per pixel on both axes: a square
 * domain around the points' extent. Shared by the experiment report's track panels and the capture report.
 */

/** A point in metres east (`e`) and north (`n`) of a local origin. */
export interface EastNorth {
  readonly e: number;
  readonly n: number;
}

/**
 * The `x` (east) and `y` (north) encodings of a square view over `points`.
 * @param minSpanMeters - the smallest side of the view, so one point or a parked entity still has a scale.
 * @param margin - the side as a multiple of the larger extent, e.g. 1.06 for 3 % on each side.
 */
export function eastNorthAxes(
  points: readonly EastNorth[],
  minSpanMeters: number,
  margin: number,
): { x: Record<string, unknown>; y: Record<string, unknown> } {
  // A loop, not Math.min(...points): a spread of a long track overflows the call stack.
  let e0 = Number.POSITIVE_INFINITY;
  let e1 = Number.NEGATIVE_INFINITY;
  let n0 = Number.POSITIVE_INFINITY;
  let n1 = Number.NEGATIVE_INFINITY;
  for (const p of points) {
    if (p.e < e0) e0 = p.e;
    if (p.e > e1) e1 = p.e;
    if (p.n < n0) n0 = p.n;
    if (p.n > n1) n1 = p.n;
  }
  if (!(e0 <= e1 && n0 <= n1)) e0 = e1 = n0 = n1 = 0;
  const size = Math.max(e1 - e0, n1 - n0, minSpanMeters) * margin;
  const axis = (field: 'e' | 'n', title: string, center: number) => ({
    field,
    type: 'quantitative',
    title,
    scale: { domain: [center - size / 2, center + size / 2], nice: false },
    axis: { format: ',.4~r' },
  });
  return { x: axis('e', 'east (m)', (e0 + e1) / 2), y: axis('n', 'north (m)', (n0 + n1) / 2) };
}
