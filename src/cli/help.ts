import { COMMON_FLAGS } from './args.js';
import type { Command } from './command.js';

/** Renders `reckon <cmd> --help`: usage, summary, flags and examples. */
export function renderCommandHelp(command: Command): string {
  const flags = Object.entries({ ...command.flags, ...COMMON_FLAGS }).map(([name, spec]) => {
    const short = spec.short ? `-${spec.short}, ` : '    ';
    const value = spec.type === 'string' ? ` ${spec.value ?? 'VALUE'}` : '';
    return { left: `${short}--${name}${value}`, right: spec.description + (spec.multiple ? ' (repeatable)' : '') };
  });
  const width = Math.max(...flags.map((f) => f.left.length));
  return [
    `Usage: ${command.usage}`,
    '',
    command.summary,
    '',
    'Options:',
    ...flags.map((f) => `  ${f.left.padEnd(width)}  ${f.right}`),
    '',
    'Examples:',
    ...command.examples.map((e) => `  ${e}`),
    '',
  ].join('\n');
}
