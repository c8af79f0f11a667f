// `reckon publish` → `reckon subscribe --json`: two real processes over UDP on 127.0.0.1 (the subscriber picks a
// free port and says which), and the usage errors of both commands.
import { describe, expect, it } from 'vitest';
import { reckon, within } from '../support/binary.js';
import { cli } from '../support/cli.js';

interface Event {
  type: string;
  marking: string;
  entityId: { site: number; application: number; entity: number };
  state: { exerciseId: number; entityType: { domain: number } };
  names: { type: string; kind: string; force: string; appearance: Record<string, string> };
}

describe('reckon publish and reckon subscribe', () => {
  it('the subscriber sees every published entity appear, update and leave', async () => {
    const subscribe = reckon([
      'subscribe',
      '--port',
      '0',
      '--address',
      '127.0.0.1',
      '--exercise',
      '4',
      '--json',
      '--duration',
      '20',
    ]);
    const [, port] = await subscribe.waitFor(/listening on 127\.0\.0\.1 port (\d+)/);
    const publish = reckon([
      'publish',
      '--entity',
      'tank',
      '--entity',
      'aircraft',
      '--port',
      port!,
      '--exercise',
      '4',
      '--application',
      '77',
      '--duration',
      '2',
    ]);
    expect(await within(publish.exited, 15_000, 'publish to exit', publish.child)).toBe(0);
    expect(publish.stderr()).toMatch(/tank \(1:77:1\), aircraft \(1:77:2\)/);
    await subscribe.waitFor(/"type":"removed".*\n(.*\n)*.*"type":"removed"/);
    subscribe.child.kill('SIGINT');
    expect(await within(subscribe.exited, 10_000, 'subscribe to exit', subscribe.child)).toBe(0);
    const events = subscribe
      .stdout()
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Event);
    for (const [entity, marking, domain] of [
      [1, 'TANK 1', 1],
      [2, 'AIRCRAFT 1', 2],
    ] as const) {
      const mine = events.filter((e) => e.entityId.entity === entity);
      expect(mine[0]!.type).toBe('appeared');
      expect(mine[mine.length - 1]!.type).toBe('removed');
      expect(
        mine.every((e) => e.marking === marking && e.entityId.application === 77 && e.state.exerciseId === 4),
      ).toBe(true);
      expect(mine[0]!.state.entityType.domain).toBe(domain);
      // Every event names the entity's numbers (SISO-REF-010), beside them.
      expect(mine.every((e) => e.names.kind === 'Platform' && e.names.force === 'Friendly')).toBe(true);
    }
    expect(events.find((e) => e.entityId.entity === 1)!.names.type).toBe('M1A2 · Tank · USA');
    // The leave notice says Deactivated, and its names say so.
    expect(events.filter((e) => e.type === 'removed').map((e) => e.names.appearance.state)).toEqual([
      'Deactivated',
      'Deactivated',
    ]);
    expect(subscribe.stderr()).toMatch(/stopped \(interrupted\)/);
    expect(subscribe.stderr()).toMatch(/entities {2}2 seen/);
  });

  it.each([
    [
      ['publish', '--entity', 'boat', '--rate', '0', '--track', 'missing.csv'],
      [
        '--entity: expected one of tank, ship, aircraft; got "boat"',
        '--rate',
        '--track: cannot read the track file "missing.csv": no such file',
      ],
    ],
    [
      ['subscribe', '--count', 'x', '--smoothing', 'wobbly', '--multicast', '10.0.0.1'],
      ['--count: expected a whole number', 'receiver.smoothing', 'network.multicast'],
    ],
  ])('%j lists every problem and exits 2', async (args, messages) => {
    const { code, stderr } = await cli(...args);
    expect(code).toBe(2);
    expect(stderr).toMatch(/3 problems/);
    for (const m of messages) expect(stderr).toContain(m);
  });
});
