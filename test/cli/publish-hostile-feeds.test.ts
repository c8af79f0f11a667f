// Hostile feeds against `reckon publish --feed` and `--truth`, over real sockets on 127.0.0.1: garbage, a huge
// line and a line that never ends (counted, the first shown once, made printable; memory held to the line bound),
// a million distinct vehicles (the table stays at its bound, the rest refused and counted), a server that accepts
// and then says nothing (the connection is made again), one that refuses (tried again; given up after --retries,
// exit 1), and a port already taken (exit 1).
import { createSocket } from 'node:dgram';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startCli } from '../support/cli.js';

const servers: Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await new Promise<void>((resolve) => s.close(() => resolve()));
});

/** A TCP server on 127.0.0.1 that hands each client to `serve`; its port and the clients it has had. */
async function server(serve: (socket: Socket) => void): Promise<{ port: number; clients: () => number }> {
  let clients = 0;
  const sockets = new Set<Socket>();
  const s = createServer((socket) => {
    clients++;
    sockets.add(socket);
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
    serve(socket);
  });
  s.on('close', () => {
    for (const socket of sockets) socket.destroy();
  });
  // close() waits for clients: destroy them first.
  const close = s.close.bind(s);
  s.close = ((cb?: (err?: Error) => void) => {
    for (const socket of sockets) socket.destroy();
    return close(cb);
  }) as typeof s.close;
  servers.push(s);
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  return { port: (s.address() as AddressInfo).port, clients: () => clients };
}

describe('hostile feeds', () => {
  it('garbage, a huge line and a line that never ends: counted, the first shown once and made safe, exit 0', async () => {
    const { port } = await server((socket) => {
      socket.write('\x1b[31mRED\x07 not SBS at all\r\n');
      socket.write(`MSG,3,1,1,${'A'.repeat(5000)}\n`); // a huge line
      socket.write('MSG,3,1,1,4CA606,1,,,,,,38000,,,53.42,-6.25,,,,,,0\n'); // one good line between
      const endless = Buffer.alloc(1 << 20, 66);
      for (let k = 0; k < 64; k++) socket.write(endless); // 64 MB without a newline
    });
    const run = startCli(['publish', '--feed', `sbs://127.0.0.1:${port}`, '--port', '9', '--duration', '2']);
    expect(await run.exited).toBe(0);
    const err = run.stderr();
    expect(
      err.match(
        /bad input \(counted, skipped\); the first: message 1: not an SBS-1 MSG line: \\x1b\[31mRED\\x07 not SBS at all/g,
      ),
    ).toHaveLength(1);
    expect(err).not.toContain('\x1b');
    expect(err).toMatch(/4 messages \(3 bad ones\), 1 aircraft \(1 seen\)/);
  });

  it('a server that accepts and says nothing: the connection is made again after --stall', async () => {
    const silent = await server(() => {});
    const run = startCli([
      'publish',
      '--feed',
      `beast://127.0.0.1:${silent.port}`,
      '--port',
      '9',
      '--stall',
      '0.3 s',
      '--duration',
      '2.5',
    ]);
    await run.waitFor(/no data for 0\.3 s; trying again/, 10_000);
    expect(await run.exited).toBe(0);
    expect(silent.clients()).toBeGreaterThanOrEqual(2);
  });

  it('a server that is not there: said once, tried again until --duration ends it (retries left), exit 0', async () => {
    const gone = await server(() => {});
    const port = gone.port;
    await new Promise<void>((resolve) => servers.pop()!.close(() => resolve()));
    const run = startCli(['publish', '--feed', `sbs://127.0.0.1:${port}`, '--port', '9', '--duration', '1.5']);
    expect(await run.exited).toBe(0);
    expect(run.stderr().match(/ECONNREFUSED; trying again/g)).toHaveLength(1);
    expect(run.stderr()).toMatch(/not connected: ECONNREFUSED/);
  });

  it('a server never there: given up after --retries (at once with 0), one line, exit 1', async () => {
    const gone = await server(() => {});
    const port = gone.port;
    await new Promise<void>((resolve) => servers.pop()!.close(() => resolve()));
    const once = startCli(['publish', '--feed', `sbs://127.0.0.1:${port}`, '--port', '9', '--retries', '0']);
    expect(await once.exited).toBe(1);
    expect(once.stderr()).toMatch(
      new RegExp(
        `stopped \\(failed: could not connect to sbs://127\\.0\\.0\\.1:${port} \\(ECONNREFUSED; one attempt\\)\\)`,
      ),
    );
    expect(once.stderr()).not.toContain('trying again');
    // One attempt more, a second later: tried again (said once), then given up.
    const twice = startCli(['publish', '--feed', `sbs://127.0.0.1:${port}`, '--port', '9', '--retries', '1']);
    expect(await twice.exited).toBe(1);
    expect(twice.stderr().match(/ECONNREFUSED; trying again/g)).toHaveLength(1);
    expect(twice.stderr()).toMatch(/could not connect to sbs:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED; 2 attempts\)/);
    // In an 80-column terminal every line fits, a source's counts continued indented under it.
    const narrow = startCli(
      ['publish', '--feed', `sbs://127.0.0.1:${port}`, '--feed', `beast://127.0.0.1:${port}`, '--retries', '0'],
      {},
      { columns: 80 },
    );
    expect(await narrow.exited).toBe(1);
    const lines = narrow.stderr().trimEnd().split('\n');
    expect(lines.length).toBeGreaterThan(5);
    for (const line of lines) expect([...line].length, line).toBeLessThan(80);
    expect(narrow.stderr()).toMatch(/\n {6}\S/);
    const bad = startCli(['publish', '--feed', `sbs://127.0.0.1:${port}`, '--port', '9', '--retries', '-1']);
    expect(await bad.exited).toBe(2);
    expect(bad.stderr()).toMatch(/--retries: expected a whole number ≥ 0, got "-1"/);
  });

  it('a port already taken: one line and exit 1; a bad URL: exit 2 naming the flag', async () => {
    const taken = createSocket('udp4');
    await new Promise<void>((resolve) => taken.bind(0, '127.0.0.1', resolve));
    const run = startCli(['publish', '--feed', `aivdm+udp://127.0.0.1:${taken.address().port}`, '--port', '9']);
    expect(await run.exited).toBe(1);
    expect(run.stderr()).toMatch(/stopped \(failed: cannot listen on udp:\/\/127\.0\.0\.1:\d+: EADDRINUSE\)/);
    taken.close();
    const bad = startCli([
      'publish',
      '--feed',
      'ftp://nowhere',
      '--truth',
      'x://y',
      '--altitude-band',
      'high',
      '--port',
      '9',
    ]);
    expect(await bad.exited).toBe(2);
    expect(bad.stderr()).toMatch(
      /3 problems[\s\S]*--truth: [\s\S]*--feed: expected sbs:\/\/HOST:30003[\s\S]*--altitude-band: expected MIN\.\.MAX/,
    );
  });
  it('a million distinct aircraft: 65,534 published, the rest refused and counted', async () => {
    const { port } = await server((socket) => {
      const lines: string[] = [];
      for (let k = 0; k < 1_000_000; k++) {
        lines.push(
          `MSG,3,1,1,${k.toString(16).padStart(6, '0')},1,,,,,,1000,,,${(k % 1000) / 100},${Math.floor(k / 1000) / 100},,,,,,0`,
        );
        if (lines.length === 20_000) socket.write(`${lines.splice(0).join('\n')}\n`);
      }
    });
    const run = startCli([
      'publish',
      '--feed',
      `sbs://127.0.0.1:${port}`,
      '--port',
      '9',
      '--rate',
      '0.2',
      '--stale',
      '1 h',
    ]);
    await run.waitFor(/1000000 messages/, 120_000);
    run.interrupt();
    expect(await run.exited).toBe(0);
    expect(run.stderr()).toMatch(/1000000 messages, 65534 aircraft \(65534 seen\), 934466 refused/);
  }, 150_000);
});
