// A hostile NATS server: it speaks the protocol well enough to be connected to, then sends a MSG line the client
// cannot parse (a size that is not a number, with terminal control characters in it). The client's reader dies on
// it and nats.js prints "reader closed" and the stack on stdout; reckon must close the connection with one
// printable line instead (exit 1 from the CLI), and print neither the client's line nor a stack trace.
// Nor may it announce a message larger than its max_payload, or send a line without end: refused at once.
// The server is a plain TCP socket in this process: no nats-server needed.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NatsTransport } from '../../src/nats/transport.js';
import { reckon, within } from '../support/binary.js';

/** What the server sends once the client subscribes: a MSG whose size is text, with an ESC sequence in its subject. */
const BAD_MSG = 'MSG dis.1.\u001b[31mred 1 notanumber\r\n';

let server: Server;
let url: string;
const sockets = new Set<Socket>();

beforeAll(async () => {
  server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    socket.write('INFO {"server_id":"hostile","version":"2.10.0","proto":1,"max_payload":1048576,"headers":true}\r\n');
    let pending = '';
    let sent = false;
    socket.on('data', (chunk) => {
      pending += String(chunk);
      for (let end = pending.indexOf('\r\n'); end >= 0; end = pending.indexOf('\r\n')) {
        const line = pending.slice(0, end);
        pending = pending.slice(end + 2);
        if (line.startsWith('PING')) socket.write('PONG\r\n');
        if (line.startsWith('SUB') && !sent) {
          sent = true;
          socket.write(BAD_MSG);
        }
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  url = `nats://127.0.0.1:${address.port}`;
});

afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise((resolve) => server.close(resolve));
});

describe('a NATS server that sends a MSG line the client cannot read', () => {
  // Each waits out the transport's PING wait (5 s, src/nats/reader-watch.ts): side by side, on connections of their own.
  it.concurrent('closes the transport with one printable line naming what came', async () => {
    const transport = await NatsTransport.open({ servers: [url], receive: { exercise: 1 } });
    const failure = await within(
      new Promise<Error | undefined>((resolve) => transport.onClose(resolve)),
      15_000,
      'the transport to close',
    );
    await transport.close();
    expect(failure?.message).toMatch(
      /^the NATS server sent what the client cannot read \(.*Bad or Missing Size.*dis\.1\.\?\[31mred 1 notanumber\); the connection is closed$/,
    );
    expect(failure?.message).not.toMatch(/[\u0000-\u001f\u007f]/);
  }, 20_000);

  it.concurrent('reckon subscribe: exit 1 with that line; no "reader closed", no stack trace, no control character', async () => {
    const run = reckon(['subscribe', '--nats', url, '--duration', '60']);
    expect(await within(run.exited, 40_000, 'subscribe to exit', run.child)).toBe(1);
    const output = run.stdout() + run.stderr();
    expect(run.stderr()).toMatch(
      /^reckon subscribe: the NATS server sent what the client cannot read \(.*notanumber\)/m,
    );
    expect(output).not.toContain('reader closed');
    expect(output).not.toMatch(/^\s+at /m);
    expect(output).not.toContain('\u001b');
  }, 45_000);
});

/** A server like the one above whose answer to SUB is `reply` (INFO with a max_payload of 1 MiB), then nothing. */
async function serverAnswering(reply: string): Promise<{ url: string; close: () => Promise<void> }> {
  const open = new Set<Socket>();
  const hostile = createServer((socket) => {
    open.add(socket);
    socket.on('close', () => open.delete(socket));
    socket.on('error', () => {});
    socket.write('INFO {"server_id":"hostile","version":"2.10.0","proto":1,"max_payload":1048576}\r\n');
    let pending = '';
    let answered = false;
    socket.on('data', (chunk) => {
      pending += String(chunk);
      for (let end = pending.indexOf('\r\n'); end >= 0; end = pending.indexOf('\r\n')) {
        const line = pending.slice(0, end);
        pending = pending.slice(end + 2);
        // After its answer it answers nothing: only the parser can tell the client what happened.
        if (line.startsWith('PING') && !answered) socket.write('PONG\r\n');
        if (line.startsWith('SUB') && !answered) {
          answered = true;
          socket.write(reply);
        }
      }
    });
  });
  await new Promise<void>((resolve) => hostile.listen(0, '127.0.0.1', resolve));
  const address = hostile.address() as { port: number };
  return {
    url: `nats://127.0.0.1:${address.port}`,
    close: async () => {
      for (const socket of open) socket.destroy();
      await new Promise((resolve) => hostile.close(resolve));
    },
  };
}

describe('a NATS server that announces more than it may send', () => {
  // Refused from the line itself, before a byte of the message is buffered: the server sends nothing more and answers
  // no PING, so nothing else could find it out.
  it.concurrent.each([
    [
      'a 1 GiB message',
      'MSG dis.1.x 1 1073741824\r\n',
      /^the NATS server announced a message of 1073741824 bytes, more than the 1048576 it may send \(its max_payload\); the connection is closed$/,
    ],
    [
      'a 2 MiB message with headers, over its max_payload of 1 MiB',
      'HMSG dis.1.x 1 12 2097152\r\n',
      /^the NATS server announced a message of 2097152 bytes, more than the 1048576 it may send/,
    ],
    [
      'a line that never ends',
      `MSG dis.1.${'x'.repeat(100_000)}`,
      /^the NATS server sent a protocol line over 65536 bytes long; the connection is closed$/,
    ],
  ])('%s: the transport closes at once with one line', async (_, reply, message) => {
    const server = await serverAnswering(reply);
    try {
      const transport = await NatsTransport.open({ servers: [server.url], receive: { exercise: 1 } });
      const failure = await within(
        new Promise<Error | undefined>((resolve) => transport.onClose(resolve)),
        15_000,
        'the transport to close',
      );
      await transport.close();
      expect(failure?.message).toMatch(message);
    } finally {
      await server.close();
    }
  });
});

describe('NATS credential and TLS files that are not small regular files', () => {
  // Each is refused before any connection, at once: read whole, a FIFO with no writer blocked the process past
  // Ctrl-C and the zero device filled memory.
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'reckon-nats-files-'));
    execFileSync('mkfifo', [join(dir, 'fifo')]);
    writeFileSync(join(dir, 'big.pem'), Buffer.alloc((1 << 20) + 1, 65));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each([
    ['credsFile', 'fifo', /^the NATS credentials file ".*fifo" is a FIFO .*; check nats\.credsFile \(--nats-creds\)$/],
    ['tlsCa', 'fifo', /^the NATS CA certificate file ".*fifo" is a FIFO .*; check nats\.tlsCa \(--nats-tls-ca\)$/],
    [
      'tlsKey',
      'big.pem',
      /^the NATS key file ".*big\.pem" holds 1048577 bytes, more than the 1 MiB .*; check nats\.tlsKey \(--nats-tls-key\)$/,
    ],
  ])('%s naming a %s is refused at once with one line', async (setting, name, pattern) => {
    const opened = NatsTransport.open({ servers: [url], [setting]: join(dir, name) });
    const error = await within(
      opened.then(
        async (transport) => {
          await transport.close();
          return new Error('opened');
        },
        (e: unknown) => e as Error,
      ),
      5000,
      'the file to be refused',
    );
    expect(error.message).toMatch(pattern);
  });
});
