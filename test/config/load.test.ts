import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/cli/command.js';
import { parseArgs } from '../../src/cli/args.js';
import { configFromFlags } from '../../src/cli/config-from-flags.js';
import { CONFIG_PRECEDENCE, NETWORK_SECTIONS, configFlags } from '../../src/cli/config-flags.js';
import { entityTimeoutSeconds, heartbeatClass, heartbeatSeconds } from '../../src/dr/owner/heartbeat.js';
import { CONFIG_LEAVES } from '../../src/config/leaves.js';
import { ConfigError, loadConfig } from '../../src/config/load.js';
import { defaultConfig } from '../../src/config/schema.js';

const dir = mkdtempSync(join(tmpdir(), 'reckon-config-'));
function file(name: string, content: unknown): string {
  const path = join(dir, name);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}

function configError(run: () => unknown): ConfigError {
  try {
    run();
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('defaults', () => {
  it('follow docs/dis-reference.md: port 3000, 1 m / 3°, 5 s IEEE heartbeats, timeout × 2.4, MTU 1472, 4 MiB buffer; 10 000 entities', () => {
    const c = defaultConfig();
    expect(c.network.port).toBe(3000);
    expect(c.network.mtu).toBe(1472);
    expect(c.network.receiveBufferSize).toBe(4 * 1024 * 1024);
    expect(c.emitter.positionThreshold).toBe(1);
    expect(c.emitter.orientationThreshold).toBeCloseTo((3 * Math.PI) / 180, 15);
    expect(c.heartbeat.heartbeatTable).toBe('ieee');
    expect(c.heartbeat.timeoutMultiplier).toBe(2.4);
    expect(c.heartbeat.stationaryHeartbeat).toBe(60); // HBT_STATIONARY, 1 min
    expect(c.receiver).toMatchObject({
      maxEntities: 10_000,
      smoothing: 'projective',
      display: 'extrapolate',
      interpolationDelay: 0.1,
    });
    expect(loadConfig()).toEqual(c);
  });
});

describe('precedence: flags > environment > file > defaults', () => {
  const path = file('layers.json', {
    network: { port: 4000, mtu: 1400, ttl: 4 },
    emitter: { positionThreshold: '50 cm' },
  });
  const env = { RECKON_NETWORK_PORT: '5000', RECKON_NETWORK_MTU: '1200', UNRELATED: 'x' };
  const flags = { port: '6000' };

  it.each([
    ['file only', { file: path }, { port: 4000, mtu: 1400, ttl: 4 }],
    ['env over file', { file: path, env }, { port: 5000, mtu: 1200, ttl: 4 }],
    ['flags over env over file', { file: path, env, flags }, { port: 6000, mtu: 1200, ttl: 4 }],
    ['defaults underneath', { flags }, { port: 6000, mtu: 1472, ttl: 1 }],
  ] as const)('%s', (_name, sources, expected) => {
    const c = loadConfig(sources);
    expect({ port: c.network.port, mtu: c.network.mtu, ttl: c.network.ttl }).toEqual(expected);
  });

  it('finds the file through --config or RECKON_CONFIG', () => {
    expect(loadConfig({ flags: { config: path } }).emitter.positionThreshold).toBeCloseTo(0.5, 12);
    expect(loadConfig({ env: { RECKON_CONFIG: path } }).network.port).toBe(4000);
  });
});

describe('text values from flags and environment', () => {
  it('reads units, booleans, lists and JSON objects', () => {
    const c = loadConfig({
      env: {
        RECKON_NETWORK_MULTICAST_LOOPBACK: 'no',
        RECKON_HEARTBEAT_HEARTBEAT_OVERRIDES: '{"platformLand":"55 s"}',
        RECKON_DIS_ACCEPT_PROTOCOL_VERSIONS: '6, 7',
      },
      flags: {
        'position-threshold': '2 m',
        'orientation-threshold': '6 deg',
        'smoothing-time': '200 ms',
        'render-rate': '15 Hz',
        broadcast: true,
        'allow-sources': ['10.0.0.1,10.0.0.2', '10.0.0.3'],
      },
    });
    expect(c.emitter.positionThreshold).toBe(2);
    expect(c.emitter.orientationThreshold).toBeCloseTo((6 * Math.PI) / 180, 12);
    expect(c.receiver.smoothingTime).toBeCloseTo(0.2, 12);
    expect(c.receiver.renderRate).toBe(15);
    expect(c.network.broadcast).toBe(true);
    expect(c.network.multicastLoopback).toBe(false);
    expect(c.filter.allowSources).toEqual(['10.0.0.1', '10.0.0.2', '10.0.0.3']);
    expect(c.dis.acceptProtocolVersions).toEqual([6, 7]);
    expect(c.heartbeat.heartbeatOverrides).toEqual({ platformLand: 55 });
  });

  it('every setting has a unique flag and environment variable', () => {
    const flags = CONFIG_LEAVES.map((l) => l.flag);
    expect(new Set(flags).size).toBe(flags.length);
    expect(CONFIG_LEAVES.find((l) => l.path === 'network.port')?.env).toBe('RECKON_NETWORK_PORT');
    expect(CONFIG_LEAVES.find((l) => l.path === 'emitter.positionThreshold')?.flag).toBe('position-threshold');
    for (const leaf of CONFIG_LEAVES) expect(leaf.example, leaf.path).not.toBeUndefined();
  });
});

describe('every problem is listed with its path, its source and an example', () => {
  it('collects problems from file, environment and flags at once', () => {
    const path = file('bad.json', { network: { mtu: 'big', nope: 1 }, receiver: { smoothing: 'cubic' } });
    const error = configError(() =>
      loadConfig({
        file: path,
        env: { RECKON_DIS_EXERCISE: '300' },
        flags: { 'position-threshold': '3 s', port: 'http', 'allow-sources': ['10.0.0.1,nowhere'] },
      }),
    );
    const byPath = new Map(error.issues.map((i) => [i.path, i]));
    expect([...byPath.keys()].sort()).toEqual(
      [
        'dis.exercise',
        'emitter.positionThreshold',
        'filter.allowSources.1',
        'network',
        'network.mtu',
        'network.port',
        'receiver.smoothing',
      ].sort(),
    );
    expect(byPath.get('network.port')).toMatchObject({
      source: '--port',
      message: expect.stringMatching(/e\.g\. 3000/),
    });
    expect(byPath.get('network.mtu')).toMatchObject({ source: path, message: expect.stringMatching(/e\.g\. 1472/) });
    expect(byPath.get('dis.exercise')).toMatchObject({
      source: 'RECKON_DIS_EXERCISE',
      message: expect.stringMatching(/255/),
    });
    expect(byPath.get('emitter.positionThreshold')?.message).toMatch(/not a length.*e\.g\. "1 m"/);
    expect(byPath.get('network')?.message).toMatch(/"nope".*known settings here: address, port/);
    expect(byPath.get('receiver.smoothing')?.message).toMatch(/"snap".*"convergence".*e\.g\. "projective"/);
    expect(error.zodIssues.length).toBe(7);
    expect(error.message).toMatch(/network\.port \(from --port\)/);
  });

  it.each([
    ['a missing file', join(dir, 'missing.json'), /cannot read the config file ".*missing.json": no such file/],
    ['a file that is not JSON', file('broken.json', '{ "network": '), /not valid JSON/],
    ['a file that is not an object', file('array.json', [1, 2]), /must hold a JSON object/],
  ])('reports %s', (_name, path, message) => {
    const error = configError(() => loadConfig({ file: path }));
    expect(error.issues).toEqual([{ path: '<file>', source: path, message: expect.stringMatching(message) }]);
  });

  it('rejects a unicast address as multicast group, and a port out of range from code', () => {
    const error = configError(() => loadConfig({ overrides: { network: { multicast: '10.1.1.1', port: -1 } } }));
    expect(error.issues.map((i) => i.path)).toEqual(['network.port', 'network.multicast']);
    expect(loadConfig({ overrides: { network: { multicast: 'ff02::1234', ipv6: true } } }).network.multicast).toBe(
      'ff02::1234',
    );
  });
});

describe('command helpers', () => {
  it('give commands the shared network flags and turn them into a config', () => {
    const specs = configFlags(NETWORK_SECTIONS);
    for (const name of ['address', 'port', 'exercise', 'multicast', 'config']) expect(specs[name], name).toBeDefined();
    expect(specs['position-threshold']).toBeUndefined();
    expect(specs.config!.description).toContain(CONFIG_PRECEDENCE);
    const { args, problems } = parseArgs(
      ['--port', '3001', '--multicast', '239.1.2.3', '--no-multicast-loopback'],
      specs,
    );
    expect(problems).toEqual([]);
    const c = configFromFlags(args.flags, {});
    expect(c.network).toMatchObject({ port: 3001, multicast: '239.1.2.3', multicastLoopback: false });
  });

  it('report config problems as a UsageError (exit 2) with one problem per issue', () => {
    let caught: unknown;
    try {
      configFromFlags({ port: '99999', exercise: '0' }, {});
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(UsageError);
    expect((caught as UsageError).problems.map((p) => p.path)).toEqual([
      'network.port (from --port)',
      'dis.exercise (from --exercise)',
    ]);
  });
});

describe('heartbeats per kind and domain', () => {
  const ieee = defaultConfig().heartbeat;
  const kdis = { ...ieee, heartbeatTable: 'kdis' as const };
  it.each([
    // kind, domain, IEEE Table 25, KDIS
    [1, 1, 5, 55], // land platform
    [1, 2, 5, 5], // air platform
    [1, 3, 5, 55], // surface
    [1, 4, 5, 55], // subsurface
    [1, 5, 5, 5], // space
    [2, 0, 5, 5], // munition
    [3, 0, 5, 60], // life form
    [4, 0, 5, 60], // environmental
    [5, 0, 5, 60], // cultural feature
    [9, 0, 5, 5], // sensor/emitter
    [200, 0, 5, 5], // unknown kind
  ])('kind %i domain %i: %i s (IEEE) / %i s (KDIS)', (kind, domain, ieeeSeconds, kdisSeconds) => {
    expect(heartbeatSeconds(ieee, kind, domain)).toBe(ieeeSeconds);
    expect(heartbeatSeconds(kdis, kind, domain)).toBe(kdisSeconds);
  });

  it('applies overrides and the timeout multiplier', () => {
    const c = { ...ieee, heartbeatOverrides: { platformAir: 2 } };
    expect(heartbeatClass(1, 2)).toBe('platformAir');
    expect(heartbeatSeconds(c, 1, 2)).toBe(2);
    expect(heartbeatSeconds(c, 1, 1)).toBe(5);
    expect(entityTimeoutSeconds(ieee, 1, 1)).toBeCloseTo(12, 12);
    expect(entityTimeoutSeconds(kdis, 1, 1)).toBeCloseTo(132, 12);
  });

  it('stationaryHeartbeat: read with units from file, environment or flag; times a stationary entity out after it × 2.4', () => {
    expect(loadConfig({ flags: { 'stationary-heartbeat': '2 min' } }).heartbeat.stationaryHeartbeat).toBe(120);
    expect(loadConfig({ env: { RECKON_HEARTBEAT_STATIONARY_HEARTBEAT: '90 s' } }).heartbeat.stationaryHeartbeat).toBe(
      90,
    );
    expect(entityTimeoutSeconds(ieee, 1, 2, true)).toBeCloseTo(144, 12);
    // Never shorter than the class's own heartbeat; 0 is off.
    expect(entityTimeoutSeconds({ ...kdis, stationaryHeartbeat: 10 }, 1, 1, true)).toBeCloseTo(132, 12);
    expect(entityTimeoutSeconds({ ...ieee, stationaryHeartbeat: 0 }, 1, 2, true)).toBeCloseTo(12, 12);
    const error = configError(() => loadConfig({ overrides: { heartbeat: { stationaryHeartbeat: '-1 s' } } }));
    expect(error.issues).toEqual([
      expect.objectContaining({
        path: 'heartbeat.stationaryHeartbeat',
        message: expect.stringMatching(/0 \(off\) or more/),
      }),
    ]);
  });
});
