// `npm run soak` at a tiny size: a real publisher process and subscriber processes, over 127.0.0.1 UDP or through
// real nats-servers (one, or a cluster of three with one killed and restarted), and the one JSON line with every
// figure docs/reliability-soak.md describes. A few hundred entities for seconds lose nothing on loopback. Each runs past
// the 5 s over which entities join, so that all are held at the end. The scripts run as esbuild bundles them (the
// transform tsx applies) with plain node: one module each to load instead of every source file through tsx.
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { ROOT, within } from '../support/binary.js';
import { bundled } from '../support/bundle.js';
import { chromiumBinary } from '../../scripts/support/chromium.js';
import { findSystemBinary } from '../../scripts/support/system-binary.js';

const natsServer = findSystemBinary('nats-server');
const itNats = natsServer.path ? it : it.skip;
const itChromium = chromiumBinary.path ? it : it.skip;

/** The soak's JSON line, checked field by field. */
type Result = Record<string, any>;

async function soak(args: string[]): Promise<{ result: Result; err: string }> {
  // A process group of its own: if it overruns, its servers and subscribers are killed with it.
  const [soakScript, subscriberScript] = await Promise.all([
    bundled('scripts/soak.ts'),
    bundled('scripts/soak-subscriber.ts'),
  ]);
  const child = spawn(process.execPath, [soakScript, ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
    env: { ...process.env, SOAK_SUBSCRIBER_SCRIPT: subscriberScript },
  });
  let out = '',
    err = '';
  child.stdout.on('data', (c) => (out += String(c)));
  child.stderr.on('data', (c) => (err += String(c)));
  const code = await within(
    new Promise<number | null>((resolve) => child.once('exit', resolve)),
    80_000,
    'the soak to finish',
  ).catch((error: Error) => {
    process.kill(-child.pid!, 'SIGKILL');
    throw error;
  });
  expect(code, err).toBe(0);
  const lines = out.trim().split('\n');
  expect(lines).toHaveLength(1);
  return { result: JSON.parse(lines[0]!) as Result, err };
}

describe.concurrent('npm run soak', () => {
  it('runs a publisher and a subscriber over UDP and prints one JSON line of figures', async () => {
    const { result, err } = await soak(['--entities', '200', '--seconds', '6']);
    expect(result).toMatchObject({
      entities: 200,
      entitiesExpected: 200,
      pdusLost: 0,
      lossPercent: 0,
      kernelDrops: 0,
      rejected: 0,
      decodeErrors: 0,
    });
    expect(result.pdusReceived).toBe(result.pdusSent);
    expect(result.datagramsReceived).toBe(result.datagramsSent);
    expect(result.pdusSent as number).toBeGreaterThan(0);
    // Every entity joined (they join over the 5 s heartbeat), and every one is held.
    expect(result.entitiesJoined).toBe(200);
    expect(result.entitiesHeld).toBe(200);
    expect(result.evaluationsPerEntityPerSecond as number).toBeGreaterThan(0);
    expect(result.maxEvaluationGapSeconds as number).toBeGreaterThan(0);
    for (const key of ['start', 'end', 'max']) expect(result.subscriberRssMB[key] as number).toBeGreaterThan(0);
    for (const key of ['start', 'end', 'max']) expect(result.publisherRssMB[key] as number).toBeGreaterThan(0);
    for (const key of ['p50', 'p99', 'max']) expect(result.eventLoopDelayMs[key] as number).toBeGreaterThan(0);
    expect(result.publisher.cpuMicrosecondsPerDecision as number).toBeGreaterThan(0);
    expect(result.publisher.coresForRate as number).toBeGreaterThan(0);
    // Where the kernel tells: how much of the run each process's main thread was on a CPU, waiting for one, idle.
    if (process.platform === 'linux')
      for (const shares of [result.publisher.mainThread, result.subscriberCpu.mainThread] as Result[])
        expect(shares.onCpu + shares.waitingForCpu + shares.idle).toBeCloseTo(1, 2);
    expect(result.machine.cpus as number).toBeGreaterThan(0);
    expect(err).toMatch(/stopped \(interrupted\)/);
  }, 90_000);

  itNats(
    '--nats: through a nats-server to a subscriber on the whole exercise and one on an area',
    async () => {
      const { result } = await soak(['--entities', '300', '--seconds', '6', '--nats']);
      expect(result.transport).toBe('nats');
      const whole = result.whole!,
        inArea = result.inArea!;
      expect(whole).toMatchObject({ pdusExpected: result.pdusSent, pdusLost: 0, decodeErrors: 0 });
      expect(whole.entitiesHeld).toBe(whole.entitiesExpected);
      // The area takes part of the entities: the PDUs published to its cells, all received.
      expect(inArea.pdusLost).toBe(0);
      expect(inArea.pdusExpected as number).toBeGreaterThan(0);
      expect(inArea.pdusExpected as number).toBeLessThan(result.pdusSent as number);
      expect(inArea.entitiesHeld).toBe(inArea.entitiesExpected);
      expect(result.area.cells as number).toBeGreaterThan(0);
      expect(typeof result.cellCrossings).toBe('number');
      expect(result.publisher.coresForRate as number).toBeGreaterThan(0);
      if (process.platform === 'linux') expect(result.publisher.mainThread.onCpu as number).toBeGreaterThan(0);
      for (const side of [whole, inArea]) {
        expect((side.cpu as Record<string, number>).microsecondsPerPdu).toBeGreaterThan(0);
        if (process.platform === 'linux') expect(side.cpu.mainThread.onCpu as number).toBeGreaterThan(0);
        expect((side.nats as Record<string, number>).disconnects).toBe(0);
      }
    },
    90_000,
  );

  itNats(
    '--cluster: one of three servers killed and restarted; every client reconnects and holds every entity',
    async () => {
      const { result, err } = await soak([
        '--entities',
        '200',
        '--seconds',
        '7',
        '--cluster',
        '--kill-at',
        '2',
        '--restart-after',
        '1',
      ]);
      expect(result.transport).toBe('nats cluster of 3');
      expect(err).toMatch(/killing nats-server[\s\S]*restarted nats-server/);
      const cluster = result.cluster!;
      expect(cluster.publisher).toMatchObject({ disconnects: 1, reconnects: 1 });
      // Over to another server of the cluster at once: the gap (to 10 ms) may be 0, never the restart's second.
      const gapSeconds = (cluster.publisher as Record<string, number>).gapSeconds;
      expect(gapSeconds).toBeGreaterThanOrEqual(0);
      expect(gapSeconds).toBeLessThan(1);
      for (const side of [result.whole!, result.inArea!]) {
        expect((side.nats as Record<string, number>).reconnects).toBe(1);
        expect(side.reconnects).toHaveLength(1);
      }
      expect(cluster.everyEntityHeldAgainWithinAHeartbeat).toBe(true);
    },
    90_000,
  );

  itChromium(
    '--view: into `reckon view` with the map open in Chromium; every entity shown, then gone with its leave notice',
    async () => {
      const { result } = await soak(['--entities', '300', '--seconds', '7', '--view']);
      expect(result).toMatchObject({ mode: 'view', entities: 300, entitiesJoined: 300, pdusLost: 0, kernelDrops: 0 });
      expect(result.viewPdusForwarded).toBe(result.pdusSent);
      expect(result.page.atStop).toMatchObject({
        connected: true,
        shown: 300,
        gatewayEntitiesLastCounted: 300,
        skipped: 0,
      });
      expect(result.page.settled.shown).toBe(0);
      expect(result.samples.length).toBeGreaterThan(0);
      for (const key of ['first', 'last', 'max']) {
        expect(result.viewRssMB[key] as number).toBeGreaterThan(0);
        expect(result.chromiumRssMB[key] as number).toBeGreaterThan(0);
      }
      expect(result.viewServed).toMatch(/^1 client: /);
    },
    90_000,
  );
});
