// The processes of `npm run soak` (scripts/soak.ts): the publisher (the built `reckon publish --entities N`) and
// the subscribers (scripts/soak-subscriber.ts, each a process of its own with an IPC channel), and what the soak
// reports about the machine it ran on.
import { fork, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));

export type Message = { type: string; [key: string]: unknown };

/** What the soak subscriber is told to do (scripts/soak-subscriber.ts reads it as JSON from its argument). */
export interface SubscriberSetup {
  /** Entities expected: the table holds them all. */
  readonly entities: number;
  /** UDP: the receive buffer to ask for, bytes. */
  readonly receiveBufferSize?: number;
  /** NATS: the servers, and the area of interest ("LAT,LON,RADIUS"; the whole exercise when left out). */
  readonly nats?: { readonly servers: readonly string[]; readonly area?: string };
}

export interface SubscriberProcess {
  /** The next message of this type (bounded by `ms`). */
  next(type: string, ms: number): Promise<Message>;
  send(message: Message): void;
  kill(): void;
  /** Marks the end: an exit from here on is expected. */
  finish(): void;
}

/** Forks a soak subscriber; `onEarlyExit` is called if it exits before `finish()`. */
export function forkSubscriber(setup: SubscriberSetup, onEarlyExit: (code: number | null) => void): SubscriberProcess {
  // SOAK_SUBSCRIBER_SCRIPT names the subscriber compiled to JavaScript (as the tests bundle it): started without tsx.
  const compiled = process.env.SOAK_SUBSCRIBER_SCRIPT;
  const script = compiled ?? fileURLToPath(new URL('./soak-subscriber.ts', import.meta.url));
  const child = fork(script, [JSON.stringify(setup)], {
    cwd: ROOT,
    execArgv: compiled ? [] : ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const messages: Message[] = [];
  const waiters = new Set<() => void>();
  child.on('message', (m: Message) => {
    messages.push(m);
    for (const w of [...waiters]) w();
  });
  let finished = false;
  child.on('exit', (code) => {
    if (!finished) onEarlyExit(code);
  });
  return {
    next(type, ms) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no "${type}" from a subscriber within ${ms} ms`)), ms);
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
    },
    send: (message) => child.send(message),
    kill: () => child.kill(),
    finish: () => {
      finished = true;
    },
  };
}

export interface PublisherProcess {
  /** Its process id. */
  readonly pid: number;
  /** Resolves true once the publisher is ready, false if it exited first. */
  readonly started: Promise<boolean>;
  /** The exit code. */
  readonly exited: Promise<number>;
  /** Stops it with SIGINT (as Ctrl-C), waits for its exit and returns its summary (the last JSON line). */
  stop(): Promise<Record<string, unknown>>;
}

/** Starts `reckon publish` with these flags (and `--json`); its stderr goes to ours. */
export function startPublisher(flags: readonly string[]): PublisherProcess {
  const child = spawn(process.execPath, [`${ROOT}/dist/cli/main.js`, 'publish', ...flags, '--json'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  child.stdout.on('data', (chunk) => (stdout += String(chunk)));
  const exited = new Promise<number>((resolve) => {
    child.once('exit', (code, signal) => resolve(code ?? (signal ? 128 : -1)));
  });
  const ready = new Promise<void>((resolve) => {
    let err = '';
    child.stderr.on('data', (chunk) => {
      process.stderr.write(chunk);
      err += String(chunk);
      if (/ready in/.test(err)) resolve();
    });
  });
  return {
    pid: child.pid!,
    started: Promise.race([ready.then(() => true), exited.then(() => false)]),
    exited,
    async stop() {
      child.kill('SIGINT');
      const code = await exited;
      if (code !== 0) throw new Error(`the publisher exited with ${code}`);
      const lines = stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Message);
      const summary = lines.find((m) => m.type === 'summary');
      if (!summary) throw new Error('the publisher printed no summary');
      return summary;
    },
  };
}

function readProc(path: string): string | null {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    return null;
  }
}

/** The machine: cores, CPU, Node, the receive buffer cap, and the load average at the start and now. */
export function machine(loadStart: number, receiveBufferRequestedBytes?: number): Record<string, unknown> {
  return {
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model ?? 'unknown',
    node: process.version,
    rmemMaxBytes: Number(readProc('/proc/sys/net/core/rmem_max') ?? Number.NaN) || null,
    ...(receiveBufferRequestedBytes === undefined ? {} : { receiveBufferRequestedBytes }),
    loadAverage: { start: Math.round(loadStart * 100) / 100, end: Math.round(loadavg()[0]! * 100) / 100 },
  };
}

/** Resolves after `ms`, or as soon as `promise` settles: true when the time was up first. */
export function waitOrExit(ms: number, promise: Promise<unknown>): Promise<boolean> {
  return Promise.race([
    new Promise<boolean>((resolve) => setTimeout(() => resolve(true), ms)),
    promise.then(() => false),
  ]);
}
