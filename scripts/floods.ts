// `npm run floods -- [freeze] [nats] [view] [--seconds S]`: the memory floors of the receiving commands under the
// floods a hostile sender or server can make, measured on the built CLI (dist/), one child process per command:
// - freeze: `subscribe` and `bridge` under a flood of Stop/Freeze PDUs dated up to 10 s ahead, each for an entity
//   of its own (each would have waited on a timer of its own);
// - nats: `subscribe --nats` and `bridge --nats` against a NATS server (in this process) that announces a 1 GiB
//   message and then streams it;
// - view: `view` with 100 WebSocket clients that never read, under a flood of Fire PDUs.
// One JSON line per command on stdout: what was sent, the peak resident memory (VmHWM of /proc/PID/status), how
// the command ended and its last lines. docs/security.md gives the floors and the figures measured.
import { spawn, type ChildProcess } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { readFileSync } from 'node:fs';
import { connect, createServer, type Socket } from 'node:net';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { encodeAnyPduInto, type AnyPduRecord } from '../src/pdu/wire/any-pdu.js';
import { StopFreezeRecord } from '../src/pdu/wire/simulation-management.js';
import { FireRecord } from '../src/pdu/wire/warfare.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CLI = `${ROOT}dist/cli/main.js`;
const usage = 'usage: npm run floods -- [freeze] [nats] [view] [--seconds S] [--clients N] [--announce BYTES]';

function fail(message: string, code = 2): never {
  process.stderr.write(`floods: ${message}\n${code === 2 ? `${usage}\n` : ''}`);
  process.exit(code);
}

let parsed;
try {
  parsed = parseArgs({
    allowPositionals: true,
    options: {
      seconds: { type: 'string', default: '20' },
      clients: { type: 'string', default: '100' },
      announce: { type: 'string', default: String(2 ** 30) },
    },
  });
} catch (error) {
  fail((error as Error).message);
}
const { values, positionals } = parsed;
const seconds = Number(values.seconds);
const clients = Number(values.clients);
const announceBytes = Number(values.announce);
if (!(seconds > 0)) fail(`--seconds: expected a positive number, got "${values.seconds}"`);
if (!(Number.isInteger(clients) && clients >= 0)) fail(`--clients: expected a whole number, got "${values.clients}"`);
if (!(Number.isInteger(announceBytes) && announceBytes > 0))
  fail(`--announce: expected bytes, got "${values.announce}"`);
const scenarios = positionals.length > 0 ? positionals : ['freeze', 'nats', 'view'];
for (const s of scenarios) if (!['freeze', 'nats', 'view'].includes(s)) fail(`unknown flood "${s}"`);

/** A reckon child process, its output, and the peak of its resident memory. */
interface Child {
  readonly child: ChildProcess;
  readonly exited: Promise<number | null>;
  output(): string;
  waitFor(pattern: RegExp, ms: number): Promise<RegExpMatchArray>;
  peakRssMB(): number;
  stop(): Promise<number | null>;
}

function startReckon(args: readonly string[]): Child {
  const child = spawn(process.execPath, [CLI, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const checks = new Set<() => void>();
  for (const stream of [child.stdout!, child.stderr!]) {
    stream.on('data', (chunk) => {
      out += String(chunk);
      if (out.length > 1 << 20) out = out.slice(-(1 << 19));
      for (const check of checks) check();
    });
  }
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let peakKb = 0;
  const sample = () => {
    try {
      const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
      peakKb = Math.max(peakKb, Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0));
    } catch {
      // Gone: the last sample stands.
    }
  };
  const timer = setInterval(sample, 50);
  void exited.then(() => clearInterval(timer));
  return {
    child,
    exited,
    output: () => out,
    waitFor(pattern, ms) {
      return new Promise((resolve, reject) => {
        const timeout = setTimeout(() => {
          checks.delete(check);
          reject(new Error(`no ${pattern} from reckon ${args[0]} within ${ms} ms:\n${out.slice(-2000)}`));
        }, ms);
        const check = () => {
          const match = pattern.exec(out);
          if (!match) return;
          clearTimeout(timeout);
          checks.delete(check);
          resolve(match);
        };
        checks.add(check);
        check();
        void exited.then(() => check());
      });
    },
    peakRssMB: () => {
      sample();
      return Math.round(peakKb / 102.4) / 10;
    },
    async stop() {
      sample();
      child.kill('SIGINT');
      const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}

const lastLines = (text: string, n: number) => text.trimEnd().split('\n').slice(-n);
const encoded = (record: AnyPduRecord): Uint8Array => {
  const out = new Uint8Array(2000);
  return out.slice(0, encodeAnyPduInto(out, record));
};

/** Sends `datagrams` round and round to 127.0.0.1:`port` for `ms`, a few in flight at a time. @returns PDUs sent. */
async function flood(port: number, ms: number, next: () => Uint8Array, pdusPerDatagram: number): Promise<number> {
  const socket = createSocket('udp4');
  const end = Date.now() + ms;
  let sent = 0;
  await new Promise<void>((resolve) => {
    let inFlight = 0;
    const pump = () => {
      while (inFlight < 64 && Date.now() < end) {
        inFlight++;
        socket.send(next(), port, '127.0.0.1', () => {
          inFlight--;
          sent++;
          if (inFlight === 0 && Date.now() >= end) resolve();
          else if (inFlight < 32) setImmediate(pump);
        });
      }
      if (inFlight === 0) resolve();
    };
    pump();
  });
  socket.close();
  return sent * pdusPerDatagram;
}

/** Stop/Freeze PDUs bundled 200 to a datagram, each for an entity of its own, dated 0–10 s ahead. */
function stopFreezeDatagrams(): () => Uint8Array {
  const record = new StopFreezeRecord();
  record.exerciseId = 1;
  const one = encoded(record);
  const datagram = new Uint8Array(200 * one.length);
  const view = new DataView(datagram.buffer);
  let entity = 0;
  return () => {
    const nowSeconds = Date.now() / 1000;
    for (let k = 0; k < 200; k++) {
      const at = k * one.length;
      datagram.set(one, at);
      entity = (entity % 0xfffd) + 1;
      view.setUint16(at + 18, 1 + (entity % 200)); // receiving id: site, application, entity (§7.5.5)
      view.setUint16(at + 20, 1);
      view.setUint16(at + 22, entity);
      const when = nowSeconds + Math.random() * 10;
      const hour = Math.floor(when / 3600);
      view.setUint32(at + 24, hour); // real-world time: hours since 1970, time past the hour (§6.2.14)
      view.setUint32(at + 28, Math.floor(((when - hour * 3600) / 3600) * 0x8000_0000) * 2);
    }
    return datagram;
  };
}

/** Fire PDUs bundled 60 to a datagram. */
function fireDatagrams(): () => Uint8Array {
  const fire = new FireRecord();
  fire.exerciseId = 1;
  Object.assign(fire.firingEntityId, { site: 1, application: 1, entity: 1 });
  Object.assign(fire.targetEntityId, { site: 1, application: 1, entity: 2 });
  fire.location.set([6_378_137, 0, 0]);
  fire.descriptor.munitionType.set([2, 2, 222, 1, 8, 0, 0]);
  fire.range = 1000;
  const one = encoded(fire);
  const datagram = new Uint8Array(60 * one.length);
  for (let k = 0; k < 60; k++) datagram.set(one, k * one.length);
  return () => datagram;
}

function report(result: Record<string, unknown>): void {
  process.stdout.write(JSON.stringify({ ...result, loadAverage: loadavg()[0] }) + '\n');
}

async function freezeFlood(): Promise<void> {
  for (const command of ['subscribe', 'bridge']) {
    const args = [command, '--address', '127.0.0.1', '--port', '0', '--duration', String(seconds + 60)];
    if (command === 'bridge') args.push('--cot', 'udp://127.0.0.1:9');
    const run = startReckon(args);
    const [, port] = await run.waitFor(/listening on 127\.0\.0\.1 port (\d+)/, 30_000);
    const pdusSent = await flood(Number(port), seconds * 1000, stopFreezeDatagrams(), 200);
    const peakRssMB = run.peakRssMB();
    const exitCode = await run.stop();
    report({ flood: 'freeze', command, seconds, pdusSent, peakRssMB, exitCode, last: lastLines(run.output(), 3) });
  }
}

/** A NATS server that answers the handshake, then announces an `announceBytes` message and streams it. */
async function hostileNatsServer(): Promise<{ url: string; streamed: () => number; close: () => Promise<void> }> {
  let streamed = 0;
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    socket.write('INFO {"server_id":"hostile","version":"2.10.0","proto":1,"max_payload":1048576}\r\n');
    let pending = '';
    let sending = false;
    const chunk = Buffer.alloc(1 << 20, 0x41);
    const stream = () => {
      while (streamed < announceBytes && !socket.destroyed) {
        streamed += chunk.length;
        if (!socket.write(chunk)) return void socket.once('drain', stream);
      }
    };
    socket.on('data', (data) => {
      pending += String(data);
      for (let end = pending.indexOf('\r\n'); end >= 0; end = pending.indexOf('\r\n')) {
        const line = pending.slice(0, end);
        pending = pending.slice(end + 2);
        if (line.startsWith('PING')) socket.write('PONG\r\n');
        const sub = /^SUB \S+ (?:\S+ )?(\d+)$/.exec(line);
        if (sub && !sending) {
          sending = true;
          socket.write(`MSG dis.1.x ${sub[1]} ${announceBytes}\r\n`);
          stream();
        }
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return {
    url: `nats://127.0.0.1:${address.port}`,
    streamed: () => streamed,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

async function natsFlood(): Promise<void> {
  for (const command of ['subscribe', 'bridge']) {
    const server = await hostileNatsServer();
    const args = [command, '--nats', server.url, '--duration', String(seconds + 60)];
    if (command === 'bridge') args.push('--cot', 'udp://127.0.0.1:9');
    const run = startReckon(args);
    const startedMs = Date.now();
    const ended = await Promise.race([run.exited.then(() => true), new Promise((r) => setTimeout(r, seconds * 1000))]);
    const peakRssMB = run.peakRssMB();
    const exitCode = ended ? await run.exited : await run.stop();
    const endedAfterSeconds = Math.round((Date.now() - startedMs) / 100) / 10;
    const streamedMB = Math.round(server.streamed() / 2 ** 20);
    await server.close();
    report({
      flood: 'nats',
      command,
      announcedBytes: announceBytes,
      streamedMB,
      endedAfterSeconds,
      peakRssMB,
      exitCode,
      last: lastLines(run.output(), 2),
    });
  }
}

/** Opens a WebSocket upgrade to `/feed` and never reads what comes back. */
function silentClient(port: number): Socket {
  const socket = connect(port, '127.0.0.1');
  socket.on('error', () => {});
  socket.write(
    `GET /feed HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
      'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n',
  );
  socket.pause();
  return socket;
}

async function viewFlood(): Promise<void> {
  const run = startReckon(['view', '--http', '127.0.0.1:0', '--address', '127.0.0.1', '--port', '0']);
  const [, httpPort] = await run.waitFor(/map at http:\/\/127\.0\.0\.1:(\d+)\//, 30_000);
  const [, udpPort] = await run.waitFor(/receiving DIS on 127\.0\.0\.1 port (\d+)/, 30_000);
  const sockets = Array.from({ length: clients }, () => silentClient(Number(httpPort)));
  const pdusSent = await flood(Number(udpPort), seconds * 1000, fireDatagrams(), 60);
  const peakRssMB = run.peakRssMB();
  const exitCode = await run.stop();
  for (const socket of sockets) socket.destroy();
  report({ flood: 'view', clients, seconds, pdusSent, peakRssMB, exitCode, last: lastLines(run.output(), 3) });
}

try {
  for (const scenario of scenarios) {
    if (scenario === 'freeze') await freezeFlood();
    else if (scenario === 'nats') await natsFlood();
    else await viewFlood();
  }
} catch (error) {
  fail((error as Error).message, 1);
}
