// A TypeScript entry (an example, a script) bundled by esbuild — the transform tsx applies — into one ES module
// under node_modules/.cache, its packages left to node_modules: plain `node` then loads one file instead of every
// source module through tsx's hooks (about 0.9 core-s a start instead of 2).
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildSync } from 'esbuild';
import { ROOT } from './binary.js';

const OUT = join(ROOT, 'node_modules/.cache/reckon-test-bundles');
const built = new Map<string, string>();

/**
 * The path of `entry` (relative to the repository) bundled; built once per test file. `import.meta.url` stays the
 * entry's own, so files it names relative to itself are found as when it runs from source.
 */
export function bundled(entry: string): string {
  const source = resolve(ROOT, entry);
  const known = built.get(source);
  if (known) return known;
  const result = buildSync({
    entryPoints: [source],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    define: { 'import.meta.url': JSON.stringify(pathToFileURL(source).href) },
    write: false,
    logLevel: 'silent',
  });
  mkdirSync(OUT, { recursive: true });
  const code = result.outputFiles[0]!.contents;
  // Named by content, so test files bundling the same entry at once share one file, written whole or not at all.
  const hash = createHash('sha256').update(code).digest('hex').slice(0, 16);
  const file = join(OUT, `${basename(entry).replace(/\.ts$/, '')}-${hash}.mjs`);
  if (!existsSync(file)) {
    writeFileSync(`${file}.${process.pid}.tmp`, code);
    renameSync(`${file}.${process.pid}.tmp`, file);
  }
  built.set(source, file);
  return file;
}
