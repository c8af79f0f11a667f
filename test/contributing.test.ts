// CONTRIBUTING.md stays true to the tree (its commands, paths and test files exist), and test helpers used by more
// than one folder live in test/support/, where it says they do.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './support/binary.js';
import { slowestFiles, slowFiles } from './support/slowest-first.js';

const guide = readFileSync(join(ROOT, 'CONTRIBUTING.md'), 'utf8');
const scripts = Object.keys(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts as object);

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)],
  );
}

/** The folder a test-tree file belongs to: its first folder under test/, or the top folder (bench, scripts). */
function owner(file: string): string {
  const parts = relative(ROOT, file).split('/');
  return parts[0] === 'test' && parts.length > 2 ? `test/${parts[1]}` : parts[0]!;
}

describe('CONTRIBUTING.md', () => {
  it('names only npm scripts that package.json has', () => {
    const named = [...guide.matchAll(/npm run ([a-z][\w-]*)/g)].map((m) => m[1]!);
    expect(named.length).toBeGreaterThan(5);
    expect(named.filter((name) => !scripts.includes(name))).toEqual([]);
  });

  it('names only files and folders that exist', () => {
    const paths = [...guide.matchAll(/`((?:src|test|scripts|docs|schemas|bench|data|examples)\/[^`\s*]*)/g)].map((m) =>
      m[1]!.replace(/\/$/, ''),
    );
    expect(paths.length).toBeGreaterThan(10);
    expect(paths.filter((path) => !existsSync(join(ROOT, path)))).toEqual([]);
  });

  it('points to the list of the slowest test files, which holds their times', () => {
    expect(guide).toContain('`test/support/slowest-files.json`');
    const rows = slowFiles(ROOT);
    expect(rows.length).toBeGreaterThanOrEqual(10);
    expect(rows.map((r) => r.file).filter((file) => !/^test\/.+\.test\.ts$/.test(file))).toEqual([]);
    expect(rows.map((r) => r.file).filter((file) => !existsSync(join(ROOT, file)))).toEqual([]);
    expect(new Set(rows.map((r) => r.file)).size).toBe(rows.length);
    expect(rows.filter((r) => r.aloneCpuSeconds !== null && !(r.aloneCpuSeconds > 0))).toEqual([]);
    expect(rows.filter((r) => r.what.length === 0)).toEqual([]);
    // The order vitest starts them in (test/support/slowest-first.ts): slowest first.
    const seconds = rows.map((r) => r.fullRunSeconds);
    expect(seconds.every((t) => Number.isFinite(t))).toBe(true);
    expect(seconds).toEqual([...seconds].sort((a, b) => b - a));
    expect(slowestFiles(ROOT)).toEqual(rows.map((r) => r.file));
  });
});

describe('test helpers', () => {
  it('used by more than one folder live in test/support/', () => {
    const importers = ['test', 'bench', 'scripts']
      .flatMap((dir) => files(join(ROOT, dir)))
      .filter((f) => /\.(ts|mts|mjs)$/.test(f));
    const strays: string[] = [];
    for (const file of importers) {
      for (const m of readFileSync(file, 'utf8').matchAll(/(?:from |import\()'(\.[^']+)\.js'/g)) {
        const target = resolve(dirname(file), m[1]!);
        const inTests = relative(join(ROOT, 'test'), target);
        if (inTests.startsWith('..') || /^(support|fixtures)\//.test(inTests) || !existsSync(`${target}.ts`)) continue;
        if (owner(file) !== owner(`${target}.ts`)) strays.push(`${relative(ROOT, file)} imports test/${inTests}`);
      }
    }
    expect(strays).toEqual([]);
  });
});
