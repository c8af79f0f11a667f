/**
 * The settings of `ConfigSchema` as a flat list of leaves, each with the names it has outside a file: the CLI flag
 * (`--position-threshold`) and the environment variable (`RECKON_EMITTER_POSITION_THRESHOLD`). The list is a
 * table generated from the schema (`scripts/config-leaves.ts` renders `setting-leaves.generated.ts`), so that
 * flags are known without loading zod, and a new setting gets its flag and variable without further code.
 */
import type { ConfigLeaf } from './setting-leaf.js';
import { CONFIG_LEAVES } from './setting-leaves.generated.js';

export { CONFIG_LEAVES };
export type { ConfigLeaf, LeafKind } from './setting-leaf.js';

/** The leaf a dotted path (`network.port`, or deeper such as `filter.allowSources.1`) belongs to. */
export function leafOfPath(path: readonly PropertyKey[]): ConfigLeaf | undefined {
  return CONFIG_LEAVES.find((l) => l.section === path[0] && l.key === path[1]);
}

const NUMBER = /^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i;
const TRUE = new Set(['true', '1', 'yes', 'on']);
const FALSE = new Set(['false', '0', 'no', 'off']);

/**
 * Turns the text of a flag or environment variable into the input the schema expects. Text that does not fit
 * is passed through unchanged, so that validation reports it with the setting's path and an example.
 * @param text - one value, or several (a repeated flag); lists also split on commas.
 */
export function leafValueFromText(leaf: ConfigLeaf, text: string | readonly string[]): unknown {
  const parts = typeof text === 'string' ? [text] : text;
  const last = parts[parts.length - 1]!.trim();
  const toNumber = (s: string) => (NUMBER.test(s) ? Number(s) : s);
  switch (leaf.kind) {
    case 'number':
      return toNumber(last);
    case 'boolean':
      return TRUE.has(last.toLowerCase()) ? true : FALSE.has(last.toLowerCase()) ? false : last;
    case 'list':
    case 'numberList': {
      const items = parts
        .flatMap((p) => p.split(','))
        .map((s) => s.trim())
        .filter((s) => s !== '');
      return leaf.kind === 'numberList' ? items.map(toNumber) : items;
    }
    case 'object':
      try {
        return JSON.parse(last) as unknown;
      } catch {
        return last;
      }
    default:
      return last;
  }
}
