// Starts Debian's `nats-server` for tests: on free loopback ports, in a temporary directory, ready when it says
// so on its log (no sleeps), and stopped by the test's afterAll.
import { spawn, type ChildProcess } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A free TCP port on 127.0.0.1: bind port 0, read it, release it. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** A free UDP port on 127.0.0.1 (for a bridge's LAN side): bind port 0, read it, release it. */
export async function freeUdpPort(): Promise<number> {
  const socket = createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', () => resolve()));
  const port = socket.address().port;
  await new Promise<void>((resolve) => socket.close(() => resolve()));
  return port;
}

export interface NatsServerOptions {
  /** Client port. Defaults to a free one. */
  readonly port?: number;
  /** Cluster port, and routes to other servers' cluster ports. */
  readonly clusterPort?: number;
  readonly routes?: readonly number[];
  /** Turn JetStream on (its store in the server's temporary directory). */
  readonly jetstream?: boolean;
  /** More arguments, e.g. `['--auth', 'secret']`. */
  readonly args?: readonly string[];
  /** Server name (clusters with JetStream need distinct ones). */
  readonly name?: string;
}

export interface RunningNatsServer {
  readonly port: number;
  readonly url: string;
  readonly clusterPort: number | undefined;
  readonly process: ChildProcess;
  /** Everything the server logged. */
  log(): string;
  /** Resolves when the log contains `text` (bounded by `timeoutMs`). */
  waitForLog(text: string | RegExp, timeoutMs?: number): Promise<void>;
  /** Stops the server and removes its directory. Idempotent. */
  stop(): Promise<void>;
}

/**
 * Starts `nats-server -a 127.0.0.1 -p PORT` and resolves once it logs "Server is ready".
 * @param binary - the server's path (from `findSystemBinary('nats-server')`).
 */
export async function startNatsServer(binary: string, options: NatsServerOptions = {}): Promise<RunningNatsServer> {
  const port = options.port ?? (await freePort());
  const dir = mkdtempSync(join(tmpdir(), 'reckon-nats-'));
  const args = ['-a', '127.0.0.1', '-p', String(port)];
  if (options.name) args.push('-n', options.name);
  if (options.clusterPort !== undefined) {
    args.push('--cluster_name', 'reckon', '--cluster', `nats://127.0.0.1:${options.clusterPort}`);
    if (options.routes && options.routes.length > 0) {
      args.push('--routes', options.routes.map((p) => `nats://127.0.0.1:${p}`).join(','));
    }
  }
  if (options.jetstream) args.push('-js', '-sd', join(dir, 'js'));
  args.push(...(options.args ?? []));
  const child = spawn(binary, args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  const waiters = new Set<() => void>();
  const onData = (chunk: Buffer) => {
    log += chunk.toString('utf8');
    for (const waiter of [...waiters]) waiter();
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  let exited = false;
  const exit = new Promise<void>((resolve) =>
    child.once('exit', () => {
      exited = true;
      for (const waiter of [...waiters]) waiter();
      resolve();
    }),
  );
  const waitForLog = (text: string | RegExp, timeoutMs = 10_000) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (typeof text === 'string' ? log.includes(text) : text.test(log)) {
          cleanup();
          resolve();
        } else if (exited) {
          cleanup();
          reject(new Error(`nats-server exited before logging "${String(text)}":\n${log}`));
        }
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`nats-server did not log "${String(text)}" within ${timeoutMs} ms:\n${log}`));
      }, timeoutMs);
      const cleanup = () => {
        clearTimeout(timer);
        waiters.delete(check);
      };
      waiters.add(check);
      check();
    });
  let stopping: Promise<void> | undefined;
  const server: RunningNatsServer = {
    port,
    url: `nats://127.0.0.1:${port}`,
    clusterPort: options.clusterPort,
    process: child,
    log: () => log,
    waitForLog,
    stop() {
      stopping ??= (async () => {
        if (!exited) {
          child.kill('SIGKILL');
          await exit;
        }
        rmSync(dir, { recursive: true, force: true });
      })();
      return stopping;
    },
  };
  try {
    await waitForLog('Server is ready');
  } catch (error) {
    await server.stop();
    throw error;
  }
  return server;
}
