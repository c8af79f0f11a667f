import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from '../support/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'reckon-experiment-'));

describe('reckon experiment', () => {
  it('--list names every preset', async () => {
    const { code, stdout } = await cli('experiment', '--list');
    expect(code).toBe(0);
    for (const name of ['circle', 'thresholds', 'networks', 'vehicles', 'lockstep-vs-tcp'])
      expect(stdout).toMatch(new RegExp(`^${name} `, 'm'));
  });

  it('--preset circle --set … --json prints results.json with pdus and pdusPerOrbit, and writes the outputs', async () => {
    const out = join(dir, 'circle');
    const { code, stdout, stderr } = await cli(
      'experiment',
      '--preset',
      'circle',
      '--set',
      'trajectory.speed=50 m/s',
      '--set',
      'trajectory.radius=500 m',
      '--set',
      'trajectory.orbits=2',
      '--set',
      'sampleRateHz=30',
      '--set',
      'emitter.algorithm=FPW',
      '--set',
      'emitter.positionThreshold=2.5 m',
      '--set',
      'emitter.heartbeat=1 h',
      '--json',
      '--out',
      out,
    );
    expect(stderr).toContain('report.html');
    expect(code).toBe(0);
    const json = JSON.parse(stdout) as {
      name: string;
      spec: Record<string, unknown>;
      runs: Array<{ metrics: Record<string, unknown> }>;
    };
    expect(json.name).toBe('circle');
    expect(json.spec).toMatchObject({
      trajectory: { speed: '50 m/s', radius: '500 m', orbits: 2 },
      emitter: { positionThreshold: '2.5 m' },
    });
    const m = json.runs[0]!.metrics as { pdus: number; pdusPerOrbit: number; durationSeconds: number };
    expect(m.durationSeconds).toBeCloseTo((2 * 2 * Math.PI * 500) / 50, 9);
    // ½·(v²/R)·t² = 2.5 m after √(2·2.5·500)/50 = 1 s, seen at the next 30 Hz sample: 63 s per orbit / ~1.03 s.
    expect(m.pdusPerOrbit).toBeGreaterThan(58);
    expect(m.pdusPerOrbit).toBeLessThan(64);
    expect(m.pdus).toBeCloseTo(2 * m.pdusPerOrbit, 9);
    expect(readFileSync(join(out, 'results.json'), 'utf8')).toBe(stdout);
    expect(readFileSync(join(out, 'results.csv'), 'utf8').split('\n')[0]).toContain('pdus_per_orbit');
    const html = readFileSync(join(out, 'report.html'), 'utf8');
    expect(html).toContain('<svg');
    expect(html).not.toMatch(/<script|src="http|href="http/);
  });

  it('prints the results table without --json', async () => {
    const { code, stdout } = await cli(
      'experiment',
      '--preset',
      'circle',
      '--set',
      'trajectory.orbits=0.2',
      '--out',
      join(dir, 'table'),
    );
    expect(code).toBe(0);
    expect(stdout.split('\n')[0]).toMatch(/^run\s+pdus\s+pdus_per_s\s+pdus_per_orbit/);
  });

  it('a bad --set exits 2 naming each path with an example of a valid value', async () => {
    const { code, stderr, stdout } = await cli(
      'experiment',
      '--preset',
      'circle',
      '--set',
      'emitter.positionThreshold=3 kg',
      '--set',
      'emitter.algorithm=XYZ',
      '--set',
      'novalue',
      '--out',
      join(dir, 'bad'),
    );
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain('emitter.positionThreshold: "3 kg" is not a length (expected units like m), e.g. "1 m"');
    expect(stderr).toMatch(/emitter\.algorithm: expected a DR algorithm name .*e\.g\. "RVW"/);
    expect(stderr).toContain('--set: expected PATH=VALUE');
  });

  it('--out naming an existing file exits 2 before anything runs, and leaves the file as it was', async () => {
    const file = join(dir, 'precious.txt');
    writeFileSync(file, 'precious');
    // 1000 orbits take many seconds: the answer must come before the simulation.
    const { code, stderr, stdout } = await cli(
      'experiment',
      '--preset',
      'circle',
      '--set',
      'trajectory.orbits=1000',
      '--out',
      file,
    );
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain(`--out: "${file}" is a file, not a folder`);
    expect(readFileSync(file, 'utf8')).toBe('precious');
  });

  it.each(['../../../x', 'a/b', '..', 'tab\there'])(
    'a spec name that is not a folder name (%s) exits 2 naming the path "name"',
    async (name) => {
      const file = join(dir, 'named.json');
      writeFileSync(file, JSON.stringify({ name, trajectory: { type: 'circle', orbits: 0.1 } }));
      const { code, stderr } = await cli('experiment', file, '--out', join(dir, 'named'));
      expect(code).toBe(2);
      expect(stderr).toMatch(
        /^reckon experiment: name: must be a folder name \(results go to experiment-results\/<name>\)/m,
      );
    },
  );

  it('a spec file with sweep errors exits 2 pointing into the sweep; unknown presets and missing files too', async () => {
    const file = join(dir, 'spec.json');
    writeFileSync(file, JSON.stringify({ sweep: { network: ['lan', 'moon'] } }));
    const bad = await cli('experiment', file, '--out', join(dir, 'x'));
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/sweep\["network"\]\[1\]: expected a profile name \(perfect, lan/);
    expect((await cli('experiment', '--preset', 'nope')).stderr).toContain('unknown preset "nope"');
    expect((await cli('experiment', join(dir, 'missing.json'))).code).toBe(2);
    expect((await cli('experiment')).code).toBe(2);
  });
});

describe('reckon experiment --preset lockstep-vs-tcp', () => {
  it('prints the comparison as JSON runs (as every preset does) and writes a report with the table', async () => {
    const out = join(dir, 'lockstep');
    const { code, stdout } = await cli(
      'experiment',
      '--preset',
      'lockstep-vs-tcp',
      '--set',
      'durationSeconds=10 s',
      '--json',
      '--out',
      out,
    );
    expect(code).toBe(0);
    const { runs: rows } = JSON.parse(stdout) as { runs: Array<Record<string, unknown>> };
    expect(rows.length).toBeGreaterThanOrEqual(2);
    expect(new Set(rows.map((r) => r.transport))).toEqual(new Set(['tcp', 'udp-redundant']));
    for (const key of [
      'latencyMs',
      'lossPercent',
      'playoutDelayMs',
      'hitchesPerMinute',
      'longestStallMs',
      'bytesPerSecond',
      'largestPacketBytes',
    ]) {
      expect(rows[0]).toHaveProperty(key);
    }
    expect(readFileSync(join(out, 'report.html'), 'utf8')).toContain('<td>udp-redundant</td>');
    expect((await cli('experiment', '--preset', 'lockstep-vs-tcp', '--set', 'emitter.algorithm=FPW')).code).toBe(2);
    expect((await cli('experiment', '--preset', 'lockstep-vs-tcp', '--set', 'durationSeconds=-1 s')).code).toBe(2);
    expect((await cli('experiment', '--preset', 'lockstep-vs-tcp', '--set', 'seed=1.5')).code).toBe(2);
  });
});
