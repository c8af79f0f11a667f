// Reads the imports of TypeScript sources without a compiler: static `import … from`, `export … from`, side-effect
// `import '…'`, and `import('…')` (dynamic imports and `typeof import('…')` types alike). Comments, the text of
// template literals and regular-expression literals are blanked first, so an import written inside them is not
// taken for one; a dynamic import whose specifier is not a string literal is reported, since nobody can check it.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';

/** One import of a source file. */
export interface ModuleImport {
  /** The file, relative to the repository root (`src/stream/operators.ts`). */
  readonly file: string;
  /** 1-based line of the `import`/`export` keyword. */
  readonly line: number;
  readonly kind: 'static' | 'dynamic';
  /** The specifier as written (`../dr/store.js`, `rxjs`, `node:dgram`); undefined for a computed `import(expr)`. */
  readonly specifier: string | undefined;
  /** For a relative specifier: the file it names, relative to the repository root; undefined if none exists. */
  readonly target: string | undefined;
}

/** Characters after which a `/` begins a regular expression rather than a division. */
const BEFORE_REGEX = new Set([
  '',
  '(',
  ',',
  '=',
  ':',
  '[',
  '!',
  '&',
  '|',
  '?',
  '{',
  '}',
  ';',
  '+',
  '-',
  '*',
  '%',
  '<',
  '>',
]);
const KEYWORDS_BEFORE_REGEX = new Set([
  'return',
  'typeof',
  'case',
  'in',
  'of',
  'void',
  'yield',
  'await',
  'delete',
  'new',
  'throw',
  'else',
  'do',
]);

/**
 * The source with comments, the text of string and template literals and regular-expression bodies replaced by
 * spaces (line breaks kept, so offsets and line numbers stay those of the source). The quotes of string literals
 * and the code of `${…}` expressions are kept.
 */
export function codeSkeleton(source: string): string {
  const out = source.split('');
  const blank = (from: number, to: number) => {
    for (let k = from; k < to; k++) if (out[k] !== '\n') out[k] = ' ';
  };
  // One entry per open `{`: true when it opened a template literal's `${`, so its `}` resumes the template text.
  const braces: boolean[] = [];
  let lastSignificant = '';
  let lastWord = '';
  let i = 0;
  const n = source.length;
  const templateText = () => {
    // At the character after a backtick or after the `}` closing a `${`: blank up to the closing backtick or `${`.
    const start = i;
    while (i < n) {
      const c = source[i]!;
      if (c === '\\') i += 2;
      else if (c === '`') {
        blank(start, i);
        i++;
        lastSignificant = '`';
        return;
      } else if (c === '$' && source[i + 1] === '{') {
        blank(start, i);
        braces.push(true);
        i += 2;
        lastSignificant = '{';
        return;
      } else i++;
    }
    blank(start, n);
  };
  while (i < n) {
    const c = source[i]!;
    const next = source[i + 1];
    if (c === '/' && next === '/') {
      const end = source.indexOf('\n', i);
      blank(i, end === -1 ? n : end);
      i = end === -1 ? n : end;
    } else if (c === '/' && next === '*') {
      const end = source.indexOf('*/', i + 2);
      blank(i, end === -1 ? n : end + 2);
      i = end === -1 ? n : end + 2;
    } else if (c === "'" || c === '"') {
      const start = ++i;
      while (i < n && source[i] !== c && source[i] !== '\n') i += source[i] === '\\' ? 2 : 1;
      // The quotes stay, the text goes: a specifier is read back from the source at the same offsets.
      blank(start, Math.min(i, n));
      i++;
      lastSignificant = c;
      lastWord = '';
    } else if (c === '`') {
      i++;
      templateText();
      lastWord = '';
    } else if (c === '/' && (BEFORE_REGEX.has(lastSignificant) || KEYWORDS_BEFORE_REGEX.has(lastWord))) {
      const start = i + 1;
      i++;
      let inClass = false;
      while (i < n && source[i] !== '\n') {
        const r = source[i]!;
        if (r === '\\') i += 2;
        else if (r === '/' && !inClass) break;
        else {
          if (r === '[') inClass = true;
          else if (r === ']') inClass = false;
          i++;
        }
      }
      blank(start, i);
      i++;
      lastSignificant = '/';
      lastWord = '';
    } else if (c === '{') {
      braces.push(false);
      lastSignificant = c;
      lastWord = '';
      i++;
    } else if (c === '}') {
      i++;
      if (braces.pop() === true) templateText();
      else lastSignificant = '}';
      lastWord = '';
    } else if (/\s/.test(c)) {
      i++;
    } else if (/[\w$]/.test(c)) {
      const start = i;
      while (i < n && /[\w$]/.test(source[i]!)) i++;
      lastWord = source.slice(start, i);
      lastSignificant = 'a';
    } else {
      lastSignificant = c;
      lastWord = '';
      i++;
    }
  }
  return out.join('');
}

// Run over the skeleton, where a string literal's text is blanked: group 2 marks where the specifier is.
const STATIC = /\b(?:import|export)\s+(?:type\s+)?(?:[\w$*\s,]|\{[^}]*\})*?\bfrom\s*(['"])([^'"\n]+)\1/dg;
const SIDE_EFFECT = /\bimport\s*(['"])([^'"\n]+)\1/dg;
const DYNAMIC = /\bimport\s*\(\s*(?:(['"])([^'"\n]+)\1\s*[,)])?/dg;

interface FoundImport {
  readonly index: number;
  readonly kind: 'static' | 'dynamic';
  readonly specifier: string | undefined;
}

/** The imports written in a source text: where each starts (offset), its kind and its specifier. */
export function findImports(source: string): FoundImport[] {
  const skeleton = codeSkeleton(source);
  const found: FoundImport[] = [];
  const specifier = (m: RegExpExecArray) => {
    const at = m.indices?.[2];
    return at === undefined ? undefined : source.slice(at[0], at[1]);
  };
  for (const [pattern, kind] of [
    [STATIC, 'static'],
    [SIDE_EFFECT, 'static'],
    [DYNAMIC, 'dynamic'],
  ] as const) {
    for (const m of skeleton.matchAll(pattern)) found.push({ index: m.index, kind, specifier: specifier(m) });
  }
  return found.sort((a, b) => a.index - b.index);
}

/** Every import of one file (path relative to `root`), in source order. */
export function importsOf(root: string, file: string): ModuleImport[] {
  const source = readFileSync(join(root, file), 'utf8');
  return findImports(source).map(({ index, kind, specifier }) => ({
    file,
    line: source.slice(0, index).split('\n').length,
    kind,
    specifier,
    target: specifier?.startsWith('.') ? resolveRelative(root, file, specifier) : undefined,
  }));
}

/** The source file a relative specifier names (`./x.js` → `x.ts`, a folder → its `index.ts`), if it exists. */
function resolveRelative(root: string, file: string, specifier: string): string | undefined {
  const base = resolve(root, dirname(file), specifier);
  const candidates = [base.replace(/\.js$/, '.ts'), base, `${base}.ts`, join(base, 'index.ts')];
  const hit = candidates.find((c) => statSync(c, { throwIfNoEntry: false })?.isFile() === true);
  return hit === undefined ? undefined : relative(root, hit);
}

/** Whether a bare specifier is a Node.js built-in module (`node:fs`, or `fs` without the prefix). */
export function isNodeBuiltin(specifier: string): boolean {
  return specifier.startsWith('node:') || builtinModules.includes(specifier.split('/')[0]!);
}

/** The package a bare specifier belongs to (`csv-parse/sync` → `csv-parse`, `@scope/x/y` → `@scope/x`). */
export function packageOf(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

/** The TypeScript sources under a folder, relative to `root`, sorted. */
export function sourceFiles(root: string, folder: string): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(join(root, dir), { withFileTypes: true })
      .flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : /\.(m?ts)$/.test(e.name) ? [join(dir, e.name)] : []))
      .filter((f) => !f.endsWith('.d.ts'));
  return walk(folder).sort();
}
