// `npm run soak -- --entities 100000 --minutes 10`: one publisher process (`reckon publish --entities N`, the
// built CLI) and one subscriber process (scripts/soak-subscriber.ts, the library's subscriber and table) over
// UDP on 127.0.0.1, for a set time; then one JSON line on stdout: PDUs sent, received and lost, how often every
// entity was evaluated, resident memory of both processes, the subscriber's event-loop delay, entities held against
// expected, and the machine. `--nats` runs the load through a local nats-server to a subscriber on the whole
// exercise and one on a 50 km area (2 minutes unless told); `--cluster` through three clustered servers, one of
// which is killed a minute in and restarted (scripts/soak-nats.ts). docs/reliability-soak.md says what each figure
// means. `--view` publishes at 1 Hz (unless told) into `reckon view` with the map open in headless Chromium
// (scripts/soak-view.ts). Progress (the publisher's status lines) goes to stderr.
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { forkSubscriber, machine, startPublisher, waitOrExit } from './soak-processes.js';

const usage =
  'usage: npm run soak -- [--entities N] [--minutes M | --seconds S] [--rate HZ] [--max-rate PDUS]' +
  ' [--receive-buffer BYTES] [--nats | --cluster [--kill-at S] [--restart-after S] | --view]';

function fail(message: string, code = 2): never {
  process.stderr.write(`soak: ${message}\n${code === 2 ? `${usage}\n` : ''}`);
  process.exit(code);
}

let values;
try {
  ({ values } = parseArgs({
    options: {
      entities: { type: 'string', default: '100000' },
      minutes: { type: 'string' },
      seconds: { type: 'string' },
      rate: { type: 'string' },
      'max-rate': { type: 'string' },
      'receive-buffer': { type: 'string', default: String(64 * 1024 * 1024) },
      nats: { type: 'boolean', default: false },
      cluster: { type: 'boolean', default: false },
      view: { type: 'boolean', default: false },
      'kill-at': { type: 'string', default: '60' },
      'restart-after': { type: 'string', default: '10' },
    },
  }));
} catch (error) {
  fail((error as Error).message);
}
const entities = Number(values.entities);
if (!Number.isInteger(entities) || entities < 1) {
  fail(`--entities: expected a whole number of at least 1, got "${values.entities}"`);
}
const overNats = values.nats || values.cluster;
const defaultMinutes = overNats ? 2 : 10;
const seconds = values.seconds !== undefined ? Number(values.seconds) : Number(values.minutes ?? defaultMinutes) * 60;
if (!(seconds > 0)) fail(`--minutes/--seconds: expected a positive number, got "${values.seconds ?? values.minutes}"`);
const receiveBufferSize = Number(values['receive-buffer']);
if (!Number.isInteger(receiveBufferSize) || receiveBufferSize < 0) {
  fail(`--receive-buffer: expected bytes, got "${values['receive-buffer']}"`);
}
const killAtSeconds = Number(values['kill-at']),
  restartAfterSeconds = Number(values['restart-after']);
if (values.cluster && !(killAtSeconds > 0 && killAtSeconds < seconds && restartAfterSeconds >= 0)) {
  fail(`--kill-at must be within the run (0–${seconds} s) and --restart-after at least 0`);
}
const loadFlags = [
  '--entities',
  String(entities),
  ...(values.rate !== undefined ? ['--rate', values.rate] : []),
  ...(values['max-rate'] !== undefined ? ['--max-rate', values['max-rate']] : []),
];

if (values.view) {
  const { runViewSoak } = await import('./soak-view.js');
  try {
    const loadAtRate = values.rate === undefined ? [...loadFlags, '--rate', '1'] : loadFlags;
    const result = await runViewSoak({ entities, seconds, loadFlags: loadAtRate, receiveBufferSize });
    process.stdout.write(JSON.stringify(result) + '\n');
  } catch (error) {
    fail((error as Error).message, 1);
  }
} else if (overNats) {
  const { runNatsSoak } = await import('./soak-nats.js');
  try {
    const result = await runNatsSoak({
      entities,
      seconds,
      loadFlags,
      cluster: values.cluster,
      killAtSeconds,
      restartAfterSeconds,
    });
    process.stdout.write(JSON.stringify(result) + '\n');
  } catch (error) {
    fail((error as Error).message, 1);
  }
} else {
  const loadStart = loadavg()[0]!;
  // The subscriber first: it binds port 0 and tells us which port it got.
  const subscriber = forkSubscriber({ entities, receiveBufferSize }, (code) =>
    fail(`the subscriber exited early (code ${code})`, 1),
  );
  try {
    const { port } = (await subscriber.next('listening', 30_000)) as unknown as { port: number };
    const publisher = startPublisher([...loadFlags, '--address', '127.0.0.1', '--port', String(port)]);
    if (!(await publisher.started)) throw new Error('the publisher exited before it started');
    if (!(await waitOrExit(seconds * 1000, publisher.exited)))
      throw new Error('the publisher exited before the time was up');
    subscriber.send({ type: 'snapshot' });
    const snapshot = (await subscriber.next('snapshot', 10_000)) as unknown as { entitiesHeld: number };
    const summary = (await publisher.stop()) as Record<string, number> &
      Record<'rssMB' | 'mainThread', Record<string, number>>;
    subscriber.send({ type: 'finish', expectedPdus: summary.pdus });
    subscriber.finish();
    type Final = Record<string, unknown> & { pdusReceived: number; datagramsReceived: number };
    const final = (await subscriber.next('final', 30_000)) as unknown as Final;
    const lost = summary.pdus! - final.pdusReceived;
    const result = {
      entities,
      seconds: summary.seconds,
      pdusSent: summary.pdus,
      pdusReceived: final.pdusReceived,
      pdusLost: lost,
      lossPercent: Math.round((1e6 * lost) / Math.max(1, summary.pdus!)) / 1e4,
      datagramsSent: summary.datagrams,
      datagramsReceived: final.datagramsReceived,
      kernelDrops: final.kernelDrops,
      rejected: final.rejected,
      decodeErrors: final.decodeErrors,
      pdusPerSecond: summary.pdusPerSecond,
      pdusPerEntityPerSecond: summary.pdusPerEntityPerSecond,
      // How often every entity's truth was evaluated (the goal is the tick rate), and the longest wait of one.
      evaluationsPerEntityPerSecond: summary.evaluationsPerEntityPerSecond,
      maxEvaluationGapSeconds: summary.maxEvaluationGapSeconds,
      entitiesExpected: entities,
      entitiesJoined: summary.joined,
      entitiesHeld: snapshot.entitiesHeld,
      entitiesHeldMinAfterRamp: final.entitiesHeldMinAfterRamp,
      timeouts: final.timeouts,
      subscriberRssMB: final.rssMB,
      publisherRssMB: summary.rssMB,
      eventLoopDelayMs: final.eventLoopDelayMs,
      subscriberCpu: {
        seconds: final.cpuSeconds,
        microsecondsPerPdu: final.cpuMicrosecondsPerPdu,
        mainThread: final.mainThread,
      },
      publisher: {
        ticksPerSecond: summary.ticksPerSecond,
        ticksSkipped: summary.ticksSkipped,
        cpuSeconds: summary.cpuSeconds,
        cpuMicrosecondsPerDecision: summary.cpuMicrosecondsPerDecision,
        // The CPU the tick rate needs at that cost, against the share of the run its thread was on one.
        coresForRate: summary.coresForRate,
        mainThread: summary.mainThread,
        sendErrors: summary.sendErrors,
        deferred: summary.deferred,
      },
      machine: machine(loadStart, receiveBufferSize),
    };
    process.stdout.write(JSON.stringify(result) + '\n');
  } catch (error) {
    subscriber.kill();
    fail((error as Error).message, 1);
  }
}
