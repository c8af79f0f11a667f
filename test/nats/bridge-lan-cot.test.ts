// `reckon bridge --udp … --nats … --cot …`: both halves of the bridge in one process, through a real nats-server.
// An Entity State PDU sent on the "LAN" goes to NATS (the LAN ⇄ NATS half), comes back from NATS to the TAK half
// and leaves as a Cursor on Target event; SIGINT stops both halves, each with its summary, exit 0.
import { createSocket } from 'node:dgram';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCotEvent } from '../../src/cot/event.js';
import { geodeticDegreesToEcef } from '../../src/math/geodesy.js';
import { encodeEntityStateInto } from '../../src/pdu/wire/entity-state-encoder.js';
import { EntityStateRecord, setMarkingText } from '../../src/pdu/wire/entity-state-record.js';
import { reckon, repeatUntil, within } from '../support/binary.js';
import { freeUdpPort, startNatsServer, type RunningNatsServer } from '../../scripts/support/nats-server.js';
import { findSystemBinary } from '../../scripts/support/system-binary.js';

const natsServer = findSystemBinary('nats-server');
const describeNats = natsServer.path ? describe : describe.skip;

function tankPdu(): Uint8Array {
  const r = new EntityStateRecord(0);
  r.exerciseId = 1;
  r.site = 7;
  r.application = 3001;
  r.entity = 42;
  r.forceId = 1;
  r.entityType.set([1, 1, 225, 1, 1, 3, 0]);
  setMarkingText(r, 'TANK 42');
  r.location.set(geodeticDegreesToEcef(new Float64Array(3), 48.1, 11.6, 520));
  r.drAlgorithm = 2;
  const bytes = new Uint8Array(144);
  encodeEntityStateInto(bytes, r);
  return bytes;
}

describeNats('reckon bridge with --udp, --nats and --cot together', () => {
  let server: RunningNatsServer;
  beforeAll(async () => {
    server = await startNatsServer(natsServer.path!);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('a LAN PDU reaches TAK through NATS; SIGINT ends both halves with their summaries and exit 0', async () => {
    const tak = createSocket('udp4');
    await new Promise<void>((resolve) => tak.bind(0, '127.0.0.1', resolve));
    const events: string[] = [];
    tak.on('message', (m) => events.push(m.toString('utf8')));
    const lanPort = await freeUdpPort();
    const bridge = reckon([
      'bridge',
      '--udp',
      `127.0.0.1:${lanPort}`,
      '--udp-send',
      '127.0.0.1:9',
      '--nats',
      server.url,
      '--cot',
      `udp://127.0.0.1:${(tak.address() as AddressInfo).port}`,
      '--duration',
      '30',
    ]);
    await bridge.waitFor(/bridge: LAN 127\.0\.0\.1:\d+ .* ⇄ NATS/);
    await bridge.waitFor(/bridge: connected to NATS 127\.0\.0\.1:\d+, exercise 1; CoT to udp:\/\/127\.0\.0\.1:\d+/);
    const lan = createSocket('udp4');
    // Sent again until TAK has the event: the TAK half's NATS subscription may still be on its way to the server.
    await within(
      repeatUntil(
        () => events.length > 0,
        () => lan.send(tankPdu(), lanPort, '127.0.0.1'),
      ),
      20_000,
      'a CoT event for the LAN entity',
      bridge.child,
    );
    bridge.child.kill('SIGINT');
    expect(await within(bridge.exited, 15_000, 'bridge to exit', bridge.child)).toBe(0);
    lan.close();
    tak.close();

    const event = parseCotEvent(events[0]!)!;
    expect(event.event.uid).toBe('DIS.1.7.3001.42');
    expect(event.event.type).toBe('a-f-G-E-V-A-T');
    expect(event.contact.callsign).toBe('TANK 42');
    expect(Number(event.point.lat)).toBeCloseTo(48.1, 6);
    expect(Number(event.point.lon)).toBeCloseTo(11.6, 6);
    const err = bridge.stderr();
    expect(err).toMatch(/LAN→NATS {2}\d+ datagrams? in, \d+ PDUs?/); // the LAN ⇄ NATS half's summary
    expect(err).toMatch(/bridge: stopped \(interrupted\)[\s\S]*1 appeared/); // the TAK half's summary
  }, 40_000);
});
