// The pure argv parser and the dispatcher, run in-process with captured streams.
import { createSocket } from 'node:dgram';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { booleanFlag, parseArgs, stringFlag } from '../../src/cli/args.js';
import type { FlagSpec } from '../../src/cli/command.js';
import { cli } from '../support/cli.js';

const SPECS: Record<string, FlagSpec> = {
  out: { type: 'string', description: 'output', short: 'o' },
  count: { type: 'string', description: 'count' },
  loop: { type: 'boolean', description: 'loop' },
  tag: { type: 'string', description: 'tag', multiple: true },
};

describe('parseArgs', () => {
  it.each<[string, string[], Record<string, unknown>, string[]]>([
    ['--name value', ['--out', 'a.pcap'], { out: 'a.pcap' }, []],
    ['--name=value', ['--out=a.pcap'], { out: 'a.pcap' }, []],
    ['a value with "="', ['--out=a=b'], { out: 'a=b' }, []],
    ['short flags', ['-o', 'a.pcap', '-h'], { out: 'a.pcap', help: true }, []],
    ['booleans', ['--loop'], { loop: true }, []],
    ['--no-boolean', ['--no-loop'], { loop: false }, []],
    ['--boolean=false', ['--loop=false'], { loop: false }, []],
    ['repeatable flags collect', ['--tag', 'a', '--tag=b'], { tag: ['a', 'b'] }, []],
    ['the last of a repeated flag wins', ['--count', '1', '--count', '2'], { count: '2' }, []],
    ['positionals between flags', ['x', '--loop', 'y'], { loop: true }, ['x', 'y']],
    ['-- ends flags', ['--loop', '--', '--out', '-o'], { loop: true }, ['--out', '-o']],
    ['a lone dash is a positional', ['-'], {}, ['-']],
    ['a negative number is a value', ['--count', '-5'], { count: '-5' }, []],
  ])('%s', (_name, argv, flags, positionals) => {
    const { args, problems } = parseArgs(argv, SPECS);
    expect(problems).toEqual([]);
    expect(args.flags).toEqual(flags);
    expect(args.positionals).toEqual(positionals);
  });

  it('reports every problem at once, with suggestions', () => {
    const { problems } = parseArgs(['--ot', 'x', '--loop=maybe', '--count', '--lop', '--zzzzzz'], SPECS);
    expect(problems).toEqual([
      { path: '--ot', message: 'unknown flag (did you mean --out?)' },
      { path: '--loop', message: 'takes no value (or =true/=false), got "maybe"' },
      { path: '--count', message: 'needs a value' },
      { path: '--lop', message: 'unknown flag (did you mean --loop?)' },
      { path: '--zzzzzz', message: 'unknown flag' },
    ]);
  });

  it('takes the value of a misspelt flag with it, unless the flag it resembles is a boolean', () => {
    const valued = parseArgs(['--counts', '3', 'file'], SPECS);
    expect(valued.problems).toEqual([{ path: '--counts', message: 'unknown flag (did you mean --count?)' }]);
    expect(valued.args.positionals).toEqual(['file']);
    const boolean = parseArgs(['--lop', 'file'], SPECS);
    expect(boolean.args.positionals).toEqual(['file']);
  });

  it('reads flags back with stringFlag and booleanFlag', () => {
    const { args } = parseArgs(['--tag', 'a', '--tag', 'b', '--out', 'f'], SPECS);
    expect(stringFlag(args.flags, 'out')).toBe('f');
    expect(stringFlag(args.flags, 'tag')).toBe('b');
    expect(stringFlag(args.flags, 'count')).toBeUndefined();
    expect(booleanFlag(args.flags, 'loop')).toBe(false);
  });
});

describe('runCli', () => {
  it.each([[['--help']], [['-h']], [['help']]])('%j prints the command list on stdout and exits 0', async (argv) => {
    const r = await cli(...argv);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/Commands:\n {2}demo/);
    expect(r.stdout).toMatch(/ record .*pcap/);
    expect(r.stdout).toMatch(/Exit codes: 0 success, 1 runtime failure, 2 bad usage or config/);
  });

  it('`reckon` alone is a usage error: the command list on stderr, exit 2', async () => {
    const r = await cli();
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^reckon: a command is needed\n/);
    expect(r.stderr).toMatch(/Commands:\n {2}demo/);
  });

  it.each(['decode', 'replay'])('%s without its file names what is missing', async (name) => {
    const r = await cli(name);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`reckon ${name}: missing capture file: reckon ${name} <capture.pcap|capture.pcapng>`);
    expect(r.stderr).not.toContain('<arguments>');
  });

  it.each(['publish', 'demo'])('%s takes --rate with a unit and checks its range', async (name) => {
    // A bad threshold stops the command before it runs; the rate is judged on its own.
    const good = await cli(name, '--rate', '60 Hz', '--position-threshold', '-1 m');
    expect(good.code).toBe(2);
    expect(good.stderr).not.toContain('--rate');
    const bad = await cli(name, '--rate', '2 kHz');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--rate: must be at least 0.001 Hz and at most 1000 Hz, got "2 kHz"');
    const wrong = await cli(name, '--rate', '3 m');
    expect(wrong.stderr).toContain('--rate: "3 m" is not a frequency');
  });

  it('replay checks --port-filter as a UDP port', async () => {
    const r = await cli('replay', 'x.pcap', '--port-filter', '70000');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--port-filter: expected a UDP port 1–65535, e.g. 3000; got "70000"');
  });

  // The defaults help shows, and how it groups the settings: help.test.ts.

  it('reports an unknown short flag as typed', async () => {
    const r = await cli('decode', 'x.pcap', '-p', '3000');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('reckon decode: -p: unknown flag (did you mean --port-filter or --port?)');
    expect(r.stderr).not.toContain('--p:');
  });

  it('prints the version', async () => {
    const r = await cli('--version');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
  });

  it('rejects an unknown command with exit 2 in one line, with the command it may be', async () => {
    const r = await cli('recrod');
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('reckon: unknown command "recrod" (did you mean record?)\n');
  });

  it('lists every usage problem of a command at once, with suggestions, and exits 2', async () => {
    const r = await cli('replay', 'a.pcap', 'b.pcap', '--sped=2', '--loop=yes');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('reckon replay: 3 problems (see reckon replay --help):');
    expect(r.stderr).toContain('--sped: unknown flag (did you mean --speed?)');
    expect(r.stderr).toContain('--loop: takes no value');
    expect(r.stderr).toContain('<arguments>: expected at most 1, got 2: b.pcap');
  });

  it('reports config problems from a command with their paths, exit 2', async () => {
    const r = await cli('record', '--port', '70000', '--exercise', 'one', '--count', '0');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--out: required');
    expect(r.stderr).toContain('--count: expected a whole number ≥ 1, got "0"');
    expect(r.stderr).toMatch(/network\.port \(from --port\): .*e\.g\. 3000/);
    expect(r.stderr).toMatch(/dis\.exercise \(from --exercise\): .*e\.g\. 1/);
  });

  it.each(['record', 'replay'])('%s --help shows usage, the shared network flags and examples', async (name) => {
    const r = await cli(name, '--help');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^Usage: reckon ${name}`));
    for (const flag of ['--address', '--port', '--multicast', '--config']) expect(r.stdout).toContain(flag);
    expect(r.stdout).toMatch(/Examples:\n {2}reckon /);
    expect(r.stdout.replace(/\s+/g, ' ')).toContain(
      'Precedence: flags > RECKON_<SECTION>_<SETTING> environment > --config file > defaults.',
    );
  });

  it('exits 1 with the message when a command fails at run time', async () => {
    const busy = createSocket('udp4');
    await new Promise<void>((resolve) => busy.bind(0, '127.0.0.1', resolve));
    const out = join(mkdtempSync(join(tmpdir(), 'reckon-main-')), 'x.pcap');
    try {
      const port = busy.address().port;
      const r = await cli('record', '--out', out, '--address', '127.0.0.1', '--port', String(port));
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(new RegExp(`^reckon record: .*${port}`)); // the port that could not be bound
    } finally {
      busy.close();
    }
  });

  it('exits 2 before starting when an output path cannot be written', async () => {
    const r = await cli('record', '--out', '/nonexistent-dir/x.pcap', '--address', '127.0.0.1', '--port', '0');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      '--out: cannot write "/nonexistent-dir/x.pcap": the folder "/nonexistent-dir" does not exist',
    );
  });
});
