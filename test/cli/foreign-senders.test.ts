// reckon's receiving commands against what other DIS software sends, through the built binary on 127.0.0.1.
import { createSocket } from 'node:dgram';
import { describe, expect, it } from 'vitest';
import { pythonOpendisExampleDatagram } from '../pdu/python-opendis.js';
import { reckon, repeatUntil, within } from './binary.js';

describe('Python opendis, which leaves the header Length at 0', () => {
  it('subscribe shows the example sender’s entity and counts each of its PDUs as the warning lengthZero', async () => {
    const subscribe = reckon([
      'subscribe',
      '--address',
      '127.0.0.1',
      '--port',
      '0',
      '--json',
      '--count',
      '1',
      '--duration',
      '20',
    ]);
    const [, port] = await subscribe.waitFor(/listening on 127\.0\.0\.1 port (\d+)/);
    const socket = createSocket('udp4');
    const datagram = pythonOpendisExampleDatagram(1); // its sender with `pdu.exerciseID = 1`, reckon's default
    try {
      await within(
        repeatUntil(
          () => subscribe.stdout().length > 0,
          () => socket.send(datagram, Number(port), '127.0.0.1'),
        ),
        15_000,
        'the entity',
        subscribe.child,
      );
    } finally {
      socket.close();
    }
    expect(await within(subscribe.exited, 15_000, 'subscribe to exit', subscribe.child)).toBe(0);
    expect(JSON.parse(subscribe.stdout().trim().split('\n')[0]!)).toMatchObject({
      type: 'appeared',
      entityId: { site: 17, application: 23, entity: 42 },
      marking: 'Igor3d',
    });
    const [, warned] = subscribe.stderr().match(/warnings: lengthZero (\d+)/) ?? [];
    expect(Number(warned)).toBeGreaterThanOrEqual(1);
    expect(subscribe.stderr()).not.toMatch(/rejected/);
  });
});
