// An output that is one of the command's own inputs is refused before any work, exit 2, the input untouched:
// `decode x.pcap --report x.pcap` replaced the capture with its report and exited 0. Named directly, through a
// symbolic link, through a hard link, and as standard output redirected into the input (`>>`, a real process),
// for the commands that read a file and write one: decode, record, replay --export, experiment, publish and
// subscribe (the others share subscribe's check of the config file).
import { spawn } from 'node:child_process';
import {
  closeSync,
  copyFileSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sameFiles } from '../../src/files/same-file.js';
import { BIN, ROOT, within } from '../support/binary.js';
import { cli } from '../support/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'reckon-same-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const FIXTURE = join(ROOT, 'test/fixtures/dis/dis7_vrforces_gaz69_90deg_turn.pcap');
const TRACK = join(ROOT, 'test/fixtures/tracks/ship_signalk_aava_ownship_1hz_derived.csv');

/** A copy of `source` in the test folder, and its bytes, to compare after the command. */
function copy(source: string, name: string): { path: string; bytes: Buffer } {
  const path = join(dir, name);
  copyFileSync(source, path);
  return { path, bytes: readFileSync(path) };
}

describe('sameFiles', () => {
  it('finds an output that is an input by name, symbolic link, hard link or descriptor; not a new file', async () => {
    const input = { path: copy(FIXTURE, 'unit.pcap').path, name: '<capture>' };
    const link = join(dir, 'unit-link.pcap');
    const hard = join(dir, 'unit-hard.pcap');
    symlinkSync(input.path, link);
    linkSync(input.path, hard);
    const fd = openSync(input.path, 'a');
    try {
      const found = await sameFiles(
        [input],
        [
          { path: input.path, name: '--report' },
          { path: link, name: '--link' },
          { path: hard, name: '--hard' },
          { path: join(dir, 'new.html'), name: '--new' },
          { path: FIXTURE, name: '--other' },
          { fd, name: 'standard output' },
        ],
      );
      expect(found.map((f) => f.output.name)).toEqual(['--report', '--link', '--hard', 'standard output']);
      expect(found.every((f) => f.input === input)).toBe(true);
    } finally {
      closeSync(fd);
    }
  });
});

describe('outputs that are inputs: exit 2 before any work, the input as it was', () => {
  it('decode x.pcap --report x.pcap, and --report through a symbolic link and a hard link', async () => {
    const capture = copy(FIXTURE, 'decode.pcap');
    const link = join(dir, 'decode-link.html');
    const hard = join(dir, 'decode-hard.html');
    symlinkSync(capture.path, link);
    linkSync(capture.path, hard);
    for (const report of [capture.path, link, hard]) {
      const run = await cli('decode', capture.path, '--report', report);
      expect(run.code).toBe(2);
      expect(run.stdout).toBe(''); // refused before the capture was read
      expect(run.stderr).toContain(
        `reckon decode: --report: "${report}" is the same file as <capture> "${capture.path}", which this command ` +
          'reads: writing it would destroy it; give another file',
      );
      expect(readFileSync(capture.path)).toEqual(capture.bytes);
    }
  });

  it('record --out the config file it reads', async () => {
    const config = join(dir, 'record.json');
    writeFileSync(config, '{"network": {"port": 0}}\n');
    const run = await cli('record', '--config', config, '--out', config, '--duration', '0.2');
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`--out: "${config}" is the same file as --config "${config}"`);
    expect(readFileSync(config, 'utf8')).toBe('{"network": {"port": 0}}\n');
  });

  it('replay --stream --export the NATS credentials file (refused before connecting)', async () => {
    const creds = join(dir, 'site.creds');
    writeFileSync(creds, 'not really credentials\n');
    const run = await cli(
      'replay',
      '--nats',
      'nats://127.0.0.1:1',
      '--stream',
      'DIS',
      '--nats-creds',
      creds,
      '--export',
      creds,
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`--export: "${creds}" is the same file as nats.credsFile "${creds}"`);
    expect(readFileSync(creds, 'utf8')).toBe('not really credentials\n');
  });

  it('experiment: a results file that is the spec, or a track a run reads', async () => {
    const spec = join(dir, 'spec.json');
    writeFileSync(spec, JSON.stringify({ name: 'same', durationSeconds: 1 }));
    symlinkSync(spec, join(dir, 'results.json')); // --out's results.json is the spec
    const before = readFileSync(spec);
    const first = await cli('experiment', spec, '--out', dir);
    expect(first.code).toBe(2);
    expect(first.stderr).toContain(`--out: "${join(dir, 'results.json')}" is the same file as <spec.json> "${spec}"`);
    expect(readFileSync(spec)).toEqual(before);

    const out = join(dir, 'experiment');
    mkdirSync(out);
    const track = copy(TRACK, 'experiment/results.csv'); // the run's track, where results.csv goes
    const recorded = join(out, 'recorded.json');
    writeFileSync(recorded, JSON.stringify({ name: 'r', trajectory: { type: 'recorded', file: 'results.csv' } }));
    const second = await cli('experiment', recorded, '--out', out);
    expect(second.code).toBe(2);
    expect(second.stderr).toContain(
      `--out: "${track.path}" is the same file as trajectory.file "${track.path}", which this command reads`,
    );
    expect(readFileSync(track.path)).toEqual(track.bytes);
  });

  it('publish --track and subscribe --config with standard output appended to the file they read', async () => {
    const track = copy(TRACK, 'publish.csv');
    const publish = await runWithStdoutInto(track.path, [
      'publish',
      '--track',
      track.path,
      '--duration',
      '1',
      '--json',
    ]);
    expect(publish.code).toBe(2);
    expect(publish.stderr).toContain(
      `reckon publish: standard output: goes into --track "${track.path}", which this command reads: writing it ` +
        'would destroy it; send the output to another file',
    );
    expect(readFileSync(track.path)).toEqual(track.bytes);
    const config = join(dir, 'subscribe.json');
    writeFileSync(config, '{}');
    const subscribe = await runWithStdoutInto(config, ['subscribe', '--config', config, '--json', '--duration', '1']);
    expect(subscribe.code).toBe(2);
    expect(subscribe.stderr).toContain(`standard output: goes into --config "${config}"`);
    expect(readFileSync(config, 'utf8')).toBe('{}');
  });

  it('decode x.pcap --json >> x.pcap: refused, nothing appended to the capture', async () => {
    const capture = copy(FIXTURE, 'append.pcap');
    const run = await runWithStdoutInto(capture.path, ['decode', capture.path, '--json']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`reckon decode: standard output: goes into <capture> "${capture.path}"`);
    expect(readFileSync(capture.path)).toEqual(capture.bytes);
  });
});

/** The real binary with its standard output appended to `file` (the shell's `>> file`). */
async function runWithStdoutInto(file: string, args: readonly string[]): Promise<{ code: number; stderr: string }> {
  const fd = openSync(file, 'a');
  try {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, stdio: ['ignore', fd, 'pipe'] });
    let stderr = '';
    child.stderr!.on('data', (c) => (stderr += String(c)));
    const code = await within(
      new Promise<number>((resolve) => child.once('exit', (c) => resolve(c ?? -1))),
      30_000,
      `reckon ${args[0]} to exit`,
      child,
    );
    return { code, stderr };
  } finally {
    closeSync(fd);
  }
}
