// The dependency direction of docs/ARCHITECTURE.md, enforced: every import in src/ (static, `export … from`,
// dynamic `import('…')` and `typeof import('…')` alike) is mapped to the folders it joins and checked against the
// table below. A failure lists each forbidden import with its file and line. Adding an edge is a decision: change
// the table here and the one in docs/ARCHITECTURE.md together.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  findImports,
  importsOf,
  isNodeBuiltin,
  packageOf,
  sourceFiles,
  type ModuleImport,
} from './support/module-imports.js';

const ROOT = new URL('..', import.meta.url).pathname;

/** Files directly in src/ (the public index, the schema writer's entry): they may import every folder. */
const TOP = '(src)';

const FOLDERS = [
  'math',
  'compression',
  'pdu',
  'names',
  'dr',
  'lockstep',
  'pcap',
  'truth',
  'fixes',
  'files',
  'host',
  'config',
  'transport',
  'nats',
  'stream',
  'feeds',
  'cot',
  'view',
  'report',
  'experiment',
  'cli',
] as const;
type Folder = (typeof FOLDERS)[number] | typeof TOP;

const allBut = (...excluded: Folder[]): Folder[] => FOLDERS.filter((f) => !excluded.includes(f));

/** Which folders each folder may import (besides itself). */
const ALLOWED: Readonly<Record<Folder, readonly Folder[]>> = {
  math: [],
  compression: [],
  pdu: [],
  names: ['pdu'],
  dr: ['math', 'pdu'],
  lockstep: ['compression'],
  pcap: ['math', 'pdu'],
  truth: ['math', 'pdu', 'dr', 'pcap', 'files'],
  fixes: ['math', 'pdu', 'names', 'dr'],
  files: [],
  host: [],
  config: ['dr', 'files'],
  transport: ['pdu', 'config'],
  nats: ['math', 'pdu', 'dr', 'files', 'config', 'transport'],
  stream: ['math', 'pdu', 'names', 'dr', 'config', 'transport', 'nats', 'truth'],
  feeds: ['math', 'pdu', 'names', 'dr', 'fixes', 'stream'],
  cot: ['math', 'pdu', 'names', 'dr', 'stream'],
  view: ['math', 'pdu', 'names', 'dr', 'config', 'transport'],
  report: ['math', 'pdu', 'names', 'dr', 'pcap'],
  experiment: allBut('experiment', 'view', 'cli', 'fixes', 'feeds'),
  cli: allBut('cli'),
  [TOP]: FOLDERS,
};

/**
 * The pure core: no Node.js module (no sockets, files, threads or clock from `node:`), no rxjs. `truth` is pure but
 * for its file loaders.
 */
const PURE: readonly Folder[] = ['math', 'compression', 'pdu', 'names', 'dr', 'truth', 'fixes'];
const PURE_EXCEPT_FILES: readonly string[] = ['src/truth/loaders.ts'];
const PACKAGES_NOT_IN_PURE = ['rxjs'];

const folderOf = (file: string): Folder | string => {
  const parts = file.split('/');
  return parts.length > 2 ? parts[1]! : TOP;
};
const where = (i: ModuleImport) => `${i.file}:${i.line}`;

const files = sourceFiles(ROOT, 'src');
const imports = files.flatMap((f) => importsOf(ROOT, f));

/** Each import that breaks the rules, as one line of text. */
function violations(all: readonly ModuleImport[]): string[] {
  const problems: string[] = [];
  for (const i of all) {
    const from = folderOf(i.file);
    if (!(from in ALLOWED)) {
      problems.push(`${where(i)}: folder src/${from}/ is not in the allowed-edges table (test/architecture.test.ts)`);
      continue;
    }
    const allowed = ALLOWED[from as Folder];
    if (i.specifier === undefined) {
      problems.push(`${where(i)}: dynamic import of a computed specifier (cannot be checked; use a string literal)`);
    } else if (i.specifier.startsWith('.')) {
      if (i.target === undefined) {
        problems.push(`${where(i)}: '${i.specifier}' names no source file`);
        continue;
      }
      if (!i.target.startsWith('src/')) {
        problems.push(`${where(i)}: '${i.specifier}' leaves src/ (${i.target})`);
        continue;
      }
      const to = folderOf(i.target);
      if (to !== from && !allowed.includes(to as Folder)) {
        problems.push(`${where(i)}: ${from} → ${to} is not an allowed edge ('${i.specifier}')`);
      }
    } else if (PURE.includes(from as Folder) && !PURE_EXCEPT_FILES.includes(i.file)) {
      if (isNodeBuiltin(i.specifier)) problems.push(`${where(i)}: ${from} is pure and imports '${i.specifier}'`);
      else if (PACKAGES_NOT_IN_PURE.includes(packageOf(i.specifier))) {
        problems.push(`${where(i)}: ${from} is pure and imports '${i.specifier}'`);
      }
    }
  }
  return problems;
}

/** Sets of files that import each other, directly or around a loop (Tarjan's strongly connected components). */
function importLoops(all: readonly ModuleImport[]): string[][] {
  const next = new Map<string, string[]>();
  for (const i of all) if (i.target !== undefined) next.set(i.file, [...(next.get(i.file) ?? []), i.target]);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const loops: string[][] = [];
  const visit = (v: string) => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1) loops.push(component.sort());
  };
  for (const f of next.keys()) if (!index.has(f)) visit(f);
  return loops;
}

describe('architecture: the dependency direction of docs/ARCHITECTURE.md', () => {
  it('finds the imports of every source file', () => {
    expect(files.length).toBeGreaterThan(100);
    // The public entry points (package.json "exports") re-export from every library folder, in multi-line and
    // type-only exports too.
    const entries = new Set(
      Object.values(JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8')).exports as Record<string, unknown>)
        .map((e) => (typeof e === 'object' && e !== null ? String((e as { default: string }).default) : ''))
        .filter((e) => e.startsWith('./dist/'))
        .map((e) => `src/${e.slice('./dist/'.length).replace(/\.js$/, '.ts')}`),
    );
    expect(entries.has('src/index.ts')).toBe(true);
    const fromIndex = new Set(imports.filter((i) => entries.has(i.file)).map((i) => folderOf(i.target ?? '')));
    const library = [
      'compression',
      'config',
      'dr',
      'experiment',
      'feeds',
      'fixes',
      'lockstep',
      'math',
      'names',
      'pcap',
      'pdu',
      'stream',
      'transport',
      'truth',
    ];
    expect([...fromIndex]).toEqual(expect.arrayContaining(library));
  });

  it('has only allowed edges between folders, and a pure core', () => {
    expect(violations(imports)).toEqual([]);
  });

  it('has no import loops between files', () => {
    expect(importLoops(imports)).toEqual([]);
  });

  it('allows no loop between folders: the table is a hierarchy', () => {
    const reach = (from: Folder, seen = new Set<Folder>()): Set<Folder> => {
      for (const to of ALLOWED[from]) if (!seen.has(to)) reach(to, seen.add(to));
      return seen;
    };
    expect(FOLDERS.filter((f) => reach(f).has(f))).toEqual([]);
  });

  it('is documented: docs/ARCHITECTURE.md lists the same edges', () => {
    const doc = readFileSync(new URL('../docs/ARCHITECTURE.md', import.meta.url), 'utf8');
    for (const folder of FOLDERS) {
      const row = new RegExp(`^\\| \`${folder}/\` \\| ([^|]*) \\|`, 'm').exec(doc);
      expect(row, `docs/ARCHITECTURE.md has a row for ${folder}/`).not.toBeNull();
      const documented = [...row![1]!.matchAll(/`(\w+)\/`/g)].map((m) => m[1]).sort();
      const allowed = [...ALLOWED[folder]].sort();
      expect(documented, `the allowed imports of ${folder}/ in docs/ARCHITECTURE.md`).toEqual(allowed);
    }
  });
});

/** Folders whose ideas each have a sub-folder: nothing directly in them but their index.ts. */
const SPLIT: readonly string[] = ['pdu', 'dr'];

/** The sub-folders of src/ (`pdu/wire`, …) and the files directly in each folder of `SPLIT`. */
function rooms(): { subFolders: string[]; splitFiles: string[] } {
  const subFolders: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(`${ROOT}src/${dir}`, { withFileTypes: true })) {
      if (!entry.isDirectory()) continue;
      subFolders.push(`${dir}/${entry.name}`);
      walk(`${dir}/${entry.name}`);
    }
  };
  for (const folder of FOLDERS) if (existsSync(`${ROOT}src/${folder}`)) walk(folder);
  const splitFiles = SPLIT.flatMap((folder) =>
    readdirSync(`${ROOT}src/${folder}`, { withFileTypes: true })
      .filter((e) => e.isFile() && e.name !== 'index.ts')
      .map((e) => `src/${folder}/${e.name}`),
  );
  return { subFolders: subFolders.sort(), splitFiles };
}

/** What disagrees between the sub-folders on disk and the rows of "Rooms inside a folder" in docs/ARCHITECTURE.md. */
function roomProblems(subFolders: readonly string[], splitFiles: readonly string[], doc: string): string[] {
  const section = /### Rooms inside a folder\n([\s\S]*?)\n###/.exec(doc)?.[1] ?? '';
  const documented = [...section.matchAll(/^\| `([\w/-]+)\/` \|/gm)].map((m) => m[1]!);
  return [
    ...subFolders.filter((d) => !documented.includes(d)).map((d) => `src/${d}/ has no row in docs/ARCHITECTURE.md`),
    ...documented.filter((d) => !subFolders.includes(d)).map((d) => `docs/ARCHITECTURE.md names ${d}/, not in src/`),
    ...splitFiles.map((f) => `${f} belongs in one of its folder's sub-folders`),
  ];
}

/** Files outside src/cli/ that may import it: they exercise or document the command itself. */
const ABOUT_THE_CLI: readonly string[] = [
  'scripts/fuzz.ts',
  'scripts/write-settings-doc.ts',
  'bench/decode-mixed.bench.ts',
];

/** Imports that cross the rooms beside src/: into test/ from outside it (but its fixtures), into src/cli/ likewise. */
function roomViolations(all: readonly ModuleImport[]): string[] {
  const problems: string[] = [];
  for (const i of all) {
    if (i.target === undefined) continue;
    if (i.target.startsWith('test/') && !i.file.startsWith('test/') && !i.target.startsWith('test/fixtures/')) {
      problems.push(`${where(i)}: imports ${i.target}; what test/ shares with others belongs in scripts/support/`);
    }
    if (
      i.target.startsWith('src/cli/') &&
      !i.file.startsWith('src/cli/') &&
      !i.file.startsWith('test/') &&
      !ABOUT_THE_CLI.includes(i.file)
    ) {
      problems.push(`${where(i)}: imports ${i.target}; the CLI is a program, not a library`);
    }
  }
  return problems;
}

describe('architecture: the rooms inside a folder (docs/ARCHITECTURE.md)', () => {
  it('names every sub-folder of src/ and no other; pdu/ and dr/ hold only their sub-folders and index', () => {
    const { subFolders, splitFiles } = rooms();
    expect(subFolders).toContain('pdu/wire');
    const doc = readFileSync(new URL('../docs/ARCHITECTURE.md', import.meta.url), 'utf8');
    expect(roomProblems(subFolders, splitFiles, doc)).toEqual([]);
  });
});

describe('architecture: the rooms beside src/ (docs/ARCHITECTURE.md)', () => {
  const beside = ['test', 'bench', 'scripts', 'examples'].flatMap((folder) => sourceFiles(ROOT, folder));
  const besideImports = beside.flatMap((f) => importsOf(ROOT, f));

  it('import nothing from test/ outside it but its fixtures, and nothing from src/cli/ but about the command', () => {
    expect(beside.some((f) => f.startsWith('scripts/'))).toBe(true);
    expect(besideImports.some((i) => i.target?.startsWith('scripts/support/'))).toBe(true);
    expect(roomViolations([...imports, ...besideImports])).toEqual([]);
  });
});

describe('architecture: the checks can fail', () => {
  const fake = (file: string, specifier: string | undefined, target?: string): ModuleImport => ({
    file,
    line: 1,
    kind: 'static',
    specifier,
    target,
  });

  it('report forbidden edges, Node.js and rxjs in the pure core, computed imports and unknown folders', () => {
    expect(
      violations([
        fake('src/pdu/x.ts', '../dr/store.js', 'src/dr/models/store.ts'),
        fake('src/config/x.ts', '../cli/command.js', 'src/cli/command.ts'),
        fake('src/dr/x.ts', 'node:fs'),
        fake('src/math/x.ts', 'fs/promises'),
        fake('src/truth/parametric.ts', 'rxjs'),
        fake('src/stream/x.ts', undefined),
        fake('src/viewer/x.ts', '../dr/store.js', 'src/dr/models/store.ts'),
        fake('src/truth/loaders.ts', 'node:fs/promises'),
        fake('src/stream/x.ts', '../truth/index.js', 'src/truth/index.ts'),
      ]),
    ).toEqual([
      "src/pdu/x.ts:1: pdu → dr is not an allowed edge ('../dr/store.js')",
      "src/config/x.ts:1: config → cli is not an allowed edge ('../cli/command.js')",
      "src/dr/x.ts:1: dr is pure and imports 'node:fs'",
      "src/math/x.ts:1: math is pure and imports 'fs/promises'",
      "src/truth/parametric.ts:1: truth is pure and imports 'rxjs'",
      'src/stream/x.ts:1: dynamic import of a computed specifier (cannot be checked; use a string literal)',
      'src/viewer/x.ts:1: folder src/viewer/ is not in the allowed-edges table (test/architecture.test.ts)',
    ]);
  });

  it('report imports into test/ and src/cli/ from outside them', () => {
    expect(
      roomViolations([
        fake('scripts/figures.ts', '../test/support/chromium.js', 'test/support/chromium.ts'),
        fake('scripts/soak-subscriber.ts', '../src/cli/thread-cpu.js', 'src/cli/thread-cpu.ts'),
        fake('bench/codec.bench.ts', '../test/fixtures/pdu/entity-state.js', 'test/fixtures/pdu/entity-state.ts'),
        fake('test/cli/x.test.ts', '../../src/cli/run.js', 'src/cli/run.ts'),
        fake('scripts/fuzz.ts', '../src/cli/terminal/printable.js', 'src/cli/terminal/printable.ts'),
      ]),
    ).toEqual([
      'scripts/figures.ts:1: imports test/support/chromium.ts; what test/ shares with others belongs in scripts/support/',
      'scripts/soak-subscriber.ts:1: imports src/cli/thread-cpu.ts; the CLI is a program, not a library',
    ]);
  });

  it('report a sub-folder without its row, a row without its sub-folder, and a file left in a split folder', () => {
    const doc = '### Rooms inside a folder\n\n| `pdu/wire/` | x |\n| `dr/gone/` | y |\n\n### next';
    expect(roomProblems(['pdu/wire', 'pdu/new'], ['src/dr/loose.ts'], doc)).toEqual([
      'src/pdu/new/ has no row in docs/ARCHITECTURE.md',
      'docs/ARCHITECTURE.md names dr/gone/, not in src/',
      "src/dr/loose.ts belongs in one of its folder's sub-folders",
    ]);
  });

  it('find an import loop', () => {
    const loop = importLoops([
      fake('src/a.ts', './b.js', 'src/b.ts'),
      fake('src/b.ts', './c.js', 'src/c.ts'),
      fake('src/c.ts', './a.js', 'src/a.ts'),
      fake('src/c.ts', './d.js', 'src/d.ts'),
    ]);
    expect(loop).toEqual([['src/a.ts', 'src/b.ts', 'src/c.ts']]);
  });

  it('read every form of import, and none inside comments, strings or regular expressions', () => {
    const source = [
      'import { a,',
      "  b } from './one.js';",
      "import type { C } from './two.js';",
      "export * from './three.js';",
      'export { type D } from "./four.js";',
      "import './five.js';",
      "const m = await import('./six.js');",
      "type T = typeof import('./seven.js');",
      'const computed = await import(name);',
      "// import { x } from './comment.js';",
      "/* import('./block.js') */",
      "const t = `import { y } from './template.js' ${import('./in-template.js')}`;",
      "const r = /import('.\\/regex.js')/;",
      "const s = 'not an import from here';",
      'const u = "import { z } from \'./string.js\'";',
      "spawn(process.execPath, ['--import', 'tsx']);",
      'if (import.meta.url) {}',
    ].join('\n');
    const found = findImports(source).map((i) => `${i.kind} ${i.specifier ?? '(computed)'}`);
    expect(found).toEqual([
      'static ./one.js',
      'static ./two.js',
      'static ./three.js',
      'static ./four.js',
      'static ./five.js',
      'dynamic ./six.js',
      'dynamic ./seven.js',
      'dynamic (computed)',
      'dynamic ./in-template.js',
    ]);
  });
});
