// The names each entry point of package.json "exports" gives a consumer, read from the built package: the values
// from the module namespace of dist/…/index.js, the types from its .d.ts. Kept in test/fixtures/api/<entry>.txt.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** Where the golden lists live, relative to the repository. */
export const API_DIR = 'test/fixtures/api';

interface EntryPoint {
  /** `reckon`, `reckon/pdu`, … */
  readonly specifier: string;
  /** `reckon`, `pdu`, …: the name of its list in API_DIR. */
  readonly file: string;
  readonly js: string;
  readonly dts: string;
}

/** The entry points of the package, from package.json "exports". */
export function entryPoints(root: string): EntryPoint[] {
  const exportsField = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).exports as Record<
    string,
    string | { types: string; default: string }
  >;
  return Object.entries(exportsField).flatMap(([key, target]) =>
    typeof target === 'string'
      ? []
      : [
          {
            specifier: key === '.' ? 'reckon' : `reckon/${key.slice(2)}`,
            file: key === '.' ? 'reckon' : key.slice(2).replaceAll('/', '-'),
            js: join(root, target.default),
            dts: join(root, target.types),
          },
        ],
  );
}

/**
 * The names a declaration file exports. The entry points list their names (`export { a, type B } from …`); an
 * `export *` would hide what it adds, so it is refused.
 */
function declaredNames(dts: string): string[] {
  const text = readFileSync(dts, 'utf8');
  if (/^export \*(?! as )/m.test(text)) throw new Error(`${dts}: export * hides the names it exports; list them`);
  const names: string[] = [];
  for (const m of text.matchAll(/^export (?:type )?\{([^}]*)\}/gm))
    for (const item of m[1]!.split(',')) {
      const name = item
        .trim()
        .replace(/^type /, '')
        .split(/\s+as\s+/)
        .at(-1)!;
      if (name) names.push(name);
    }
  for (const m of text.matchAll(/^export \* as (\w+)/gm)) names.push(m[1]!);
  for (const m of text.matchAll(
    /^export (?:declare )?(?:abstract )?(?:const|let|function|class|interface|type|enum|namespace) (\w+)/gm,
  ))
    names.push(m[1]!);
  return names;
}

/** Each entry point's list: a header line, then one name a line, values first, types as `type Name`. */
export async function apiSurface(root: string): Promise<Map<string, string>> {
  const entries = entryPoints(root);
  const lists = new Map<string, string>();
  for (const entry of entries) {
    const values = Object.keys(await import(pathToFileURL(entry.js).href)).sort();
    const valueSet = new Set(values);
    const types = [...new Set(declaredNames(entry.dts))].filter((n) => !valueSet.has(n)).sort();
    lists.set(
      entry.file,
      [
        `# ${entry.specifier}: ${values.length} values, ${types.length} types (npm run api)`,
        ...values,
        ...types.map((n) => `type ${n}`),
        '',
      ].join('\n'),
    );
  }
  return lists;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { mkdirSync, readdirSync, rmSync, writeFileSync } = await import('node:fs');
  const root = join(import.meta.dirname, '..');
  const dir = join(root, API_DIR);
  mkdirSync(dir, { recursive: true });
  for (const old of readdirSync(dir)) rmSync(join(dir, old));
  for (const [file, text] of await apiSurface(root)) {
    writeFileSync(join(dir, `${file}.txt`), text);
    console.log(text.split('\n')[0]);
  }
}
