// The paths the texts name exist: each backticked path of this repository (`src/…`, `test/…`, `scripts/…`,
// `bench/…`, or a file under a folder of src/ written as `dr/models/store.ts`) in docs/, README.md and CONTRIBUTING.md,
// and each such path in a comment of src/. A renamed or split file otherwise leaves its old name behind.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('..', import.meta.url).pathname;

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)],
  );
}

const SRC_FOLDERS = readdirSync(join(ROOT, 'src'), { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => e.name);

/** Other projects' files, cited by docs/dis-reference.md with their own repository's paths. */
const FOREIGN = /\.(java|cpp|hpp|h|c|py|js)$/;

/** A path as the repository holds it: `src/` before a short form, no `:line` or `#anchor`, no wildcard part. */
function repositoryPath(written: string): string | undefined {
  const path = written.replace(/[:#].*$/, '').replace(/\/$/, '');
  if (FOREIGN.test(path)) return undefined;
  const full = /^(src|test|scripts|bench)(\/|$)/.test(path) ? path : `src/${path}`;
  const wildcard = full.split('/').findIndex((part) => /[*…]|^\.\.\.$/.test(part));
  return wildcard < 0 ? full : full.split('/').slice(0, wildcard).join('/');
}

const LONG = String.raw`(?:src|test|scripts|bench)/[^\s\`'"),;]*`;
const SHORT = String.raw`(?:${SRC_FOLDERS.join('|')})/[\w./-]*\.(?:ts|mjs|css|html)`;

/** The repository paths a Markdown text names in backticks, each with its line. */
function markdownPaths(text: string): { line: number; path: string }[] {
  const found: { line: number; path: string }[] = [];
  const pattern = new RegExp(`\`(${LONG}|${SHORT})\``, 'g');
  text.split('\n').forEach((line, i) => {
    for (const m of line.matchAll(pattern)) found.push({ line: i + 1, path: m[1]! });
  });
  return found;
}

/** The repository paths the comments of a source file name, backticked or not, each with its line. */
function commentPaths(text: string): { line: number; path: string }[] {
  const found: { line: number; path: string }[] = [];
  const pattern = new RegExp(`(?<![\\w./-])(${LONG}|${SHORT})`, 'g');
  let inBlock = false;
  text.split('\n').forEach((line, i) => {
    let comment = '';
    if (inBlock) comment = line;
    else {
      const at = /\/\/|\/\*/.exec(line);
      if (at) comment = line.slice(at.index);
      inBlock = at?.[0] === '/*';
    }
    if (inBlock && line.includes('*/')) inBlock = /\/\*(?!.*\*\/)/.test(line.slice(line.lastIndexOf('*/')));
    for (const m of comment.matchAll(pattern)) found.push({ line: i + 1, path: m[1]!.replace(/\.$/, '') });
  });
  return found;
}

const missing = (file: string, paths: { line: number; path: string }[]) =>
  paths
    .map(({ line, path }) => ({ line, path, at: repositoryPath(path) }))
    .filter(({ at }) => at !== undefined && !existsSync(join(ROOT, at)))
    .map(({ line, path }) => `${file}:${line}: ${path}`);

describe('paths named in the texts', () => {
  it('exist, in docs/, README.md and CONTRIBUTING.md', () => {
    const texts = [
      ...readdirSync(join(ROOT, 'docs'))
        .filter((f) => f.endsWith('.md'))
        .map((f) => `docs/${f}`),
      'README.md',
      'CONTRIBUTING.md',
    ];
    const named = texts.map((file) => ({ file, paths: markdownPaths(readFileSync(join(ROOT, file), 'utf8')) }));
    expect(named.reduce((n, { paths }) => n + paths.length, 0)).toBeGreaterThan(100);
    expect(named.flatMap(({ file, paths }) => missing(file, paths))).toEqual([]);
  });

  it('exist, in the comments of src/', () => {
    const sources = files(join(ROOT, 'src'))
      .filter((f) => /\.(ts|mjs|css)$/.test(f))
      .map((f) => f.slice(ROOT.length));
    const named = sources.map((file) => ({ file, paths: commentPaths(readFileSync(join(ROOT, file), 'utf8')) }));
    expect(named.reduce((n, { paths }) => n + paths.length, 0)).toBeGreaterThan(20);
    expect(named.flatMap(({ file, paths }) => missing(file, paths))).toEqual([]);
  });

  it("include every folder of src/ in the README's layout", () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const layout = readme.slice(readme.indexOf('## Layout'), readme.indexOf('## ', readme.indexOf('## Layout') + 3));
    const listed = [...layout.matchAll(/^src\/(\w+) /gm)].map((m) => m[1]!);
    expect(SRC_FOLDERS.filter((folder) => !listed.includes(folder))).toEqual([]);
  });

  it('are found in backticks and comments, and missing ones are reported', () => {
    const doc =
      'See `src/dr/models/store.ts:12`, `dr/nowhere.ts`, `test/**/*.test.ts` and ODJ `src/dis7/Timestamp.js`.';
    expect(markdownPaths(doc).map(({ path }) => repositoryPath(path))).toEqual([
      'src/dr/models/store.ts',
      'src/dr/nowhere.ts',
      'test',
      undefined,
    ]);
    expect(missing('x.md', markdownPaths(doc))).toEqual(['x.md:1: dr/nowhere.ts']);
    const source = [
      "const url = 'src/not/a/comment.ts';",
      '// the table of src/dr/models/store.ts.',
      '/** Methods of `dr/smoothing.ts`,',
      ' * and scripts/gone.ts */',
      "const s = 'test/not/either.ts';",
    ].join('\n');
    expect(commentPaths(source)).toEqual([
      { line: 2, path: 'src/dr/models/store.ts' },
      { line: 3, path: 'dr/smoothing.ts' },
      { line: 4, path: 'scripts/gone.ts' },
    ]);
  });
});
