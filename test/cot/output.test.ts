// CoT outputs over real sockets on 127.0.0.1: URL parsing (multicast recognised but never sent to here), UDP to
// a listener, TCP to a local server with a reconnect after the server drops the connection, and TLS with client
// certificates made by openssl.
import { createSocket } from 'node:dgram';
import { readFileSync } from 'node:fs';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { createServer as createTlsServer } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeCotEvent, parseCotEvent } from '../../src/cot/event.js';
import { openCotOutput, parseCotUrl, type CotOutputTarget } from '../../src/cot/output.js';
import { within } from '../support/binary.js';
import { TANK_EVENT_FIELDS } from '../fixtures/cot/tank-event.js';
import { makeCertificates, tempDir, type TestCertificates } from '../support/nats-security.js';
import { findSystemBinary } from '../../scripts/support/system-binary.js';

const FIELDS = TANK_EVENT_FIELDS;
const event = (n: number): string => encodeCotEvent({ ...FIELDS, uid: `DIS.1.1.3001.${n}` });

function target(url: string): CotOutputTarget {
  const parsed = parseCotUrl(url);
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.target;
}

/** Splits a CoT stream (events back to back) into event documents. */
function splitEvents(text: string): string[] {
  return text.split(/(?<=<\/event>)/).filter((s) => s.includes('<event'));
}

describe('parseCotUrl', () => {
  it("recognises TAK's multicast mesh, unicast UDP, TCP and TLS", () => {
    expect(parseCotUrl('udp://239.2.3.1:6969')).toEqual({
      ok: true,
      target: {
        protocol: 'udp',
        host: '239.2.3.1',
        port: 6969,
        multicast: true,
        ttl: 1,
        interface: undefined,
        text: 'udp://239.2.3.1:6969',
      },
    });
    expect(target('udp://239.2.3.1:6969?ttl=4&interface=192.168.1.10')).toMatchObject({
      multicast: true,
      ttl: 4,
      interface: '192.168.1.10',
    });
    expect(target('udp://[ff02::1]:6969')).toMatchObject({ host: 'ff02::1', multicast: true });
    expect(target('udp://10.0.0.5:4242')).toMatchObject({ protocol: 'udp', multicast: false });
    expect(target('tcp://takserver.example:8087')).toMatchObject({
      protocol: 'tcp',
      host: 'takserver.example',
      port: 8087,
    });
    expect(target('tls://[::1]:8089')).toMatchObject({ protocol: 'tls', host: '::1', port: 8089 });
  });

  it('says what is wrong with a bad URL', () => {
    const message = (url: string) => {
      const parsed = parseCotUrl(url);
      return parsed.ok ? 'ok' : parsed.message;
    };
    expect(message('239.2.3.1:6969')).toMatch(/unsupported scheme|not a URL/);
    expect(message('http://host:80')).toMatch(/unsupported scheme "http:".*udp, tcp or tls/);
    expect(message('udp://host')).toMatch(/no port/);
    expect(message('udp://host:0')).toMatch(/port must be 1–65535/);
    expect(message('udp://host:99999')).toMatch(/not a URL|port/);
    expect(message('tcp://239.2.3.1:6969')).toMatch(/multicast group needs udp/);
    expect(message('udp://239.2.3.1:6969?ttl=0')).toMatch(/ttl must be/);
    expect(message('udp://239.2.3.1:6969?hops=2')).toMatch(/unknown option "\?hops="/);
    expect(message('udp://10.0.0.5:6969?ttl=2')).toMatch(/multicast only/);
    expect(message('udp://239.2.3.1:6969?interface=eth0')).toMatch(/interface must be a local IP address/);
    expect(message('tcp://user:pw@host:8087')).toMatch(/no user, password/);
    expect(message('tcp://host:8087/path')).toMatch(/unexpected path/);
  });
});

describe('CoT outputs on 127.0.0.1', () => {
  it('UDP: one event per datagram to a listener, parsed back', async () => {
    const listener = createSocket('udp4');
    await new Promise<void>((resolve) => listener.bind(0, '127.0.0.1', resolve));
    const received: string[] = [];
    const three = new Promise<void>((resolve) =>
      listener.on('message', (m) => {
        received.push(m.toString('utf8'));
        if (received.length === 3) resolve();
      }),
    );
    const output = await openCotOutput(target(`udp://127.0.0.1:${(listener.address() as AddressInfo).port}`));
    for (let n = 1; n <= 3; n++) output.send(event(n));
    await within(three, 5000, 'three datagrams');
    await output.close();
    listener.close();
    expect(received.map((x) => parseCotEvent(x)!.event.uid).sort()).toEqual([
      'DIS.1.1.3001.1',
      'DIS.1.1.3001.2',
      'DIS.1.1.3001.3',
    ]);
    expect(output.stats).toMatchObject({
      events: 3,
      bytes: received.reduce((n, x) => n + Buffer.byteLength(x), 0),
      dropped: 0,
      errors: 0,
    });
  });

  it('TCP: events back to back on one connection; reconnects when the server drops it', async () => {
    const connections: Socket[] = [];
    let text = '';
    const waiters = new Set<() => void>();
    const server: Server = createServer((socket) => {
      connections.push(socket);
      socket.on('data', (chunk) => {
        text += chunk.toString('utf8');
        waiters.forEach((w) => w());
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const until = (count: number) =>
      within(
        new Promise<void>((resolve) => {
          const check = () => {
            if (splitEvents(text).length < count) return;
            waiters.delete(check);
            resolve();
          };
          waiters.add(check);
          check();
        }),
        10_000,
        `${count} events over TCP`,
      );
    const statuses: string[] = [];
    const connected = () => statuses.filter((s) => s.endsWith('connected')).length;
    const output = await openCotOutput(target(`tcp://127.0.0.1:${(server.address() as AddressInfo).port}`), {
      onStatus: (s) => statuses.push(s),
    });
    // Sent before the connection is up: held in the queue, then written.
    output.send(event(1));
    output.send(event(2));
    await until(2);
    // The server drops the connection; the output reconnects (after its 1 s pause) and carries on.
    connections[0]!.destroy();
    await within(
      new Promise<void>((resolve) => {
        const timer = setInterval(() => {
          if (connected() >= 2) {
            clearInterval(timer);
            resolve();
          } else output.send(event(99)); // lost or queued while reconnecting, counted either way
        }, 50);
      }),
      10_000,
      'a reconnection',
    );
    output.send(event(3));
    await within(
      new Promise<void>((resolve) => {
        const check = () => {
          if (!text.includes('DIS.1.1.3001.3"')) return;
          waiters.delete(check);
          resolve();
        };
        waiters.add(check);
        check();
      }),
      10_000,
      'the event after the reconnection',
    );
    await output.close();
    server.close();
    const uids = splitEvents(text).map((x) => parseCotEvent(x)!.event.uid);
    expect(uids.slice(0, 2)).toEqual(['DIS.1.1.3001.1', 'DIS.1.1.3001.2']);
    expect(uids.at(-1)).toBe('DIS.1.1.3001.3');
    expect(output.stats.connections).toBe(2);
    expect(statuses.some((s) => /connection lost; reconnecting/.test(s))).toBe(true);
  });

  it('TCP: a server that never reads gets at most the queue bound; the rest is dropped and counted', async () => {
    const server = createServer((socket) => socket.pause());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const statuses: string[] = [];
    const output = await openCotOutput(target(`tcp://127.0.0.1:${(server.address() as AddressInfo).port}`), {
      maxQueuedBytes: 64 * 1024,
      onStatus: (s) => statuses.push(s),
    });
    await within(
      new Promise<void>((resolve) => {
        const timer = setInterval(() => {
          if (!statuses.some((s) => s.endsWith('connected'))) return;
          clearInterval(timer);
          resolve();
        }, 10);
      }),
      5000,
      'the connection',
    );
    // Far more than the socket buffers and the bound hold: 20 000 events of ~500 bytes (10 MB).
    const xml = event(1);
    for (let n = 0; n < 20_000; n++) output.send(xml);
    expect(output.stats.dropped).toBeGreaterThan(0);
    expect(output.stats.events + output.stats.dropped).toBe(20_000);
    await output.close();
    server.close();
  });
});

describe('TLS output', () => {
  const openssl = findSystemBinary('openssl');
  const dir = tempDir('reckon-cot-tls-');
  afterAll(() => dir.remove());
  /** A CA, a server certificate for 127.0.0.1 and a client certificate signed by it, and another CA. */
  let certs: TestCertificates;
  const pem = (path: string) => readFileSync(path, 'utf8');

  beforeAll(() => {
    if (openssl.path !== undefined) certs = makeCertificates(openssl.path, dir);
  });

  it.skipIf(openssl.path === undefined)('sends over TLS with a client certificate the server verifies', async () => {
    let text = '';
    let peer = '';
    const got = new Promise<void>((resolve) => {
      const server = createTlsServer(
        {
          cert: pem(certs.serverCert),
          key: pem(certs.serverKey),
          ca: pem(certs.caCert),
          requestCert: true,
          rejectUnauthorized: true,
        },
        (socket) => {
          peer = String(socket.getPeerCertificate().subject?.CN ?? '');
          socket.on('data', (chunk) => {
            text += chunk.toString('utf8');
            if (splitEvents(text).length >= 2) {
              server.close();
              resolve();
            }
          });
        },
      );
      server.listen(0, '127.0.0.1', async () => {
        const port = (server.address() as AddressInfo).port;
        const output = await openCotOutput(target(`tls://127.0.0.1:${port}`), {
          tls: { cert: pem(certs.clientCert), key: pem(certs.clientKey), ca: pem(certs.caCert) },
        });
        output.send(event(1));
        output.send(event(2));
        void got.then(() => output.close());
      });
    });
    await within(got, 10_000, 'two events over TLS');
    expect(peer).toBe('reckon test client');
    expect(splitEvents(text).map((x) => parseCotEvent(x)!.event.uid)).toEqual(['DIS.1.1.3001.1', 'DIS.1.1.3001.2']);
  });

  it.skipIf(openssl.path === undefined)(
    'refuses a server whose certificate does not chain to the given CA',
    async () => {
      // The server certificate is signed by the test CA; the client trusts only another CA.
      const server = createTlsServer({ cert: pem(certs.serverCert), key: pem(certs.serverKey) }, (socket) =>
        socket.destroy(),
      );
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const statuses: string[] = [];
      const failed = new Promise<void>((resolve) => {
        void openCotOutput(target(`tls://127.0.0.1:${(server.address() as AddressInfo).port}`), {
          tls: { ca: pem(certs.otherCaCert) },
          onStatus: (s) => {
            statuses.push(s);
            resolve();
          },
        }).then((output) => failed.then(() => output.close()));
      });
      await within(failed, 10_000, 'a TLS failure');
      server.close();
      expect(statuses[0]).toMatch(/certificate/i);
      expect(statuses[0]).toMatch(/retrying/);
    },
  );

  /** The first status an output to `url` reports, then closes it. */
  async function firstStatus(url: string, connectTimeoutMs?: number): Promise<string> {
    let output: Awaited<ReturnType<typeof openCotOutput>> | undefined;
    const status = new Promise<string>((resolve) => {
      void openCotOutput(target(url), {
        ...(connectTimeoutMs !== undefined ? { connectTimeoutMs } : {}),
        onStatus: (s) => resolve(s),
      }).then((o) => (output = o));
    });
    const text = await within(status, 10_000, `a status from ${url}`);
    await output?.close();
    return text;
  }

  it('tls:// to a plain TCP server: one printable line saying to use tcp://, not an OpenSSL string', async () => {
    const server = createServer((socket) => socket.on('data', () => socket.end('HTTP/1.1 400 Bad Request\r\n\r\n')));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const text = await firstStatus(`tls://127.0.0.1:${(server.address() as AddressInfo).port}`);
      expect(text).toMatch(/: the server does not speak TLS there: use tcp:\/\/ for a plain TCP port/);
      expect(text).not.toMatch(/\n|SSL routines|deps\/openssl/);
    } finally {
      server.close();
    }
  });

  it('tls:// to a server that never answers the handshake: said after the connect timeout', async () => {
    const held: Socket[] = [];
    const server = createServer((socket) => held.push(socket)); // takes the connection, says nothing
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const text = await firstStatus(`tls://127.0.0.1:${(server.address() as AddressInfo).port}`, 300);
      expect(text).toMatch(/no answer within 0\.3 s: the server did not complete the TLS handshake/);
      expect(text).toMatch(/retrying$/);
    } finally {
      for (const socket of held) socket.destroy();
      server.close();
    }
  });
});
