/**
 * `reckon help settings [NAME]`: every setting by section, each with its flag, its path in a configuration file,
 * its environment variable, its default and an example, and the commands that take it as a flag. Command help lists
 * the common settings by name only and points here.
 */
import { CONFIG_LEAVES, type ConfigLeaf } from '../config/leaves.js';
import type { ConfigSection } from '../config/schema.js';
import type { Command } from './command.js';
import { CONFIG_PRECEDENCE, leafHints, leafPlaceholder } from './config-flags.js';
import { wrapText } from './help.js';
import { SECTION_TITLES } from './setting-use.js';

const INDENT = '      ';

/** The leaves `name` picks: a section (`nats`), a flag (`--port`, `port`), a path (`network.port`) or a variable. */
export function settingsNamed(name: string | undefined): readonly ConfigLeaf[] {
  if (name === undefined) return CONFIG_LEAVES;
  const wanted = name.trim().toLowerCase();
  const bare = wanted.replace(/^--/, '');
  const section = CONFIG_LEAVES.filter((l) => l.section === bare);
  if (section.length > 0) return section;
  return CONFIG_LEAVES.filter(
    (l) => l.flag === bare || l.path.toLowerCase() === wanted || l.env.toLowerCase() === wanted,
  );
}

/** Every name `settingsNamed` takes, for suggestions: sections, flags, paths. */
export function settingNames(): string[] {
  const sections = [...new Set(CONFIG_LEAVES.map((l) => l.section))];
  return [...sections, ...CONFIG_LEAVES.map((l) => l.flag), ...CONFIG_LEAVES.map((l) => l.path)];
}

/**
 * The text of `reckon help settings`, for the settings `leaves` (all, one section or one setting).
 * @param commands - every command, to say which take each setting as a flag.
 * @param width - columns to wrap to.
 */
export function renderSettingsHelp(leaves: readonly ConfigLeaf[], commands: readonly Command[], width: number): string {
  const wrap = (text: string, indent = '') => wrapText(text, width - indent.length).map((line) => indent + line);
  const lines: string[] = [
    ...wrap(
      'Every setting is a flag, an environment variable and a key of a --config FILE (JSON, ' +
        'schemas/config.schema.json); a command takes the flags of the settings it uses (reckon <command> --help).',
    ),
    ...wrap(CONFIG_PRECEDENCE),
    ...wrap(
      'Values take units ("1 m", "3 deg", "5 s", "15 Hz", "200 ms", "30 kn") or plain SI numbers; lists are ' +
        'comma-separated or the flag repeated. `reckon help settings NAME` shows one section (network, dis, filter, ' +
        'emitter, heartbeat, receiver, nats) or one setting (--port).',
    ),
  ];
  let section: ConfigSection | undefined;
  for (const leaf of leaves) {
    if (leaf.section !== section) {
      section = leaf.section;
      lines.push('', `${SECTION_TITLES[section]}:`);
    }
    // A command's own flag of the same name (lockstep's --port) is not the setting.
    const title = SECTION_TITLES[leaf.section];
    const takenBy = commands.filter((c) => c.flags[leaf.flag]?.group === title).map((c) => c.name);
    const flag =
      leaf.kind === 'object'
        ? `${leaf.path} (JSON; no flag)`
        : `--${leaf.flag}${leaf.kind === 'boolean' ? '' : ` ${leafPlaceholder(leaf)}`}`;
    lines.push(`  ${flag}`);
    lines.push(...wrap(`${leaf.description} ${leafHints(leaf)}`.trim(), INDENT));
    lines.push(...wrap(`File: ${leaf.path}. Environment: ${leaf.env}.`, INDENT));
    if (leaf.kind !== 'object')
      lines.push(...wrap(takenBy.length > 0 ? `Taken by: ${takenBy.join(', ')}.` : 'Taken by: none.', INDENT));
  }
  return `${lines.join('\n')}\n`;
}

/** Where docs/cli.md's table of settings starts and ends (written by scripts/write-settings-doc.ts). */
export const SETTINGS_DOC_MARKERS = ['<!-- settings table: start -->', '<!-- settings table: end -->'] as const;

/** The table of every setting for docs/cli.md: the same facts as `reckon help settings`, in Markdown. */
export function settingsMarkdown(commands: readonly Command[]): string {
  const cell = (text: string) => text.replaceAll('|', '\\|');
  const rows = CONFIG_LEAVES.map((leaf) => {
    const title = SECTION_TITLES[leaf.section];
    const takenBy = commands.filter((c) => c.flags[leaf.flag]?.group === title).map((c) => c.name);
    const flag = leaf.kind === 'object' ? '(JSON; no flag)' : `\`--${leaf.flag}\``;
    const what = `${leaf.description} ${leafHints(leaf)}`.trim();
    return `| ${flag} | \`${leaf.path}\`, \`${leaf.env}\` | ${cell(what)} | ${takenBy.join(', ') || '–'} |`;
  });
  return [
    SETTINGS_DOC_MARKERS[0],
    '',
    '| flag | file key, environment variable | what it does | taken by |',
    '|---|---|---|---|',
    ...rows,
    '',
    SETTINGS_DOC_MARKERS[1],
  ].join('\n');
}
