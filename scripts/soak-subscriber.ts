// A receiving side of `npm run soak` (scripts/soak.ts), a process of its own started with an IPC channel: the
// library's subscriber (transport → split → decode → remote-entity table, no events) on 127.0.0.1 over UDP, or
// through NATS (the whole exercise, or an area), with the counters the soak reports: PDUs and datagrams received,
// entities held, resident memory, CPU, event-loop delay, the kernel's count of datagrams dropped on the UDP socket
// for want of receive buffer (/proc/net/udp), and over NATS the connection's gaps and how soon every entity was held
// again after each reconnect.
import { readFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { threadCpuShares, threadCpuTimes } from '../src/host/thread-cpu.js';
import { createSubscriber } from '../src/stream/subscriber.js';
import type { SubscriberSetup } from './soak-processes.js';

type Request = { type: 'snapshot' } | { type: 'finish'; expectedPdus: number };

const setup = JSON.parse(process.argv[2]!) as SubscriberSetup;
const entities = setup.entities;
const subscriber = createSubscriber({
  network: {
    address: '127.0.0.1',
    port: 0,
    ...(setup.receiveBufferSize ? { receiveBufferSize: setup.receiveBufferSize } : {}),
  },
  ...(setup.nats
    ? { nats: { servers: [...setup.nats.servers], ...(setup.nats.area ? { area: setup.nats.area } : {}) } }
    : {}),
  // Room for every entity, so that a full table never shows up as loss.
  receiver: { maxEntities: entities + 16 },
});
const stats = subscriber.stats.transport;
const delay = monitorEventLoopDelay({ resolution: 10 });
const mb = (bytes: number): number => Math.round(bytes / 1e5) / 10;
const rssStart = process.memoryUsage().rss;
const cpuStart = process.cpuUsage();
const threadStart = threadCpuTimes(),
  startedMs = performance.now();
let rssMax = rssStart;
let rssWhenAllHeld: number | undefined;
let heldMax = 0;
let heldMinAfterRamp = Number.POSITIVE_INFINITY;
let port = 0;
/** Set at the snapshot, just before the publisher is stopped: its leave notices must not count as entities lost. */
let stopping = false;

/**
 * Over NATS: each reconnect (Unix epoch ms), the entities held just before the connection was lost, the fewest held
 * from then until all of them were held again, and how soon that was (null while not yet).
 */
const reconnects: Array<{
  atMs: number;
  heldBefore: number;
  heldMin: number;
  heldAgainAfterSeconds: number | null;
}> = [];
let heldAtDisconnect = 0;
let lastReconnects = 0;

// Four times a second: entities held, and after a reconnect how soon they are all back.
const sample = setInterval(() => {
  const rss = process.memoryUsage().rss;
  if (rss > rssMax) rssMax = rss;
  const held = stats.entities;
  heldMax = Math.max(heldMax, held);
  if (rssWhenAllHeld === undefined && held >= entities) {
    rssWhenAllHeld = rss;
    delay.reset(); // the delay measured from here on is the steady state's, not the ramp's
  }
  if (rssWhenAllHeld !== undefined && !stopping) heldMinAfterRamp = Math.min(heldMinAfterRamp, held);
  const nats = subscriber.nats?.natsStats;
  if (!nats || stopping) return;
  if (nats.reconnects === nats.disconnects) {
    if (nats.reconnects > lastReconnects) {
      lastReconnects = nats.reconnects;
      reconnects.push({
        atMs: Date.now(),
        heldBefore: heldAtDisconnect,
        heldMin: held,
        heldAgainAfterSeconds: null,
      });
    } else heldAtDisconnect = held;
  }
  const last = reconnects[reconnects.length - 1];
  if (last && last.heldAgainAfterSeconds === null) {
    last.heldMin = Math.min(last.heldMin, held);
    if (held >= last.heldBefore) last.heldAgainAfterSeconds = Math.round((Date.now() - last.atMs) / 10) / 100;
  }
}, 250);

/** Datagrams the kernel dropped on our UDP socket (the `drops` column of /proc/net/udp), or null where unknown. */
function kernelDrops(): number | null {
  if (setup.nats) return null;
  try {
    const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
    for (const line of readFileSync('/proc/net/udp', 'utf8').split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      if (fields[1]?.endsWith(`:${hexPort}`)) return Number(fields[12]);
    }
  } catch {
    // Not Linux: unknown.
  }
  return null;
}

const pdusReceived = (): number => stats.pdusAccepted;

const subscription = subscriber.listening$.subscribe((local) => {
  port = local.port;
  process.send!({ type: 'listening', port: local.port });
});

process.on('message', (request: Request) => {
  if (request.type === 'snapshot') {
    stopping = true;
    process.send!({ type: 'snapshot', entitiesHeld: stats.entities, pdusReceived: pdusReceived() });
    return;
  }
  // Wait for the last datagrams: until every PDU sent is in, or nothing arrived for a second (bounded).
  const deadline = Date.now() + 15_000;
  let last = stats.datagramsIn;
  let quietSince = Date.now();
  const poll = setInterval(() => {
    if (stats.datagramsIn !== last) {
      last = stats.datagramsIn;
      quietSince = Date.now();
    }
    if (pdusReceived() < request.expectedPdus && Date.now() - quietSince < 1000 && Date.now() < deadline) return;
    clearInterval(poll);
    clearInterval(sample);
    delay.disable();
    const rssEnd = process.memoryUsage().rss;
    const cpu = process.cpuUsage(cpuStart);
    const nats = subscriber.nats?.natsStats;
    process.send!(
      {
        type: 'final',
        pdusReceived: pdusReceived(),
        datagramsReceived: stats.datagramsIn,
        rejected: Object.values(stats.rejected).reduce((a, b) => a + b, 0),
        decodeErrors: Object.values(subscriber.stats.decodeErrors).reduce((a, b) => a + b, 0),
        kernelDrops: kernelDrops(),
        timeouts: stats.timeouts,
        entitiesHeldMax: heldMax,
        entitiesHeldMinAfterRamp: Number.isFinite(heldMinAfterRamp) ? heldMinAfterRamp : null,
        rssMB: {
          start: mb(rssStart),
          allHeld: rssWhenAllHeld === undefined ? null : mb(rssWhenAllHeld),
          end: mb(rssEnd),
          max: mb(Math.max(rssMax, rssEnd)),
        },
        cpuSeconds: Math.round((cpu.user + cpu.system) / 1e4) / 100,
        cpuMicrosecondsPerPdu: Math.round((100 * (cpu.user + cpu.system)) / Math.max(1, pdusReceived())) / 100,
        // How much of its life the receiving thread was on a CPU, waiting for one, or idle.
        mainThread: threadCpuShares(threadStart, threadCpuTimes(), (performance.now() - startedMs) / 1000),
        eventLoopDelayMs: { p50: delay.percentile(50) / 1e6, p99: delay.percentile(99) / 1e6, max: delay.max / 1e6 },
        ...(nats
          ? {
              nats: {
                cells: subscriber.nats?.cells?.length ?? null,
                messagesIn: nats.messagesIn,
                leftArea: nats.leftArea,
                leftCellIgnored: nats.leftCellIgnored,
                slowConsumers: nats.slowConsumers,
                disconnects: nats.disconnects,
                reconnects: nats.reconnects,
                gapSeconds: Math.round(nats.gapSeconds * 1000) / 1000,
              },
              reconnects,
            }
          : {}),
      },
      () => {
        subscription.unsubscribe();
        process.disconnect();
      },
    );
  }, 100);
});
delay.enable();
