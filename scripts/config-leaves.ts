/**
 * Derives the flat list of settings (`ConfigLeaf`) from `ConfigSchema`, and renders it as the static table
 * src/config/setting-leaves.generated.ts, which commands read for their flags without loading zod (`reckon <command>
 * --help` stays light). A test fails when the table is stale; `npm run config-leaves`
 * (scripts/generate-config-leaves.ts) rewrites it.
 */
import type { z } from 'zod';
import type { ConfigLeaf, LeafKind } from '../src/config/setting-leaf.js';
import { ConfigSchema, type ConfigSection } from '../src/config/schema.js';
import { DIMENSIONS, readQuantity, type Dimension } from '../src/config/units.js';

export const GENERATED_FILE = 'src/config/setting-leaves.generated.ts';

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

/** Every setting of the schema, in schema order, with its flag, environment variable, kind, text and default. */
export function deriveConfigLeaves(): ConfigLeaf[] {
  const leaves: ConfigLeaf[] = [];
  const defaults = ConfigSchema.parse({}) as Record<string, Record<string, unknown>>;
  for (const [section, sectionSchema] of Object.entries(ConfigSchema.shape)) {
    const shape = (unwrap(sectionSchema as AnySchema) as unknown as z.ZodObject).shape;
    for (const [key, leafSchema] of Object.entries(shape)) {
      const meta = (leafSchema as z.ZodType).meta() ?? {};
      const leaf: ConfigLeaf = {
        section: section as ConfigSection,
        key,
        path: `${section}.${key}`,
        // A flag name of its own where the key alone would be ambiguous (`nats.servers` ↔ `--nats`).
        flag: typeof meta.flag === 'string' ? meta.flag : kebab(key),
        env: `RECKON_${upperSnake(section)}_${upperSnake(key)}`,
        kind: kindOf(leafSchema as AnySchema),
        description: String(meta.description ?? ''),
        example: (meta.examples as unknown[] | undefined)?.[0],
      };
      const defaultValue = defaults[section]![key];
      const text = defaultText(defaultValue, leaf.example);
      if (defaultValue === undefined) leaves.push(leaf);
      else leaves.push({ ...leaf, defaultValue, ...(text === undefined ? {} : { defaultText: text }) });
    }
  }
  return leaves;
}

/**
 * The default as `--help` shows it: a quantity in the unit of the setting's example (`3 deg`, not 0.0524 rad), a
 * list as the comma-separated text a flag takes; none for objects and booleans (their help says on or off).
 */
function defaultText(value: unknown, example: unknown): string | undefined {
  if (Array.isArray(value)) return value.length === 0 ? 'none' : value.join(',');
  if (typeof value === 'string') return value;
  if (typeof value !== 'number') return undefined;
  const unit = typeof example === 'string' ? /^[-+]?[\d.]+(?:e[-+]?\d+)?\s*(\S.*)$/i.exec(example)?.[1] : undefined;
  for (const dimension of Object.keys(DIMENSIONS) as Dimension[]) {
    const one = unit === undefined ? undefined : readQuantity(`1 ${unit}`, dimension);
    if (one?.ok) return `${Number((value / one.value).toPrecision(4))} ${unit}`;
  }
  return String(value);
}

/** The TypeScript source of `setting-leaves.generated.ts` for these leaves. */
export function renderLeafTable(leaves: readonly ConfigLeaf[] = deriveConfigLeaves()): string {
  return [
    '// Generated from ConfigSchema by scripts/config-leaves.ts (`npm run config-leaves`); do not edit.',
    "import type { ConfigLeaf } from './setting-leaf.js';",
    '',
    '/** Every setting, in schema order. */',
    `export const CONFIG_LEAVES: readonly ConfigLeaf[] = ${JSON.stringify(leaves, null, 2)};`,
    '',
  ].join('\n');
}
