/**
 * The live map's gateway with a million entities (a gateway process of its own, `RECKON_BENCH_ROLE=million-gateway`,
 * fed a million Entity State PDUs straight into `receive`, 10 to a datagram, entities all over the globe):
 * - `view.gateway.rss1m`: the resident memory the gateway adds per entity held (`bytesPerEntity`; goal ≤ 400 B),
 *   measured in its process, and how long taking the million PDUs took.
 * - `view.snapshot1m`: a page's first snapshot over a real WebSocket on 127.0.0.1: from opening the connection to the
 *   last of the million entities' records received by a `ws` client in this process (`seconds`; goal ≤ 2 s), its
 *   bytes and messages; and the same with every record decoded and applied to a `RemoteEntityTable` of a million, as
 *   the page does with its feed (`secondsDecodedApplied`). Two runs of each, the faster kept (`secondsRange`).
 * - `view.snapshot1m.plain-ws`, the baseline: the same million records made into feed messages beforehand and sent
 *   all at once by a plain `ws` server in the same process, to the same client: the floor of the transport.
 * Skipped with --quick.
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import WebSocket, { WebSocketServer } from 'ws';
import { RemoteEntityTable } from '../src/dr/receiver/remote-entity-table.js';
import { geodeticDegreesToEcef } from '../src/math/geodesy.js';
import { decodeEntityStateOrUpdateInto } from '../src/pdu/wire/entity-state-decoder.js';
import { encodeEntityStateInto } from '../src/pdu/wire/entity-state-encoder.js';
import { EntityStateRecord } from '../src/pdu/wire/entity-state-record.js';
import { resolveConfig } from '../src/stream/settings.js';
import { ViewGateway } from '../src/view/gateway.js';
import { createViewServer, listenView, pageUrl } from '../src/view/http.js';
import { FeedWriter, readFeedMessage } from '../src/view/protocol.js';
import { round, type BenchResult, type BenchSuite } from './harness.js';

const ENTITIES = 1_000_000;
const PER_APPLICATION = 60_000;
const PDU_BYTES = 144;
const SOURCE = { address: '127.0.0.1', port: 3000, family: 'IPv4' };

/** Entity `i`'s id and place: spread over the globe (a golden-angle spiral), as a whole-world exercise would be. */
function entityInto(record: EntityStateRecord, i: number): void {
  record.application = 1 + Math.floor(i / PER_APPLICATION);
  record.entity = 1 + (i % PER_APPLICATION);
  geodeticDegreesToEcef(
    record.location,
    Math.asin(2 * ((i + 0.5) / ENTITIES) - 1) * (180 / Math.PI),
    ((i * 137.508) % 360) - 180,
    100,
  );
}

/** The gateway process: a million entities held, the feed served until the parent says stop. */
async function gatewayProcess(): Promise<void> {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const before = process.memoryUsage().rss;
  const config = resolveConfig({ receiver: { maxEntities: ENTITIES } });
  const gateway = new ViewGateway({ config, tickMs: 50 });
  const server = createViewServer({ gateway });
  const url = pageUrl(await listenView(server, '127.0.0.1', 0));
  const record = new EntityStateRecord();
  record.exerciseId = 1;
  record.site = 1;
  record.forceId = 1;
  record.entityType.set([1, 1, 225, 1, 1, 0, 0]);
  record.linearVelocity.set([10, 2, 0]);
  record.orientation.set([0.3, -1.0, -2.5]);
  record.drAlgorithm = 4;
  const datagram = Buffer.alloc(10 * PDU_BYTES);
  const start = performance.now();
  for (let e = 0; e < ENTITIES; e += 10) {
    for (let k = 0; k < 10; k++) {
      entityInto(record, e + k);
      encodeEntityStateInto(datagram, record, k * PDU_BYTES);
    }
    gateway.receive(datagram, SOURCE);
  }
  const receiveSeconds = (performance.now() - start) / 1000;
  gateway.tick();
  gc?.();
  const rss = process.memoryUsage().rss - before;
  // The baseline: the same records as feed messages made beforehand, all sent on connecting.
  const messages: Buffer[] = [];
  const writer = new FeedWriter();
  const pdu = Buffer.alloc(PDU_BYTES);
  const nowMs = Date.now();
  for (let i = 0; i < ENTITIES; i++) {
    entityInto(record, i);
    encodeEntityStateInto(pdu, record, 0);
    if (writer.add(nowMs, pdu, 0, PDU_BYTES)) continue;
    messages.push(Buffer.from(writer.bytes()));
    writer.reset();
    writer.add(nowMs, pdu, 0, PDU_BYTES);
  }
  messages.push(Buffer.from(writer.bytes()));
  const plainServer = new WebSocketServer({ host: '127.0.0.1', port: 0, perMessageDeflate: false });
  await new Promise((resolve) => plainServer.once('listening', resolve));
  plainServer.on('connection', (socket) => {
    for (const message of messages) socket.send(message);
  });
  const plainUrl = `ws://127.0.0.1:${(plainServer.address() as { port: number }).port}/`;
  const feedUrl = `${url.replace('http:', 'ws:')}feed`;
  process.send!({ feedUrl, plainUrl, rss, receiveSeconds, held: gateway.entityCount });
  process.once('message', () => {
    plainServer.close();
    gateway.close();
    server.closeAllConnections();
    server.close(() => process.exit(0));
  });
}

if (process.env.RECKON_BENCH_ROLE === 'million-gateway') await gatewayProcess();

interface Snapshot {
  seconds: number;
  bytes: number;
  messages: number;
}

/** Opens the feed and waits for every entity's record; with `table`, each record is decoded and applied to it. */
function snapshot(feedUrl: string, table: RemoteEntityTable | null): Promise<Snapshot> {
  return new Promise((resolve, reject) => {
    const seen = new Uint8Array(ENTITIES);
    const record = new EntityStateRecord();
    let entities = 0,
      bytes = 0,
      messages = 0;
    const start = performance.now();
    const socket = new WebSocket(feedUrl, { perMessageDeflate: false, maxPayload: 1 << 20 });
    socket.binaryType = 'nodebuffer';
    socket.on('error', reject);
    socket.on('message', (data: Buffer, isBinary) => {
      if (!isBinary) return;
      bytes += data.length;
      messages++;
      const nowSeconds = performance.now() / 1000;
      readFeedMessage(data, (_arrivalMs, pdu, offset, length) => {
        // site (2), application (2), entity (2) at bytes 12–17 of the PDU.
        const i = ((pdu[offset + 14]! << 8) | pdu[offset + 15]!) * PER_APPLICATION - PER_APPLICATION;
        const entity = i + ((pdu[offset + 16]! << 8) | pdu[offset + 17]!) - 1;
        if (table !== null && decodeEntityStateOrUpdateInto(record, pdu, offset, offset + length) === 0) {
          table.apply(record, nowSeconds);
        }
        if (seen[entity] === 0) {
          seen[entity] = 1;
          entities++;
        }
      });
      if (entities === ENTITIES) {
        const seconds = (performance.now() - start) / 1000;
        socket.close();
        resolve({ seconds, bytes, messages });
      }
    });
  });
}

const suite: BenchSuite = async ({ quick }) => {
  if (quick) return [];
  const proc = fork(fileURLToPath(import.meta.url), [], {
    env: { ...process.env, RECKON_BENCH_ROLE: 'million-gateway' },
    execArgv: ['--expose-gc', '--max-semi-space-size=64', '--import', 'tsx'],
  });
  const gateway = await new Promise<{
    feedUrl: string;
    plainUrl: string;
    rss: number;
    receiveSeconds: number;
    held: number;
  }>((resolve, reject) => {
    proc.once('message', (m) => resolve(m as never));
    proc.once('exit', (code) => reject(new Error(`the gateway process exited with ${code}`)));
  });
  const plain: Snapshot[] = [],
    applied: Snapshot[] = [],
    floor: Snapshot[] = [];
  for (let run = 0; run < 2; run++) {
    plain.push(await snapshot(gateway.feedUrl, null));
    floor.push(await snapshot(gateway.plainUrl, null));
    applied.push(await snapshot(gateway.feedUrl, new RemoteEntityTable({ capacity: ENTITIES })));
  }
  proc.send('stop');
  await new Promise((resolve) => proc.once('exit', resolve));
  const fastest = (runs: Snapshot[]) => runs.reduce((a, b) => (a.seconds <= b.seconds ? a : b));
  const best = fastest(plain),
    bestFloor = fastest(floor);
  const secondsRange = (runs: Snapshot[]) =>
    `${round(Math.min(...runs.map((s) => s.seconds)))}–${round(Math.max(...runs.map((s) => s.seconds)))}`;
  const results: BenchResult[] = [
    {
      name: 'view.gateway.rss1m',
      entities: gateway.held,
      bytesPerEntity: round(gateway.rss / gateway.held),
      megabytes: round(gateway.rss / 2 ** 20),
      receiveSeconds: round(gateway.receiveSeconds),
      goalBytesPerEntity: 400,
    },
    {
      name: 'view.snapshot1m',
      entities: ENTITIES,
      seconds: round(best.seconds),
      secondsRange: secondsRange(plain),
      megabytes: round(best.bytes / 2 ** 20),
      messages: best.messages,
      secondsDecodedApplied: round(fastest(applied).seconds),
      ratioVsPlainWs: round(best.seconds / bestFloor.seconds),
      goalSeconds: 2,
    },
    {
      name: 'view.snapshot1m.plain-ws',
      entities: ENTITIES,
      seconds: round(bestFloor.seconds),
      secondsRange: secondsRange(floor),
      megabytes: round(bestFloor.bytes / 2 ** 20),
      messages: bestFloor.messages,
    },
  ];
  return results;
};

export default suite;
