// `reckon bridge` end to end on 127.0.0.1: Entity State PDUs in over UDP, CoT events out to a UDP listener and a
// TCP server at once; usage problems listed together with exit 2.
import { createSocket } from 'node:dgram';
import { createServer, type AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { parseCotEvent } from '../../src/cot/event.js';
import { geodeticDegreesToEcef } from '../../src/math/geodesy.js';
import { encodeEntityStateInto } from '../../src/pdu/wire/entity-state-encoder.js';
import { EntityStateRecord, setMarkingText } from '../../src/pdu/wire/entity-state-record.js';
import { reckon, repeatUntil, within } from '../support/binary.js';
import { cli, startCli } from '../support/cli.js';

function pdu(entity: number, marking: string, force: number, type: readonly number[]): Uint8Array {
  const r = new EntityStateRecord(0);
  r.exerciseId = 1;
  r.site = 1;
  r.application = 3001;
  r.entity = entity;
  r.forceId = force;
  r.entityType.set(type);
  setMarkingText(r, marking);
  r.location.set(geodeticDegreesToEcef(new Float64Array(3), 36.6, -121.9, 100));
  r.drAlgorithm = 2;
  const bytes = new Uint8Array(144);
  encodeEntityStateInto(bytes, r);
  return bytes;
}

const M1A2 = [1, 1, 225, 1, 1, 3, 0];
const MI24 = [1, 2, 222, 20, 2, 0, 0];

describe('reckon bridge', () => {
  it('forwards remote entities as CoT to a UDP listener and a TCP server at once; SIGINT ends it with exit 0 and a summary, as subscribe', async () => {
    const listener = createSocket('udp4');
    await new Promise<void>((resolve) => listener.bind(0, '127.0.0.1', resolve));
    const udpUids = new Set<string>();
    const udpEvents: string[] = [];
    listener.on('message', (m) => {
      udpEvents.push(m.toString('utf8'));
      udpUids.add(parseCotEvent(m.toString('utf8'))!.event.uid!);
    });
    let tcpText = '';
    const server = createServer((socket) => socket.on('data', (c) => (tcpText += c.toString('utf8'))));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));

    const bridge = reckon([
      'bridge',
      '--port',
      '0',
      '--address',
      '127.0.0.1',
      '--cot',
      `udp://127.0.0.1:${(listener.address() as AddressInfo).port}`,
      '--cot',
      `tcp://127.0.0.1:${(server.address() as AddressInfo).port}`,
    ]);
    const [, port] = await bridge.waitFor(/listening on 127\.0\.0\.1 port (\d+)/);
    const sender = createSocket('udp4');
    const send = () => {
      sender.send(pdu(1, 'TANK 1', 1, M1A2), Number(port), '127.0.0.1');
      sender.send(pdu(2, 'HIND <&>', 2, MI24), Number(port), '127.0.0.1');
    };
    // Both entities on both outputs (sent again until seen: a datagram could in principle be lost).
    await within(
      repeatUntil(
        () => udpUids.size === 2 && tcpText.includes('DIS.1.1.3001.1"') && tcpText.includes('DIS.1.1.3001.2"'),
        send,
      ),
      15_000,
      'CoT events for both entities on both outputs',
      bridge.child,
    );
    bridge.child.kill('SIGINT');
    expect(await within(bridge.exited, 15_000, 'bridge to exit', bridge.child)).toBe(0);
    sender.close();
    listener.close();
    server.close();

    expect([...udpUids].sort()).toEqual(['DIS.1.1.3001.1', 'DIS.1.1.3001.2']);
    const hind = udpEvents.map((x) => parseCotEvent(x)!).find((e) => e.event.uid === 'DIS.1.1.3001.2')!;
    // The CoT type as specific as the category allows, and the SISO names in the detail.
    expect([hind.event.type, hind.contact.callsign]).toEqual(['a-h-A-M-H-A', 'HIND <&>']);
    expect(hind.dis.label).toBe('Mi-24/25/35 Hind · Attack helicopter · RUS');
    expect(hind.dis.typeName).toBe('Platform / Air / Russia (RUS) / Attack helicopter / Mi-24/25/35 Hind');
    expect(hind.remarks).toBe('Mi-24/25/35 Hind · Attack helicopter · RUS');
    expect(Number(hind.point.lat)).toBeCloseTo(36.6, 6);
    expect(Number(hind.point.hae)).toBeCloseTo(100, 1);
    const tank = tcpText
      .split(/(?<=<\/event>)/)
      .filter((s) => s.includes('DIS.1.1.3001.1"'))
      .map((x) => parseCotEvent(x)!);
    expect(tank[0]!.event.type).toBe('a-f-G-E-V-A-T');
    expect(tank[0]!.dis.label).toBe('M1A2 · Tank · USA');
    expect(bridge.stderr()).toMatch(/bridge: stopped \(interrupted\)/);
    expect(bridge.stderr()).toMatch(/2 appeared/);
    expect(bridge.stderr()).toMatch(/tcp:\/\/127\.0\.0\.1:\d+ {2}\d+ events, \d+ bytes, 1 connections/);
  });

  it('lists every usage problem and exits 2', async () => {
    const outputs = ['--cot', 'http://x:1', '--cot', 'udp://host'];
    const { code, stderr: err } = await cli(
      'bridge',
      ...outputs,
      '--cot-rate',
      'fast',
      '--cot-uid-prefix',
      'a b',
      '--port',
      'x',
    );
    expect(code).toBe(2);
    expect(err).toMatch(/--cot: unsupported scheme "http:"/);
    expect(err).toMatch(/--cot: no port/);
    expect(err).toMatch(/--cot-rate:/);
    expect(err).toMatch(/--cot-uid-prefix:/);
    expect(err).toMatch(/network\.port/);
    expect(err).not.toMatch(/\n\s+at /); // no stack trace
  });

  it('with both halves asked for, lists the problems of both once each and starts neither', async () => {
    const { code, stderr: err } = await cli(
      'bridge',
      '--udp',
      '127.0.0.1:x',
      '--nats',
      'nats://127.0.0.1:4222',
      '--cot',
      'http://x:1',
      '--h3-resolution',
      '99',
    );
    expect(code).toBe(2);
    expect(err).toMatch(/3 problems/);
    expect(err).toMatch(/--udp: expected HOST:PORT/);
    expect(err).toMatch(/--cot: unsupported scheme "http:"/);
    expect(err.match(/nats\.h3Resolution/g)).toHaveLength(1); // a setting both halves read, listed once
    expect(err).not.toMatch(/connected to NATS|⇄ NATS/);
  });

  it('exits 1 with the output named when an output cannot be opened', async () => {
    // Not a local interface: the socket set-up fails before anything is sent to the group.
    const { code, stderr } = await cli('bridge', '--port', '0', '--cot', 'udp://239.2.3.1:6969?interface=192.0.2.77');
    expect(code).toBe(1);
    expect(stderr).toMatch(
      /bridge: cannot open an output: udp:\/\/239\.2\.3\.1:6969\?interface=192\.0\.2\.77: .*EADDRNOTAVAIL/,
    );
  });

  it('needs an output', async () => {
    const { code, stderr } = await cli('bridge', '--port', '0');
    expect(code).toBe(2);
    expect(stderr).toMatch(/--cot: no output given: add at least one, e.g. --cot udp:\/\/239\.2\.3\.1:6969/);
  });

  it('reports unreadable TLS files as usage problems', async () => {
    const env = { RECKON_COT_KEY: '/nonexistent/client.key' };
    const run = startCli(['bridge', '--cot', 'tls://127.0.0.1:8089', '--cot-cert', '/nonexistent/client.pem'], env);
    expect(await within(run.exited, 15_000, 'bridge to exit')).toBe(2);
    expect(run.stderr()).toMatch(
      / {2}--cot-cert: cannot read the certificate file "\/nonexistent\/client.pem": no such file\n/,
    );
    expect(run.stderr()).toMatch(/ {2}--cot-key \(from RECKON_COT_KEY\): cannot read the key file/);
    expect(run.stderr()).toMatch(/^reckon bridge: 2 problems/); // RECKON_COT_KEY is no unknown setting
  });
});
