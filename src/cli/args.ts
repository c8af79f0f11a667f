import { closestName } from '../config/suggest.js';
import type { FlagSpec, FlagValues, ParsedArgs, UsageProblem } from './command.js';

/** Flags every command accepts. */
export const COMMON_FLAGS: Readonly<Record<string, FlagSpec>> = {
  help: { type: 'boolean', short: 'h', description: 'Show this help.' },
};

/**
 * Parses `argv` against flag specs. Pure: reports every problem instead of throwing at the first one.
 * Accepts `--name value`, `--name=value`, `-x value`, `--no-name` for booleans and `--` to end flags.
 */
export function parseArgs(
  argv: readonly string[],
  specs: Readonly<Record<string, FlagSpec>>,
): { args: ParsedArgs; problems: UsageProblem[] } {
  const all = { ...COMMON_FLAGS, ...specs };
  const byShort = new Map<string, string>();
  for (const [name, spec] of Object.entries(all)) if (spec.short) byShort.set(spec.short, name);

  const flags: FlagValues = {};
  const positionals: string[] = [];
  const problems: UsageProblem[] = [];

  for (let i = 0; i < argv.length; i++) {
    const token = argv[i]!;
    if (token === '--') {
      for (const arg of argv.slice(i + 1)) positionals.push(arg);
      break;
    }
    let name: string | undefined;
    let inline: string | undefined;
    if (token.startsWith('--')) {
      const eq = token.indexOf('=');
      name = eq === -1 ? token.slice(2) : token.slice(2, eq);
      inline = eq === -1 ? undefined : token.slice(eq + 1);
    } else if (token.startsWith('-') && token.length === 2 && token !== '-') {
      name = byShort.get(token[1]!) ?? token.slice(1);
    } else {
      positionals.push(token);
      continue;
    }

    let spec = all[name];
    let negated = false;
    if (!spec && name.startsWith('no-') && all[name.slice(3)]?.type === 'boolean') {
      name = name.slice(3);
      spec = all[name];
      negated = true;
    }
    if (!spec) {
      // An unknown `-p` is reported as typed, not as `--p`, with the long flags it may stand for.
      const short = !token.startsWith('--');
      const closest = short ? undefined : closestName(name, Object.keys(all));
      const starting = short
        ? Object.keys(all)
            .filter((n) => n.startsWith(name))
            .slice(0, 4)
        : [];
      const guess = closest ? `--${closest}` : starting.map((n) => `--${n}`).join(' or ');
      problems.push({
        path: short ? token : `--${name}`,
        message: `unknown flag${guess ? ` (did you mean ${guess}?)` : ''}`,
      });
      // `--sped 2`: the value belongs to the misspelt flag, not to the positionals (unless it looks like a boolean).
      const next = argv[i + 1];
      if (inline === undefined && next !== undefined && !next.startsWith('-') && all[closest ?? '']?.type !== 'boolean')
        i++;
      continue;
    }
    if (spec.type === 'boolean') {
      if (inline !== undefined && inline !== 'true' && inline !== 'false') {
        problems.push({ path: `--${name}`, message: `takes no value (or =true/=false), got "${inline}"` });
        continue;
      }
      flags[name] = negated ? false : inline !== 'false';
      continue;
    }
    let value = inline;
    if (value === undefined) {
      const next = argv[i + 1];
      if (next === undefined || (next.startsWith('--') && next.length > 2)) {
        problems.push({ path: `--${name}`, message: `needs a value${spec.value ? ` (${spec.value})` : ''}` });
        continue;
      }
      value = next;
      i++;
    }
    if (spec.multiple) {
      const prior = flags[name];
      flags[name] = Array.isArray(prior) ? [...prior, value] : [value];
    } else {
      flags[name] = value;
    }
  }
  return { args: { positionals, flags }, problems };
}

/** Reads a string flag, or undefined. */
export function stringFlag(flags: FlagValues, name: string): string | undefined {
  const v = flags[name];
  return typeof v === 'string' ? v : Array.isArray(v) ? v[v.length - 1] : undefined;
}

/** Reads a boolean flag (absent = false). */
export function booleanFlag(flags: FlagValues, name: string): boolean {
  return flags[name] === true;
}
