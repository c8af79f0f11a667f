/**
 * The smallest and largest of `values`, skipping NaN; `[NaN, NaN]` when none is a number. A loop, not
 * `Math.min(...values)`: spreading more than ~100 000 values into a call overflows V8's stack.
 */
export function extent(values: ArrayLike<number>): [min: number, max: number] {
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  return min <= max ? [min, max] : [Number.NaN, Number.NaN];
}
