// The flag table is generated from the schema and current; command modules load neither zod nor mathjs at their
// top level (so `reckon <command> --help` stays light); heartbeats come from the dr module's one set of tables.
import { readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { deriveConfigLeaves, renderLeafTable } from '../../scripts/config-leaves.js';
import { CONFIG_LEAVES } from '../../src/config/leaves.js';
import { HEARTBEAT_CLASSES as CONFIG_HEARTBEAT_CLASSES, defaultConfig } from '../../src/config/schema.js';
import {
  HEARTBEAT_CLASSES,
  HEARTBEAT_IEEE_TABLE_25,
  HEARTBEAT_KDIS,
  HEARTBEAT_TABLES,
  heartbeatSeconds,
  heartbeatSecondsFor,
  heartbeatTableFromConfig,
} from '../../src/dr/owner/heartbeat.js';

describe('the generated leaf table', () => {
  it("is the schema's leaves (run `npm run config-leaves` after changing the schema)", () => {
    expect(readFileSync('src/config/setting-leaves.generated.ts', 'utf8')).toBe(renderLeafTable());
    expect(CONFIG_LEAVES).toEqual(deriveConfigLeaves());
  });
});

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

describe('command modules stay light', () => {
  it.each(['demo', 'publish', 'subscribe', 'record', 'replay'])(
    'reckon %s loads no zod or mathjs before run()',
    (name) => {
      const modules = reachable(`src/cli/commands/${name}.ts`);
      expect(modules.has('src/cli/config-flags.ts')).toBe(true); // the walk follows the config flags
      expect([...modules].filter((m) => /^(zod|mathjs)/.test(m) || m === 'src/config/schema.ts')).toEqual([]);
    },
  );
});

describe("heartbeats: the dr tables, with the configuration's per-class overrides", () => {
  it("are the dr module's own tables, not a copy", () => {
    expect(HEARTBEAT_TABLES.ieee).toBe(HEARTBEAT_IEEE_TABLE_25);
    expect(HEARTBEAT_TABLES.kdis).toBe(HEARTBEAT_KDIS);
    expect(heartbeatTableFromConfig(defaultConfig().heartbeat)).toBe(HEARTBEAT_IEEE_TABLE_25);
  });

  it('name the classes the configuration takes overrides for', () => {
    expect([...CONFIG_HEARTBEAT_CLASSES]).toEqual([...HEARTBEAT_CLASSES]);
  });

  it('give the remote-entity table the same heartbeat as heartbeatSeconds for every kind and domain', () => {
    const overrides = fc.dictionary(fc.constantFrom(...HEARTBEAT_CLASSES), fc.integer({ min: 1, max: 120 }));
    fc.assert(
      fc.property(fc.constantFrom('ieee' as const, 'kdis' as const), overrides, (table, heartbeatOverrides) => {
        const config = { ...defaultConfig().heartbeat, heartbeatTable: table, heartbeatOverrides };
        const built = heartbeatTableFromConfig(config);
        for (let kind = 0; kind <= 12; kind++) {
          for (let domain = 0; domain <= 8; domain++) {
            expect(heartbeatSecondsFor(built, kind, domain), `kind ${kind} domain ${domain}`).toBe(
              heartbeatSeconds(config, kind, domain),
            );
          }
        }
      }),
      { numRuns: 200 },
    );
  });
});
