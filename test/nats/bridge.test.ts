// The UDP ⇄ NATS bridge against a real nats-server and real loopback sockets: LAN → NATS by cell, NATS → LAN
// re-bundled to the MTU, no loop when the LAN echoes the bridge's own datagrams back to it, filters both ways.
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { latLngToCell } from 'h3-js';
import { createSocket, type Socket } from 'node:dgram';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { geodeticDegreesToEcef } from '../../src/math/geodesy.js';
import { Bridge } from '../../src/nats/bridge.js';
import { NatsTransport } from '../../src/nats/transport.js';
import { encodeEntityStateInto } from '../../src/pdu/wire/entity-state-encoder.js';
import { EntityStateRecord } from '../../src/pdu/wire/entity-state-record.js';
import { UdpTransport } from '../../src/transport/udp.js';
import { freeUdpPort, startNatsServer, type RunningNatsServer } from '../../scripts/support/nats-server.js';
import { findSystemBinary } from '../../scripts/support/system-binary.js';

const natsServer = findSystemBinary('nats-server');
const describeNats = natsServer.path ? describe : describe.skip;

function pdu(entity: number, latDeg: number, lonDeg: number, options: { site?: number; type?: number } = {}): Buffer {
  const r = new EntityStateRecord(0);
  r.exerciseId = 1;
  r.site = options.site ?? 1;
  r.application = 1;
  r.entity = entity;
  r.entityType.set([1, 1, 225, 0, 0, 0, 0]);
  geodeticDegreesToEcef(r.location, latDeg, lonDeg, 0);
  const bytes = Buffer.alloc(144);
  encodeEntityStateInto(bytes, r);
  if (options.type !== undefined) bytes[2] = options.type;
  return bytes;
}

/** Resolves with the next `n` datagrams on `socket`. */
function datagrams(socket: Socket, n: number): Promise<Buffer[]> {
  return new Promise((resolve) => {
    const got: Buffer[] = [];
    const on = (d: Buffer) => {
      got.push(d);
      if (got.length === n) {
        socket.off('message', on);
        resolve(got);
      }
    };
    socket.on('message', on);
  });
}

describeNats('bridge UDP ⇄ NATS', () => {
  let server: RunningNatsServer;
  let raw: NatsConnection;
  beforeAll(async () => {
    server = await startNatsServer(natsServer.path!);
    raw = await connect({ servers: server.url });
  });
  afterAll(async () => {
    await raw?.close();
    await server?.stop();
  });

  async function openBridge(options: { selfLoop?: boolean; filter?: Record<string, unknown> } = {}) {
    const lan = createSocket('udp4');
    await new Promise<void>((resolve) => lan.bind(0, '127.0.0.1', () => resolve()));
    const port = options.selfLoop ? await freeUdpPort() : 0;
    const udp = await UdpTransport.open({
      bindAddress: '127.0.0.1',
      bindPort: port,
      // A self loop: the LAN hands every datagram of the bridge straight back to it (as multicast loopback does).
      destination: { address: '127.0.0.1', port: options.selfLoop ? port : lan.address().port },
    });
    const nats = await NatsTransport.open({ servers: [server.url], receive: { exercise: 1, global: true } });
    await nats.settled();
    let loop: () => void = () => {};
    const looped = new Promise<void>((resolve) => (loop = resolve));
    const bridge = new Bridge({
      udp,
      nats,
      filter: { exercise: 1, ...options.filter },
      mtu: 1472,
      onLoop: () => loop(),
    });
    return { lan, udp, nats, bridge, looped };
  }

  /** Messages on `subject` (a callback subscription), in arrival order. */
  function collect(subject: string): Array<{ subject: string; length: number }> {
    const got: Array<{ subject: string; length: number }> = [];
    raw.subscribe(subject, {
      callback: (_, m) => {
        got.push({ subject: m.subject, length: m.data.length });
      },
    });
    return got;
  }

  it('LAN → NATS: PDUs reach the subject of their cell, other PDU types the exercise subject; filters apply', async () => {
    const { lan, udp, bridge } = await openBridge({ filter: { applications: ['1'] } });
    const cells = raw.subscribe('dis.1.>', { max: 2 });
    await raw.flush();
    const bundle = Buffer.concat([pdu(1, 48, 11), pdu(2, 48, 11, { site: 2 }), pdu(3, 48, 11, { type: 2 })]);
    lan.send(bundle, udp.local.port, '127.0.0.1');
    const seen: Array<[string, number]> = [];
    for await (const m of cells) seen.push([m.subject, m.data.length]);
    expect(seen.sort()).toEqual([
      [`dis.1.${latLngToCell(48, 11, 5)}.1.1`, 144],
      ['dis.1.all.2', 144],
    ]);
    expect(bridge.stats.udpToNats).toMatchObject({ in: 1, pdus: 2 });
    expect(bridge.stats.udpReceive.rejected.applicationNotAllowed).toBe(1);
    await bridge.close();
    lan.close();
  });

  it('NATS → LAN: a message of 20 PDUs leaves as datagrams of at most the MTU; nothing goes back to NATS', async () => {
    const { lan, nats, bridge } = await openBridge();
    const onNats = collect('dis.>');
    await raw.flush();
    const publisher = await NatsTransport.open({ servers: [server.url] });
    const arrived = datagrams(lan, 2);
    publisher.send(Buffer.concat(Array.from({ length: 20 }, (_, i) => pdu(i + 1, 48, 11))));
    const got = await arrived;
    expect(got.map((d) => d.length)).toEqual([10 * 144, 10 * 144]);
    await publisher.close();
    await raw.flush();
    expect(onNats.map((m) => m.length)).toEqual([20 * 144]);
    expect(bridge.stats.natsToUdp).toMatchObject({ in: 1, pdus: 20, out: 2 });
    expect(nats.natsStats.messagesOut).toBe(0);
    await bridge.close();
    lan.close();
  });

  it('a LAN that hands the bridge its own datagrams back does not make a loop', async () => {
    const { lan, nats, bridge, looped } = await openBridge({ selfLoop: true });
    const onNats = collect('dis.>');
    await raw.flush();
    const publisher = await NatsTransport.open({ servers: [server.url] });
    publisher.send(pdu(7, 48, 11));
    await looped;
    await publisher.close();
    await raw.flush();
    expect(bridge.stats.loopsDropped).toBe(1);
    expect(bridge.stats.udpToNats.pdus).toBe(0);
    expect(nats.natsStats.messagesOut).toBe(0);
    expect(onNats).toHaveLength(1);
    await bridge.close();
    lan.close();
  });
});
