/**
 * Reads the configuration from its sources and validates it once. Precedence: flags > `RECKON_…` environment >
 * JSON file > defaults. Every problem is collected into one `ConfigError`, each with its path, where the value
 * came from and an example of a valid value.
 */
import type { z } from 'zod';
import { InputFileError, readInputFileSync } from '../files/input-file.js';
import { jsonInputProblems } from './json-input.js';
import { CONFIG_LEAVES, leafOfPath, leafValueFromText } from './leaves.js';
import { ConfigSchema, type Config } from './schema.js';
import { closestName } from './suggest.js';

/** One configuration problem. */
export interface ConfigIssue {
  /** Dotted setting path such as `network.port`, or `<file>` for a file that cannot be read. */
  readonly path: string;
  /** What is wrong, ending with an example of a valid value where one is known. */
  readonly message: string;
  /** Where the value came from: `--port`, `RECKON_NETWORK_PORT`, the file name, or undefined for a default. */
  readonly source?: string;
}

/** Invalid configuration: carries every issue (and the zod issues behind them), not just the first. */
export class ConfigError extends Error {
  readonly issues: readonly ConfigIssue[];
  readonly zodIssues: readonly z.core.$ZodIssue[];
  constructor(issues: readonly ConfigIssue[], zodIssues: readonly z.core.$ZodIssue[] = []) {
    super(`invalid configuration:\n${issues.map((i) => `  ${formatConfigIssue(i)}`).join('\n')}`);
    this.name = 'ConfigError';
    this.issues = issues;
    this.zodIssues = zodIssues;
  }
}

/** `network.port (from --port): Too big: expected number to be <=65535; e.g. 3000` */
export function formatConfigIssue(issue: ConfigIssue): string {
  return `${issue.path}${issue.source ? ` (from ${issue.source})` : ''}: ${issue.message}`;
}

/** Where `loadConfig` reads settings from, lowest precedence first: file, environment, flags. */
export interface ConfigSources {
  /** JSON file; defaults to `flags.config`, then `env.RECKON_CONFIG`. */
  readonly file?: string;
  /** Environment variables; only `RECKON_<SECTION>_<KEY>` ones are read. Defaults to none (pass `process.env`). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Parsed CLI flags named after the settings (`position-threshold`); absent ones are undefined. */
  readonly flags?: Readonly<Record<string, string | boolean | readonly string[] | undefined>>;
  /** Values set by code, applied above the flags. */
  readonly overrides?: Readonly<Record<string, unknown>>;
}

/** Most bytes a config file may hold: a full one with every setting is under 4 KiB. */
export const MAX_CONFIG_FILE_BYTES = 1 << 20;

type Layer = { values: Record<string, Record<string, unknown>>; origin: Map<string, string> };

// Null-prototype objects: no key from an input can reach Object.prototype through them.
const record = <T>(): Record<string, T> => Object.create(null) as Record<string, T>;

function emptyLayer(): Layer {
  return { values: record(), origin: new Map() };
}

function setLeaf(layer: Layer, section: string, key: string, value: unknown, origin: string): void {
  (layer.values[section] ??= record())[key] = value;
  layer.origin.set(`${section}.${key}`, origin);
}

function fileLayer(file: string, issues: ConfigIssue[]): Layer {
  const layer = emptyLayer();
  let text: string;
  try {
    text = readInputFileSync(file, 'config file', MAX_CONFIG_FILE_BYTES).toString('utf8');
  } catch (error) {
    if (!(error instanceof InputFileError)) throw error;
    issues.push({
      path: '<file>',
      source: file,
      message: `${error.message}; check the path given to --config or RECKON_CONFIG`,
    });
    return layer;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    issues.push({ path: '<file>', source: file, message: `not valid JSON: ${(error as Error).message}` });
    return layer;
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    issues.push({
      path: '<file>',
      source: file,
      message: 'must hold a JSON object such as {"network": {"port": 3000}}',
    });
    return layer;
  }
  const unsafe = jsonInputProblems(json);
  if (unsafe.length > 0) {
    for (const problem of unsafe) issues.push({ ...problem, source: file });
    return layer;
  }
  for (const [section, body] of Object.entries(json)) {
    if (section === '$schema') continue; // lets editors validate the file against schemas/config.schema.json
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      (layer.values as Record<string, unknown>)[section] = body; // the schema reports it with its path
      layer.origin.set(section, file);
      continue;
    }
    layer.origin.set(section, file); // for unknown keys, reported on the section
    for (const [key, value] of Object.entries(body)) setLeaf(layer, section, key, value, file);
  }
  return layer;
}

/**
 * `RECKON_…` variables that are not settings but are still known: the config file, stack traces with failures
 * (`RECKON_DEBUG`, cli/run.ts), the switch of the test suite
 * that turns skipped system-program tests into failures (scripts/support/system-binary.ts), the role of a
 * benchmark's child process (bench/udp.bench.ts) and the CoT bridge's TLS files (cli/commands/bridge.ts).
 */
export const OTHER_RECKON_VARIABLES: readonly string[] = [
  'RECKON_CONFIG',
  'RECKON_DEBUG',
  'RECKON_REQUIRE_SYSTEM_BINARIES',
  'RECKON_BENCH_ROLE',
  'RECKON_COT_CERT',
  'RECKON_COT_KEY',
  'RECKON_COT_CA',
  'RECKON_COT_KEY_PASSPHRASE',
];

function envLayer(env: Readonly<Record<string, string | undefined>>, issues: ConfigIssue[]): Layer {
  const layer = emptyLayer();
  for (const leaf of CONFIG_LEAVES) {
    const text = env[leaf.env];
    if (text === undefined || text === '') continue;
    const value = leafValueFromText(leaf, text);
    const unsafe = leaf.kind === 'object' ? jsonInputProblems(value) : [];
    for (const problem of unsafe) issues.push({ ...problem, path: `${leaf.path}.${problem.path}`, source: leaf.env });
    if (unsafe.length === 0) setLeaf(layer, leaf.section, leaf.key, value, leaf.env);
  }
  // A misspelt variable would otherwise be ignored without a word, and the setting silently keep its default.
  const known = new Set([...CONFIG_LEAVES.map((l) => l.env), ...OTHER_RECKON_VARIABLES]);
  for (const name of Object.keys(env)) {
    if (!name.startsWith('RECKON_') || known.has(name) || env[name] === undefined) continue;
    const suggestion = suggestVariable(name, known);
    issues.push({
      path: name,
      source: 'environment',
      message:
        `unknown environment variable${suggestion ? ` (did you mean ${suggestion}?)` : ''}; settings are ` +
        'RECKON_<SECTION>_<SETTING> such as RECKON_NETWORK_PORT (see schemas/config.schema.json), or unset it',
    });
  }
  return layer;
}

/** A close spelling, or the variable of a setting whose name was given without (or with the wrong) section. */
function suggestVariable(name: string, known: ReadonlySet<string>): string | undefined {
  const close = closestName(name, known, Math.max(2, Math.floor(name.length / 8)));
  if (close) return close;
  const setting = name.slice('RECKON_'.length);
  const bySetting = CONFIG_LEAVES.filter((l) => {
    const key = l.env.slice(`RECKON_${l.section}_`.length); // sections are single words: RECKON_EMITTER_…
    return setting === key || setting.endsWith(`_${key}`);
  });
  return bySetting.length === 1 ? bySetting[0]!.env : undefined;
}

function flagLayer(flags: NonNullable<ConfigSources['flags']>, issues: ConfigIssue[]): Layer {
  const layer = emptyLayer();
  for (const leaf of CONFIG_LEAVES) {
    const value = flags[leaf.flag];
    if (value === undefined) continue;
    const parsed = typeof value === 'boolean' ? value : leafValueFromText(leaf, value);
    const unsafe = leaf.kind === 'object' ? jsonInputProblems(parsed) : [];
    for (const problem of unsafe)
      issues.push({ ...problem, path: `${leaf.path}.${problem.path}`, source: `--${leaf.flag}` });
    if (unsafe.length === 0) setLeaf(layer, leaf.section, leaf.key, parsed, `--${leaf.flag}`);
  }
  return layer;
}

function merge(layers: readonly Layer[]): Layer {
  const merged = emptyLayer();
  for (const layer of layers) {
    for (const [section, body] of Object.entries(layer.values)) {
      const target = merged.values[section];
      merged.values[section] =
        typeof body === 'object' && body !== null && typeof target === 'object' && target !== null
          ? Object.assign(record(), target, body)
          : body;
    }
    for (const [path, origin] of layer.origin) merged.origin.set(path, origin);
  }
  return merged;
}

/**
 * Builds the validated configuration from file, environment and flags (flags win, then environment, then file).
 * @throws ConfigError listing every problem found.
 */
export function loadConfig(sources: ConfigSources = {}): Config {
  const issues: ConfigIssue[] = [];
  const flagFile = sources.flags?.config;
  const file = sources.file ?? (typeof flagFile === 'string' ? flagFile : undefined) ?? sources.env?.RECKON_CONFIG;
  const overrides = emptyLayer();
  for (const [section, body] of Object.entries(sources.overrides ?? {})) {
    for (const [key, value] of Object.entries(body as Record<string, unknown>))
      setLeaf(overrides, section, key, value, 'code');
  }
  const merged = merge([
    file ? fileLayer(file, issues) : emptyLayer(),
    envLayer(sources.env ?? {}, issues),
    flagLayer(sources.flags ?? {}, issues),
    overrides,
  ]);
  const result = ConfigSchema.safeParse(merged.values);
  if (result.success && issues.length === 0) return result.data;
  const zodIssues = result.success ? [] : result.error.issues;
  for (const zi of zodIssues) issues.push(issueFromZod(zi, merged.origin));
  throw new ConfigError(issues, zodIssues);
}

function issueFromZod(zi: z.core.$ZodIssue, origin: ReadonlyMap<string, string>): ConfigIssue {
  const path = zi.path.map(String).join('.') || '<root>';
  const leaf = leafOfPath(zi.path);
  let message = zi.message;
  if (zi.code === 'unrecognized_keys') {
    const known =
      zi.path.length === 0
        ? Object.keys(ConfigSchema.shape)
        : CONFIG_LEAVES.filter((l) => l.section === zi.path[0]).map((l) => l.key);
    message += `; known settings here: ${known.join(', ')}`;
  } else if (leaf?.example !== undefined && !/e\.g\./.test(message)) {
    message += `; e.g. ${JSON.stringify(leaf.example)}`;
  }
  const source = leaf ? origin.get(leaf.path) : origin.get(String(zi.path[0]));
  return source === undefined ? { path, message } : { path, message, source };
}
