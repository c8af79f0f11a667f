// Guards on the tree itself: compiled output belongs in dist/, never beside the sources, where an import of
// './x.js' from a test would silently pick a stale build instead of x.ts.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)],
  );
}

describe('repository', () => {
  it('has no compiled JavaScript beside the TypeScript sources in src/', () => {
    const root = new URL('../src', import.meta.url).pathname;
    expect(files(root).filter((f) => /\.(js|js\.map)$|\.d\.ts$/.test(f))).toEqual([]);
  });
});
