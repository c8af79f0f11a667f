/**
 * DIS over NATS, against Debian's nats-server started on a free loopback port (skipped with a note where it is
 * missing). Workload: entities spread uniformly over 1 000 × 1 000 km around 48° N 11° E, H3 resolution 5.
 * - `nats.publish.reckon` / `nats.publish.raw`: PDUs/s published through `NatsTransport.send` (read the location,
 *   find the entity's cell, subject, per-subject bundling, copy) vs the bare client publishing the very same
 *   messages (same subjects, same payloads, same bundling, computed beforehand); CPU time of this process (and wall
 *   time) to the server's acknowledgement of a flush; the median of 7 rounds of each, alternating, after one
 *   round of each untimed (the first cell of every entity). Between rounds every entity moves on as its next
 *   Entity State PDU would find it: 5 s later (the heartbeat of docs/dis-reference.md §4: an entity moving
 *   straight needs no earlier PDU, §3.9), in a straight line at its own speed, 90 % of them at 0–30 m/s (land,
 *   sea), 10 % at 100–250 m/s (air). So a share of the entities leaves the part of its cell the router knows it
 *   is in (checked against the cell's and its neighbours' edges; the share that asks H3 is reported) or crosses
 *   into another cell (a left-cell copy, with headers, in both runs; its share is reported). The 1-minute load average is reported beside (the cores are shared).
 * - `nats.bridge.udp-to-subscriber`: PDUs/s end to end, UDP datagrams of 10 PDUs → Bridge → server → a subscriber
 *   that splits the messages, first to last arrival. The datagrams come from a sender process of their own (a
 *   sender in the bridge's event loop starves it); the sender keeps at most `BRIDGE_WINDOW` datagrams ahead of
 *   what the subscriber has received (it tells the sender every 20 datagrams), so the bridge's receive buffer is
 *   never overrun and the rate is what the bridge, the server and the subscriber sustain. Lost PDUs are counted,
 *   and where: not read from UDP by the bridge, or read but not delivered.
 * - `nats.interest`: 100 000 entities, one PDU each; a subscriber with a 50 km area: the fraction of the traffic it
 *   receives, and whether every entity inside the area is among it.
 * - `nats.scale.pN`: the same 100 000 PDUs to 1, 2 and 4 subscriber processes, each taking a share of the cells
 *   (partition by cell), each decoding into a RemoteEntityTable: per-process PDUs and CPU, the measured total rate,
 *   and a model rate (processes × PDUs per CPU-second of one process), since this machine has 2 cores for the
 *   server, the publisher and every subscriber.
 *
 * The file is also the child process: `RECKON_BENCH_ROLE=nats-subscriber` selects the role.
 */
import { connect, type MsgHdrs, headers as natsHeaders, type NatsConnection } from '@nats-io/transport-node';
import { fork, spawnSync } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { RemoteEntityTable } from '../src/dr/receiver/remote-entity-table.js';
import { geodeticDegreesToEcef } from '../src/math/geodesy.js';
import { areaContains, destination, parseCircleArea } from '../src/nats/area.js';
import { Bridge } from '../src/nats/bridge.js';
import { createRoute } from '../src/nats/route.js';
import { LEFT_CELL_HEADER, NEW_CELL_HEADER } from '../src/nats/subject-names.js';
import { SubjectRouter } from '../src/nats/subjects.js';
import { NatsTransport } from '../src/nats/transport.js';
import { EntityStateOffset } from '../src/pdu/wire/constants.js';
import { decodeEntityStateOrUpdateInto } from '../src/pdu/wire/entity-state-decoder.js';
import { encodeEntityStateInto } from '../src/pdu/wire/entity-state-encoder.js';
import { EntityStateRecord } from '../src/pdu/wire/entity-state-record.js';
import { PduReceiver } from '../src/transport/pdu-receiver.js';
import { UdpTransport } from '../src/transport/udp.js';
import { startNatsServer } from '../scripts/support/nats-server.js';
import { round, type BenchResult, type BenchSuite } from './harness.js';

const PDU_BYTES = 144;
const CENTER = { lat: 48, lon: 11 };
const HALF_SIDE_M = 500_000;
const RESOLUTION = 5;
/** Seconds between an entity's PDUs in the publish benchmark: the heartbeat (docs/dis-reference.md §4). */
const ROUND_SECONDS = 5;

/** Positions of `count` entities spread uniformly over the square (deterministic: a fixed LCG). */
function positions(count: number): Array<[number, number]> {
  let seed = 12345;
  const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
  const out: Array<[number, number]> = [];
  for (let i = 0; i < count; i++) {
    const [lat] = destination(CENTER.lat, CENTER.lon, 0, (next() * 2 - 1) * HALF_SIDE_M);
    const [, lon] = destination(lat, CENTER.lon, Math.PI / 2, (next() * 2 - 1) * HALF_SIDE_M);
    out.push([lat, lon]);
  }
  return out;
}

/** How each entity moves between rounds: bearing (radians) and metres per round (deterministic: a fixed LCG). */
function movements(count: number): Array<[number, number]> {
  let seed = 54321;
  const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
  const out: Array<[number, number]> = [];
  for (let i = 0; i < count; i++) {
    const air = next() < 0.1;
    const speed = air ? 100 + next() * 150 : next() * 30;
    out.push([next() * 2 * Math.PI, speed * ROUND_SECONDS]);
  }
  return out;
}

/** Moves every entity one round on and writes its new location into its PDU in `pdus`. */
function advance(pdus: Buffer, where: Array<[number, number]>, moves: Array<[number, number]>): void {
  const ecef = new Float64Array(3);
  where.forEach(([lat, lon], i) => {
    const [bearing, metres] = moves[i]!;
    const next = destination(lat, lon, bearing, metres);
    where[i] = next;
    geodeticDegreesToEcef(ecef, next[0], next[1], 100);
    const at = i * PDU_BYTES + EntityStateOffset.LOCATION;
    pdus.writeDoubleBE(ecef[0]!, at);
    pdus.writeDoubleBE(ecef[1]!, at + 8);
    pdus.writeDoubleBE(ecef[2]!, at + 16);
  });
}

/** One Entity State PDU per position, entity numbers 1…count (site grows past 60 000). */
function buildPdus(where: Array<[number, number]>): Buffer {
  const record = new EntityStateRecord(0);
  const all = Buffer.alloc(where.length * PDU_BYTES);
  where.forEach(([lat, lon], i) => {
    record.exerciseId = 1;
    record.site = 1 + Math.floor(i / 60000);
    record.application = 1;
    record.entity = 1 + (i % 60000);
    record.entityType.set([1, 1, 225, 1, 1, 0, 0]);
    geodeticDegreesToEcef(record.location, lat, lon, 100);
    record.linearVelocity.set([10, 0, 0]);
    record.drAlgorithm = 2;
    encodeEntityStateInto(all, record, i * PDU_BYTES);
  });
  return all;
}

const entityOf = (bytes: Uint8Array, offset: number) =>
  (((bytes[offset + 12]! << 8) | bytes[offset + 13]!) - 1) * 60000 +
  ((bytes[offset + 16]! << 8) | bytes[offset + 17]!) -
  1;

/** Counts the PDUs of a message (split by Length). */
function countPdus(data: Uint8Array): number {
  let n = 0;
  for (let offset = 0; offset + 12 <= data.length; n++) offset += (data[offset + 8]! << 8) | data[offset + 9]!;
  return n;
}

// ---- child: a subscriber process taking a share of the cells -----------------------------------------------------
async function subscriberChild(): Promise<void> {
  const { url, cells, expected } = await new Promise<{ url: string; cells: string[] | null; expected: number }>(
    (resolve) =>
      process.once('message', (m) => resolve(m as { url: string; cells: string[] | null; expected: number })),
  );
  const nc = await connect({ servers: url });
  const table = new RemoteEntityTable({ capacity: 120_000 });
  const record = new EntityStateRecord();
  let pdus = 0;
  let firstMs = 0,
    lastMs = 0;
  const receiver = new PduReceiver((bytes, offset, length) => {
    decodeEntityStateOrUpdateInto(record, bytes, offset, offset + length);
    table.apply(record, lastMs / 1000);
    pdus++;
  });
  const cpuBefore = process.cpuUsage();
  const source = { address: '', port: 0, family: 'nats' };
  const onMessage = (_: Error | null, m: { data: Uint8Array }) => {
    lastMs = performance.now();
    if (firstMs === 0) firstMs = lastMs;
    receiver.receive(m.data, source);
    if (pdus >= expected) finish();
  };
  for (const subject of cells === null ? ['dis.1.>'] : cells.map((c) => `dis.1.${c}.>`))
    nc.subscribe(subject, { callback: onMessage });
  await nc.flush();
  process.send!({ ready: true });
  let finished = false;
  function finish() {
    if (finished) return;
    finished = true;
    const cpu = process.cpuUsage(cpuBefore);
    process.send!({
      pdus,
      seconds: (lastMs - firstMs) / 1000,
      cpuSeconds: (cpu.user + cpu.system) / 1e6,
      firstMs: performance.timeOrigin + firstMs,
      lastMs: performance.timeOrigin + lastMs,
    });
  }
  process.on('message', (m) => {
    if ((m as { stop?: boolean }).stop) {
      finish();
      void nc.close().then(() => process.exit(0));
    }
  });
}

/** Datagrams the sender may be ahead of the subscriber: 200 × ~1.5 KB, well inside the 4 MiB receive buffer. */
const BRIDGE_WINDOW = 200;

// ---- child: the UDP sender of the bridge benchmark ---------------------------------------------------------------
async function udpSenderChild(): Promise<void> {
  const { port, datagrams, entities } = await new Promise<{ port: number; datagrams: number; entities: number }>(
    (resolve) => process.once('message', (m) => resolve(m as { port: number; datagrams: number; entities: number })),
  );
  const pdus = buildPdus(positions(entities));
  const socket = createSocket('udp4');
  let sent = 0,
    delivered = 0,
    idle: ReturnType<typeof setTimeout> | undefined;
  const pump = () => {
    while (sent < datagrams && sent - delivered < BRIDGE_WINDOW) {
      const at = (sent * 10 * PDU_BYTES) % pdus.length;
      socket.send(pdus.subarray(at, at + 10 * PDU_BYTES), port, '127.0.0.1');
      sent++;
    }
    // A datagram lost on the way would hold the window shut: after 200 ms without news, go on as if delivered.
    clearTimeout(idle);
    if (sent < datagrams)
      idle = setTimeout(() => {
        delivered = sent;
        pump();
      }, 200);
    else process.send!({ sent });
  };
  process.on('message', (m) => {
    const news = m as { delivered?: number; stop?: boolean };
    if (news.stop) {
      clearTimeout(idle);
      socket.close();
      process.exit(0);
    }
    if (news.delivered !== undefined && news.delivered > delivered) {
      delivered = news.delivered;
      pump();
    }
  });
  process.send!({ ready: true });
  await new Promise<void>((resolve) => process.once('message', () => resolve()));
  pump();
}

if (process.env.RECKON_BENCH_ROLE === 'nats-subscriber') await subscriberChild();
if (process.env.RECKON_BENCH_ROLE === 'udp-sender') await udpSenderChild();

// ---- parent ------------------------------------------------------------------------------------------------------
const self = fileURLToPath(import.meta.url);

/** Wall and CPU seconds of `work` (CPU of this process: publishing and writing to the socket). */
async function timed(work: () => Promise<void>): Promise<{ wall: number; cpu: number }> {
  const start = performance.now(),
    cpu = process.cpuUsage();
  await work();
  const used = process.cpuUsage(cpu);
  return { wall: (performance.now() - start) / 1000, cpu: (used.user + used.system) / 1e6 };
}

/** A message as NatsTransport publishes it; `headers` on a left-cell copy. */
type Message = [subject: string, payload: Uint8Array, headers?: MsgHdrs];

async function publishRaw(nc: NatsConnection, messages: Message[]): Promise<void> {
  for (const [subject, payload, headers] of messages)
    if (headers === undefined) nc.publish(subject, payload);
    else nc.publish(subject, payload, { headers });
  await nc.flush();
}

async function publishReckon(transport: NatsTransport, pdus: Buffer, perTick: number): Promise<void> {
  for (let offset = 0; offset < pdus.length; offset += perTick * PDU_BYTES) {
    // One tick: the publisher's datagrams of 10 PDUs, then the end of the tick sends the bundles.
    for (let d = offset; d < Math.min(offset + perTick * PDU_BYTES, pdus.length); d += 10 * PDU_BYTES) {
      transport.send(pdus.subarray(d, Math.min(d + 10 * PDU_BYTES, pdus.length)));
    }
    transport.flush();
  }
  await transport.connection.flush();
}

/**
 * The messages NatsTransport publishes for these PDUs and ticks, computed beforehand with a router of its own that
 * has seen the same PDUs before (docs/nats.md): per tick, one message per subject in the order of its first PDU
 * (16 KiB are never reached: ~1.1 PDUs per subject a tick), then a copy of each PDU whose entity crossed into
 * another cell, to the cell it left, with the two headers.
 */
function expectedMessages(router: SubjectRouter, pdus: Buffer, perTick: number): Message[] {
  const route = createRoute();
  const out: Message[] = [];
  for (let offset = 0; offset < pdus.length; offset += perTick * PDU_BYTES) {
    const groups = new Map<string, Buffer[]>();
    const left: Message[] = [];
    for (let p = offset; p < Math.min(offset + perTick * PDU_BYTES, pdus.length); p += PDU_BYTES) {
      router.route(pdus, p, PDU_BYTES, route);
      const pdu = pdus.subarray(p, p + PDU_BYTES);
      const list = groups.get(route.subject) ?? [];
      list.push(pdu);
      groups.set(route.subject, list);
      if (route.leftCell !== undefined) {
        const h = natsHeaders();
        h.set(LEFT_CELL_HEADER, '1');
        h.set(NEW_CELL_HEADER, route.cell!);
        left.push([route.subject.replace(`.${route.cell!}.`, `.${route.leftCell}.`), Buffer.from(pdu), h]);
      }
    }
    for (const [subject, list] of groups) out.push([subject, Buffer.concat(list)]);
    out.push(...left);
  }
  return out;
}

const suite: BenchSuite = async ({ quick }) => {
  const found = spawnSync('sh', ['-c', 'command -v nats-server'], { encoding: 'utf8' });
  const binary = found.status === 0 ? found.stdout.trim() : '';
  if (!binary) return [{ name: 'nats', skipped: 'nats-server not found: sudo apt-get install -y nats-server' }];
  const server = await startNatsServer(binary);
  const results: BenchResult[] = [];
  try {
    const entityCount = quick ? 20_000 : 100_000;
    const where = positions(entityCount);
    const pdus = buildPdus(where);

    // -- publish: reckon vs the bare client with the same messages -------------------------------------------------
    {
      const perTick = 1000;
      const raw = await connect({ servers: server.url });
      const transport = await NatsTransport.open({ servers: [server.url], h3Resolution: RESOLUTION });
      const model = new SubjectRouter('dis', RESOLUTION);
      // Moved copies: the benchmarks below take the entities where they were.
      const moving = where.map(([lat, lon]): [number, number] => [lat, lon]);
      const moved = Buffer.from(pdus);
      const moves = movements(entityCount);
      const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
      // The first round, untimed: every entity's first cell.
      await publishRaw(raw, expectedMessages(model, moved, perTick));
      await publishReckon(transport, moved, perTick);
      // CPU time of this process, as the other benchmarks: on a shared machine the wall clock mostly measures the
      // other tenants and the server's share of the cores. The wall-clock rates are reported beside.
      const raws: Array<{ wall: number; cpu: number }> = [],
        reckons: Array<{ wall: number; cpu: number }> = [];
      const ROUNDS = 7;
      let messageCount = 0,
        leftCopies = 0;
      const messagesBefore = transport.natsStats.messagesOut,
        copiesBefore = transport.natsStats.leftCellCopiesOut,
        computedBefore = model.cellComputations;
      for (let round = 0; round < ROUNDS; round++) {
        advance(moved, moving, moves);
        const messages = expectedMessages(model, moved, perTick);
        messageCount += messages.length;
        leftCopies += messages.filter((m) => m[2] !== undefined).length;
        gc();
        raws.push(await timed(() => publishRaw(raw, messages)));
        gc();
        reckons.push(await timed(() => publishReckon(transport, moved, perTick)));
      }
      // The baseline published what the transport did: the same count of messages and of left-cell copies.
      const reckonMessages = transport.natsStats.messagesOut - messagesBefore;
      if (reckonMessages !== messageCount || transport.natsStats.leftCellCopiesOut - copiesBefore !== leftCopies)
        throw new Error(`the baseline published ${messageCount} messages, the transport ${reckonMessages}`);
      const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
      const rate = (xs: Array<{ wall: number; cpu: number }>, k: 'wall' | 'cpu') =>
        median(xs.map((x) => entityCount / x[k]));
      const rawRate = rate(raws, 'cpu'),
        reckonRate = rate(reckons, 'cpu');
      results.push({
        name: 'nats.publish.raw',
        opsPerSec: round(rawRate),
        wallOpsPerSec: round(rate(raws, 'wall')),
        messages: Math.round(messageCount / ROUNDS),
        pdusPerMessage: round(entityCount / ((messageCount - leftCopies) / ROUNDS)),
        cellComputedPercent: round((100 * (model.cellComputations - computedBefore)) / (ROUNDS * entityCount)),
        leftCellCopyPercent: round((100 * leftCopies) / (ROUNDS * entityCount)),
        loadAverage1m: round(loadavg()[0]!),
      });
      results.push({
        name: 'nats.publish.reckon',
        opsPerSec: round(reckonRate),
        wallOpsPerSec: round(rate(reckons, 'wall')),
        ratioVsRaw: round(reckonRate / rawRate),
        wallRatioVsRaw: round(rate(reckons, 'wall') / rate(raws, 'wall')),
        messages: Math.round(reckonMessages / ROUNDS),
      });
      await transport.close();
      await raw.close();
    }

    // -- bridge: UDP (a sender process) → bridge → server → subscriber ------------------------------------------
    {
      const subscriber = await connect({ servers: server.url });
      const total = quick ? 20_000 : 100_000;
      const datagramCount = total / 10;
      let received = 0,
        acknowledged = 0,
        firstMs = 0,
        lastMs = 0;
      let done: () => void = () => {};
      const all = new Promise<void>((resolve) => (done = resolve));
      const sender = fork(self, [], {
        env: { ...process.env, RECKON_BENCH_ROLE: 'udp-sender' },
        execArgv: ['--import', 'tsx'],
      });
      subscriber.subscribe('dis.1.>', {
        callback: (_, m) => {
          lastMs = performance.now();
          if (firstMs === 0) firstMs = lastMs;
          received += countPdus(m.data);
          if (received - acknowledged >= 200) {
            acknowledged = received;
            sender.send({ delivered: Math.floor(received / 10) });
          }
          if (received >= total) done();
        },
      });
      await subscriber.flush();
      const udp = await UdpTransport.open({
        bindAddress: '127.0.0.1',
        bindPort: 0,
        destination: { address: '127.0.0.1', port: 9 },
      });
      const nats = await NatsTransport.open({ servers: [server.url], h3Resolution: RESOLUTION });
      const bridge = new Bridge({ udp, nats, filter: { exercise: 1 } });
      const senderReady = new Promise<void>((resolve) =>
        sender.on('message', (m) => (m as { ready?: boolean }).ready && resolve()),
      );
      const senderDone = new Promise<number>((resolve) =>
        sender.on('message', (m) => {
          const sent = (m as { sent?: number }).sent;
          if (sent !== undefined) resolve(sent);
        }),
      );
      sender.send({ port: udp.local.port, datagrams: datagramCount, entities: entityCount });
      await senderReady;
      const cpu = process.cpuUsage();
      sender.send({ go: true });
      const sent = await senderDone;
      // Everything sent has arrived, or nothing more came for a second.
      for (let before = -1; received < total && received !== before; ) {
        before = received;
        await Promise.race([all, new Promise((resolve) => setTimeout(resolve, 1000))]);
      }
      const used = process.cpuUsage(cpu);
      const read = bridge.stats.udpToNats.in;
      results.push({
        name: 'nats.bridge.udp-to-subscriber',
        opsPerSec: round(received / ((lastMs - firstMs) / 1000)),
        pdusPerCpuSecond: round(received / ((used.user + used.system) / 1e6)),
        lossPercent: round(100 * (1 - received / (sent * 10))),
        lostInUdpPercent: round(100 * (1 - read / sent)),
        pdusPerDatagram: 10,
        windowDatagrams: BRIDGE_WINDOW,
        loadAverage1m: round(loadavg()[0]!),
      });
      sender.send({ stop: true });
      await bridge.close();
      await subscriber.close();
    }

    // -- interest: a 50 km area out of 1 000 × 1 000 km ---------------------------------------------------------------
    {
      const area = parseCircleArea(`${CENTER.lat},${CENTER.lon},50 km`);
      const subscriber = await NatsTransport.open({
        servers: [server.url],
        h3Resolution: RESOLUTION,
        receive: { exercise: 1, area },
      });
      await subscriber.settled();
      const seen = new Uint8Array(entityCount);
      let received = 0;
      const receiver = new PduReceiver((bytes, offset) => {
        received++;
        seen[entityOf(bytes, offset)] = 1;
      });
      subscriber.onDatagram(receiver.receive);
      const publisher = await NatsTransport.open({ servers: [server.url], h3Resolution: RESOLUTION });
      await publishReckon(publisher, pdus, 1000);
      await subscriber.settled(); // after the publisher's flush: everything routed to the subscriber has arrived
      let inside = 0,
        insideSeen = 0;
      where.forEach(([lat, lon], i) => {
        if (!areaContains(area, lat, lon)) return;
        inside++;
        insideSeen += seen[i]!;
      });
      results.push({
        name: 'nats.interest',
        entities: entityCount,
        receivedPercent: round((100 * received) / entityCount),
        insideArea: inside,
        insideReceived: insideSeen,
        allInsidePresent: inside === insideSeen,
        cells: subscriber.cells!.length,
      });
      await publisher.close();
      await subscriber.close();
    }

    // -- scale: 1, 2, 4 subscriber processes, partitioned by cell ----------------------------------------------------
    {
      const router = new SubjectRouter('dis', RESOLUTION);
      const route = createRoute();
      const cells = new Set<string>();
      for (let p = 0; p < pdus.length; p += PDU_BYTES) cells.add(router.route(pdus, p, PDU_BYTES, route).cell!);
      const cellList = [...cells].sort();
      const perCell = new Map<string, number>();
      for (let p = 0; p < pdus.length; p += PDU_BYTES) {
        const c = router.route(pdus, p, PDU_BYTES, route).cell!;
        perCell.set(c, (perCell.get(c) ?? 0) + 1);
      }
      for (const processes of [1, 2, 4]) {
        const shares: string[][] = Array.from({ length: processes }, () => []);
        cellList.forEach((cell, i) => shares[i % processes]!.push(cell));
        const children = shares.map(() =>
          fork(self, [], {
            env: { ...process.env, RECKON_BENCH_ROLE: 'nats-subscriber' },
            execArgv: ['--import', 'tsx'],
          }),
        );
        const reports = children.map(
          (c) =>
            new Promise<{ pdus: number; seconds: number; cpuSeconds: number; firstMs: number; lastMs: number }>(
              (resolve) =>
                c.on('message', (m) => {
                  if ('pdus' in (m as object)) resolve(m as never);
                }),
            ),
        );
        const ready = children.map(
          (c) => new Promise<void>((resolve) => c.on('message', (m) => (m as { ready?: boolean }).ready && resolve())),
        );
        children.forEach((c, i) => {
          const share = shares[i]!;
          const expected = share.reduce((n, cell) => n + perCell.get(cell)!, 0);
          c.send({ url: server.url, cells: processes === 1 ? null : share, expected });
        });
        await Promise.all(ready);
        const publisher = await NatsTransport.open({ servers: [server.url], h3Resolution: RESOLUTION });
        await publishReckon(publisher, pdus, 1000);
        await publisher.close();
        const timeout = setTimeout(() => children.forEach((c) => c.send({ stop: true })), 20_000);
        const got = await Promise.all(reports);
        clearTimeout(timeout);
        children.forEach((c) => c.send({ stop: true }));
        const total = got.reduce((n, r) => n + r.pdus, 0);
        const wall = (Math.max(...got.map((r) => r.lastMs)) - Math.min(...got.map((r) => r.firstMs))) / 1000;
        const perCpu = got.map((r) => r.pdus / r.cpuSeconds);
        results.push({
          name: `nats.scale.p${processes}`,
          processes,
          pdusPerProcessMax: Math.max(...got.map((r) => r.pdus)),
          pdusPerProcessMin: Math.min(...got.map((r) => r.pdus)),
          totalOpsPerSec: round(total / wall),
          pdusPerCpuSecond: round(Math.min(...perCpu)),
          modelOpsPerSec: round(processes * Math.min(...perCpu)),
          received: total,
        });
      }
    }
  } finally {
    await server.stop();
  }
  return results;
};

export default suite;
