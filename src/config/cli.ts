/**
 * Configuration for commands: the flag specs named after the settings, and the step that turns parsed flags,
 * the environment and `--config FILE` into a validated `Config` (or a `UsageError` listing every problem, which the
 * CLI prints before exiting 2).
 */
import { UsageError, type FlagSpec, type FlagValues, type UsageProblem } from '../cli/command.js';
import { CONFIG_LEAVES, type ConfigLeaf } from './leaves.js';
import { ConfigError, loadConfig } from './load.js';
import { CONFIG_SECTIONS, type Config, type ConfigSection } from './schema.js';
import { readQuantity } from './units.js';

/** The sections every networked command takes flags for: `--address`, `--port`, `--multicast`, `--exercise`, filters. */
export const NETWORK_SECTIONS: readonly ConfigSection[] = ['network', 'dis', 'filter'];

/** Shown in help: how the sources combine. */
export const CONFIG_PRECEDENCE = 'Precedence: flags > RECKON_<SECTION>_<SETTING> environment > --config file > defaults.';

const PLACEHOLDER: Record<ConfigLeaf['kind'], string> = {
  number: 'N',
  boolean: '',
  string: 'VALUE',
  list: 'LIST',
  numberList: 'LIST',
  object: 'JSON',
};

function flagSpec(leaf: ConfigLeaf): FlagSpec {
  const example = typeof leaf.example === 'string' ? leaf.example : JSON.stringify(leaf.example);
  const hint = leaf.kind !== 'boolean' ? ` E.g. ${example}.` : leaf.defaultValue === true ? ` On by default; --no-${leaf.flag} turns it off.` : '';
  const description = `${leaf.description}${hint} [${leaf.env}]`;
  if (leaf.kind === 'boolean') return { type: 'boolean', description };
  const list = leaf.kind === 'list' || leaf.kind === 'numberList';
  return { type: 'string', description, value: PLACEHOLDER[leaf.kind], ...(list ? { multiple: true } : {}) };
}

/**
 * Flag specs for the settings of the given sections, plus `--config FILE`. Settings that hold objects (such as
 * per-class heartbeat overrides) are file or environment (JSON) only.
 * @param sections - which parts of the config the command uses. Defaults to every section.
 */
export function configFlags(sections: readonly ConfigSection[] = CONFIG_SECTIONS): Record<string, FlagSpec> {
  const specs: Record<string, FlagSpec> = {
    config: { type: 'string', value: 'FILE', description: `JSON configuration file (schemas/config.schema.json). ${CONFIG_PRECEDENCE} [RECKON_CONFIG]` },
  };
  for (const leaf of CONFIG_LEAVES) {
    if (sections.includes(leaf.section) && leaf.kind !== 'object') specs[leaf.flag] = flagSpec(leaf);
  }
  return specs;
}

/**
 * The validated configuration for a command run.
 * @param flags - the parsed flags (those not named after a setting are ignored).
 * @param env - environment variables. Defaults to `process.env`.
 * @throws UsageError with one problem per invalid setting (path, source and an example).
 */
export function configFromFlags(flags: FlagValues, env: Readonly<Record<string, string | undefined>> = process.env): Config {
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
  if (result.ok && result.value > 0) return result.value;
  problems.push({ path: `--${name}`, message: result.ok ? `must be positive, got "${text}"` : result.message });
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
