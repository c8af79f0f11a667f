// `npm run soak -- --nats` and `-- --cluster` (scripts/soak.ts): the load of `reckon publish --entities N` through
// a local nats-server (or three in a cluster), to two subscriber processes: one on the whole exercise, one on a
// 50 km area that takes part of the entities (entities cross its edge). A plain NATS connection of this script
// counts the PDUs published to that area's cells, which the area subscriber should get. With `--cluster`, the
// server every client is connected to is killed `killAtSeconds` into the run and restarted `restartAfterSeconds`
// later: the clients reconnect to the others, and the result says how long each was cut off and how soon every
// entity was held again. Servers are started on free loopback ports and stopped at the end.
import { spawnSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { cellsCoveringArea, destination, parseCircleArea } from '../src/nats/area.js';
import { LEFT_CELL_HEADER, NEW_CELL_HEADER } from '../src/nats/subject-names.js';
import { EntityStateOffset } from '../src/pdu/wire/constants.js';
import { entityKey } from '../src/pdu/wire/entity-state-record.js';
import { DEFAULT_ORIGIN } from '../src/truth/trajectory.js';
import { freePort, startNatsServer, type RunningNatsServer } from './support/nats-server.js';
import { forkSubscriber, machine, startPublisher, waitOrExit, type SubscriberProcess } from './soak-processes.js';

export interface NatsSoakOptions {
  readonly entities: number;
  readonly seconds: number;
  /** `--entities N` and the rate flags of the publisher. */
  readonly loadFlags: readonly string[];
  readonly cluster: boolean;
  readonly killAtSeconds: number;
  readonly restartAfterSeconds: number;
}

/** Radius of the area subscriber's circle, and how far east of the load's centre it lies. */
const AREA_RADIUS_KM = 50;
const AREA_OFFSET_EAST_M = 60_000;
/** Bytes of a DIS header, and where its Length field is. */
const HEADER_BYTES = 12;

/**
 * Counts the Entity State PDUs published to an area's cells by entity, leaving aside the copies sent to a cell an
 * entity left; such a copy whose new cell is outside the area takes the entity out, as it does at the subscriber.
 */
async function countArea(
  url: string,
  cells: readonly string[],
): Promise<{
  pdus: () => number;
  entitiesInArea: () => number;
  close: () => Promise<void>;
}> {
  const nc: NatsConnection = await connect({ servers: url, name: 'soak-area-counter' });
  let pdus = 0;
  // Per entity (site:application:entity as a number), whether its last PDU was in the area and not a leave notice.
  const inArea = new Map<number, boolean>();
  const cellSet = new Set(cells);
  const keyAt = (data: Uint8Array, at: number): number => {
    const id = at + EntityStateOffset.ENTITY_ID;
    return entityKey(
      (data[id]! << 8) | data[id + 1]!,
      (data[id + 2]! << 8) | data[id + 3]!,
      (data[id + 4]! << 8) | data[id + 5]!,
    );
  };
  for (const cell of cells) {
    nc.subscribe(`dis.1.${cell}.>`, {
      callback: (error, message) => {
        if (error) return;
        const data = message.data;
        if (message.headers !== undefined) {
          // A left-cell copy holds one PDU.
          const newCell = message.headers.get(NEW_CELL_HEADER);
          if (message.headers.get(LEFT_CELL_HEADER) !== '' && !cellSet.has(newCell) && data.length >= HEADER_BYTES)
            inArea.set(keyAt(data, 0), false);
          return;
        }
        for (let at = 0; at + HEADER_BYTES <= data.length; ) {
          const length = (data[at + 8]! << 8) | data[at + 9]!;
          if (length < HEADER_BYTES) break;
          pdus++;
          const key = keyAt(data, at);
          // The appearance is a big-endian 32-bit record: Deactivated, bit 23, is the top bit of its second byte.
          const deactivated = (data[at + EntityStateOffset.APPEARANCE + 1]! & 0x80) !== 0;
          inArea.set(key, !deactivated);
          at += length;
        }
      },
    });
  }
  await nc.flush();
  return {
    pdus: () => pdus,
    entitiesInArea: () => [...inArea.values()].filter(Boolean).length,
    close: () => nc.close(),
  };
}

/** Starts one server, or three in a cluster, and waits until each has its routes. */
async function startServers(
  binary: string,
  cluster: boolean,
): Promise<{
  servers: RunningNatsServer[];
  restart: (i: number) => Promise<void>;
}> {
  if (!cluster) return { servers: [await startNatsServer(binary)], restart: async () => {} };
  const ports = [await freePort(), await freePort(), await freePort()];
  const clusterPorts = [await freePort(), await freePort(), await freePort()];
  const options = (i: number) => ({
    name: `soak${i}`,
    port: ports[i]!,
    clusterPort: clusterPorts[i]!,
    routes: clusterPorts.filter((_, j) => j !== i),
  });
  const servers = await Promise.all([0, 1, 2].map((i) => startNatsServer(binary, options(i))));
  await Promise.all(
    servers.map((s) => s.waitForLog(/Route connection created[\s\S]*Route connection created/, 20_000)),
  );
  return {
    servers,
    restart: async (i) => {
      servers[i] = await startNatsServer(binary, options(i));
    },
  };
}

export async function runNatsSoak(options: NatsSoakOptions): Promise<Record<string, unknown>> {
  const found = spawnSync('sh', ['-c', 'command -v nats-server'], { encoding: 'utf8' });
  const binary = found.status === 0 ? found.stdout.trim() : '';
  if (binary === '')
    throw new Error('nats-server not found on PATH: install it with `sudo apt-get install -y nats-server`');
  const loadStart = loadavg()[0]!;
  const { servers, restart } = await startServers(binary, options.cluster);
  const subscribers: SubscriberProcess[] = [];
  let counter: Awaited<ReturnType<typeof countArea>> | undefined;
  try {
    // Every client is given the first server only: all of them are on it (they learn the others from it), so
    // killing it makes each reconnect.
    const first = servers[0]!.url;
    const [lat, lon] = destination(
      DEFAULT_ORIGIN.latitudeDeg,
      DEFAULT_ORIGIN.longitudeDeg,
      Math.PI / 2,
      AREA_OFFSET_EAST_M,
    );
    const area = `${lat.toFixed(5)},${lon.toFixed(5)},${AREA_RADIUS_KM} km`;
    const cells = cellsCoveringArea(parseCircleArea(area), 5);
    counter = await countArea(servers[servers.length - 1]!.url, cells);
    const early = (code: number | null): void => {
      process.stderr.write(`soak: a subscriber exited early (code ${code})\n`);
      void Promise.all(servers.map((s) => s.stop())).finally(() => process.exit(1));
    };
    const whole = forkSubscriber({ entities: options.entities, nats: { servers: [first] } }, early);
    const inArea = forkSubscriber({ entities: options.entities, nats: { servers: [first], area } }, early);
    subscribers.push(whole, inArea);
    await Promise.all(subscribers.map((s) => s.next('listening', 60_000)));
    const publisher = startPublisher([...options.loadFlags, '--nats', first]);
    if (!(await publisher.started)) throw new Error('the publisher exited before it started');
    const startedMs = Date.now();
    let killedAtSeconds: number | null = null,
      restartedAtSeconds: number | null = null;
    if (options.cluster) {
      if (!(await waitOrExit(options.killAtSeconds * 1000, publisher.exited)))
        throw new Error('the publisher exited early');
      process.stderr.write(`soak: killing nats-server ${servers[0]!.url}\n`);
      await servers[0]!.stop();
      killedAtSeconds = (Date.now() - startedMs) / 1000;
      if (!(await waitOrExit(options.restartAfterSeconds * 1000, publisher.exited)))
        throw new Error('the publisher exited early');
      await restart(0);
      restartedAtSeconds = (Date.now() - startedMs) / 1000;
      process.stderr.write(`soak: restarted nats-server ${servers[0]!.url}\n`);
    }
    const left = options.seconds * 1000 - (Date.now() - startedMs);
    if (!(await waitOrExit(Math.max(0, left), publisher.exited)))
      throw new Error('the publisher exited before the time was up');
    for (const s of subscribers) s.send({ type: 'snapshot' });
    const [wholeSnapshot, areaSnapshot] = (await Promise.all(
      subscribers.map((s) => s.next('snapshot', 10_000)),
    )) as unknown as Array<{ entitiesHeld: number }>;
    const entitiesInArea = counter.entitiesInArea();
    const summary = (await publisher.stop()) as Record<string, number> &
      Record<'rssMB' | 'nats' | 'mainThread', Record<string, number>>;
    // The area's last PDUs (the leave notices) reach the counter too: wait until it has had none for a second.
    for (let last = -1; last !== counter.pdus(); ) {
      last = counter.pdus();
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    const expectedInArea = counter.pdus();
    whole.send({ type: 'finish', expectedPdus: summary.pdus });
    inArea.send({ type: 'finish', expectedPdus: expectedInArea });
    for (const s of subscribers) s.finish();
    type Final = Record<string, unknown> & {
      pdusReceived: number;
      nats: Record<string, number>;
      reconnects: Array<{ atMs: number; heldAgainAfterSeconds: number | null }>;
    };
    const [wholeFinal, areaFinal] = (await Promise.all(
      subscribers.map((s) => s.next('final', 30_000)),
    )) as unknown as Final[];
    const report = (final: Final, expected: number, received: number, held: number, heldExpected: number) => ({
      pdusExpected: expected,
      pdusReceived: received,
      pdusLost: expected - received,
      entitiesHeld: held,
      entitiesExpected: heldExpected,
      entitiesHeldMinAfterRamp: final.entitiesHeldMinAfterRamp,
      timeouts: final.timeouts,
      decodeErrors: final.decodeErrors,
      rssMB: final.rssMB,
      cpu: { seconds: final.cpuSeconds, microsecondsPerPdu: final.cpuMicrosecondsPerPdu, mainThread: final.mainThread },
      eventLoopDelayMs: final.eventLoopDelayMs,
      nats: final.nats,
      // When each reconnect was, seconds into the run.
      reconnects: final.reconnects.map(({ atMs, ...rest }) => ({
        atSeconds: Math.round((atMs - startedMs) / 10) / 100,
        ...rest,
      })),
    });
    // The area subscriber's PDUs as published to its cells: its leave notices made from left-cell copies aside.
    const areaReceived = areaFinal!.pdusReceived - (areaFinal!.nats.leftArea ?? 0);
    const heartbeatSeconds = 5;
    const recoveries = [wholeFinal!, areaFinal!].flatMap((f) => f.reconnects.map((r) => r.heldAgainAfterSeconds));
    return {
      transport: options.cluster ? 'nats cluster of 3' : 'nats',
      entities: options.entities,
      seconds: summary.seconds,
      pdusSent: summary.pdus,
      pdusPerSecond: summary.pdusPerSecond,
      evaluationsPerEntityPerSecond: summary.evaluationsPerEntityPerSecond,
      maxEvaluationGapSeconds: summary.maxEvaluationGapSeconds,
      entitiesJoined: summary.joined,
      // A cell crossing sends a copy of the PDU to the cell left.
      cellCrossings: summary.nats.leftCellCopiesOut,
      area: { circle: area, cells: cells.length },
      whole: report(wholeFinal!, summary.pdus!, wholeFinal!.pdusReceived, wholeSnapshot!.entitiesHeld, summary.joined!),
      inArea: {
        ...report(areaFinal!, expectedInArea, areaReceived, areaSnapshot!.entitiesHeld, entitiesInArea),
        leftArea: areaFinal!.nats.leftArea,
      },
      ...(options.cluster
        ? {
            cluster: {
              killedAtSeconds,
              restartedAtSeconds,
              publisher: {
                disconnects: summary.nats.disconnects,
                reconnects: summary.nats.reconnects,
                gapSeconds: summary.nats.gapSeconds,
              },
              heartbeatSeconds,
              everyEntityHeldAgainWithinAHeartbeat:
                recoveries.length > 0 && recoveries.every((s) => s !== null && s <= heartbeatSeconds),
            },
          }
        : {}),
      publisher: {
        ticksPerSecond: summary.ticksPerSecond,
        cpuSeconds: summary.cpuSeconds,
        cpuMicrosecondsPerDecision: summary.cpuMicrosecondsPerDecision,
        coresForRate: summary.coresForRate,
        mainThread: summary.mainThread,
        messagesOut: summary.nats.messagesOut,
        sendErrors: summary.sendErrors,
        rssMB: summary.rssMB,
      },
      machine: machine(loadStart),
    };
  } finally {
    for (const s of subscribers) s.kill();
    await counter?.close().catch(() => {});
    for (const s of servers) await s.stop();
  }
}
