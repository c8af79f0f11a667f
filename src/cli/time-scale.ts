/**
 * `--speed X`, the time scale of `replay` (a capture's or a stream's timing) and `publish` (recorded tracks): within
 * a range where the result still means something. `replay --speed 1e-300` was taken and then waited 1e299 s for its
 * second datagram; a thousandth of real time (an hour's capture over 41 days) is already past any use, and beyond
 * a thousand times a replay is as fast as the sender can go (`--speed 0` says so).
 */
import type { FlagValues, UsageProblem } from './command.js';
import { stringFlag } from './args.js';

/** Slowest and fastest time scale a command takes. */
export const TIME_SCALE_RANGE = { min: 0.001, max: 1000 } as const;

/**
 * Reads a time-scale flag: a number from TIME_SCALE_RANGE.min to .max, or 0 ("as fast as possible") where
 * `zeroIsFastest`; a problem naming the flag and the range otherwise.
 * @returns the scale, 1 when the flag is absent or invalid.
 */
export function timeScaleFlag(
  flags: FlagValues,
  name: string,
  problems: UsageProblem[],
  options: { readonly zeroIsFastest?: boolean } = {},
): number {
  const text = stringFlag(flags, name);
  if (text === undefined) return 1;
  const scale = Number(text);
  const { min, max } = TIME_SCALE_RANGE;
  const inRange = scale >= min && scale <= max;
  if (text.trim() !== '' && (inRange || (options.zeroIsFastest === true && scale === 0))) return scale;
  const zero = options.zeroIsFastest ? ', or 0 for as fast as possible' : '';
  problems.push({
    path: `--${name}`,
    message: `expected a time scale from ${min} to ${max} (2 = twice as fast, 0.5 = half speed)${zero}; got "${text}"`,
  });
  return 1;
}
