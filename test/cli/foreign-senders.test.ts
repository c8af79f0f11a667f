// reckon's receiving commands against what other DIS software sends, through the built binary on 127.0.0.1.
import { createSocket } from 'node:dgram';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pcapFileHeader, pcapUdpRecord } from '../../src/pcap/writer.js';
import { cli } from '../support/cli.js';
import { describe, expect, it } from 'vitest';
import { pythonOpendisExampleDatagram } from '../support/python-opendis.js';
import { reckon, repeatUntil, within } from '../support/binary.js';

const MONTEREY_LEVEL_NORTH = [36.6, -121.9, 1, 0, 0, 0];

/** The geodetic fields of a JSON line, rounded: degrees of position to 1e-6, metres to 1e-3, angles (float32 on
 * the wire) to 1e-4 degrees. */
function geodeticOf(line: { geodetic: Record<string, number> }): number[] {
  const g = line.geodetic;
  const heading = g.headingDeg! > 180 ? g.headingDeg! - 360 : g.headingDeg!;
  const scales = [1e6, 1e6, 1e3, 1e4, 1e4, 1e4];
  return [g.latitudeDeg!, g.longitudeDeg!, g.heightM!, heading, g.pitchDeg!, g.rollDeg!].map(
    (v, i) => Math.round(v * scales[i]!) / scales[i]! + 0,
  );
}

describe('Python opendis, which leaves the header Length at 0', () => {
  it('decode --json gives the geodetic position and attitude beside the PDU', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'reckon-foreign-'));
    const file = join(dir, 'sender.pcap');
    writeFileSync(file, Buffer.concat([pcapFileHeader(), pcapUdpRecord(pythonOpendisExampleDatagram(), 1e9)]));
    const r = await cli('decode', file, '--json');
    expect(r.code, r.stderr).toBe(0);
    expect(geodeticOf(JSON.parse(r.stdout.trim()))).toEqual(MONTEREY_LEVEL_NORTH);
  });

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
    const appeared = JSON.parse(subscribe.stdout().trim().split('\n')[0]!);
    expect(appeared).toMatchObject({
      type: 'appeared',
      entityId: { site: 17, application: 23, entity: 42 },
      marking: 'Igor3d',
    });
    // Where its sender put it, in the terms it used: Monterey, 1 m up, level and facing north.
    expect(geodeticOf(appeared)).toEqual(MONTEREY_LEVEL_NORTH);
    const [, warned] = subscribe.stderr().match(/warnings: lengthZero (\d+)/) ?? [];
    expect(Number(warned)).toBeGreaterThanOrEqual(1);
    expect(subscribe.stderr()).not.toMatch(/rejected/);
  });
});
