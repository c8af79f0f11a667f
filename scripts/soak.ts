// `npm run soak -- --entities 100000 --minutes 10`: one publisher process (`reckon publish --entities N`, the
// built CLI) and one subscriber process (scripts/soak-subscriber.ts, the library's subscriber and table) over
// UDP on 127.0.0.1, for a set time; then one JSON line on stdout: PDUs sent, received and lost, resident memory
// of the subscriber, its event-loop delay, entities held against expected, and the machine. docs/reliability-soak.md
// says what each figure means. Progress (the publisher's status lines) goes to stderr.
import { fork, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const usage =
  'usage: npm run soak -- [--entities N] [--minutes M | --seconds S] [--rate HZ] [--max-rate PDUS]' +
  ' [--receive-buffer BYTES]';

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
    },
  }));
} catch (error) {
  fail((error as Error).message);
}
const entities = Number(values.entities);
if (!Number.isInteger(entities) || entities < 1) {
  fail(`--entities: expected a whole number of at least 1, got "${values.entities}"`);
}
const seconds = values.seconds !== undefined ? Number(values.seconds) : Number(values.minutes ?? 10) * 60;
if (!(seconds > 0)) fail(`--minutes/--seconds: expected a positive number, got "${values.seconds ?? values.minutes}"`);
const receiveBufferSize = Number(values['receive-buffer']);
if (!Number.isInteger(receiveBufferSize) || receiveBufferSize < 0) {
  fail(`--receive-buffer: expected bytes, got "${values['receive-buffer']}"`);
}

const readProc = (path: string): string | null => {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    return null;
  }
};
const loadStart = loadavg()[0]!;

// The subscriber first: it binds port 0 and tells us which port it got.
const subscriberScript = fileURLToPath(new URL('./soak-subscriber.ts', import.meta.url));
const subscriber = fork(subscriberScript, [String(entities), String(receiveBufferSize)], {
  cwd: ROOT,
  execArgv: ['--import', 'tsx'],
  stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
});
type Message = { type: string; [key: string]: unknown };
const messages: Message[] = [];
const waiters = new Set<() => void>();
subscriber.on('message', (m: Message) => {
  messages.push(m);
  for (const w of [...waiters]) w();
});
let finished = false;
subscriber.on('exit', (code) => {
  if (!finished) fail(`the subscriber exited early (code ${code})`, 1);
});
function next(type: string, ms: number): Promise<Message> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no "${type}" from the subscriber within ${ms} ms`)), ms);
    const check = (): void => {
      const found = messages.find((m) => m.type === type);
      if (!found) return;
      messages.splice(messages.indexOf(found), 1);
      waiters.delete(check);
      clearTimeout(timer);
      resolve(found);
    };
    waiters.add(check);
    check();
  });
}

try {
  const { port } = (await next('listening', 30_000)) as unknown as { port: number };
  const flags = ['--entities', String(entities), '--address', '127.0.0.1', '--port', String(port), '--json'];
  if (values.rate !== undefined) flags.push('--rate', values.rate);
  if (values['max-rate'] !== undefined) flags.push('--max-rate', values['max-rate']);
  const publisher = spawn(process.execPath, [`${ROOT}/dist/cli/main.js`, 'publish', ...flags], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  publisher.stdout.on('data', (chunk) => (stdout += String(chunk)));
  const exited = new Promise<number>((resolve) => {
    publisher.once('exit', (code, signal) => resolve(code ?? (signal ? 128 : -1)));
  });
  const ready = new Promise<void>((resolve) => {
    let err = '';
    publisher.stderr.on('data', (chunk) => {
      process.stderr.write(chunk);
      err += String(chunk);
      if (/ready in/.test(err)) resolve();
    });
  });
  const started = await Promise.race([ready.then(() => true), exited.then(() => false)]);
  if (!started) throw new Error('the publisher exited before it started');
  const timeUp = new Promise<boolean>((resolve) => setTimeout(() => resolve(false), seconds * 1000));
  const early = await Promise.race([timeUp, exited.then(() => true)]);
  if (early) throw new Error('the publisher exited before the time was up');
  subscriber.send({ type: 'snapshot' });
  const snapshot = (await next('snapshot', 10_000)) as unknown as { entitiesHeld: number };
  publisher.kill('SIGINT');
  const code = await exited;
  if (code !== 0) throw new Error(`the publisher exited with ${code}`);
  const lines = stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Message);
  const summary = lines.find((m) => m.type === 'summary') as Record<string, number>;
  subscriber.send({ type: 'finish', expectedPdus: summary.pdus });
  finished = true;
  type Final = Record<string, unknown> & { pdusReceived: number; datagramsReceived: number };
  const final = (await next('final', 30_000)) as unknown as Final;
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
    entitiesExpected: entities,
    entitiesJoined: summary.joined,
    entitiesHeld: snapshot.entitiesHeld,
    entitiesHeldMinAfterRamp: final.entitiesHeldMinAfterRamp,
    timeouts: final.timeouts,
    subscriberRssMB: final.rssMB,
    eventLoopDelayMs: final.eventLoopDelayMs,
    subscriberCpu: { seconds: final.cpuSeconds, microsecondsPerPdu: final.cpuMicrosecondsPerPdu },
    publisher: {
      ticksPerSecond: summary.ticksPerSecond,
      ticksSkipped: summary.ticksSkipped,
      cpuSeconds: summary.cpuSeconds,
      cpuMicrosecondsPerDecision: summary.cpuMicrosecondsPerDecision,
      sendErrors: summary.sendErrors,
      deferred: summary.deferred,
    },
    machine: {
      cpus: cpus().length,
      cpuModel: cpus()[0]?.model ?? 'unknown',
      node: process.version,
      rmemMaxBytes: Number(readProc('/proc/sys/net/core/rmem_max') ?? Number.NaN) || null,
      receiveBufferRequestedBytes: receiveBufferSize,
      loadAverage: { start: Math.round(loadStart * 100) / 100, end: Math.round(loadavg()[0]! * 100) / 100 },
    },
  };
  process.stdout.write(JSON.stringify(result) + '\n');
} catch (error) {
  subscriber.kill();
  fail((error as Error).message, 1);
}
