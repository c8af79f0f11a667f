// Experiment specs from a hostile or careless user: nesting that exhausted the stack, keys that reach
// Object.prototype, files that are not regular files. Each is refused with exit 2 and its path, before any run.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MEMORY_LIMITS } from '../../src/experiment/memory-guard.js';
import { TRACE_LIMITS, planExperiment } from '../../src/experiment/sweep.js';
import { cli } from '../support/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'reckon-hostile-spec-'));
const savedTraceBytes = TRACE_LIMITS.maxBytes;
const savedHeapFraction = MEMORY_LIMITS.heapFraction;
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

describe('a sweep whose results would not fit in memory', () => {
  afterEach(() => {
    TRACE_LIMITS.maxBytes = savedTraceBytes;
    MEMORY_LIMITS.heapFraction = savedHeapFraction;
  });

  it('traces: true over a 40 × 40 sweep is estimated before any run and kept for the runs the report draws', () => {
    const values = Array.from({ length: 40 }, (_, i) => 1 + i / 10);
    const plan = planExperiment({
      name: 'big',
      traces: true,
      sweep: { 'emitter.positionThreshold': values, 'emitter.orientationThreshold': values.map((v) => v / 100) },
    });
    expect(plan.runs).toHaveLength(1600);
    expect(plan.tracesThinned?.bytes).toBeGreaterThan(TRACE_LIMITS.maxBytes);
    const traced = plan.runs.filter((r) => r.spec.traces).length;
    expect(plan.tracesThinned?.kept).toBe(traced);
    expect(traced).toBeLessThanOrEqual(10);
    // Within the bound, every run keeps them as asked.
    expect(
      planExperiment({ name: 'small', traces: true, sweep: { 'emitter.positionThreshold': [1, 2] } }).tracesThinned,
    ).toBeUndefined();
  });

  it('says so when it thins them', async () => {
    TRACE_LIMITS.maxBytes = 1;
    const out = join(dir, 'thinned');
    const run = await cli(
      'experiment',
      '--preset',
      'circle',
      '--set',
      'traces=true',
      '--set',
      'trajectory.orbits=0.05',
      '--out',
      out,
    );
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(
      /experiment: note: traces for all 1 run would hold about \d+ MiB, more than the .* MiB kept/,
    );
  });

  it('memory running short mid-sweep: stops, writes the finished runs marked partial, exit 1', async () => {
    MEMORY_LIMITS.heapFraction = 0; // any heap in use is too much: the sweep stops after its first run
    const out = join(dir, 'short');
    const run = await cli(
      'experiment',
      '--preset',
      'circle',
      '--set',
      'sweep={"trajectory.orbits":[0.05,0.06,0.07]}',
      '--parallel',
      '1',
      '--out',
      out,
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /partial: 1 of 3 runs finished \(memory running short: \d+ MiB of the \d+ MiB heap in use\)/,
    );
    const json = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as { runs: unknown[]; partial: unknown };
    expect(json.runs).toHaveLength(1);
    expect(json.partial).toMatchObject({ runsPlanned: 3, runsFinished: 1 });
  });
});
