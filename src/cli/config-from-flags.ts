/**
 * Configuration for commands: the step that turns parsed flags (declared with `configFlags` from
 * `config-flags.ts`), the environment and `--config FILE` into a validated `Config` (or a `UsageError` listing
 * every problem, which the CLI prints before exiting 2), and readers of commands' own flags. Loads zod: import it
 * inside a command's `run`.
 */
import { UsageError, type FlagValues, type UsageProblem } from './command.js';
import { ConfigError, loadConfig } from '../config/load.js';
import type { Config } from '../config/schema.js';
import { MIN_RATE_HZ, readQuantity } from '../config/units.js';

/**
 * The validated configuration for a command run.
 * @param flags - the parsed flags (those not named after a setting are ignored).
 * @param env - environment variables. Defaults to `process.env`.
 * @throws UsageError with one problem per invalid setting (path, source and an example).
 */
export function configFromFlags(
  flags: FlagValues,
  env: Readonly<Record<string, string | undefined>> = process.env,
): Config {
  try {
    return loadConfig({ flags, env });
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    throw new UsageError(
      error.issues.map((i) => ({ path: i.source ? `${i.path} (from ${i.source})` : i.path, message: i.message })),
    );
  }
}

/**
 * Like `configFromFlags`, but adds the problems to `problems` (so a command can report them together with its own
 * flags' problems) and returns undefined when there are any.
 */
export function configOrProblems(
  flags: FlagValues,
  problems: UsageProblem[],
  env: Readonly<Record<string, string | undefined>> = process.env,
): Config | undefined {
  try {
    return configFromFlags(flags, env);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    problems.push(...error.problems);
    return undefined;
  }
}

/**
 * Reads a duration flag such as `"30 s"`, `"5 min"` or `30` (seconds); a problem is added when it is not one.
 * @returns seconds, or undefined when the flag is absent or invalid.
 */
export function durationFlag(flags: FlagValues, name: string, problems: UsageProblem[]): number | undefined {
  const text = flags[name];
  if (typeof text !== 'string') return undefined;
  const result = readQuantity(text, 'time');
  if (result.ok && result.value > 0 && Number.isFinite(result.value)) return result.value;
  const message = result.ok ? `must be positive and finite, got "${text}"` : result.message;
  problems.push({ path: `--${name}`, message });
  return undefined;
}

/** Reads a flag that must be a whole number ≥ `min`; a problem is added when it is not. */
export function integerFlag(flags: FlagValues, name: string, problems: UsageProblem[], min = 1): number | undefined {
  const text = flags[name];
  if (typeof text !== 'string') return undefined;
  const value = Number(text);
  if (/^\d+$/.test(text.trim()) && value >= min) return value;
  problems.push({ path: `--${name}`, message: `expected a whole number ≥ ${min}, got "${text}"` });
  return undefined;
}

/**
 * Reads a rate flag such as `"30 Hz"`, `"2 kHz"` or `30` (per second); a problem is added when it is not one or is
 * outside [MIN_RATE_HZ, maxHz].
 * @returns hertz, or undefined when the flag is absent or invalid.
 */
export function frequencyFlag(
  flags: FlagValues,
  name: string,
  problems: UsageProblem[],
  maxHz = Infinity,
): number | undefined {
  const text = flags[name];
  if (typeof text !== 'string') return undefined;
  const result = readQuantity(text, 'frequency');
  if (result.ok && result.value >= MIN_RATE_HZ && result.value <= maxHz) return result.value;
  const range = `at least ${MIN_RATE_HZ} Hz${Number.isFinite(maxHz) ? ` and at most ${maxHz} Hz` : ''}`;
  problems.push({ path: `--${name}`, message: result.ok ? `must be ${range}, got "${text}"` : result.message });
  return undefined;
}

/** Reads a UDP port flag (1–65535); a problem is added when it is not one. */
export function portFlag(flags: FlagValues, name: string, problems: UsageProblem[]): number | undefined {
  const text = flags[name];
  if (typeof text !== 'string') return undefined;
  const port = Number(text);
  if (/^\d+$/.test(text.trim()) && port >= 1 && port <= 65535) return port;
  problems.push({ path: `--${name}`, message: `expected a UDP port 1–65535, e.g. 3000; got "${text}"` });
  return undefined;
}
