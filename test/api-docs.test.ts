// Every name a consumer can import (the entry points of package.json "exports") carries JSDoc where it is declared,
// so an editor shows what it is on hover; generated files are exempt (their generator writes the data only).
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('..', import.meta.url).pathname;
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');

/** The names a module re-exports (`export { a, b as c } from './x.js'`), each with the file it comes from. */
function reExports(file: string): Array<{ name: string; from: string }> {
  const out: Array<{ name: string; from: string }> = [];
  for (const m of read(file).matchAll(/export\s+(?:type\s+)?\{([^}]*)\}\s+from\s+'(\.[^']+)'/g)) {
    const from = join(dirname(file), m[2]!.replace(/\.js$/, '.ts'));
    for (const part of m[1]!.split(',')) {
      const name = part
        .trim()
        .replace(/^type\s+/, '')
        .split(/\s+as\s+/)[0]!
        .trim();
      if (name) out.push({ name, from });
    }
  }
  return out;
}

/** Where a name exported as `import { a } from './x.js'; export { a };` comes from. */
function imported(file: string, name: string): { name: string; from: string } | undefined {
  for (const m of read(file).matchAll(/import\s+(?:type\s+)?\{([^}]*)\}\s+from\s+'(\.[^']+)'/g)) {
    const names = m[1]!.split(',').map((part) => part.trim().replace(/^type\s+/, ''));
    if (names.includes(name)) return { name, from: join(dirname(file), m[2]!.replace(/\.js$/, '.ts')) };
  }
  return undefined;
}

/** Where `name` is declared, following re-exports, and whether a JSDoc comment comes right before it. */
function declaration(file: string, name: string, depth = 0): { file: string; documented: boolean } | undefined {
  if (depth > 8) return undefined;
  const source = read(file);
  const m = new RegExp(
    `^export\\s+(?:declare\\s+)?(?:abstract\\s+)?(?:async\\s+)?(?:function\\*?|class|const|let|interface|type|enum)\\s+${name}\\b`,
    'm',
  ).exec(source);
  if (m) return { file, documented: /\/\*\*(?:(?!\*\/)[\s\S])*\*\/\s*$/.test(source.slice(0, m.index)) };
  const via = reExports(file).find((e) => e.name === name) ?? imported(file, name);
  return via ? declaration(via.from, name, depth + 1) : undefined;
}

const exportsField = JSON.parse(read('package.json')).exports as Record<string, { default?: string } | string>;
const entries = Object.values(exportsField)
  .map((e) => (typeof e === 'object' ? e.default : undefined))
  .filter((e): e is string => e?.startsWith('./dist/') === true)
  .map((e) => `src/${e.slice('./dist/'.length).replace(/\.js$/, '.ts')}`);

describe('public API documentation', () => {
  it('finds a JSDoc comment before a declaration, and its absence', () => {
    expect(/\/\*\*(?:(?!\*\/)[\s\S])*\*\/\s*$/.test('/** A. */\n')).toBe(true);
    expect(/\/\*\*(?:(?!\*\/)[\s\S])*\*\/\s*$/.test('/** A. */\nconst b = 1;\n')).toBe(false);
  });

  it('has JSDoc on every exported name of every entry point', () => {
    expect(entries.length).toBeGreaterThan(5);
    const undocumented: string[] = [];
    for (const entry of entries) {
      for (const { name, from } of reExports(entry)) {
        const found = declaration(from, name);
        if (found === undefined) undocumented.push(`${entry}: ${name} (declaration not found)`);
        else if (!found.documented && !found.file.includes('.generated.'))
          undocumented.push(`${entry}: ${name} (${found.file})`);
      }
    }
    expect(undocumented).toEqual([]);
  });
});
