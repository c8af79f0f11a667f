// `reckon publish --track` and `reckon experiment` with recorded tracks that need a choice or are wrong: every
// problem listed with its row, exit 2; what a capture's entity was is what gets published. In process
// (test/support/cli.ts): no binary to start for each case.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { BIN, ROOT, within } from '../support/binary.js';
import { cli } from '../support/cli.js';
import { findSystemBinary } from '../../scripts/support/system-binary.js';

const scratch = mkdtempSync(join(tmpdir(), 'reckon-cli-tracks-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const file = (name: string, text: string) => {
  const path = join(scratch, name);
  writeFileSync(path, text);
  return path;
};
const KDIS = 'test/fixtures/dis/dis5_kdis_vrforces_hind_vs_m1a2.pcap';
// A port nothing listens on: the PDUs go to loopback and are dropped.
const PORT = ['--port', '39871'];

describe('recorded tracks on the command line', () => {
  const bad = file('bad.csv', 'time,lat,lon\n0,91,200\n1,95,300\n2,100,400\n');

  it('publish refuses a track out of range, naming each row, with exit 2', async () => {
    const { code, stderr } = await cli('publish', '--track', bad, ...PORT);
    expect(code).toBe(2);
    expect(stderr).toContain('row 2: latitude 91° is outside −90…90°');
    expect(stderr).toContain('row 4: longitude 400° is outside −180…180°');
  });

  it('experiment refuses it too, before any run', async () => {
    const { code, stderr } = await cli(
      'experiment',
      '--preset',
      'circle',
      '--set',
      `trajectory={"type":"recorded","file":"${bad}"}`,
      '--out',
      join(scratch, 'out'),
    );
    expect(code).toBe(2);
    expect(stderr).toMatch(/trajectory\.file: .*bad\.csv: row 3: latitude 95° is outside/);
  });

  it('experiment names a missing track file once, and where relative paths start', async () => {
    const missing = join(scratch, 'missing.csv');
    const { code, stderr } = await cli(
      'experiment',
      '--preset',
      'circle',
      '--set',
      `trajectory={"type":"recorded","file":"${missing}"}`,
      '--out',
      join(scratch, 'out-missing'),
    );
    expect(code).toBe(2);
    expect(stderr).toContain(
      `trajectory.file: cannot read the track file "${missing}": no such file (relative paths start at the spec file's folder)`,
    );
  });

  it('publish lists the entities of a capture and wants --entity', async () => {
    const { code, stderr } = await cli('publish', '--track', KDIS, ...PORT);
    expect(code).toBe(2);
    expect(stderr).toMatch(/1:3001:18 "CISARW 1" type 1:2:222:20:2:0:0 force 2, \d+ PDUs over/);
  });

  it('publish keeps the captured marking, entity type and force', async () => {
    const { code, stdout } = await cli(
      'publish',
      '--track',
      KDIS,
      '--entity',
      '1:3001:18',
      '--duration',
      '0.2 s',
      '--json',
      ...PORT,
    );
    expect(code).toBe(0);
    const first = JSON.parse(stdout.split('\n')[0]!) as {
      state: { marking: { text?: string } | string; forceId: number; entityType: Record<string, number> };
    };
    expect(JSON.stringify(first.state.marking)).toContain('CISARW 1');
    expect(first.state.forceId).toBe(2);
    expect(first.state.entityType).toEqual({
      kind: 1,
      domain: 2,
      country: 222,
      category: 20,
      subcategory: 2,
      specific: 0,
      extra: 0,
    });
  });

  it('publish reports the recordings of a file and publishes each with --segment all', async () => {
    const rows = (start: number) => Array.from({ length: 60 }, (_, i) => `${start + i},47.${String(1000 + i)},8.5`);
    const drives = file(
      'drives.csv',
      'time,lat,lon\n' + [...rows(1_700_000_000), ...rows(1_700_090_000)].join('\n') + '\n',
    );
    const refused = await cli('publish', '--track', drives, ...PORT);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(
      /holds 2 recordings[\s\S]*segment 2: starts 2023-11-15T23:13:20.000Z, 59 s, 60 fixes, rows 62–121/,
    );
    const all = await cli(
      'publish',
      '--track',
      drives,
      '--segment',
      'all',
      '--kind',
      'ground',
      '--duration',
      '0.2 s',
      '--json',
      ...PORT,
    );
    expect(all.code).toBe(0);
    const entities = new Set(
      all.stdout
        .trim()
        .split('\n')
        .map((l) => (JSON.parse(l) as { entity: string }).entity),
    );
    expect([...entities]).toEqual(['drives #1', 'drives #2']);
    expect(all.stderr).toMatch(/drives\.csv holds 2 recordings; publishing #1, #2/);
  });
});

describe('real recordings as they come, on the command line', () => {
  const TIME_ISSUE = 'test/fixtures/tracks/aircraft_adsb_noisy_time_issue.json.gz';
  const TAKEOFF = 'test/fixtures/tracks/aircraft_adsb_noisy_takeoff_columns.json.gz';
  type Line = { entity: string; state: Record<string, unknown> & { marking: { text: string } } };
  const firstLine = (stdout: string) => JSON.parse(stdout.split('\n')[0]!) as Line;
  const SHORT = ['--duration', '0.2 s', '--json', ...PORT];

  it('publish repairs the held and jumping fixes of a real ADS-B recording and names their rows; --strict refuses it', async () => {
    const run = await cli('publish', '--track', TIME_ISSUE, ...SHORT);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/: 1888 held positions \(rows 330, 439, .* and 1878 more\): .*not used$/m);
    expect(run.stderr).toMatch(/: 18 outliers \(rows 2420, 2424, .* and 8 more\): .*not used$/m);
    const strict = await cli('publish', '--track', TIME_ISSUE, '--strict', ...PORT);
    expect(strict.code).toBe(2);
    expect(strict.stderr).toMatch(/row 1145: 882 m\/s from row 1144/);
  });

  it.skipIf(!findSystemBinary('script', 'bsdutils').path)(
    'publish on an 80-column terminal: each note wrapped at words, none cut mid-number',
    async () => {
      const script = findSystemBinary('script', 'bsdutils').path!;
      const publish = `'${process.execPath}' '${BIN}' publish --track ${TIME_ISSUE} --duration 0.2s --port 39871`;
      const child = spawn(script, ['-qec', `stty cols 80 rows 24; exec ${publish}`, '/dev/null'], {
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, NO_COLOR: '1' },
      });
      let out = '';
      child.stdout.on('data', (c) => (out += String(c)));
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
      expect(await within(exited, 30_000, 'publish to exit', child)).toBe(0);
      const lines = out.replace(/\r/g, '').split('\n');
      const notes = lines.filter(
        (l) => l.startsWith('publish: aircraft_adsb_noisy_time_issue: ') || l.startsWith('    '),
      );
      for (const line of notes) expect(line.length, line).toBeLessThanOrEqual(80);
      // Joined again, each note is the sentence a pipe gets on one line.
      const joined = notes.join('\n').replace(/\n {4}/g, ' ');
      expect(joined).toMatch(/: 1888 held positions \(rows 330, 439, 794, 995, .* and 1878 more\): .*; not used$/m);
    },
  );

  it('publish reads ADS-B columns as pandas writes them and marks the aircraft with its callsign', async () => {
    const run = await cli('publish', '--track', TAKEOFF, ...SHORT);
    expect(run.code, run.stderr).toBe(0);
    expect(firstLine(run.stdout).state.marking.text).toBe('AFR181L');
    expect(firstLine(run.stdout).state.entityType).toMatchObject({ kind: 1, domain: 2 });
  });

  it('publish --type sets the entity type by name or SISO numbers, and lists the names a partial one matches', async () => {
    const b737 = await cli('publish', '--track', TAKEOFF, '--type', 'B737', ...SHORT);
    expect(b737.code, b737.stderr).toBe(0);
    expect(firstLine(b737.stdout).state.entityType).toEqual({
      kind: 1,
      domain: 2,
      country: 225,
      category: 87,
      subcategory: 32,
      specific: 5,
      extra: 7,
    });
    const numbers = await cli('publish', '--track', TAKEOFF, '--type', '1:2:222:20:2:0:0', ...SHORT);
    expect(firstLine(numbers.stdout).state.entityType).toMatchObject({ country: 222, category: 20 });
    const hind = await cli('publish', '--track', TAKEOFF, '--type', 'Hind', ...PORT);
    expect(hind.code).toBe(2);
    expect(hind.stderr).toMatch(
      /--type: no entity type is named "Hind" exactly; 9 names .*\n +1:2:222:20:2:0:0 Mi-24\/25\/35 Hind/,
    );
  });

  it('publish marks a track without a callsign with its file name, in whole words', async () => {
    const run = await cli(
      'publish',
      '--track',
      'test/fixtures/tracks/ship_signalk_aava_ownship_1hz_derived.csv',
      ...SHORT,
    );
    expect(run.code, run.stderr).toBe(0);
    expect(firstLine(run.stdout).state.marking.text).toBe('SHIP AAVA');
  });

  it('experiment takes the entity type of a track from the spec, and names a type that does not exist', async () => {
    const spec = (entityType: string) =>
      `trajectory={"type":"recorded","file":"${TAKEOFF}","entityType":"${entityType}"}`;
    const out = join(scratch, 'typed');
    const ok = await cli(
      'experiment',
      '--preset',
      'circle',
      '--set',
      spec('B737'),
      '--set',
      'durationSeconds=5',
      '--json',
      '--out',
      out,
    );
    expect(ok.code, ok.stderr).toBe(0);
    const wrong = await cli('experiment', '--preset', 'circle', '--set', spec('xyzzy'), '--out', out);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(/trajectory\.entityType: no entity type is named "xyzzy"/);
  });

  it('publish takes CSV columns from flags, and a track at 15 m/s is a ground vehicle', async () => {
    const rows = Array.from({ length: 601 }, (_, i) => `${1_700_000_000 + i};${47 + (15 * i) / 111_200};8.5;VAN 7`);
    const car = file('car.csv', `when;y;x;vehicle\n${rows.join('\n')}\n`);
    const unnamed = await cli('publish', '--track', car, ...PORT);
    expect(unnamed.code).toBe(2);
    expect(unnamed.stderr).toMatch(
      /no time column .* \(name yours with --time-column NAME \(columns\.time in a spec\)\)/,
    );
    const columns = ['--time-column', 'when', '--latitude-column', 'y', '--longitude-column', 'x'];
    const named = await cli('publish', '--track', car, ...columns, '--callsign-column', 'vehicle', ...SHORT);
    expect(named.code, named.stderr).toBe(0);
    expect(named.stderr).toMatch(/kind ground, as it does not fly \(3 in 4 of its fixes under 15 m\/s/);
    const first = firstLine(named.stdout);
    expect(first.state.entityType).toMatchObject({ kind: 1, domain: 1 });
    expect(first.state.marking.text).toBe('VAN 7');
  });

  it('publish --from and --speed start part-way and play faster, velocity scaled to match', async () => {
    const rows = Array.from({ length: 601 }, (_, i) => `${1_700_000_000 + i},${47 + (15 * i) / 111_200},8.5`);
    const car = file('northbound.csv', `time,lat,lon\n${rows.join('\n')}\n`);
    const at = (args: string[]) =>
      cli('publish', '--track', car, ...args, ...SHORT).then((r) => {
        expect(r.code, r.stderr).toBe(0);
        const state = firstLine(r.stdout).state as unknown as { location: number[]; linearVelocity: number[] };
        return { northM: (state.location[2]! - 4_650_000) / Math.cos((47 * Math.PI) / 180), state };
      });
    const start = await at([]);
    const later = await at(['--from', '5 min', '--speed', '10']);
    // 300 s at 15 m/s: 4.5 km further north (ECEF z grows by cos(latitude) per metre north).
    expect(later.northM - start.northM).toBeCloseTo(4500, -1);
    expect(Math.hypot(...later.state.linearVelocity)).toBeCloseTo(150, 0);
    const timed = await at(['--from', '2023-11-14T22:18:20Z']);
    expect(timed.northM - start.northM).toBeCloseTo(4500, -1);
    const past = await cli('publish', '--track', car, '--from', '2 h', ...PORT);
    expect(past.code).toBe(2);
    expect(past.stderr).toMatch(/--from: 7200 s in is outside northbound, which lasts 600 s/);
  });
});
