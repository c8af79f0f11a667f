// Config input from a hostile or careless user: keys that reach Object.prototype, nesting that exhausts the stack,
// files that are not regular files (a FIFO with no writer, a device) or are too big, and the variables the CLI
// itself documents. Each is refused with its path (exit 2 through the CLI), never run with.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConfigError, MAX_CONFIG_FILE_BYTES, loadConfig } from '../../src/config/load.js';
import { MAX_JSON_DEPTH, jsonInputProblems } from '../../src/config/json-input.js';
import { cli } from '../support/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'reckon-hostile-config-'));
function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}
function issuesOf(run: () => unknown): Array<{ path: string; message: string; source?: string }> {
  try {
    run();
  } catch (error) {
    if (error instanceof ConfigError) return [...error.issues];
    throw error;
  }
  throw new Error('expected a ConfigError');
}

afterEach(() => {
  delete (Object.prototype as Record<string, unknown>).polluted;
  vi.unstubAllEnvs();
});

describe('config keys that would reach Object.prototype', () => {
  it.each([
    ['{"__proto__":{"polluted":"yes"}}', '__proto__'],
    ['{"__proto__":{"toString":1}}', '__proto__'],
    ['{"constructor":{"prototype":{}}}', 'constructor'],
    ['{"network":{"__proto__":{"polluted":"yes"}}}', 'network.__proto__'],
    ['{"heartbeat":{"heartbeatOverrides":{"__proto__":{"polluted":"yes"}}}}', 'heartbeat.heartbeatOverrides.__proto__'],
  ])('%s is refused at %s and changes nothing', (json, path) => {
    const config = file('proto.json', json);
    const issues = issuesOf(() => loadConfig({ file: config }));
    expect(issues).toContainEqual({ path, source: config, message: expect.stringMatching(/is not accepted as a key/) });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(typeof Object.prototype.toString).toBe('function');
  });

  it('any config with such a key anywhere (property): refused at its path, Object.prototype untouched', () => {
    const MARK = '\u0000mark';
    const tree = fc.object({ key: fc.constantFrom('network', 'dis', 'receiver', 'a', 'b'), maxDepth: 3 });
    fc.assert(
      fc.property(tree, fc.constantFrom('__proto__', 'constructor', 'prototype'), fc.nat(), (generated, bad, pick) => {
        const root = structuredClone(generated);
        // Every object in the tree (not arrays) with its path as the issues write it: a.b[1].c
        const sites: Array<[Record<string, unknown>, string]> = [];
        const walk = (value: unknown, path: string) => {
          if (Array.isArray(value)) value.forEach((v, i) => walk(v, `${path}[${i}]`));
          else if (value !== null && typeof value === 'object') {
            sites.push([value as Record<string, unknown>, path]);
            for (const [k, v] of Object.entries(value)) walk(v, path === '' ? k : `${path}.${k}`);
          }
        };
        walk(root, '');
        const [site, path] = sites[pick % sites.length]!;
        site[MARK] = { polluted: 'yes', toString: 1 };
        const text = JSON.stringify(root).replace(JSON.stringify(MARK), JSON.stringify(bad));
        const issues = issuesOf(() => loadConfig({ file: file('property.json', text) }));
        expect(issues.map((i) => i.path)).toContain(path === '' ? bad : `${path}.${bad}`);
        expect(({} as Record<string, unknown>).polluted).toBeUndefined();
        expect(typeof Object.prototype.toString).toBe('function');
      }),
      { numRuns: 300 },
    );
  });

  it('in a JSON-valued variable or flag too', () => {
    const env = { RECKON_HEARTBEAT_HEARTBEAT_OVERRIDES: '{"__proto__":{"polluted":"yes"}}' };
    expect(issuesOf(() => loadConfig({ env }))[0]).toMatchObject({
      path: 'heartbeat.heartbeatOverrides.__proto__',
      source: 'RECKON_HEARTBEAT_HEARTBEAT_OVERRIDES',
    });
    const flags = { 'heartbeat-overrides': '{"constructor":{"prototype":{}}}' };
    expect(issuesOf(() => loadConfig({ flags }))[0]).toMatchObject({
      path: 'heartbeat.heartbeatOverrides.constructor',
      source: '--heartbeat-overrides',
    });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('through the CLI: exit 2 with the key named, no stack trace', async () => {
    const config = file('ctor.json', '{"constructor":{"prototype":{}}}');
    const run = await cli('subscribe', '--config', config, '--duration', '0.1');
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`constructor (from ${config}): "constructor" is not accepted as a key`);
    expect(run.stderr).not.toMatch(/TypeError|at .*\.ts:/);
  });
});

describe('nesting', () => {
  const deep = (n: number) => `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`;

  it('a config nested 20,000 deep is refused with its depth, not a stack overflow', () => {
    const issues = issuesOf(() => loadConfig({ file: file('deep.json', deep(20_000)) }));
    expect(issues).toHaveLength(1);
    expect(issues[0]!.message).toContain(`nested more than ${MAX_JSON_DEPTH} levels deep`);
  });

  it('the walk is iterative and reports each forbidden key with its path', () => {
    const value = JSON.parse('{"a":[{"b":1},{"__proto__":2}],"prototype":3}');
    expect(
      jsonInputProblems(value)
        .map((p) => p.path)
        .sort(),
    ).toEqual(['a[1].__proto__', 'prototype']);
    expect(jsonInputProblems(JSON.parse(deep(MAX_JSON_DEPTH)))).toEqual([]);
    expect(jsonInputProblems(JSON.parse(deep(MAX_JSON_DEPTH + 1)))).toHaveLength(1);
  });
});

describe('config files that are not small regular files', () => {
  it('a FIFO with no writer is refused at once (it would block the process past Ctrl-C)', () => {
    const fifo = join(dir, 'config.fifo');
    execFileSync('mkfifo', [fifo]);
    const issues = issuesOf(() => loadConfig({ file: fifo }));
    expect(issues[0]!.message).toMatch(/is a FIFO \(named pipe\), not a regular file/);
  });

  it('a character device (a copy of the zero device) is refused, not read forever', () => {
    const zero = join(dir, 'zero');
    execFileSync('mknod', [zero, 'c', '1', '5']);
    expect(issuesOf(() => loadConfig({ file: zero }))[0]!.message).toMatch(/is a character device, not a regular file/);
    // A symlink is followed: what counts is what it names.
    const link = join(dir, 'zero-link.json');
    symlinkSync(zero, link);
    expect(issuesOf(() => loadConfig({ file: link }))[0]!.message).toMatch(/is a character device/);
  });

  it(`a file over ${MAX_CONFIG_FILE_BYTES} bytes is refused with its size and the bound`, () => {
    const big = file('big.json', `{"network":{"port":3000}}${' '.repeat(MAX_CONFIG_FILE_BYTES)}`);
    expect(issuesOf(() => loadConfig({ file: big }))[0]!.message).toMatch(
      /holds 1048601 bytes, more than the 1 MiB \(1048576 bytes\) a config file may hold/,
    );
  });

  it('through the CLI: exit 2 naming the file', async () => {
    const fifo = join(dir, 'cli.fifo');
    execFileSync('mkfifo', [fifo]);
    const run = await cli('subscribe', '--config', fifo, '--duration', '0.1');
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`<file> (from ${fifo}): the config file "${fifo}" is a FIFO`);
  });
});

describe('variables the CLI documents', () => {
  it('RECKON_DEBUG, which --help recommends, is not an unknown variable', () => {
    expect(() => loadConfig({ env: { RECKON_DEBUG: '1' } })).not.toThrow();
  });

  it('through the CLI: subscribe with RECKON_DEBUG=1 runs', async () => {
    vi.stubEnv('RECKON_DEBUG', '1');
    const run = await cli('subscribe', '--duration', '0.05', '--port', '0');
    expect(run.stderr).not.toContain('unknown environment variable');
    expect(run.code).toBe(0);
  });
});
