/**
 * The command table and dispatcher behind the `reckon` binary. Command modules are imported lazily so that `reckon --help`
 * loads nothing but this file.
 */
import { parseArgs } from './args.js';
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE, UsageError, type Command, type CommandIo } from './command.js';
import { helpWidth, renderCommandHelp } from './help.js';
import { closestName } from '../config/suggest.js';
import { printable } from './terminal/printable.js';
import { longest } from './terminal/column-widths.js';

interface CommandEntry {
  readonly summary: string;
  readonly load: () => Promise<{ command: Command }>;
}

const COMMANDS: Readonly<Record<string, CommandEntry>> = {
  demo: {
    summary: 'Publish a tank, a ship and an aircraft over UDP on 127.0.0.1 and watch them dead-reckoned live',
    load: () => import('./commands/demo.js'),
  },
  decode: {
    summary: "Decode a pcap/pcapng capture's DIS PDUs: summary, NDJSON (--json) or HTML report (--report)",
    load: () => import('./commands/decode.js'),
  },
  publish: {
    summary: 'Publish simulated, recorded or live entities as Entity State PDUs, sent only when needed',
    load: () => import('./commands/publish.js'),
  },
  subscribe: {
    summary: 'Receive Entity State PDUs and show remote entities live (or as NDJSON events)',
    load: () => import('./commands/subscribe.js'),
  },
  view: {
    summary: 'Receive Entity State PDUs and show them on a live map in the browser',
    load: () => import('./commands/view.js'),
  },
  bridge: {
    summary: 'Forward remote entities to TAK as Cursor on Target events, and DIS between a LAN and NATS',
    load: () => import('./commands/bridge.js'),
  },
  record: {
    summary: 'Record received DIS datagrams to a pcap file that Wireshark opens',
    load: () => import('./commands/record.js'),
  },
  replay: {
    summary: 'Replay a capture to a host:port in real time or faster',
    load: () => import('./commands/replay.js'),
  },
  experiment: {
    summary: 'Run threshold-tuning experiments and sweeps; write CSV, JSON and an HTML report',
    load: () => import('./commands/experiment.js'),
  },
  lockstep: {
    summary: 'Run a deterministic lockstep peer over UDP with redundant inputs',
    load: () => import('./commands/lockstep.js'),
  },
};

/** Every command's definition (their modules loaded), in the order of the main help. */
export async function allCommands(): Promise<Command[]> {
  return Promise.all(Object.values(COMMANDS).map(async (c) => (await c.load()).command));
}

/** A command's definition by name (its module loaded), or undefined for a name that is none. */
export async function loadCommand(name: string): Promise<Command | undefined> {
  const entry = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  return entry ? (await entry.load()).command : undefined;
}

function mainHelp(): string {
  const width = longest(Object.keys(COMMANDS));
  const lines = [
    'reckon — DIS dead reckoning: codec, DR models, UDP streams and threshold experiments',
    '',
    'Usage: reckon <command> [options]',
    '',
    'Commands:',
    ...Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(width)}  ${c.summary}`),
    '',
    'Run `reckon <command> --help` for the options and examples of one command.',
    'Run `reckon help settings` for what every setting does and where it is set.',
    '',
    'Exit codes: 0 success, 1 runtime failure, 2 bad usage or config.',
    'A failure is reported in one line; set RECKON_DEBUG=1 to see where it came from (the stack trace) as well.',
  ];
  return lines.join('\n') + '\n';
}

/** Runs the CLI with the given arguments (without `node` and the script path) and returns the exit code. */
export async function runCli(argv: readonly string[], io: CommandIo): Promise<number> {
  const [name, ...rest] = argv;
  // Asked-for help is output (stdout, exit 0); `reckon` alone is a usage error (stderr, exit 2), so a script that
  // forgot the command fails visibly instead of piping the help text onwards.
  if (name === undefined) {
    io.stderr.write(`reckon: a command is needed\n\n${mainHelp()}`);
    return EXIT_USAGE;
  }
  if (name === '--help' || name === '-h' || (name === 'help' && rest.length === 0)) {
    io.stdout.write(mainHelp());
    return EXIT_OK;
  }
  if (name === 'help') return helpTopic(rest, io);
  if (name === '--version' || name === '-v') {
    const { createRequire } = await import('node:module');
    const pkg = createRequire(import.meta.url)('../../package.json') as { version: string };
    io.stdout.write(`${pkg.version}\n`);
    return EXIT_OK;
  }
  const entry = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!entry) {
    io.stderr.write(`${unknownCommand(name)}\n`);
    return EXIT_USAGE;
  }
  try {
    return await runCommand(entry, rest, io);
  } catch (error) {
    io.stderr.write(describeFailure(`reckon ${name}`, error));
    return EXIT_FAILURE;
  }
}

/** `reckon help settings [NAME]` and `reckon help <command>`. */
async function helpTopic(rest: readonly string[], io: CommandIo): Promise<number> {
  const [topic, ...more] = rest;
  const width = helpWidth(io.stdout as { isTTY?: boolean; columns?: number });
  const entry = topic !== undefined && Object.hasOwn(COMMANDS, topic) ? COMMANDS[topic] : undefined;
  if (entry && more.length === 0) {
    io.stdout.write(renderCommandHelp((await entry.load()).command, width));
    return EXIT_OK;
  }
  if (topic === 'settings' && more.length <= 1) {
    const { renderSettingsHelp, settingNames, settingsNamed } = await import('./help-settings.js');
    const leaves = settingsNamed(more[0]);
    if (leaves.length === 0) {
      const closest = closestName(printable(more[0]!.replace(/^--/, '')), settingNames());
      const hint = closest === undefined ? '' : ` (did you mean ${closest}?)`;
      io.stderr.write(`reckon help settings: no setting or section "${printable(more[0]!)}"${hint}\n`);
      return EXIT_USAGE;
    }
    io.stdout.write(renderSettingsHelp(leaves, await allCommands(), width));
    return EXIT_OK;
  }
  const topics = ['settings', ...Object.keys(COMMANDS)];
  const closest = topic === undefined ? undefined : closestName(printable(topic), topics);
  io.stderr.write(
    `reckon help: no help on "${printable(rest.join(' '))}"${closest ? ` (did you mean ${closest}?)` : ''}; ` +
      `the topics are ${topics.join(', ')}\n`,
  );
  return EXIT_USAGE;
}

async function runCommand(entry: CommandEntry, rest: readonly string[], io: CommandIo): Promise<number> {
  const { command } = await entry.load();
  const { args, problems } = parseArgs(rest, command.flags);
  if (args.flags.help === true) {
    io.stdout.write(renderCommandHelp(command, helpWidth(io.stdout as { isTTY?: boolean; columns?: number })));
    return EXIT_OK;
  }
  const bounds = command.positionals ?? { min: 0, max: 0 };
  if (args.positionals.length === 0 && bounds.min > 0 && bounds.missing) {
    // `missing capture file: reckon decode <capture.pcap>`
    problems.push({ path: `missing ${bounds.missing}`, message: command.usage.replace(/ \[.*$/, '') });
  } else if (args.positionals.length < bounds.min) {
    problems.push({ path: '<arguments>', message: `expected at least ${bounds.min}, got ${args.positionals.length}` });
  } else if (args.positionals.length > bounds.max) {
    problems.push({
      path: '<arguments>',
      message: `expected at most ${bounds.max}, got ${args.positionals.length}: ${args.positionals.slice(bounds.max).join(' ')}`,
    });
  }
  if (problems.length > 0) return reportUsage(io, command, problems);
  try {
    return await command.run(args, io);
  } catch (error) {
    if (error instanceof UsageError) return reportUsage(io, command, error.problems);
    throw error;
  }
}

/** Whether failures come with their stack trace: `RECKON_DEBUG=1` (or any value but "" and "0"). */
export function debugEnabled(env: Readonly<Record<string, string | undefined>> = process.env): boolean {
  const value = env.RECKON_DEBUG;
  return value !== undefined && value !== '' && value !== '0';
}

/**
 * A failure as the CLI reports it: one line, `prefix: message` — plus a hint for errors that are the program's own
 * fault (TypeError and the like) — and the stack trace only with `RECKON_DEBUG=1`. No input shows a stack otherwise.
 */
export function describeFailure(
  prefix: string,
  error: unknown,
  env: Readonly<Record<string, string | undefined>> = process.env,
): string {
  const text = error instanceof Error ? error.message : String(error);
  const message = text.replace(/:\s*\n\s*/g, ': ').replace(/\s*\n\s*/g, '; ') || 'unknown error';
  // These come from a mistake in the program, not in the input or the environment.
  const internal = error instanceof TypeError || error instanceof ReferenceError || error instanceof SyntaxError;
  const hint = internal
    ? ` (${error.name}: an internal error; run again with RECKON_DEBUG=1 and report the output)`
    : '';
  const stack = debugEnabled(env) && error instanceof Error && error.stack ? `${error.stack}\n` : '';
  // A message may hold a file name or text read from a file: written with visible escapes, like network text.
  return `${prefix}: ${printable(message)}${hint}\n${stack}`;
}

/** `reckon: unknown command "decod" (did you mean decode?)`, or the commands there are. */
function unknownCommand(name: string): string {
  const names = Object.keys(COMMANDS);
  const closest = closestName(printable(name), names);
  return closest !== undefined
    ? `reckon: unknown command "${printable(name)}" (did you mean ${closest}?)`
    : `reckon: unknown command "${printable(name)}"; the commands are ${names.join(', ')} (reckon --help)`;
}

/**
 * Text of a problem with every control character shown as an escape (`printable`). A line break is kept only before
 * an indented line (`:\n  1:77:1 …`), the form of every list under a problem; a lone one (in a file name) is escaped.
 */
function shown(text: string): string {
  return text.split('\n  ').map(printable).join('\n  ');
}

/**
 * The one form of every usage or input problem: one line naming what to fix, `reckon CMD: PATH: MESSAGE`; several
 * are listed one per line under a heading. File names and values in them are `printable`. The caller exits 2.
 */
export function formatUsageProblems(commandName: string, given: UsageError['problems']): string {
  const help = `reckon ${commandName} --help`;
  const total = given.reduce((n, p) => n + (p.count ?? 1), 0);
  // Past MAX_LISTED_USAGE_PROBLEMS the rest are counted: a capture of 200 000 bad entries is not printed whole.
  const listed = given.slice(0, MAX_LISTED_USAGE_PROBLEMS);
  const problems = listed.map((p) => ({ path: shown(p.path), message: shown(p.message) }));
  if (total === 1) {
    const p = problems[0]!;
    const line = `reckon ${commandName}: ${p.path}: ${p.message}`;
    return `${line}${/\s--help\b/.test(p.message) ? '' : ` (see ${help})`}\n`;
  }
  const more = total - listed.reduce((n, p) => n + (p.count ?? 1), 0);
  return (
    `reckon ${commandName}: ${total} problems (see ${help}):\n` +
    problems.map((p) => `  ${p.path}: ${p.message}\n`).join('') +
    (more > 0 ? `  and ${more} more\n` : '')
  );
}

/** Most usage problems listed one by one; the others are counted. */
export const MAX_LISTED_USAGE_PROBLEMS = 25;

function reportUsage(io: CommandIo, command: Command, problems: UsageError['problems']): number {
  io.stderr.write(formatUsageProblems(command.name, problems));
  return EXIT_USAGE;
}
