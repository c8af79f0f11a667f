// network.address takes an IP address or a host name (resolved when the socket opens), the same from a flag, the
// environment or a file; network.reuseAddress is a setting like any other.
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/load.js';

function issuesOf(run: () => unknown): string[] {
  try {
    run();
  } catch (error) {
    if (error instanceof ConfigError) return error.issues.map((i) => `${i.path}: ${i.message}`);
    throw error;
  }
  return [];
}

describe('network.address', () => {
  it.each([
    '127.0.0.1',
    '::1',
    'localhost',
    'dis-gateway',
    'sim01.example.org',
    'sim01.example.org.',
    'xn--bcher-kva.example',
  ])('accepts %s', (address) => {
    expect(loadConfig({ flags: { address } }).network.address).toBe(address);
    expect(loadConfig({ env: { RECKON_NETWORK_ADDRESS: address } }).network.address).toBe(address);
  });

  it.each([
    '10.0.0.256',
    '1.2.3',
    'bad_host',
    '-leading.example',
    'a..b',
    'host name',
    `${'a'.repeat(64)}.example`,
    '',
  ])('rejects "%s"', (address) => {
    expect(issuesOf(() => loadConfig({ flags: { address } }))).toEqual([
      expect.stringMatching(/^network\.address: must be an IPv4 or IPv6 address or a host name such as localhost/),
    ]);
  });
});

describe('network.reuseAddress', () => {
  it('is off by default, and on from --reuse-address or RECKON_NETWORK_REUSE_ADDRESS', () => {
    expect(loadConfig({}).network.reuseAddress).toBe(false);
    expect(loadConfig({ flags: { 'reuse-address': true } }).network.reuseAddress).toBe(true);
    expect(loadConfig({ env: { RECKON_NETWORK_REUSE_ADDRESS: 'true' } }).network.reuseAddress).toBe(true);
  });
});
