// examples/truth-from-python.py, run by Debian's python3 and piped into `reckon publish --truth -`, as its first
// line says; a real `reckon subscribe` sees both entities arrive, typed and named, and leave.
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { within } from '../support/binary.js';
import { startCli } from '../support/cli.js';
import { findSystemBinary } from '../../scripts/support/system-binary.js';

const python = findSystemBinary('python3');
const EXAMPLE = new URL('../../examples/truth-from-python.py', import.meta.url).pathname;

describe.skipIf(!python.path)('examples/truth-from-python.py | reckon publish --truth -', () => {
  it('publishes the tank and the ship, sending far fewer PDUs than records, and removes them at the end', async () => {
    const subscribe = startCli(['subscribe', '--port', '0', '--address', '127.0.0.1', '--json']);
    try {
      const [, port] = (await subscribe.waitFor(/listening on 127\.0\.0\.1 port (\d+)/, 10_000)) as unknown as [
        string,
        string,
      ];
      const child = spawn(python.path!, [EXAMPLE, '--duration', '2', '--rate', '10'], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      const publish = startCli(
        ['publish', '--truth', '-', '--port', port, '--application', '61'],
        {},
        undefined,
        child.stdout,
      );
      expect(await within(publish.exited, 20_000, 'publish to exit')).toBe(0);
      await subscribe.waitFor(/"type":"removed"[^\n]*\n[\s\S]*"type":"removed"/, 10_000);
      const events = subscribe
        .stdout()
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { type: string; marking: string; names: { type: string; force: string } });
      const appeared = events.filter((e) => e.type === 'appeared');
      expect(appeared.map((e) => e.marking).sort()).toEqual(['FREIGHTER', 'TANK 7']);
      expect(appeared.find((e) => e.marking === 'TANK 7')!.names.type).toBe('M1A2 · Tank · USA');
      expect(appeared.find((e) => e.marking === 'FREIGHTER')!.names.type).toMatch(/Container Ship/);
      expect(appeared.find((e) => e.marking === 'FREIGHTER')!.names.force).toBe('Neutral');
      expect(events.filter((e) => e.type === 'removed').length).toBe(2);
      // 21 records a second each for 2 s, 84 fixes in all; dead reckoning sends a handful.
      const summary = /(\d+) positions → (\d+) PDUs/.exec(publish.stderr())!;
      expect(Number(summary[1])).toBeGreaterThanOrEqual(40);
      expect(Number(summary[2]), publish.stderr()).toBeLessThan(Number(summary[1]) / 4);
      expect(publish.stderr()).toMatch(/stopped \(the input ended\)/);
    } finally {
      subscribe.interrupt();
      await subscribe.exited;
    }
  });
});
