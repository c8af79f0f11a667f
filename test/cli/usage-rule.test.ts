// One rule for every command: a usage or input problem is reported in one line per problem, naming what to fix,
// with exit 2 and before any work (nothing on stdout, no file written); a runtime failure such as a port in use is
// one line and exit 1, never a summary of zeros. Commands run in process (test/support/cli.ts).
import { createSocket, type Socket } from 'node:dgram';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../support/cli.js';
import { ROOT } from '../support/binary.js';

const CAPTURE = join(ROOT, 'test/fixtures/dis/dis7_vrforces_gaz69_90deg_turn.pcap');
const dir = mkdtempSync(join(tmpdir(), 'reckon-usage-'));
const STACK = /^\s+at /m;

/** The problem lines of a usage report: every non-empty line of stderr. */
const lines = (stderr: string) => stderr.split('\n').filter((l) => l.trim() !== '');

describe('a usage or input problem: one line naming what to fix, exit 2, before any work', () => {
  it.each<[string, string[], RegExp]>([
    ['a misspelt command', ['decod'], /^reckon: unknown command "decod" \(did you mean decode\?\)/],
    [
      'an unknown command',
      ['frobnicate'],
      /^reckon: unknown command "frobnicate"; the commands are demo, decode, .*lockstep/,
    ],
    [
      'decode --report in a folder that does not exist',
      ['decode', CAPTURE, '--report', '/nonexistent/dir/r.html'],
      /^reckon decode: --report: cannot write "\/nonexistent\/dir\/r\.html": the folder "\/nonexistent\/dir" does not exist/,
    ],
    [
      'experiment with a missing spec',
      ['experiment', join(dir, 'missing.json')],
      /^reckon experiment: <spec\.json>: .*no such file/,
    ],
    [
      'a threshold beyond float64',
      ['publish', '--position-threshold', '1e400', '--duration', '1'],
      /^reckon publish: emitter\.positionThreshold \(from --position-threshold\): must be finite/,
    ],
    [
      'a misspelt flag',
      ['publish', '--positon-threshold', '3'],
      /^reckon publish: --positon-threshold: unknown flag \(did you mean --position-threshold\?\)/,
    ],
    [
      'record --out in a folder that does not exist',
      ['record', '--out', '/nonexistent/dir/x.pcap', '--port', '0'],
      /^reckon record: --out: cannot write "\/nonexistent\/dir\/x\.pcap": the folder "\/nonexistent\/dir" does not exist/,
    ],
    [
      'publish --origin that is not LAT,LON',
      ['publish', '--origin', '48.1', '--duration', '1'],
      /^reckon publish: --origin: expected LAT,LON in degrees .*got "48\.1"/,
    ],
    [
      'an area whose latitude is past the pole',
      ['subscribe', '--nats', 'nats://127.0.0.1:4222', '--area', '91,0,1 km'],
      /^reckon subscribe: nats\.area \(from --area\): area latitude 91 is outside −90…90 degrees/,
    ],
    [
      'an area of radius 0',
      ['subscribe', '--nats', 'nats://127.0.0.1:4222', '--area', '48,11,0 km'],
      /^reckon subscribe: nats\.area \(from --area\): area radius must be more than 0 and at most 5000 km/,
    ],
    [
      'publish of a missing track',
      ['publish', '--track', join(dir, 'missing.csv')],
      /^reckon publish: --track: .*no such file/,
    ],
    [
      'a missing TLS certificate for the CoT bridge',
      [
        'bridge',
        '--cot',
        'tls://127.0.0.1:8089',
        '--cot-cert',
        join(dir, 'none.pem'),
        '--cot-key',
        join(dir, 'none.key'),
      ],
      /^reckon bridge: 2 problems \(see reckon bridge --help\):\n {2}--cot-cert: cannot read the certificate file ".*none\.pem": no such file\n {2}--cot-key: cannot read the key file ".*none\.key": no such file\n$/,
    ],
  ])('%s', async (_name, argv, expected) => {
    const r = await cli(...argv);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(expected);
    expect(r.stderr).not.toMatch(/ENOENT|EACCES|Invalid input|\(from code\)/);
    expect(r.stderr).not.toMatch(STACK);
    expect(r.stdout).toBe('');
    const problems = lines(r.stderr);
    if (!/problems/.test(problems[0]!)) expect(problems).toHaveLength(1);
  });

  it('lists several problems one per line under one heading', async () => {
    const r = await cli('replay', 'a.pcap', 'b.pcap', '--sped=2', '--loop=yes');
    expect(r.code).toBe(2);
    expect(lines(r.stderr)).toEqual([
      'reckon replay: 3 problems (see reckon replay --help):',
      '  --sped: unknown flag (did you mean --speed?)',
      '  --loop: takes no value (or =true/=false), got "yes"',
      '  <arguments>: expected at most 1, got 2: b.pcap',
    ]);
  });

  it('writes no report and prints no summary when decode --report cannot be written', async () => {
    const report = join(dir, 'no-such-folder', 'r.html');
    const r = await cli('decode', CAPTURE, '--report', report);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(existsSync(report)).toBe(false);
  });

  it('names the kind of a track with its article: "an aircraft", not "a air track"', async () => {
    const { checkFixes } = await import('../../src/truth/track-checks.js');
    const jump = [
      { timeSeconds: 0, latitudeDeg: 48, longitudeDeg: 11 },
      { timeSeconds: 1, latitudeDeg: 49, longitudeDeg: 11 },
    ];
    expect(checkFixes(jump, 'air').join()).toMatch(/faster than an aircraft can move/);
    expect(checkFixes(jump, 'ground').join()).toMatch(/faster than a ground vehicle can move/);
  });
});

describe('a bare port where a HOST:PORT is asked for, as view --http takes it', () => {
  it('replay --to PORT sends to 127.0.0.1:PORT', async () => {
    const receiver = createSocket('udp4');
    await new Promise<void>((resolve) => receiver.bind(0, '127.0.0.1', resolve));
    let received = 0;
    receiver.on('message', () => received++);
    try {
      const r = await cli('replay', CAPTURE, '--to', String(receiver.address().port), '--speed', '0');
      expect(r.code, r.stderr).toBe(0);
      await expect.poll(() => received, { timeout: 5000 }).toBeGreaterThan(0);
    } finally {
      receiver.close();
    }
  });

  it('a malformed one still says what is expected', async () => {
    const r = await cli('replay', CAPTURE, '--to', 'host:port');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /^reckon replay: --to: expected HOST:PORT such as 127\.0\.0\.1:3000, \[::1\]:3000 or a port alone \(on 127\.0\.0\.1\); got "host:port"/,
    );
  });
});

describe('a port in use: one line, exit 1, no summary of zeros', () => {
  let busy: Socket;
  let port: string;
  beforeAll(async () => {
    busy = createSocket('udp4');
    await new Promise<void>((resolve) => busy.bind(0, '127.0.0.1', resolve));
    port = String(busy.address().port);
  });
  afterAll(() => busy.close());

  it.each<[string, string[]]>([
    ['subscribe', ['subscribe', '--address', '127.0.0.1', '--duration', '5']],
    ['bridge', ['bridge', '--address', '127.0.0.1', '--cot', 'udp://127.0.0.1:9', '--duration', '5']],
    ['view', ['view', '--address', '127.0.0.1', '--http', '127.0.0.1:0', '--duration', '5']],
    ['record', ['record', '--address', '127.0.0.1', '--out', join(dir, 'busy.pcap'), '--duration', '5']],
  ])('%s', async (name, argv) => {
    const r = await cli(...argv, '--port', port);
    expect(r.code, r.stderr).toBe(1);
    expect(lines(r.stderr)).toHaveLength(1);
    expect(r.stderr).toMatch(
      new RegExp(`^reckon ${name}: binding UDP 127\\.0\\.0\\.1 port ${port} failed: .*EADDRINUSE`),
    );
    expect(r.stderr).not.toMatch(/stopped|0 datagrams/);
  });
});
