/**
 * Loopback UDP throughput. A forked sender process sends prebuilt Entity State PDUs to 127.0.0.1 as fast as it can
 * (one PDU per datagram, then 10 bundled per 1440-byte datagram); this process receives them, twice per mode and with
 * the same offered load:
 * - `raw`: a bare `dgram` socket that only counts datagrams (the ceiling of a Node receiver);
 * - `reckon`: UdpTransport → PduReceiver (split, filter) → zero-allocation decode → RemoteEntityTable.apply.
 * `opsPerSec` = PDUs received and processed per second (first to last arrival); `lossPercent` = PDUs sent but never
 * processed. Both sockets ask for a 4 MiB receive buffer.
 * `table.rss100k`, `table.rss1m`: resident memory of a RemoteEntityTable holding 100 000 / 1 000 000 entities,
 * measured in a fresh process: after each entity's first PDU and a render (`bytes`, `bytesPerEntity`), and after a
 * second PDU of every entity moved by 3 m and a render, when every entity's correction is under way
 * (`bytesPerEntityWhileSmoothing`). Goal for a million: ≤ 400 B per entity.
 * `table.rss100k.map-of-records`, the baseline: a Map holding each of 100 000 entities' newest PDU decoded into an
 * `EntityStateRecord` of its own, with no dead-reckoning state at all (`bytesPerEntity`).
 *
 * The file is also the child process: `RECKON_BENCH_ROLE=sender|rss` selects the role.
 */
import { fork } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { fileURLToPath } from 'node:url';
import { RemoteEntityTable } from '../src/dr/receiver/remote-entity-table.js';
import { decodeEntityStateOrUpdateInto } from '../src/pdu/wire/entity-state-decoder.js';
import { encodeEntityStateInto } from '../src/pdu/wire/entity-state-encoder.js';
import { EntityStateRecord, entityKey } from '../src/pdu/wire/entity-state-record.js';
import { PduReceiver } from '../src/transport/pdu-receiver.js';
import { UdpTransport } from '../src/transport/udp.js';
import { round, type BenchResult, type BenchSuite } from './harness.js';

const ENTITIES = 1000;
const PDU_BYTES = 144;
const RECEIVE_BUFFER = 4 * 1024 * 1024;

/** An Entity State PDU of a moving land vehicle (RVW), entity number `entity`. */
function fillRecord(record: EntityStateRecord, entity: number, timestampRaw: number): EntityStateRecord {
  record.protocolVersion = 7;
  record.exerciseId = 1;
  record.pduType = 1;
  record.protocolFamily = 1;
  record.length = PDU_BYTES;
  record.timestampRaw = timestampRaw;
  record.site = 1 + Math.floor(entity / 60000);
  record.application = 3001;
  record.entity = 1 + (entity % 60000);
  record.entityType.set([1, 1, 225, 1, 1, 0, 0]);
  record.location.set([-2707135.985 + entity, -4353750.737, 3781611.558]);
  record.linearVelocity.set([10, 2, 0]);
  record.orientation.set([0.3, -1.0, -2.5]);
  record.drAlgorithm = 4;
  record.linearAcceleration.set([0.1, 0, 0]);
  record.angularVelocity.set([0, 0, 0.05]);
  return record;
}

/** `count` PDUs for `ENTITIES` entities packed `perDatagram` to a datagram; each a separate prebuilt Buffer. */
function buildDatagrams(perDatagram: number): Buffer[] {
  const record = new EntityStateRecord();
  const datagrams: Buffer[] = [];
  for (let e = 0; e < ENTITIES; e += perDatagram) {
    const datagram = Buffer.alloc(PDU_BYTES * perDatagram);
    for (let k = 0; k < perDatagram; k++)
      encodeEntityStateInto(datagram, fillRecord(record, e + k, 2 * (e + k)), k * PDU_BYTES);
    datagrams.push(datagram);
  }
  return datagrams;
}

// ---- child: sender --------------------------------------------------------------------------------------------
async function sender(): Promise<void> {
  const {
    port,
    perDatagram,
    datagrams: total,
  } = await new Promise<{ port: number; perDatagram: number; datagrams: number }>((resolve) =>
    process.once('message', resolve as (m: unknown) => void),
  );
  const datagrams = buildDatagrams(perDatagram);
  const socket = createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  let sent = 0;
  while (sent < total) {
    // Bursts, then a turn of the event loop so that queued sends complete.
    for (let i = 0; i < 256 && sent < total; i++, sent++)
      socket.send(datagrams[sent % datagrams.length]!, port, '127.0.0.1');
    await new Promise((resolve) => setImmediate(resolve));
  }
  await new Promise((resolve) => setTimeout(resolve, 50));
  socket.close();
  process.send!({ sent });
  process.disconnect();
}

// ---- child: resident memory of the table ----------------------------------------------------------------------
function rss(): void {
  const n = Number(process.env.RECKON_BENCH_ENTITIES);
  const gc = (globalThis as { gc?: () => void }).gc;
  const record = new EntityStateRecord();
  gc?.();
  const before = process.memoryUsage().rss;
  const table = new RemoteEntityTable({ capacity: n });
  for (let e = 0; e < n; e++) table.apply(fillRecord(record, e, 2), 1);
  table.render(1); // loads the models, as the first frame does: a table in use, every array touched
  gc?.();
  const after = process.memoryUsage().rss;
  // Every entity's next PDU 3 m further on: every correction under way at once, the most a table holds.
  for (let e = 0; e < n; e++) {
    fillRecord(record, e, 4);
    record.location[1]! += 3;
    table.apply(record, 1.5);
  }
  table.render(1.6);
  gc?.();
  const smoothing = process.memoryUsage().rss;
  process.send!({ bytes: after - before, smoothingBytes: smoothing - before, size: table.size });
  process.disconnect();
}

// ---- child: resident memory of the baseline, a Map of the newest decoded record per entity -----------------------
function rssRecords(): void {
  const n = Number(process.env.RECKON_BENCH_ENTITIES);
  const gc = (globalThis as { gc?: () => void }).gc;
  const pdu = new Uint8Array(PDU_BYTES);
  encodeEntityStateInto(pdu, fillRecord(new EntityStateRecord(), 0, 2), 0);
  gc?.();
  const before = process.memoryUsage().rss;
  const records = new Map<number, EntityStateRecord>();
  for (let e = 0; e < n; e++) {
    const record = new EntityStateRecord();
    decodeEntityStateOrUpdateInto(record, pdu, 0, PDU_BYTES);
    record.entity = 1 + (e % 60000);
    record.site = 1 + Math.floor(e / 60000);
    records.set(entityKey(record.site, record.application, record.entity), record);
  }
  gc?.();
  process.send!({ bytes: process.memoryUsage().rss - before, size: records.size });
  process.disconnect();
}

const role = process.env.RECKON_BENCH_ROLE;
if (role === 'sender') await sender();
if (role === 'rss') rss();
if (role === 'rss-records') rssRecords();

// ---- parent ---------------------------------------------------------------------------------------------------
const self = fileURLToPath(import.meta.url);

function child(roleName: string, env: Record<string, string> = {}) {
  return fork(self, [], {
    env: { ...process.env, ...env, RECKON_BENCH_ROLE: roleName },
    execArgv: ['--expose-gc', '--import', 'tsx'],
  });
}

interface Measured {
  pdus: number;
  seconds: number;
  sentPdus: number;
}

/** Runs one sender against a receiver that counts PDUs into `counter.pdus`; resolves when traffic has stopped. */
async function measure(
  port: number,
  perDatagram: number,
  datagrams: number,
  counter: { pdus: number; first: number; last: number },
): Promise<Measured> {
  const proc = child('sender');
  const exited = new Promise((resolve) => proc.once('exit', resolve));
  const done = new Promise<number>((resolve) => proc.once('message', (m) => resolve((m as { sent: number }).sent)));
  proc.send({ port, perDatagram, datagrams });
  const sent = await done;
  // Drain: wait until nothing has arrived for 100 ms.
  for (let seen = -1; seen !== counter.pdus; ) {
    seen = counter.pdus;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await exited;
  return { pdus: counter.pdus, seconds: (counter.last - counter.first) / 1000, sentPdus: sent * perDatagram };
}

async function rawRun(perDatagram: number, datagrams: number): Promise<Measured> {
  const socket = createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  socket.setRecvBufferSize(RECEIVE_BUFFER);
  const counter = { pdus: 0, first: 0, last: 0 };
  socket.on('message', (m: Buffer) => {
    if (counter.pdus === 0) counter.first = performance.now();
    counter.pdus += (m.length / PDU_BYTES) | 0; // counting only: the bundle size is known here
    counter.last = performance.now();
  });
  const result = await measure(socket.address().port, perDatagram, datagrams, counter);
  socket.close();
  return result;
}

async function reckonRun(perDatagram: number, datagrams: number): Promise<Measured> {
  const transport = await UdpTransport.open({ bindAddress: '127.0.0.1', receiveBufferSize: RECEIVE_BUFFER });
  const table = new RemoteEntityTable({ capacity: ENTITIES, orderByTimestamp: false });
  const record = new EntityStateRecord();
  const counter = { pdus: 0, first: 0, last: 0 };
  // The PDUs of a datagram arrive together: the clock is read once per datagram, as the raw receiver does.
  let arrivalSeconds = 0;
  const receiver = new PduReceiver(
    (bytes, offset, length) => {
      if (decodeEntityStateOrUpdateInto(record, bytes, offset, offset + length) === 0) {
        table.apply(record, arrivalSeconds);
        counter.pdus++;
      }
    },
    { exercise: 1, protocolVersions: [5, 6, 7] },
    transport.stats,
  );
  transport.onDatagram((datagram, source) => {
    const now = performance.now();
    if (counter.pdus === 0) counter.first = now;
    arrivalSeconds = now / 1000;
    receiver.receive(datagram, source);
    counter.last = now;
  });
  const result = await measure(transport.local.port, perDatagram, datagrams, counter);
  await transport.close();
  return result;
}

const suite: BenchSuite = async ({ quick }): Promise<BenchResult[]> => {
  const results: BenchResult[] = [];
  for (const [mode, perDatagram, datagrams] of [
    ['', 1, quick ? 50_000 : 300_000],
    ['.bundled10', 10, quick ? 10_000 : 60_000],
  ] as const) {
    const raw = await rawRun(perDatagram, datagrams);
    const reckon = await reckonRun(perDatagram, datagrams);
    const rate = (m: Measured) => m.pdus / m.seconds;
    const loss = (m: Measured) => round(100 * (1 - m.pdus / m.sentPdus));
    results.push({
      name: `udp.loopback${mode}.raw`,
      opsPerSec: round(rate(raw)),
      lossPercent: loss(raw),
      pdusPerDatagram: perDatagram,
    });
    results.push({
      name: `udp.loopback${mode}.reckon`,
      opsPerSec: round(rate(reckon)),
      lossPercent: loss(reckon),
      ratioVsRaw: round(rate(reckon) / rate(raw)),
      pdusPerDatagram: perDatagram,
      path: 'receive → split/filter → decode → RemoteEntityTable.apply',
    });
  }
  for (const [name, entities] of [
    ['table.rss100k', 100_000],
    ['table.rss1m', 1_000_000],
  ] as const) {
    if (quick && entities > 100_000) continue;
    const proc = child('rss', { RECKON_BENCH_ENTITIES: String(entities) });
    const memory = await new Promise<{ bytes: number; smoothingBytes: number; size: number }>((resolve) =>
      proc.once('message', (m) => resolve(m as { bytes: number; smoothingBytes: number; size: number })),
    );
    results.push({
      name,
      bytes: memory.bytes,
      entities: memory.size,
      megabytes: round(memory.bytes / 2 ** 20),
      bytesPerEntity: round(memory.bytes / memory.size),
      bytesPerEntityWhileSmoothing: round(memory.smoothingBytes / memory.size),
      ...(entities === 1_000_000 ? { goalBytesPerEntity: 400 } : {}),
    });
  }
  // The baseline at 100 000 (a million such records would take over a gigabyte on a shared machine).
  const proc = child('rss-records', { RECKON_BENCH_ENTITIES: String(100_000) });
  const records = await new Promise<{ bytes: number; size: number }>((resolve) =>
    proc.once('message', (m) => resolve(m as { bytes: number; size: number })),
  );
  results.push({
    name: 'table.rss100k.map-of-records',
    bytes: records.bytes,
    entities: records.size,
    bytesPerEntity: round(records.bytes / records.size),
  });
  return results;
};

export default suite;
