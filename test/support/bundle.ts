// A TypeScript entry (an example, a script) bundled by esbuild — the transform tsx applies — into one ES module
// under node_modules/.cache, its packages left to node_modules: plain `node` then loads one file instead of every
// source module through tsx's hooks (about 0.9 core-s a start instead of 2).
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type Plugin } from 'esbuild';
import { ROOT } from './binary.js';

const OUT = join(ROOT, 'node_modules/.cache/reckon-test-bundles');
const built = new Map<string, Promise<string>>();

/** Imports of src/ left to the built package in dist/, as a consumer of it loads them. */
const srcFromDist: Plugin = {
  name: 'src-from-dist',
  setup(build) {
    build.onResolve({ filter: /^\.\.?\// }, (args) => {
      const path = relative(join(ROOT, 'src'), resolve(args.resolveDir, args.path));
      if (path.startsWith('..')) return undefined;
      return { path: pathToFileURL(join(ROOT, 'dist', path.replace(/\.ts$/, '.js'))).href, external: true };
    });
  },
};

/**
 * The path of `entry` (relative to the repository) bundled; built once per test file. `import.meta.url` stays the
 * entry's own, so files it names relative to itself are found as when it runs from source. With `dist`, what it
 * imports from src/ is loaded from the build instead (for code that starts workers by its own module's URL).
 */
export function bundled(entry: string, options: { dist?: boolean } = {}): Promise<string> {
  const source = resolve(ROOT, entry);
  const key = `${source}${options.dist ? ' dist' : ''}`;
  let file = built.get(key);
  if (!file) built.set(key, (file = bundle(entry, source, options.dist === true)));
  return file;
}

async function bundle(entry: string, source: string, dist: boolean): Promise<string> {
  const result = await build({
    entryPoints: [source],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    define: { 'import.meta.url': JSON.stringify(pathToFileURL(source).href) },
    write: false,
    logLevel: 'silent',
    plugins: dist ? [srcFromDist] : [],
  });
  mkdirSync(OUT, { recursive: true });
  const code = result.outputFiles[0]!.contents;
  // Named by content, so test files bundling the same entry at once share one file, written whole or not at all.
  const hash = createHash('sha256').update(code).digest('hex').slice(0, 16);
  const name = `${basename(entry).replace(/\.ts$/, '')}${dist ? '-dist' : ''}`;
  const file = join(OUT, `${name}-${hash}.mjs`);
  if (!existsSync(file)) {
    writeFileSync(`${file}.${process.pid}.tmp`, code);
    renameSync(`${file}.${process.pid}.tmp`, file);
    // Bundles of older sources of the entry go: the folder holds one per entry.
    const older = new RegExp(`^${name}-[0-9a-f]{16}\\.mjs$`);
    for (const f of readdirSync(OUT)) if (older.test(f) && join(OUT, f) !== file) rmSync(join(OUT, f), { force: true });
  }
  return file;
}
