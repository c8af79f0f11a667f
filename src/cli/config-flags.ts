/**
 * The command-line flags named after the settings (`--position-threshold` ↔ `emitter.positionThreshold`), built
 * from the generated list of settings: no zod is loaded, so a command module can declare them at its top level and
 * `reckon <command> --help` stays light. Each command takes the settings it uses (the side of the network it is on,
 * `setting-use.ts`), grouped under their section's heading for help. Reading the flags into a `Config` is
 * `config-from-flags.ts` (loaded in `run`).
 */
import type { FlagSpec } from './command.js';
import { CONFIG_LEAVES, type ConfigLeaf } from '../config/leaves.js';
import type { ConfigSection } from '../config/schema.js';
import {
  SECTION_TITLES,
  SETTING_PLACEHOLDERS,
  SIDE_DESCRIPTIONS,
  quantityPlaceholder,
  usedOn,
  type Side,
} from './setting-use.js';

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

/** The placeholder help shows after a setting's flag: `ADDRESS`, `T` (a time), `N`, `LIST`, … */
export function leafPlaceholder(leaf: ConfigLeaf): string {
  return SETTING_PLACEHOLDERS[leaf.path] ?? quantityPlaceholder(leaf.example) ?? PLACEHOLDER[leaf.kind];
}

/** `Default: 3000.`, `E.g. 6,7.`, `On by default; --no-x turns it off.`: what help adds to a setting's description. */
export function leafHints(leaf: ConfigLeaf, defaultText = leaf.defaultText): string {
  // As the flag takes it: lists comma-separated.
  const { example: raw } = leaf;
  const example = typeof raw === 'string' ? raw : Array.isArray(raw) ? raw.join(',') : JSON.stringify(raw);
  if (leaf.kind === 'boolean')
    return leaf.defaultValue === true ? `On by default; --no-${leaf.flag} turns it off.` : 'Off by default.';
  const defaultHint = defaultText === undefined ? '' : `Default: ${defaultText}.`;
  const exampleHint = example === defaultText ? '' : `E.g. ${example}.`;
  return [defaultHint, exampleHint].filter((h) => h !== '').join(' ');
}

interface LeafFlagOptions {
  readonly side?: Side;
  readonly defaultText?: string;
  readonly brief?: boolean;
}

function flagSpec(leaf: ConfigLeaf, options: LeafFlagOptions = {}): FlagSpec {
  const text = (options.side && SIDE_DESCRIPTIONS[options.side][leaf.path]) ?? leaf.description;
  const description = `${text} ${leafHints(leaf, options.defaultText ?? leaf.defaultText)}`.trim();
  const group = SECTION_TITLES[leaf.section];
  const brief = {
    ...(options.brief === true ? { brief: true } : {}),
    ...(options.defaultText !== undefined ? { commandDefault: options.defaultText } : {}),
  };
  if (leaf.kind === 'boolean') return { type: 'boolean', description, group, ...brief };
  const list = leaf.kind === 'list' || leaf.kind === 'numberList';
  return {
    type: 'string',
    description,
    value: leafPlaceholder(leaf),
    group,
    ...brief,
    ...(list ? { multiple: true } : {}),
  };
}

/** `--config FILE`, which every command with settings takes. */
export const CONFIG_FILE_FLAG: FlagSpec = {
  type: 'string',
  value: 'FILE',
  description: `JSON configuration file (schemas/config.schema.json). ${CONFIG_PRECEDENCE}`,
};

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
  return settingFlags(sections, { defaults });
}

/** Which of a command's settings get flags, and how help lists them. */
export interface SettingFlagOptions {
  /** The side of the network the command is on: settings only the other side reads are left out. Defaults to both. */
  readonly side?: Side;
  /** Sections described in full in help; the others are listed by name among the common settings. Defaults to all. */
  readonly detailed?: readonly ConfigSection[];
  /** Settings (paths, `receiver.smoothing`) the command does not read although their section is given. */
  readonly omit?: readonly string[];
  /** Settings (paths) taken from a section that is not given, e.g. `emitter.positionThreshold`. */
  readonly also?: readonly string[];
  /** Defaults to show instead, by flag name, where the command applies its own (e.g. a free port). */
  readonly defaults?: Readonly<Record<string, string>>;
}

/**
 * Flag specs for the settings a command reads, plus `--config FILE`: those of `sections` (and `also`) that its side
 * of the network uses, each under its section's heading, in the side's words.
 * @param sections - the sections the command reads. Defaults to every section.
 */
export function settingFlags(
  sections?: readonly ConfigSection[],
  options: SettingFlagOptions = {},
): Record<string, FlagSpec> {
  const specs: Record<string, FlagSpec> = { config: CONFIG_FILE_FLAG };
  const { side, detailed, omit = [], also = [], defaults = {} } = options;
  for (const leaf of CONFIG_LEAVES) {
    if (leaf.kind === 'object' || omit.includes(leaf.path)) continue;
    const inSection = sections === undefined || sections.includes(leaf.section);
    if (!(inSection && (side === undefined || usedOn(side, leaf.section, leaf.path))) && !also.includes(leaf.path))
      continue;
    specs[leaf.flag] = flagSpec(leaf, {
      ...(side ? { side } : {}),
      ...(defaults[leaf.flag] !== undefined ? { defaultText: defaults[leaf.flag] } : {}),
      brief: detailed !== undefined && !detailed.includes(leaf.section),
    });
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
 * Flags of the `nats` section for a command: the connection (`--nats`, credentials, TLS, subjects; listed by name
 * among the common settings) and, as asked, the area of interest (`--area`) and the JetStream stream settings
 * (`--stream`, limits), described in full.
 */
export function natsFlags(options: { area?: boolean; stream?: boolean } = {}): Record<string, FlagSpec> {
  const specs: Record<string, FlagSpec> = {};
  for (const leaf of CONFIG_LEAVES) {
    if (leaf.section !== 'nats' || leaf.kind === 'object') continue;
    const connection = NATS_CONNECTION_KEYS.includes(leaf.key);
    const wanted =
      connection ||
      (options.area === true && leaf.key === 'area') ||
      (options.stream === true && leaf.key.startsWith('stream'));
    if (wanted) specs[leaf.flag] = flagSpec(leaf, { brief: connection });
  }
  return specs;
}
