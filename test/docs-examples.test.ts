// The examples as a user copies them: every `## Example` (or `@example`) block of the JSDoc in src/ and every
// TypeScript block of the README and docs/ is a module of its own in a consumer project of the built package, and
// the whole set type-checks (strict, skipLibCheck off, @types/node), importing from `reckon` and its subpaths.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from './support/binary.js';
import { createConsumer } from './support/consumer.js';

interface Example {
  /** `src/stream/subscriber.ts:32`, `docs/api.md:40`. */
  readonly origin: string;
  readonly code: string;
}

const lineAt = (text: string, index: number) => text.slice(0, index).split('\n').length;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** The fenced TypeScript blocks after `## Example` or `@example` in the JSDoc comments of `file`. */
function jsdocExamples(file: string): Example[] {
  const text = readFileSync(file, 'utf8');
  const out: Example[] = [];
  for (const comment of text.matchAll(/\/\*\*[\s\S]*?\*\//g)) {
    const body = comment[0].replace(/^\s*\/?\*+ ?/gm, '');
    for (const m of body.matchAll(/(?:## Example|@example)\s*\n```(?:ts|typescript)\n([\s\S]*?)```/g)) {
      const origin = `${relative(ROOT, file)}:${lineAt(text, comment.index! + comment[0].indexOf(m[1]!.split('\n')[0]!))}`;
      out.push({ origin, code: m[1]! });
    }
  }
  return out;
}

/** The ```ts and ```typescript blocks of a Markdown page. */
function markdownExamples(file: string): Example[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/```(?:ts|typescript)\n([\s\S]*?)```/g)].map((m) => ({
    origin: `${relative(ROOT, file)}:${lineAt(text, m.index!)}`,
    code: m[1]!,
  }));
}

const examples: Example[] = [
  ...sourceFiles(join(ROOT, 'src')).flatMap(jsdocExamples),
  ...['README.md', ...readdirSync(join(ROOT, 'docs')).map((f) => `docs/${f}`)]
    .filter((f) => f.endsWith('.md'))
    .flatMap((f) => markdownExamples(join(ROOT, f))),
];

const project = createConsumer();
afterAll(() => project.remove());

describe('examples in the JSDoc, the README and docs/', () => {
  it('are found: the stream functions, the codec, the README and each subpath of docs/api.md', () => {
    const origins = examples.map((e) => e.origin.replace(/:\d+$/, ''));
    for (const file of ['src/stream/subscriber.ts', 'src/stream/publisher.ts', 'README.md', 'docs/api.md'])
      expect(origins, file).toContain(file);
    const api = examples.filter((e) => e.origin.startsWith('docs/api.md')).map((e) => e.code);
    const subpaths = Object.keys(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).exports)
      .filter((key) => key !== './package.json')
      .map((key) => (key === '.' ? 'reckon' : `reckon/${key.slice(2)}`));
    for (const subpath of subpaths)
      expect(
        api.some((code) => code.includes(`from '${subpath}'`)),
        subpath,
      ).toBe(true);
  });

  it('type-check as modules of a consumer of the built package', () => {
    const files = examples.map((e, i) => {
      const file = `examples/${String(i).padStart(3, '0')}-${e.origin.replace(/[^a-z0-9]+/gi, '-')}.ts`;
      project.write(file, `${e.code}\nexport {};\n`);
      return file;
    });
    const output = project.compile(files, ['node']);
    // Each error named by the example it is in.
    const named = output.replace(
      /\S*examples\/(\d{3})-[^(]*\((\d+),(\d+)\)/g,
      (_, i: string, line: string, col: string) => {
        const origin = examples[Number(i)]!.origin;
        return `${origin} (example line ${line}, column ${col})`;
      },
    );
    expect(named).toBe('');
  }, 180_000);
});
