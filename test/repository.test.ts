// Guards on the tree itself: compiled output belongs in dist/, never beside the sources, where an import of
// './x.js' from a test would silently pick a stale build instead of x.ts.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)],
  );
}

describe('repository', () => {
  it('has no compiled JavaScript beside the TypeScript sources in src/', () => {
    const root = new URL('../src', import.meta.url).pathname;
    expect(files(root).filter((f) => /\.(js|js\.map)$|\.d\.ts$/.test(f))).toEqual([]);
  });
});

/** Names marked `@deprecated` in a source file's JSDoc: the member or function declared right after the comment. */
function deprecatedNames(source: string): string[] {
  const names: string[] = [];
  for (const m of source.matchAll(/\/\*\*(?:(?!\*\/)[\s\S])*@deprecated(?:(?!\*\/)[\s\S])*\*\/\s*([^\n]*)/g)) {
    const name = /(?:get |set |function |const |let )?([A-Za-z_$][\w$]*)\s*[(:=<]/.exec(
      m[1]!.replace(/^(export |static |readonly |public |async )+/g, ''),
    );
    if (name) names.push(name[1]!);
  }
  return names;
}

describe('deprecated names', () => {
  const tree = ['src', 'bench', 'examples', 'scripts']
    .flatMap((dir) => files(new URL(`../${dir}`, import.meta.url).pathname))
    .filter((f) => f.endsWith('.ts') && !f.includes('/vendor/'));
  const sources = new Map(tree.map((f) => [f, readFileSync(f, 'utf8')]));

  it('finds the name a deprecation comment is on', () => {
    const source =
      '/** @deprecated use `b`. */\n  get models(): X {\n/**\n * A.\n * @deprecated since 2.\n */\nexport function old(x) {}';
    expect(deprecatedNames(source)).toEqual(['models', 'old']);
  });

  it('are not used inside the project', () => {
    const uses: string[] = [];
    for (const [file, source] of sources) {
      for (const name of deprecatedNames(source)) {
        for (const [other, text] of sources) {
          const calls = text.match(new RegExp(`\\.${name.replace(/\$/g, '\\$')}\\b`, 'g')) ?? [];
          if (calls.length > 0) uses.push(`${other}: .${name} (deprecated in ${file})`);
        }
      }
    }
    expect(uses).toEqual([]);
  });
});

/** Generated files, which may be as long as their data. */
const GENERATED = ['src/config/setting-leaves.generated.ts', 'src/names/siso-data.generated.ts'];
/** Files not yet split along their concerns, and the length each may not grow past. */
const NOT_YET_SPLIT: Readonly<Record<string, number>> = {};

describe('file sizes', () => {
  it('no source file is over 600 lines but the generated ones (one concern per file)', () => {
    const root = new URL('..', import.meta.url).pathname;
    const over = files(join(root, 'src'))
      .filter((f) => /\.(ts|mjs|css|html)$/.test(f))
      .map((f) => ({ file: f.slice(root.length), lines: readFileSync(f, 'utf8').split('\n').length - 1 }))
      .filter(({ file, lines }) => lines > (NOT_YET_SPLIT[file] ?? 600) && !GENERATED.includes(file))
      .map(({ file, lines }) => `${file}: ${lines} lines`);
    expect(over).toEqual([]);
  });
});
