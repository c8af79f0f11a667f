// Enum-like names (algorithms, smoothing methods, heartbeat tables, display modes, network profiles) are taken in
// any letter case from files, flags, the environment and experiment specs, and come out in their canonical case.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { anyCaseEnum } from '../../src/config/any-case.js';
import { loadConfig } from '../../src/config/load.js';
import { planExperiment } from '../../src/experiment/sweep.js';

describe('anyCaseEnum', () => {
  const schema = anyCaseEnum(['FPW', 'static', 'gilbert-elliott']);

  it.each([
    ['FPW', 'FPW'],
    ['fpw', 'FPW'],
    ['Fpw', 'FPW'],
    ['STATIC', 'static'],
    ['Gilbert-Elliott', 'gilbert-elliott'],
  ])('%s → %s', (input, canonical) => {
    expect(schema.parse(input)).toBe(canonical);
  });

  it.each(['fpv', 'FPW ', 'gilbert.elliott', '', 2])('rejects %j, naming the accepted values', (input) => {
    const result = schema.safeParse(input);
    expect(result.success).toBe(false);
    expect(result.error!.issues.map((i) => i.message)).toEqual([
      'expected one of "FPW", "static", "gilbert-elliott" (any letter case)',
    ]);
  });
});

describe('config: any case from every source', () => {
  it('flags', () => {
    const c = loadConfig({
      flags: {
        smoothing: 'Linear',
        display: 'INTERPOLATE',
        'heartbeat-table': 'KDIS',
        'latency-compensation': 'TimeStamp',
      },
    });
    expect([
      c.receiver.smoothing,
      c.receiver.display,
      c.heartbeat.heartbeatTable,
      c.receiver.latencyCompensation,
    ]).toEqual(['linear', 'interpolate', 'kdis', 'timestamp']);
  });

  it('environment and file', () => {
    const c = loadConfig({ env: { RECKON_RECEIVER_SMOOTHING: 'SNAP', RECKON_HEARTBEAT_HEARTBEAT_TABLE: 'Ieee' } });
    expect([c.receiver.smoothing, c.heartbeat.heartbeatTable]).toEqual(['snap', 'ieee']);
  });

  it('still rejects an unknown name with the choices', () => {
    expect(() => loadConfig({ flags: { smoothing: 'cubic' } })).toThrow(
      /receiver\.smoothing \(from --smoothing\): expected one of "snap", /,
    );
  });
});

describe('experiment spec: any case', () => {
  it('takes "fpw" in a sweep, lower-case profiles and capitalised methods', () => {
    const plan = planExperiment({
      network: 'WAN',
      smoothing: { method: 'Projective' },
      sweep: { 'emitter.algorithm': ['fpw', 'RVW', 'Static', 'AUTO'] },
    });
    expect(plan.runs.map((r) => r.spec.emitter.algorithm)).toEqual([2, 4, 1, 'auto']);
    expect(plan.runs[0]!.spec.network).toBe('wan');
    expect(plan.runs[0]!.spec.smoothing.method).toBe('projective');
  });
});

describe('the JSON Schemas say so', () => {
  it.each([
    ['config.schema.json', ['properties', 'receiver', 'properties', 'smoothing'], 'Projective'],
    ['experiment.schema.json', ['properties', 'smoothing', 'properties', 'method'], 'LINEAR'],
  ])('%s accepts %s in any case', (file, path, value) => {
    const json = JSON.parse(readFileSync(new URL(`../../schemas/${file}`, import.meta.url), 'utf8')) as Record<
      string,
      unknown
    >;
    let node = json;
    for (const key of path) node = node[key] as Record<string, unknown>;
    const alternatives = node.anyOf as Array<{ enum?: string[]; pattern?: string }>;
    expect(alternatives.some((a) => a.enum?.includes(value.toLowerCase()))).toBe(true); // editors still offer the names
    expect(alternatives.some((a) => a.pattern !== undefined && new RegExp(a.pattern).test(value))).toBe(true);
  });
});
