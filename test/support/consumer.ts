// A consumer project of the built package: a temporary directory whose node_modules/reckon is this repository, and
// a type check of modules in it (`tsc`, skipLibCheck off) as a user of the published package would run it.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { ROOT } from './binary.js';

export interface Consumer {
  readonly dir: string;
  /** Writes `text` to `file` (relative to the project, folders made as needed). */
  write(file: string, text: string): void;
  /**
   * Type-checks `files` (strict, skipLibCheck off) with the type packages `types` ('node' for @types/node); the
   * compiler's output, '' when clean.
   */
  compile(files: readonly string[], types: readonly string[]): string;
  remove(): void;
}

export function createConsumer(): Consumer {
  const dir = mkdtempSync(join(tmpdir(), 'reckon-consumer-'));
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(ROOT, join(dir, 'node_modules', 'reckon'), 'dir');
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  const write = (file: string, text: string) => {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), text);
  };
  return {
    dir,
    write,
    compile(files, types) {
      write(
        'tsconfig.json',
        JSON.stringify({
          compilerOptions: {
            target: 'ES2022',
            lib: ['ES2023', 'DOM'], // rxjs's timers and zod's URL need DOM where @types/node is absent
            module: 'NodeNext',
            moduleResolution: 'NodeNext',
            types,
            typeRoots: [join(ROOT, 'node_modules', '@types')],
            strict: true,
            skipLibCheck: false,
            noEmit: true,
          },
          files,
        }),
      );
      // One thread: the suite keeps both cores busy, and checking in parallel costs more CPU in all.
      const tsc = spawnSync(
        process.execPath,
        [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', dir, '--singleThreaded'],
        { encoding: 'utf8', timeout: 150_000 },
      );
      return tsc.stdout + tsc.stderr + (tsc.status === 0 ? '' : `exit ${tsc.status}`);
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
