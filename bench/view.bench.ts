/**
 * The view gateway's fan-out, over real WebSockets on 127.0.0.1 (the clients live in a forked process, as browsers
 * would be elsewhere):
 * - `view.gateway.fanout10`: PDUs delivered to each of 10 clients with the empty filter per second of the gateway
 *   process's CPU, against one client (`ratio`, goal ≥ 0.8; `ratioWall` is the same by the wall clock). The gateway
 *   gets 1000 Entity State PDUs per tick straight into `receive` (no UDP, so the figure is the gateway's), and at
 *   most 4 ticks are in flight to the slowest client (under the 1 MiB high-water mark), so nothing is skipped and
 *   every PDU reaches every client. Nine runs of one and ten clients alternating; `ratio` is the median of each
 *   ten-client run against the one-client run before it (`ratioOfMedians`: of the medians). Beside it, the same clients
 *   fed by a bare ws server that writes the gateway's framed tick bytes to each connection and does nothing else
 *   (`barePerClientCpuUs`: what one more client costs in socket writes alone), against what one more client costs
 *   the gateway (`perClientCpuUs`), and the ratio the gateway would have at that bare cost per client.
 * - `view.gateway.bytes`: bytes per entity per second on the WebSocket (feed messages plus WebSocket frame
 *   headers) against the same PDUs' UDP payload bytes (`ratio`, goal ≤ 1.1), for 1000 entities each sending one
 *   PDU a second, 20 ticks a second; `ratioWithUdpHeaders` counts the 28 bytes of IPv4 + UDP headers per datagram.
 *
 * - `view.gateway.receive`: PDUs per second through the gateway's receive path with no client, and heap per PDU.
 *
 * The file is also the client process: `RECKON_BENCH_ROLE=view-clients`.
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Socket } from 'node:net';
import WebSocket, { WebSocketServer } from 'ws';
import { encodeEntityStateInto } from '../src/pdu/wire/entity-state-encoder.js';
import { EntityStateRecord } from '../src/pdu/wire/entity-state-record.js';
import { resolveConfig } from '../src/stream/settings.js';
import { ViewGateway } from '../src/view/gateway.js';
import { binaryFrames } from '../src/view/ws-frames.js';
import { createViewServer, listenView, pageUrl } from '../src/view/http.js';
import { FeedWriter, readFeedMessage } from '../src/view/protocol.js';
import { cpuSeconds, heapBytesPerOp, opsPerSecond, round, type BenchResult, type BenchSuite } from './harness.js';

const ENTITIES = 1000;
const PDU_BYTES = 144;
const SOURCE = { address: '127.0.0.1', port: 3000, family: 'IPv4' };

/** `ENTITIES` Entity State PDUs of land vehicles near Monterey, 10 to a datagram. */
function buildDatagrams(): Buffer[] {
  const record = new EntityStateRecord();
  record.exerciseId = 1;
  record.site = 1;
  record.application = 3001;
  record.forceId = 1;
  record.entityType.set([1, 1, 225, 1, 1, 0, 0]);
  record.linearVelocity.set([10, 2, 0]);
  record.orientation.set([0.3, -1.0, -2.5]);
  record.drAlgorithm = 4;
  const datagrams: Buffer[] = [];
  for (let e = 0; e < ENTITIES; e += 10) {
    const datagram = Buffer.alloc(PDU_BYTES * 10);
    for (let k = 0; k < 10; k++) {
      record.entity = 1 + e + k;
      record.location.set([-2707135.985 + e + k, -4353750.737, 3781611.558]);
      encodeEntityStateInto(datagram, record, k * PDU_BYTES);
    }
    datagrams.push(datagram);
  }
  return datagrams;
}

async function startGateway() {
  const config = resolveConfig({ receiver: { maxEntities: 10_000 } });
  // Ticks are driven by the bench, not by the timer.
  const gateway = new ViewGateway({ config, tickMs: 3_600_000 });
  const server = createViewServer({ gateway });
  const url = pageUrl(await listenView(server, '127.0.0.1', 0));
  return {
    gateway,
    feedUrl: `${url.replace('http:', 'ws:')}feed`,
    async close() {
      gateway.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const WINDOW = 4;
const yieldToIo = () => new Promise<void>((resolve) => setImmediate(resolve));

/** What feeds the clients: the gateway, or a bare server writing the same frames (`bareServer`). */
interface FeedServer {
  feedUrl: string;
  /** Takes one tick's 1000 PDUs and sends them to every client. */
  tick(): void;
  skipped(): number;
  close(): Promise<void>;
}

/** The gateway, given each tick's datagrams straight into `receive`. */
async function gatewayServer(): Promise<FeedServer> {
  const g = await startGateway();
  const datagrams = buildDatagrams();
  return {
    feedUrl: g.feedUrl,
    tick() {
      for (const d of datagrams) g.gateway.receive(d, SOURCE);
      g.gateway.tick();
    },
    skipped: () => g.gateway.stats.skipped,
    close: () => g.close(),
  };
}

/**
 * The floor of a client's cost: a bare ws server that writes the gateway's framed tick (the same bytes, made once
 * beforehand with the gateway's own `FeedWriter` and `binaryFrames`) to each connection in one write, as the
 * gateway does, and does nothing else. Its CPU time per client is the socket write alone.
 */
async function bareServer(): Promise<FeedServer> {
  const messages: Uint8Array[] = [];
  const writer = new FeedWriter();
  const arrivalMs = Date.now();
  for (const datagram of buildDatagrams()) {
    for (let at = 0; at < datagram.length; at += PDU_BYTES) {
      if (writer.add(arrivalMs, datagram, at, PDU_BYTES)) continue;
      messages.push(writer.bytes().slice());
      writer.reset();
      writer.add(arrivalMs, datagram, at, PDU_BYTES);
    }
  }
  messages.push(writer.bytes().slice());
  const frames = binaryFrames(messages);
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0, perMessageDeflate: false });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const sockets: Socket[] = [];
  server.on('connection', (socket, request) => {
    sockets.push(request.socket);
    socket.send(JSON.stringify({ type: 'hello' }));
  });
  const { port } = server.address() as { port: number };
  return {
    feedUrl: `ws://127.0.0.1:${port}/feed`,
    tick() {
      for (const socket of sockets) socket.write(frames);
    },
    skipped: () => 0,
    async close() {
      for (const client of server.clients) client.terminate();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** PDUs per second delivered to each of `clients` clients (until the slowest has them all). */
async function deliveredPerClient(
  start: () => Promise<FeedServer>,
  clients: number,
  ticks: number,
): Promise<{
  pdusPerSecond: number;
  pdusPerCpuSecond: number;
  cpuUsPerTick: number;
  clientCpuSeconds: number;
  seconds: number;
  skipped: number;
}> {
  const g = await start();
  const expected = ticks * ENTITIES;
  const child = fork(fileURLToPath(import.meta.url), [], {
    env: {
      ...process.env,
      RECKON_BENCH_ROLE: 'view-clients',
      CLIENTS: String(clients),
      URL: g.feedUrl,
      EXPECTED: String(expected),
    },
    execArgv: ['--import', 'tsx'],
  });
  const messages: Array<{ type: string; counts?: number[]; cpuSeconds?: number }> = [];
  let wake: () => void = () => {};
  // Ticks every client has received completely (the client process reports each one).
  let ticksDelivered = 0;
  child.on('message', (m: { type: string; ticks?: number }) => {
    if (m.type === 'progress') ticksDelivered = m.ticks!;
    else messages.push(m);
    wake();
  });
  const until = async (type: string) => {
    while (!messages.some((m) => m.type === type)) await new Promise<void>((resolve) => (wake = resolve));
    return messages.find((m) => m.type === type)!;
  };
  await until('ready');
  // The previous run's garbage is collected before, not during, this one.
  (globalThis as { gc?: () => void }).gc?.();
  const startMs = performance.now();
  const startCpu = cpuSeconds();
  for (let t = 0; t < ticks; t++) {
    g.tick();
    // Flow control: at most WINDOW ticks in flight to the slowest client (4 × 154 kB, under the gateway's 1 MiB
    // high-water mark, so none of them skips anything); the wait is for the client process's report, not a spin.
    while (t + 1 - ticksDelivered > WINDOW) await new Promise<void>((resolve) => (wake = resolve));
  }
  const done = await until('done');
  const seconds = (performance.now() - startMs) / 1000;
  const serverCpuSeconds = cpuSeconds() - startCpu;
  const skipped = g.skipped();
  child.kill();
  await g.close();
  if (done.counts!.some((n) => n !== expected))
    throw new Error(`clients got ${done.counts} PDUs, not ${expected} each`);
  return {
    pdusPerSecond: expected / seconds,
    pdusPerCpuSecond: expected / serverCpuSeconds,
    cpuUsPerTick: (serverCpuSeconds * 1e6) / ticks,
    clientCpuSeconds: done.cpuSeconds!,
    seconds,
    skipped,
  };
}

async function bytesRatio(): Promise<BenchResult> {
  const g = await startGateway();
  const client = new WebSocket(g.feedUrl);
  let wireBytes = 0;
  let records = 0;
  client.on('message', (data: Buffer, isBinary) => {
    if (!isBinary) return;
    // Server-to-client frames are unmasked: 2 header bytes, 4 from 126 bytes of payload, 10 from 64 KiB (RFC 6455 §5.2).
    wireBytes += data.length + (data.length < 126 ? 2 : data.length < 65_536 ? 4 : 10);
    records += readFeedMessage(new Uint8Array(data.buffer, data.byteOffset, data.length), () => {});
  });
  await new Promise<void>((resolve) => client.once('message', () => resolve())); // hello
  const all = buildDatagrams();
  // One PDU a second per entity, 20 ticks a second: 50 PDUs per tick, over 10 s of stream time.
  const seconds = 10,
    ticksPerSecond = 20,
    perTick = ENTITIES / ticksPerSecond;
  let udpBytes = 0;
  let sent = 0;
  for (let t = 0; t < seconds * ticksPerSecond; t++) {
    for (let k = 0; k < perTick; k++) {
      const e = (t * perTick + k) % ENTITIES;
      const datagram = all[Math.floor(e / 10)]!.subarray((e % 10) * PDU_BYTES, ((e % 10) + 1) * PDU_BYTES);
      g.gateway.receive(datagram, SOURCE);
      udpBytes += datagram.length;
      sent++;
    }
    g.gateway.tick();
    await yieldToIo();
  }
  while (records < sent) await yieldToIo();
  client.terminate();
  await g.close();
  const wsPerEntitySecond = wireBytes / ENTITIES / seconds;
  const udpPerEntitySecond = udpBytes / ENTITIES / seconds;
  return {
    name: 'view.gateway.bytes',
    wsBytesPerEntityPerSec: round(wsPerEntitySecond),
    udpBytesPerEntityPerSec: round(udpPerEntitySecond),
    ratio: round(wsPerEntitySecond / udpPerEntitySecond),
    ratioWithUdpHeaders: round(wsPerEntitySecond / (udpPerEntitySecond + (28 * sent) / ENTITIES / seconds)),
    goal: '≤ 1.1',
  };
}

/** The receive hot path alone (decode, validate, geodetic, latest-PDU map, tick buffer), with no client. */
async function receivePath(): Promise<BenchResult> {
  const g = await startGateway();
  const datagrams = buildDatagrams();
  let d = 0;
  const op = () => {
    g.gateway.receive(datagrams[d]!, SOURCE);
    if (++d === datagrams.length) {
      d = 0;
      g.gateway.tick();
    }
  };
  const pdusPerSec = opsPerSecond(() => {
    for (let i = 0; i < 100; i++) op();
  }, 1000);
  const heapBytesPerPdu = heapBytesPerOp(op, 100_000) / 10;
  await g.close();
  return { name: 'view.gateway.receive', pdusPerSec: Math.round(pdusPerSec), heapBytesPerPdu: round(heapBytesPerPdu) };
}

const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const suite: BenchSuite = async ({ quick }) => {
  const ticks = quick ? 50 : 300;
  const runs = quick ? 1 : 9;
  type Run = Awaited<ReturnType<typeof deliveredPerClient>>;
  const one: Run[] = [],
    ten: Run[] = [],
    bareOne: Run[] = [],
    bareTen: Run[] = [];
  for (let r = 0; r < runs; r++) {
    one.push(await deliveredPerClient(gatewayServer, 1, ticks));
    ten.push(await deliveredPerClient(gatewayServer, 10, ticks));
    bareOne.push(await deliveredPerClient(bareServer, 1, ticks));
    bareTen.push(await deliveredPerClient(bareServer, 10, ticks));
  }
  const cpu1 = median(one.map((m) => m.pdusPerCpuSecond)),
    cpu10 = median(ten.map((m) => m.pdusPerCpuSecond));
  // Each run of 10 clients against the run of 1 just before it: the two share the machine's load of the moment.
  const pairRatios = ten.map((m, r) => m.pdusPerCpuSecond / one[r]!.pdusPerCpuSecond);
  const wall1 = median(one.map((m) => m.pdusPerSecond)),
    wall10 = median(ten.map((m) => m.pdusPerSecond));
  const tickUs1 = median(one.map((m) => m.cpuUsPerTick)),
    tickUs10 = median(ten.map((m) => m.cpuUsPerTick));
  // What each further client costs per tick: the gateway's, and the bare write of the same bytes.
  const perClientUs = (tickUs10 - tickUs1) / 9;
  const barePerClientUs = (median(bareTen.map((m) => m.cpuUsPerTick)) - median(bareOne.map((m) => m.cpuUsPerTick))) / 9;
  return [
    {
      // The gateway's own cost: PDUs delivered to each client per second of the gateway process's CPU (user +
      // system, so the socket writes count). The wall-clock figures include the client process and, on a shared
      // machine, the other tenants.
      name: 'view.gateway.fanout10',
      pdusPerCpuSecPerClient1: Math.round(cpu1),
      pdusPerCpuSecPerClient10: Math.round(cpu10),
      ratio: round(median(pairRatios)),
      ratioOfMedians: round(cpu10 / cpu1),
      ratioMin: round(Math.min(...pairRatios)),
      ratioMax: round(Math.max(...pairRatios)),
      wallPdusPerSecPerClient1: Math.round(wall1),
      wallPdusPerSecPerClient10: Math.round(wall10),
      ratioWall: round(wall10 / wall1),
      clientCpuSeconds10: round(median(ten.map((m) => m.clientCpuSeconds))),
      skipped: [...one, ...ten].reduce((n, m) => n + m.skipped, 0),
      // Per tick of 1000 PDUs (154 kB framed): the gateway with one client, what each further client adds, what
      // each further client adds to a bare server writing the same frames, and the ratio the gateway would have
      // if its clients cost no more than those bare writes.
      cpuUsPerTick1: round(tickUs1),
      perClientCpuUs: round(perClientUs),
      barePerClientCpuUs: round(barePerClientUs),
      ratioWithBarePerClient: round(tickUs1 / (tickUs1 + 9 * barePerClientUs)),
      goal: '≥ 0.8',
    },
    await bytesRatio(),
    await receivePath(),
  ];
};
export default suite;

/** The client process: CLIENTS feed clients that count the records they get, reporting when each has EXPECTED. */
async function runClients(): Promise<void> {
  const clients = Number(process.env.CLIENTS);
  const expected = Number(process.env.EXPECTED);
  const counts = new Array<number>(clients).fill(0);
  let hellos = 0;
  let startCpu = 0;
  let reported = 0;
  let finished = 0;
  const count = () => {};
  for (let i = 0; i < clients; i++) {
    const socket = new WebSocket(process.env.URL!);
    socket.on('message', (data: Buffer, isBinary) => {
      if (!isBinary) {
        if (data.includes('"hello"') && ++hellos === clients) {
          startCpu = cpuSeconds();
          process.send!({ type: 'ready' });
        }
        return;
      }
      const before = counts[i]!;
      counts[i]! += readFeedMessage(new Uint8Array(data.buffer, data.byteOffset, data.length), count);
      const ticks = Math.floor(Math.min(...counts) / ENTITIES);
      if (ticks > reported) process.send!({ type: 'progress', ticks: (reported = ticks) });
      if (before < expected && counts[i]! >= expected && ++finished === clients)
        process.send!({ type: 'done', counts, cpuSeconds: cpuSeconds() - startCpu });
    });
  }
}

if (process.env.RECKON_BENCH_ROLE === 'view-clients') await runClients();
