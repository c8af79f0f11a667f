// A hostile NATS server: it speaks the protocol well enough to be connected to, then sends a MSG line the client
// cannot parse (a size that is not a number, with terminal control characters in it). The client's reader dies on
// it and nats.js prints "reader closed" and the stack on stdout; reckon must close the connection with one
// printable line instead (exit 1 from the CLI), and print neither the client's line nor a stack trace.
// The server is a plain TCP socket in this process: no nats-server needed.
import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NatsTransport } from '../../src/nats/transport.js';
import { reckon, within } from '../cli/binary.js';

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
  it('closes the transport with one printable line naming what came', async () => {
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

  it('reckon subscribe: exit 1 with that line; no "reader closed", no stack trace, no control character', async () => {
    const run = reckon(['subscribe', '--nats', url, '--duration', '60']);
    expect(await within(run.exited, 20_000, 'subscribe to exit', run.child)).toBe(1);
    const output = run.stdout() + run.stderr();
    expect(run.stderr()).toMatch(
      /^reckon subscribe: the NATS server sent what the client cannot read \(.*notanumber\)/m,
    );
    expect(output).not.toContain('reader closed');
    expect(output).not.toMatch(/^\s+at /m);
    expect(output).not.toContain('\u001b');
  }, 25_000);
});
