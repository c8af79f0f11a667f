/** The colours of the reports' charts: one per entity or PDU type, distinct for the first ten, then spread. */

/** `n` colours: Tableau 10, then hues spread by the golden angle. */
export function entityColours(n: number): string[] {
  const base = [
    '#4e79a7',
    '#e15759',
    '#59a14f',
    '#f28e2b',
    '#b07aa1',
    '#76b7b2',
    '#edc948',
    '#ff9da7',
    '#9c755f',
    '#bab0ac',
  ];
  if (n <= base.length) return base.slice(0, n);
  return Array.from({ length: n }, (_, i) =>
    i < base.length ? base[i]! : `hsl(${((i * 137.508) % 360).toFixed(1)},60%,45%)`,
  );
}
