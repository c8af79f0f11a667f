/**
 * vitest's file order: the slowest files of `test/support/slowest-files.json` first, in its order, then vitest's own
 * (files it has no times for by size). The workers take files as they finish others, so a long file started last
 * would run alone at the end; a clean clone has no times of its own.
 */
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** One file of the list: its time in the last full run, its CPU run alone (null if not measured), what takes it. */
export interface SlowFile {
  readonly file: string;
  readonly fullRunSeconds: number;
  readonly aloneCpuSeconds: number | null;
  readonly what: string;
}

/** The slowest test files, slowest first, as `test/support/slowest-files.json` holds them. */
export function slowFiles(root: string): SlowFile[] {
  const list = JSON.parse(readFileSync(join(root, 'test/support/slowest-files.json'), 'utf8')) as {
    files: SlowFile[];
  };
  return list.files;
}

/** The test files of the list, in its order. */
export function slowestFiles(root: string): string[] {
  return slowFiles(root).map((f) => f.file);
}

export default class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const order = slowestFiles(root);
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
