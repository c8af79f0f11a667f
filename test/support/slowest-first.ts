/**
 * vitest's file order: the slowest files of CONTRIBUTING.md's table ("The slowest test files") first, in its order,
 * then vitest's own (files it has no times for by size). The workers take files as they finish others, so a long
 * file started last would run alone at the end; a clean clone has no times of its own.
 */
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** The test files of CONTRIBUTING.md's slowest-files table, in its order. */
export function slowestFiles(guide: string): string[] {
  const table = guide.slice(guide.indexOf('### The slowest test files'));
  return [...table.matchAll(/^\| `(test\/[^`]+\.test\.ts)` \|/gm)].map((m) => m[1]!);
}

export default class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const order = slowestFiles(readFileSync(join(root, 'CONTRIBUTING.md'), 'utf8'));
    const rank = (file: TestSpecification) => {
      const i = order.indexOf(relative(root, file.moduleId).split('\\').join('/'));
      return i < 0 ? order.length : i;
    };
    const sorted = await super.sort(files);
    return sorted
      .map((file, i) => ({ file, i, rank: rank(file) }))
      .sort((a, b) => a.rank - b.rank || a.i - b.i)
      .map(({ file }) => file);
  }
}
