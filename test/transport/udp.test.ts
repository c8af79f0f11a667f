// UdpTransport on real sockets (127.0.0.1 / ::1, ephemeral ports). Every wait is for an event, bounded in time.
import { createSocket, type Socket } from 'node:dgram';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/config/schema.js';
import { PduBundler } from '../../src/transport/bundler.js';
import { receivePdus, type ReceiveFilterOptions } from '../../src/transport/pdu-receiver.js';
import { openUdpTransport, udpOptionsFromConfig, UdpTransport } from '../../src/transport/udp.js';
import { entityOf, makePdu } from '../support/pdus.js';

const MARKER = 65000;
const open: Array<{ close(): unknown }> = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

/** Collects accepted PDUs' entity numbers; `until(n)` resolves once n have arrived (or rejects after a timeout). */
async function listener(filter: ReceiveFilterOptions = {}, options: Parameters<typeof UdpTransport.open>[0] = {}) {
  const transport = await UdpTransport.open({ bindAddress: '127.0.0.1', ...options });
  open.push(transport);
  const entities: number[] = [];
  let wake: (() => void) | undefined;
  receivePdus(
    transport,
    (bytes, offset) => {
      entities.push(entityOf(bytes, offset));
      wake?.();
    },
    filter,
  );
  const until = (predicate: () => boolean, what: string, ms = 5000) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`timed out waiting for ${what}; got ${JSON.stringify(entities)}`)),
        ms,
      );
      wake = () => {
        if (predicate()) {
          clearTimeout(timer);
          resolve();
        }
      };
      wake();
    });
  return { transport, entities, until };
}

/** A raw dgram sender; `send` resolves once the datagram has left. */
async function rawSender(address = '127.0.0.1', type: 'udp4' | 'udp6' = 'udp4') {
  const socket: Socket = createSocket(type);
  await new Promise<void>((resolve) => socket.bind(0, address, resolve));
  open.push({ close: () => new Promise<void>((resolve) => socket.close(() => resolve())) });
  return (datagram: Uint8Array, port: number, to = address) =>
    new Promise<void>((resolve, reject) => socket.send(datagram, port, to, (e) => (e ? reject(e) : resolve())));
}

describe('UdpTransport on loopback', () => {
  it('bundles on send and splits on receipt, PDU for PDU', async () => {
    const rx = await listener();
    const tx = await UdpTransport.open({ destination: { address: '127.0.0.1', port: rx.transport.local.port } });
    open.push(tx);
    const bundler = new PduBundler(tx, 1472);
    for (let entity = 1; entity <= 25; entity++) bundler.append(makePdu({ entity }));
    bundler.flush();
    await rx.until(() => rx.entities.length === 25, '25 PDUs');
    expect(rx.entities).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
    expect(tx.stats).toMatchObject({ datagramsOut: 3, bytesOut: 25 * 144, sendErrors: 0 });
    expect(rx.transport.stats).toMatchObject({ datagramsIn: 3, bytesIn: 25 * 144, pdusAccepted: 25 });
  });

  it('counts filtered PDUs by reason: exercise, version, source, site/application', async () => {
    const rx = await listener(
      { exercise: 1, protocolVersions: [7], sources: ['127.0.0.1'], applications: ['1:3001', `9:${MARKER}`] },
      { bindAddress: '0.0.0.0' },
    );
    const port = rx.transport.local.port;
    const send = await rawSender('127.0.0.1');
    const stranger = await rawSender('127.0.0.2'); // any 127/8 address is this host, but not on the allow-list
    await send(makePdu({ entity: 1 }), port);
    await send(makePdu({ entity: 2, exercise: 2 }), port);
    await send(makePdu({ entity: 3, version: 6 }), port);
    await stranger(makePdu({ entity: 4 }), port, '127.0.0.1');
    await send(makePdu({ entity: 5, site: 1, application: 3002 }), port);
    await send(makePdu({ entity: MARKER, site: 9, application: MARKER }), port);
    await rx.until(() => rx.entities.includes(MARKER), 'the marker');
    expect(rx.entities).toEqual([1, MARKER]);
    expect(rx.transport.stats.rejected).toMatchObject({
      wrongExercise: 1,
      unsupportedVersion: 1,
      sourceNotAllowed: 1,
      applicationNotAllowed: 1,
    });
  });

  it('survives garbage, truncated and oversized datagrams, counting each, and valid PDUs keep flowing', async () => {
    const rx = await listener({ exercise: 1 });
    const port = rx.transport.local.port;
    const send = await rawSender();
    const bad = [
      Buffer.from('definitely not DIS'), // Length bytes "ly" = 27769 > 18 bytes: truncated
      Buffer.alloc(3),
      makePdu({ lengthField: 144 }).subarray(0, 90),
      makePdu({ length: 20000 }),
      makePdu({ lengthField: 5 }),
    ];
    for (const [i, datagram] of bad.entries()) {
      await send(datagram, port);
      await send(makePdu({ entity: 100 + i }), port);
    }
    await rx.until(() => rx.entities.length === bad.length, 'a valid PDU after each bad one');
    expect(rx.entities).toEqual([100, 101, 102, 103, 104]);
    expect(rx.transport.stats.rejected).toMatchObject({ truncated: 3, oversized: 1, badLength: 1 });
    expect(rx.transport.stats.datagramsIn).toBe(10);
  });

  it('releases the port on close: it can be bound again at once', async () => {
    const first = await UdpTransport.open({ bindAddress: '127.0.0.1' });
    const { port } = first.local;
    const closed = new Promise<Error | undefined>((resolve) => first.onClose(resolve));
    await first.close();
    expect(await closed).toBeUndefined();
    await first.close(); // idempotent
    const again = await UdpTransport.open({ bindAddress: '127.0.0.1', bindPort: port });
    open.push(again);
    expect(again.local.port).toBe(port);
  });

  it('explains a port already in use, and counts sends that fail', async () => {
    const holder = await UdpTransport.open({ bindAddress: '127.0.0.1' });
    open.push(holder);
    await expect(UdpTransport.open({ bindAddress: '127.0.0.1', bindPort: holder.local.port })).rejects.toThrow(
      /binding UDP 127\.0\.0\.1 port \d+ failed: .*EADDRINUSE.*pick another --port/,
    );
    holder.send(makePdu()); // no destination
    expect(holder.stats).toMatchObject({ sendErrors: 1, datagramsOut: 0 });
  });

  it('reports a socket failure once, ends the transport and stops delivery', async () => {
    const rx = await listener();
    const reports: Array<Error | undefined> = [];
    rx.transport.onClose((error) => reports.push(error));
    const failure = Object.assign(new Error('recvmsg failed'), { code: 'ENOBUFS' });
    // The OS raises this through the socket's 'error' event; emit it as the OS would.
    (rx.transport as unknown as { socket: Socket }).socket.emit('error', failure);
    (rx.transport as unknown as { socket: Socket }).socket.emit('error', failure);
    await rx.transport.close();
    expect(reports).toHaveLength(1);
    expect(reports[0]?.message).toBe('UDP socket failed: recvmsg failed');
    expect(rx.transport.failure).toBe(reports[0]);
    const late: Array<Error | undefined> = [];
    rx.transport.onClose((error) => late.push(error));
    expect(late).toEqual([reports[0]]);
  });

  it('grants a receive buffer and reports its size', async () => {
    const rx = await listener({}, { receiveBufferSize: 1 << 20 });
    expect(rx.transport.receiveBufferBytes).toBeGreaterThan(0);
  });

  it('joins a multicast group on loopback (skipped where the host has no multicast route)', async (context) => {
    const group = '239.255.42.99';
    let rx: Awaited<ReturnType<typeof listener>>;
    try {
      rx = await listener({}, { bindAddress: '0.0.0.0', multicastGroup: group, multicastInterface: '127.0.0.1' });
    } catch (error) {
      context.skip(`cannot join ${group} on 127.0.0.1 here: ${(error as Error).message}`);
      return;
    }
    const tx = await UdpTransport.open({
      destination: { address: group, port: rx!.transport.local.port },
      multicastInterface: '127.0.0.1',
      multicastLoopback: true,
    });
    open.push(tx);
    tx.send(makePdu({ entity: 7 }));
    try {
      await rx!.until(() => rx!.entities.length === 1, 'a multicast datagram', 2000);
    } catch {
      context.skip(
        `joined ${group}, but loopback multicast is not delivered on this host (sendErrors: ${tx.stats.sendErrors})`,
      );
    }
    expect(rx!.entities).toEqual([7]);
  });

  it('works over IPv6 ::1 (skipped when IPv6 is unavailable)', async (context) => {
    let rx: Awaited<ReturnType<typeof listener>>;
    try {
      rx = await listener({}, { bindAddress: '::1' });
    } catch (error) {
      context.skip(`IPv6 loopback unavailable: ${(error as Error).message}`);
      return;
    }
    expect(rx!.transport.local.family).toBe('IPv6');
    const tx = await UdpTransport.open({ destination: { address: '::1', port: rx!.transport.local.port } });
    open.push(tx);
    tx.send(makePdu({ entity: 6 }));
    await rx!.until(() => rx!.entities.length === 1, 'an IPv6 datagram');
    expect(rx!.entities).toEqual([6]);
  });
});

describe('UdpTransport: addresses, failed sends and shared ports', () => {
  it("refuses destination port 0: a sender needs the receiver's port", async () => {
    await expect(UdpTransport.open({ destination: { address: '127.0.0.1', port: 0 } })).rejects.toThrow(
      /cannot send to port 0: a sender needs the receiver's port/,
    );
  });

  it('never throws from send, and explains the first refused send: broadcast without --broadcast', async () => {
    // 255.255.255.255 without SO_BROADCAST: the kernel refuses the send (EACCES), nothing leaves the host.
    const tx = await UdpTransport.open({
      bindAddress: '127.0.0.1',
      destination: { address: '255.255.255.255', port: 9 },
    });
    open.push(tx);
    tx.send(makePdu());
    tx.send(makePdu());
    await tx.close(); // waits for both sends to complete
    expect(tx.stats).toMatchObject({ datagramsOut: 2, sendErrors: 2 });
    expect(tx.stats.sendFailure).toBe('EACCES: sending to a broadcast address needs --broadcast (network.broadcast)');
  });

  it('resolves host names: binds and sends to "localhost"', async () => {
    const rx = await listener({}, { bindAddress: 'localhost' });
    expect(rx.transport.local).toMatchObject({ address: '127.0.0.1', family: 'IPv4' });
    const tx = await UdpTransport.open({ destination: { address: 'localhost', port: rx.transport.local.port } });
    open.push(tx);
    tx.send(makePdu({ entity: 4 }));
    await rx.until(() => rx.entities.length === 1, 'a datagram sent to localhost');
    expect(rx.entities).toEqual([4]);
  });

  it('an IPv6 destination implies udp6 even when ipv6 is false, as the config default says (skipped without IPv6)', async (context) => {
    let rx: Awaited<ReturnType<typeof listener>>;
    try {
      rx = await listener({}, { bindAddress: '::1' });
    } catch (error) {
      context.skip(`IPv6 loopback unavailable: ${(error as Error).message}`);
      return;
    }
    const network = { ...defaultConfig().network, port: rx!.transport.local.port };
    const tx = await UdpTransport.open({
      ...udpOptionsFromConfig(network, 'send'),
      destination: { address: '::1', port: network.port },
    });
    open.push(tx);
    tx.send(makePdu({ entity: 6 }));
    await rx!.until(() => rx!.entities.length === 1, 'an IPv6 datagram');
    expect(tx.stats.sendErrors).toBe(0);
  });

  it('shares a port with reuseAddress: broadcast reaches both receivers, a unicast datagram only one', async () => {
    // Bound to the loopback broadcast address, so that nothing from outside this host can reach them.
    const first = await listener({}, { bindAddress: '127.255.255.255', reuseAddress: true });
    const port = first.transport.local.port;
    const second = await listener({}, { bindAddress: '127.255.255.255', bindPort: port, reuseAddress: true });
    const broadcast = await UdpTransport.open({
      bindAddress: '127.0.0.1',
      broadcast: true,
      destination: { address: '127.255.255.255', port },
    });
    open.push(broadcast);
    for (let entity = 1; entity <= 3; entity++) broadcast.send(makePdu({ entity }));
    await first.until(() => first.entities.length === 3, 'the broadcasts at the first receiver');
    await second.until(() => second.entities.length === 3, 'the broadcasts at the second receiver');
    expect([first.entities, second.entities]).toEqual([
      [1, 2, 3],
      [1, 2, 3],
    ]);

    const a = await listener({}, { reuseAddress: true });
    const b = await listener({}, { bindPort: a.transport.local.port, reuseAddress: true });
    const unicast = await UdpTransport.open({ destination: { address: '127.0.0.1', port: a.transport.local.port } });
    open.push(unicast);
    for (let entity = 1; entity <= 5; entity++) unicast.send(makePdu({ entity }));
    const all = () => a.entities.length + b.entities.length === 5;
    const waits = [a.until(all, 'the unicast datagrams'), b.until(all, 'the unicast datagrams')];
    for (const wait of waits) wait.catch(() => {}); // the receiver that gets nothing times out: that is expected
    await Promise.any(waits);
    // Each datagram arrived once, at one of the two (on Linux all at the one bound last), as the hint says.
    expect([...a.entities, ...b.entities].sort()).toEqual([1, 2, 3, 4, 5]);
    expect(Math.min(a.entities.length, b.entities.length)).toBe(0);
  });

  it('names --reuse-address when the port is taken, and says when the holder does not share it', async () => {
    const holder = await UdpTransport.open({ bindAddress: '127.0.0.1' });
    open.push(holder);
    const port = holder.local.port;
    await expect(UdpTransport.open({ bindAddress: '127.0.0.1', bindPort: port })).rejects.toThrow(
      /EADDRINUSE.*--reuse-address \(network\.reuseAddress\) in each of them: .*a unicast datagram reaches only one of them/,
    );
    await expect(UdpTransport.open({ bindAddress: '127.0.0.1', bindPort: port, reuseAddress: true })).rejects.toThrow(
      /EADDRINUSE.*the program holding this port does not share it; start that one with --reuse-address too/,
    );
  });
});

describe('udp options from the configuration', () => {
  it.each([
    ['receive, defaults', {}, 'receive', { bindPort: 3000 }],
    ['send, defaults', {}, 'send', { destination: { address: '127.0.0.1', port: 3000 } }],
    [
      'send, multicast',
      { multicast: '239.1.2.3', ttl: 4 },
      'send',
      { destination: { address: '239.1.2.3', port: 3000 }, multicastTtl: 4 },
    ],
    [
      'send, broadcast',
      { broadcast: true },
      'send',
      { destination: { address: '255.255.255.255', port: 3000 }, broadcast: true },
    ],
    [
      'receive, multicast',
      { multicast: '239.1.2.3', port: 3001 },
      'receive',
      { multicastGroup: '239.1.2.3', bindPort: 3001 },
    ],
    [
      'both',
      { address: '10.0.0.255' },
      'both',
      { bindPort: 3000, reuseAddress: true, destination: { address: '10.0.0.255', port: 3000 } },
    ],
    ['send, IPv6', { ipv6: true }, 'send', { ipv6: true, destination: { address: '::1', port: 3000 } }],
    ['receive, shared port', { reuseAddress: true, port: 3001 }, 'receive', { reuseAddress: true, bindPort: 3001 }],
    ['send, host name', { address: 'localhost' }, 'send', { destination: { address: 'localhost', port: 3000 } }],
  ] as const)('%s', (_name, network, role, expected) => {
    const options = udpOptionsFromConfig({ ...defaultConfig().network, ...network }, role);
    expect(options).toMatchObject(expected);
    // A receiver without an address binds every interface and sends nowhere; a pure sender binds an ephemeral port.
    if (role === 'receive') expect(options.destination).toBeUndefined();
    if (role === 'send') expect(options.bindPort).toBeUndefined();
    if (!('address' in network)) expect(options.bindAddress).toBeUndefined();
  });

  it('opens a receiving transport from config', async () => {
    const network = { ...defaultConfig().network, address: '127.0.0.1', port: 0 };
    const transport = await openUdpTransport(network, 'receive');
    open.push(transport);
    expect(transport.local).toMatchObject({ address: '127.0.0.1', family: 'IPv4' });
    expect(transport.local.port).toBeGreaterThan(0);
  });
});
