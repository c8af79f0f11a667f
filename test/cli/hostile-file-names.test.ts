// File names are chosen by whoever made the file: one holding terminal controls (`ESC ] 0 ; … BEL` sets the window
// title, `ESC [ 2 J` clears the screen, a C1 CSI, a right-to-left override, a line break) reached the terminal raw
// from replay, experiment, publish --track, subscribe --config's error and decode's "wrote …" line. Every path a
// command prints now goes through `printable`, the escaping of network text: here each command's whole output is
// checked for raw controls, and the name is found escaped.
import { createSocket, type Socket } from 'node:dgram';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeFailure } from '../../src/cli/run.js';
import { ROOT } from '../support/binary.js';
import { cli } from '../support/cli.js';

const HOSTILE = 'x\x1b]0;T\x07\x1b[2J\x9b2J\u202e\nz';
const SHOWN = 'x\\x1b]0;T\\x07\\x1b[2J\\x9b2J\\u202e\\x0az';
/** Any control character but the line feeds that end lines, and the bidi controls. */
const RAW = /[\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/; // eslint-disable-line no-control-regex

const dir = mkdtempSync(join(tmpdir(), 'reckon-names-'));
const name = (extension: string) => join(dir, `${HOSTILE}${extension}`);
const shown = (extension: string) => join(dir, `${SHOWN}${extension}`);
let sink: Socket;
let sinkPort = 0;

beforeAll(async () => {
  copyFileSync(join(ROOT, 'test/fixtures/dis/dis7_vrforces_gaz69_90deg_turn.pcap'), name('.pcap'));
  copyFileSync(join(ROOT, 'test/fixtures/tracks/ship_signalk_aava_ownship_1hz_derived.csv'), name('.csv'));
  sink = createSocket('udp4');
  await new Promise<void>((resolve) => sink.bind(0, '127.0.0.1', resolve));
  sinkPort = sink.address().port;
});
afterAll(() => {
  sink.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The whole output of a run, checked for raw controls. */
function expectEscaped(run: { stdout: string; stderr: string }, extension: string): void {
  const out = run.stdout + run.stderr;
  expect(out).not.toMatch(RAW);
  expect(out).toContain(shown(extension));
}

describe('file names with terminal controls are printed escaped', () => {
  it('decode: the summary and the "wrote" line of --report', async () => {
    const run = await cli('decode', name('.pcap'), '--report', name('.html'));
    expect(run.code).toBe(0);
    expectEscaped(run, '.html');
    expect(run.stderr).toContain(`wrote ${shown('.html')}`);
  });

  it('replay: the line naming the capture', async () => {
    const run = await cli('replay', name('.pcap'), '--to', `127.0.0.1:${sinkPort}`, '--speed', '0');
    expect(run.code).toBe(0);
    expectEscaped(run, '.pcap');
  });

  it('publish --track: the kind chosen, the entity named after the file, the summary', async () => {
    const run = await cli('publish', '--track', name('.csv'), '--duration', '0.3', '--port', String(sinkPort));
    expect(run.code).toBe(0);
    expectEscaped(run, '.csv');
    expect(run.stderr).toContain(`publish: ${SHOWN} (1:1:1)`);
  });

  it('subscribe --config: the usage error naming a missing config file', async () => {
    const run = await cli('subscribe', '--config', name('.json'));
    expect(run.code).toBe(2);
    expectEscaped(run, '.json');
  });

  it('subscribe and publish --entities over NATS: the line naming a credentials file they cannot read', async () => {
    // A long --duration: the failure, not the end of the duration, ends each run.
    for (const command of [['subscribe'], ['publish', '--entities', '10']]) {
      const run = await cli(
        ...command,
        '--nats',
        'nats://127.0.0.1:1',
        '--nats-creds',
        name('.creds'),
        '--duration',
        '30',
      );
      expect(run.code).toBe(1);
      expectEscaped(run, '.creds');
    }
  });

  it('experiment --out: the "wrote" line', async () => {
    const run = await cli('experiment', '--preset', 'circle', '--set', 'durationSeconds=1', '--out', name(''));
    expect(run.code).toBe(0);
    expectEscaped(run, '/results.csv');
  });

  it('record --out: the summary', async () => {
    const run = await cli('record', '--out', name('.rec.pcap'), '--port', '0', '--duration', '0.2');
    expect(run.code).toBe(0);
    expectEscaped(run, '.rec.pcap');
  });

  it('a runtime failure naming a file', () => {
    const line = describeFailure('reckon x', new Error(`cannot write "${HOSTILE}": no space left on the device`), {});
    expect(line).not.toMatch(RAW);
    expect(line).toContain(`cannot write "x\\x1b]0;T\\x07\\x1b[2J\\x9b2J\\u202e; z"`);
  });
});
