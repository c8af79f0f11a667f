// The SISO names cost nothing to what does not show them: neither `reckon` itself nor any command module reaches
// the names' data at its top level (the commands that print names import them inside run()).
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';

const DATA = 'src/names/siso-data.generated.ts';

/** Modules a file imports at its top level (not `import type`, not `import()` inside functions), resolved. */
function staticImports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specifiers = [...text.matchAll(/^(?:import|export)\s+(?!type\b)[^;]*?from\s+'([^']+)'/gms)].map((m) => m[1]!);
  return specifiers.map((s) => (s.startsWith('.') ? normalize(join(dirname(file), s.replace(/\.js$/, '.ts'))) : s));
}

function reachable(entry: string): Set<string> {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    if (file.endsWith('.ts')) for (const next of staticImports(file)) visit(next);
  };
  visit(entry);
  return seen;
}

const commands = readdirSync('src/cli/commands').filter((f) => f.endsWith('.ts'));

describe('loading the names', () => {
  it.each(['src/cli/main.ts', ...commands.map((f) => `src/cli/commands/${f}`)])(
    '%s does not load them at its top level',
    (entry) => {
      expect(reachable(entry).has(DATA)).toBe(false);
    },
  );

  it('is what the walk would see: the views that print names reach them', () => {
    expect(reachable('src/cli/terminal/subscribe-view.ts').has(DATA)).toBe(true);
    expect(reachable('src/cli/terminal/decode-summary.ts').has(DATA)).toBe(true);
    expect(commands.length).toBeGreaterThan(8);
  });
});
