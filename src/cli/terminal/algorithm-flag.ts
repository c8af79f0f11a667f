import { DR_ALGORITHM_NAMES } from '../../dr/models/algorithm.js';
import type { UsageProblem } from '../command.js';

/** DR algorithm names 1–9 as the `--algorithm` flag takes them: SISO's short names, without 0 (other). */
export const ALGORITHM_FLAG_NAMES: readonly string[] = DR_ALGORITHM_NAMES.slice(1);

/** Reads `--algorithm`: `auto`, a number 1–9 or a name such as `RVW`; adds a problem otherwise. Defaults to auto. */
export function algorithmFlag(text: string | undefined, problems: UsageProblem[]): number | 'auto' {
  if (text === undefined || text.toLowerCase() === 'auto') return 'auto';
  const byName = ALGORITHM_FLAG_NAMES.findIndex((name) => name.toLowerCase() === text.toLowerCase());
  if (byName >= 0) return byName + 1;
  const n = Number(text);
  if (Number.isInteger(n) && n >= 1 && n <= 9) return n;
  problems.push({
    path: '--algorithm',
    message: `expected auto, 1–9 or one of ${ALGORITHM_FLAG_NAMES.join(', ')}; got "${text}"`,
  });
  return 'auto';
}
