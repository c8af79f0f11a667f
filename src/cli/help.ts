import { COMMON_FLAGS } from './args.js';
import type { Command, FlagSpec } from './command.js';
import { wrapWords } from './terminal/fit.js';

/** Help is wrapped to this many columns where the terminal does not say (a pipe, a file). */
export const HELP_WIDTH = 80;
/** The flag column is at most this wide; a longer flag puts its description on the next line. */
const MAX_FLAG_COLUMN = 30;

/** Columns help may use on `stream`: the terminal's width within 60–120, else `HELP_WIDTH`. */
export function helpWidth(stream: { isTTY?: boolean; columns?: number }): number {
  return stream.isTTY === true && stream.columns !== undefined && stream.columns > 0
    ? Math.max(60, Math.min(120, stream.columns))
    : HELP_WIDTH;
}

/**
 * `text` as lines for `stream`: wrapped at words to a terminal's width (continuation lines indented), one line on a
 * pipe or a file (for grep).
 */
export function linesFor(stream: NodeJS.WritableStream, text: string, indent = '    '): string[] {
  const terminal = stream as { isTTY?: boolean; columns?: number };
  const width = terminal.isTTY === true && terminal.columns ? terminal.columns : Number.POSITIVE_INFINITY;
  return wrapText(text, width, indent);
}

/** `-o, --out FILE` or `    --port N`: a flag as help names it. */
export function flagSignature(name: string, spec: FlagSpec): string {
  const short = spec.short ? `-${spec.short}, ` : '    ';
  const value = spec.type === 'string' ? ` ${spec.value ?? 'VALUE'}` : '';
  return `${short}--${name}${value}`;
}

// A number and its unit stay on one line: "Default: 500 ms", never "500" and "ms" on two.
const NUMBER_UNIT = /(\d) (m|cm|km|ms|s|min|h|deg|Hz|kB|MB|MiB|GB)\b/g;
const GLUE = '\u00a0';

/** `text` wrapped to `width` columns, each line after the first starting with `indent`; units kept with numbers. */
export function wrapText(text: string, width: number, indent = ''): string[] {
  return wrapWords(text.replace(NUMBER_UNIT, `$1${GLUE}$2`), width, indent).map((l) => l.replaceAll(GLUE, ' '));
}

/** The width of the flag column for these flags: the widest that is at most `MAX_FLAG_COLUMN`. */
export function flagColumn(lefts: readonly string[]): number {
  return Math.max(0, ...lefts.map((left) => left.length).filter((n) => n <= MAX_FLAG_COLUMN));
}

/**
 * Lines of a two-column list, flags on the left and their wrapped descriptions on the right, in `width` columns; a
 * flag wider than the column gets its description on the lines below.
 */
export function flagList(entries: readonly (readonly [string, string])[], width: number, column: number): string[] {
  const indent = '  ';
  const pad = indent + ' '.repeat(column + 2);
  const lines: string[] = [];
  for (const [left, right] of entries) {
    const text = wrapText(right, Math.max(20, width - pad.length)).map((line, i) => (i === 0 ? line : pad + line));
    if (left.length > column) lines.push(indent + left, ...text.map((l, i) => (i === 0 ? pad + l : l)));
    else lines.push(`${indent}${left.padEnd(column)}  ${text[0] ?? ''}`, ...text.slice(1));
  }
  return lines;
}

/** One line per group of flags listed by name, wrapped under its label: `  NATS  --nats URL, --nats-token TOKEN, …`. */
function briefLines(groups: ReadonlyMap<string, string[]>, width: number): string[] {
  const label = (group: string) => group.replace(/ \(.*$/, '');
  const column = Math.max(...[...groups.keys()].map((g) => label(g).length));
  const pad = ' '.repeat(2 + column + 2);
  return [...groups].flatMap(([group, names]) => {
    // A flag stays on one line with its placeholder.
    const lines = wrapText(names.map((n) => n.replaceAll(' ', GLUE)).join(', '), width - pad.length);
    return lines.map((line, i) => (i === 0 ? `  ${label(group).padEnd(column)}  ${line}` : pad + line));
  });
}

/**
 * Renders `reckon <cmd> --help`: usage, summary, the command's own flags, then its settings under their sections'
 * headings (those it marks `brief` on one line per section, for `reckon help settings` to describe), and examples.
 * @param width - columns to wrap to. Defaults to `HELP_WIDTH`.
 */
export function renderCommandHelp(command: Command, width = HELP_WIDTH): string {
  const own: [string, string][] = [];
  const groups = new Map<string, [string, string][]>();
  const brief = new Map<string, string[]>();
  for (const [name, spec] of Object.entries({ ...command.flags, ...COMMON_FLAGS })) {
    const left = flagSignature(name, spec);
    const right = spec.description + (spec.multiple ? ' (repeatable)' : '');
    if (spec.group === undefined) own.push([left, right]);
    else if (spec.brief === true) {
      const named = left.trim() + (spec.commandDefault ? ` (default: ${spec.commandDefault})` : '');
      brief.set(spec.group, [...(brief.get(spec.group) ?? []), named]);
    } else groups.set(spec.group, [...(groups.get(spec.group) ?? []), [left, right]]);
  }
  const column = flagColumn([...own, ...[...groups.values()].flat()].map(([left]) => left));
  const sections = [...groups].flatMap(([title, entries]) => ['', `${title}:`, ...flagList(entries, width, column)]);
  const common =
    brief.size === 0
      ? []
      : [
          '',
          ...wrapText('Common settings (described by `reckon help settings` and in docs/cli.md):', width),
          ...briefLines(brief, width),
        ];
  const usage = command.usage
    .split('\n')
    .flatMap((line, i) => wrapText(i === 0 ? `Usage: ${line}` : line, width, '         '));
  return [
    ...usage,
    '',
    ...wrapText(command.summary, width),
    '',
    'Options:',
    ...flagList(own, width, column),
    ...sections,
    ...common,
    '',
    'Examples:',
    ...command.examples.flatMap((e) => exampleLines(e, width)),
    '',
  ].join('\n');
}

/** An example as is, or, when it does not fit, its comment on a line of its own above it (the command stays whole). */
function exampleLines(example: string, width: number): string[] {
  const comment = /\s+#\s/.exec(example);
  if (example.length + 2 <= width || comment === null) return [`  ${example}`];
  return [
    ...wrapText(`# ${example.slice(comment.index + comment[0].length)}`, width - 2, '# ').map((l) => `  ${l}`),
    `  ${example.slice(0, comment.index)}`,
  ];
}
