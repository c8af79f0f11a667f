// One rule per setting at every entry point: a value the schema rejects is rejected by each command that takes the
// setting (flag, RECKON_* environment, --config file) and by experiment specs (--set and spec file), with exit 2 and
// the setting's path named.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cli } from '../support/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'reckon-rules-'));

interface BadValue {
  readonly path: string;
  readonly flag: string;
  readonly value: string;
  readonly env: string;
  /** Expected message, after the path. */
  readonly message: RegExp;
  /** Commands with this setting's flag. */
  readonly commands: readonly string[];
  /** The matching experiment spec field, where the spec has one. */
  readonly spec?: string;
}

const BAD: readonly BadValue[] = [
  {
    path: 'emitter.positionThreshold',
    flag: 'position-threshold',
    value: '-3 m',
    env: 'RECKON_EMITTER_POSITION_THRESHOLD',
    message: /must be positive/,
    commands: ['publish', 'demo'],
    spec: 'emitter.positionThreshold',
  },
  {
    path: 'emitter.positionThreshold',
    flag: 'position-threshold',
    value: '0',
    env: 'RECKON_EMITTER_POSITION_THRESHOLD',
    message: /must be positive/,
    commands: ['publish', 'demo'],
    spec: 'emitter.positionThreshold',
  },
  {
    path: 'emitter.orientationThreshold',
    flag: 'orientation-threshold',
    value: '-3 deg',
    env: 'RECKON_EMITTER_ORIENTATION_THRESHOLD',
    message: /must be positive/,
    commands: ['publish', 'demo'],
    spec: 'emitter.orientationThreshold',
  },
  {
    path: 'receiver.renderRate',
    flag: 'render-rate',
    value: '0',
    env: 'RECKON_RECEIVER_RENDER_RATE',
    message: /must be positive/,
    commands: ['demo', 'subscribe'],
    spec: 'renderRateHz',
  },
  {
    path: 'receiver.smoothingTime',
    flag: 'smoothing-time',
    value: '-1s',
    env: 'RECKON_RECEIVER_SMOOTHING_TIME',
    message: /must be 0 or more/,
    commands: ['demo', 'subscribe'],
    spec: 'smoothing.time',
  },
  {
    path: 'receiver.interpolationDelay',
    flag: 'interpolation-delay',
    value: '-150ms',
    env: 'RECKON_RECEIVER_INTERPOLATION_DELAY',
    message: /must be 0 or more/,
    commands: ['demo', 'subscribe'],
  },
  {
    path: 'dis.acceptProtocolVersions',
    flag: 'accept-protocol-versions',
    value: '9',
    env: 'RECKON_DIS_ACCEPT_PROTOCOL_VERSIONS',
    message: /<=7/,
    // What a receiver accepts: publish, which only sends, takes no such flag (test/cli/help.test.ts).
    commands: ['demo', 'subscribe', 'view'],
  },
];

/** `emitter.positionThreshold` → `{"emitter": {"positionThreshold": value}}` */
function nested(path: string, value: unknown): Record<string, unknown> {
  const keys = path.split('.');
  return keys.reduceRight<unknown>((inner, key) => ({ [key]: inner }), value) as Record<string, unknown>;
}

const rows = BAD.flatMap((bad, i) => {
  const file = join(dir, `config-${i}.json`);
  writeFileSync(
    file,
    JSON.stringify(nested(bad.path, bad.flag === 'accept-protocol-versions' ? [Number(bad.value)] : bad.value)),
  );
  const perCommand = bad.commands.flatMap((command) => [
    {
      what: `${command} --${bad.flag} "${bad.value}"`,
      argv: [command, `--${bad.flag}`, bad.value],
      env: {},
      bad,
      source: `--${bad.flag}`,
    },
    {
      what: `${command} with ${bad.env}="${bad.value}"`,
      argv: [command],
      env: { [bad.env]: bad.value },
      bad,
      source: bad.env,
    },
    {
      what: `${command} --config {${bad.path}: "${bad.value}"}`,
      argv: [command, '--config', file],
      env: {},
      bad,
      source: file,
    },
  ]);
  if (bad.spec === undefined) return perCommand;
  const spec = join(dir, `spec-${i}.json`);
  writeFileSync(spec, JSON.stringify({ name: 'bad', ...nested(bad.spec, bad.value) }));
  return [
    ...perCommand,
    {
      what: `experiment --set ${bad.spec}="${bad.value}"`,
      argv: ['experiment', '--preset', 'circle', '--set', `${bad.spec}=${bad.value}`],
      env: {},
      bad,
      source: undefined,
      specPath: bad.spec,
    },
    {
      what: `experiment spec {${bad.spec}: "${bad.value}"}`,
      argv: ['experiment', spec],
      env: {},
      bad,
      source: undefined,
      specPath: bad.spec,
    },
  ];
});

describe('a value the schema rejects is rejected at every entry point, exit 2', () => {
  afterEach(() => vi.unstubAllEnvs());

  it.each(rows)('$what', async (row) => {
    for (const [name, value] of Object.entries(row.env)) vi.stubEnv(name, value);
    // --duration bounds the run should a bad value ever be let through.
    const r = await cli(...(row.argv[0] === 'experiment' ? row.argv : [...row.argv, '--duration', '1']));
    expect(r.code).toBe(2);
    const path = 'specPath' in row ? row.specPath! : `${row.bad.path} (from ${row.source})`;
    const line = r.stderr
      .split('\n')
      .map((l) => l.trimStart().replace(/^reckon \w+: /, ''))
      .find((l) => l.startsWith(`${path}: `) || l.startsWith(path.replace(' (', '.0 ('))); // list items: `path.0`
    expect(line, r.stderr).toBeDefined();
    expect(line).toMatch(row.bad.message);
    expect(r.stdout).toBe('');
  });
});

describe('unknown RECKON_* environment variables', () => {
  afterEach(() => vi.unstubAllEnvs());

  it.each([
    ['RECKON_EMITTER_POSITON_THRESHOLD', 'did you mean RECKON_EMITTER_POSITION_THRESHOLD?'],
    ['RECKON_POSITION_THRESHOLD', 'did you mean RECKON_EMITTER_POSITION_THRESHOLD?'],
    ['RECKON_RECEIVER_PORT', 'did you mean RECKON_NETWORK_PORT?'],
    ['RECKON_FROBNICATE', 'unknown environment variable; settings are'],
  ])('%s is named, exit 2', async (name, expected) => {
    vi.stubEnv(name, '2');
    for (const command of ['publish', 'subscribe', 'demo']) {
      const r = await cli(command, '--duration', '1');
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`${name} (from environment): `);
      expect(r.stderr).toContain(expected);
    }
  });

  it('RECKON_CONFIG and the test-suite switch are known', async () => {
    vi.stubEnv('RECKON_REQUIRE_SYSTEM_BINARIES', '0');
    vi.stubEnv('RECKON_CONFIG', join(dir, 'missing.json'));
    const r = await cli('subscribe', '--duration', '1');
    expect(r.code).toBe(2);
    expect(r.stderr).not.toContain('unknown environment variable');
    expect(r.stderr).toContain('cannot read the config file');
  });
});
