/**
 * The command-line flags named after the settings (`--position-threshold` ↔ `emitter.positionThreshold`), built
 * from the generated list of settings: no zod is loaded, so a command module can declare them at its top level and
 * `reckon <command> --help` stays light. Reading the flags into a `Config` is `config-from-flags.ts` (loaded in `run`).
 */
import type { FlagSpec } from './command.js';
import { CONFIG_LEAVES, type ConfigLeaf } from '../config/leaves.js';
import type { ConfigSection } from '../config/schema.js';

/** The sections every networked command takes flags for: `--address`, `--port`, `--multicast`, `--exercise`, filters. */
export const NETWORK_SECTIONS: readonly ConfigSection[] = ['network', 'dis', 'filter'];

/** Shown in help: how the sources combine. */
export const CONFIG_PRECEDENCE =
  'Precedence: flags > RECKON_<SECTION>_<SETTING> environment > --config file > defaults.';

const PLACEHOLDER: Record<ConfigLeaf['kind'], string> = {
  number: 'N',
  boolean: '',
  string: 'VALUE',
  list: 'LIST',
  numberList: 'LIST',
  object: 'JSON',
};

function flagSpec(leaf: ConfigLeaf, defaultText = leaf.defaultText): FlagSpec {
  // As the flag takes it: lists comma-separated.
  const { example: raw } = leaf;
  const example = typeof raw === 'string' ? raw : Array.isArray(raw) ? raw.join(',') : JSON.stringify(raw);
  const defaultHint = defaultText === undefined ? '' : ` Default: ${defaultText}.`;
  const exampleHint = example === defaultText ? '' : ` E.g. ${example}.`;
  const booleanHint =
    leaf.defaultValue === true ? ` On by default; --no-${leaf.flag} turns it off.` : ' Off by default.';
  const hint = leaf.kind === 'boolean' ? booleanHint : `${defaultHint}${exampleHint}`;
  const description = `${leaf.description}${hint} [${leaf.env}]`;
  if (leaf.kind === 'boolean') return { type: 'boolean', description };
  const list = leaf.kind === 'list' || leaf.kind === 'numberList';
  return { type: 'string', description, value: PLACEHOLDER[leaf.kind], ...(list ? { multiple: true } : {}) };
}

/**
 * Flag specs for the settings of the given sections, plus `--config FILE`. Settings that hold objects (such as
 * per-class heartbeat overrides) are file or environment (JSON) only. Help shows each setting's schema default.
 * @param sections - which parts of the config the command uses. Defaults to every section.
 * @param defaults - defaults to show instead, by flag name, where the command applies its own (e.g. a free port).
 */
export function configFlags(
  sections?: readonly ConfigSection[],
  defaults: Readonly<Record<string, string>> = {},
): Record<string, FlagSpec> {
  const specs: Record<string, FlagSpec> = {
    config: {
      type: 'string',
      value: 'FILE',
      description: `JSON configuration file (schemas/config.schema.json). ${CONFIG_PRECEDENCE} [RECKON_CONFIG]`,
    },
  };
  for (const leaf of CONFIG_LEAVES) {
    if ((sections === undefined || sections.includes(leaf.section)) && leaf.kind !== 'object')
      specs[leaf.flag] = flagSpec(leaf, defaults[leaf.flag] ?? leaf.defaultText);
  }
  return specs;
}

/** NATS settings every NATS-capable command takes: servers, credentials, TLS, subjects. */
const NATS_CONNECTION_KEYS = [
  'servers',
  'token',
  'user',
  'password',
  'credsFile',
  'tlsCa',
  'tlsCert',
  'tlsKey',
  'connectTimeout',
  'subjectPrefix',
  'h3Resolution',
  'maxMessageBytes',
];

/**
 * Flags of the `nats` section for a command: the connection (`--nats`, credentials, TLS, subjects) and, as asked,
 * the area of interest (`--area`) and the JetStream stream settings (`--stream`, limits).
 */
export function natsFlags(options: { area?: boolean; stream?: boolean } = {}): Record<string, FlagSpec> {
  const all = configFlags(['nats']);
  const specs: Record<string, FlagSpec> = {};
  for (const leaf of CONFIG_LEAVES) {
    if (leaf.section !== 'nats' || all[leaf.flag] === undefined) continue;
    const wanted =
      NATS_CONNECTION_KEYS.includes(leaf.key) ||
      (options.area === true && leaf.key === 'area') ||
      (options.stream === true && leaf.key.startsWith('stream'));
    if (wanted) specs[leaf.flag] = all[leaf.flag]!;
  }
  return specs;
}
