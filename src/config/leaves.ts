/**
 * The settings of `ConfigSchema` as a flat list of leaves, each with the names it has outside a file: the CLI flag
 * (`--position-threshold`) and the environment variable (`RECKON_EMITTER_POSITION_THRESHOLD`). Derived from the
 * schema, so a new setting gets its flag and variable without further code.
 */
import type { z } from 'zod';
import { ConfigSchema, type ConfigSection } from './schema.js';

/** How a leaf's text (from a flag or the environment) is turned into the value the schema expects. */
export type LeafKind = 'number' | 'boolean' | 'string' | 'list' | 'numberList' | 'object';

export interface ConfigLeaf {
  readonly section: ConfigSection;
  readonly key: string;
  /** `section.key`, as in error messages. */
  readonly path: string;
  /** Flag name without dashes, e.g. `position-threshold`. */
  readonly flag: string;
  /** e.g. `RECKON_EMITTER_POSITION_THRESHOLD`. */
  readonly env: string;
  readonly kind: LeafKind;
  readonly description: string;
  readonly example: unknown;
  /** The value when nothing sets it (undefined for optional settings). */
  readonly defaultValue: unknown;
}

type AnySchema = z.ZodType & { def: { type: string; innerType?: AnySchema; element?: AnySchema } };

function unwrap(schema: AnySchema): AnySchema {
  let s = schema;
  while ((s.def.type === 'default' || s.def.type === 'optional') && s.def.innerType) s = s.def.innerType;
  return s;
}

function kindOf(schema: AnySchema): LeafKind {
  const inner = unwrap(schema);
  switch (inner.def.type) {
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'record':
      return 'object';
    case 'array':
      return unwrap(inner.def.element!).def.type === 'number' ? 'numberList' : 'list';
    default:
      return 'string'; // strings, enums and quantities (which parse their own text)
  }
}

const kebab = (s: string) => s.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
const upperSnake = (s: string) => s.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase();

function buildLeaves(): ConfigLeaf[] {
  const leaves: ConfigLeaf[] = [];
  const defaults = ConfigSchema.parse({}) as Record<string, Record<string, unknown>>;
  for (const [section, sectionSchema] of Object.entries(ConfigSchema.shape)) {
    const shape = (unwrap(sectionSchema as AnySchema) as unknown as z.ZodObject).shape;
    for (const [key, leafSchema] of Object.entries(shape)) {
      const meta = (leafSchema as z.ZodType).meta() ?? {};
      leaves.push({
        section: section as ConfigSection,
        key,
        path: `${section}.${key}`,
        flag: kebab(key),
        env: `RECKON_${upperSnake(section)}_${upperSnake(key)}`,
        kind: kindOf(leafSchema as AnySchema),
        description: String(meta.description ?? ''),
        example: (meta.examples as unknown[] | undefined)?.[0],
        defaultValue: defaults[section]![key],
      });
    }
  }
  return leaves;
}

/** Every setting, in schema order. */
export const CONFIG_LEAVES: readonly ConfigLeaf[] = buildLeaves();

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
      const items = parts.flatMap((p) => p.split(',')).map((s) => s.trim()).filter((s) => s !== '');
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
