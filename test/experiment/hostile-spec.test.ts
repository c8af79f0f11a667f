// Experiment specs from a hostile or careless user: nesting that exhausted the stack, keys that reach
// Object.prototype, files that are not regular files. Each is refused with exit 2 and its path, before any run.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from '../support/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'reckon-hostile-spec-'));
const spec = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

describe('reckon experiment with a hostile spec', () => {
  it('a spec nested 20,000 deep: exit 2 naming the depth, not "Maximum call stack size exceeded"', async () => {
    const run = await cli('experiment', spec('deep.json', `${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}`));
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/nested more than 32 levels deep/);
    expect(run.stderr).not.toMatch(/call stack/);
  });

  it('__proto__ and constructor keys: exit 2 with their paths, Object.prototype untouched', async () => {
    const path = spec(
      'proto.json',
      '{"name":"x","__proto__":{"polluted":1},"emitter":{"constructor":{"prototype":{}}}}',
    );
    const run = await cli('experiment', path);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('<spec.json> __proto__: "__proto__" is not accepted as a key');
    expect(run.stderr).toContain('<spec.json> emitter.constructor: "constructor" is not accepted as a key');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('--set with such a value, or a path through constructor: exit 2, nothing assigned', async () => {
    const value = await cli('experiment', '--preset', 'circle', '--set', 'emitter={"__proto__":{"polluted":1}}');
    expect(value.code).toBe(2);
    expect(value.stderr).toContain('is not accepted as a key');
    const path = await cli('experiment', '--preset', 'circle', '--set', 'constructor.prototype.polluted=1');
    expect(path.code).toBe(2);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(typeof Object.prototype.constructor).toBe('function');
  });

  it('a FIFO as the spec: exit 2 at once', async () => {
    const fifo = join(dir, 'spec.fifo');
    execFileSync('mkfifo', [fifo]);
    const run = await cli('experiment', fifo);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`the spec file "${fifo}" is a FIFO (named pipe), not a regular file`);
  });
});
