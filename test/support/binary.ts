// Runs the built `reckon` binary (npm test builds dist first) and waits on its output and exit, with timeouts.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const BIN = join(ROOT, 'dist/cli/main.js');

export interface Running {
  readonly child: ChildProcess;
  readonly exited: Promise<number>;
  stdout(): string;
  stderr(): string;
  /** Resolves with the first match of `pattern` in stdout or stderr (whichever gets it), bounded by `ms`. */
  waitFor(pattern: RegExp, ms?: number): Promise<RegExpMatchArray>;
}

export function reckon(args: readonly string[], env: NodeJS.ProcessEnv = {}): Running {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  let out = '';
  let err = '';
  const checks = new Set<() => void>();
  child.stdout!.on('data', (c) => {
    out += String(c);
    for (const f of checks) f();
  });
  child.stderr!.on('data', (c) => {
    err += String(c);
    for (const f of checks) f();
  });
  const exited = new Promise<number>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? (signal ? 128 : -1))),
  );
  return {
    child,
    exited,
    stdout: () => out,
    stderr: () => err,
    waitFor: outputWaiter(
      () => out,
      () => err,
      checks,
      `reckon ${args[0]}`,
      child,
    ),
  };
}

/**
 * The first match of `pattern` in stdout or stderr (whichever gets it); `checks` holds the check until then, for the
 * caller to run on each chunk of output.
 */
function firstMatch(
  pattern: RegExp,
  stdout: () => string,
  stderr: () => string,
  checks: Set<() => void>,
): Promise<RegExpMatchArray> {
  return new Promise((resolve) => {
    const check = () => {
      const m = stdout().match(pattern) ?? stderr().match(pattern);
      if (m) {
        checks.delete(check);
        resolve(m);
      }
    };
    checks.add(check);
    check();
  });
}

/** A `waitFor` over a run's output: the first match of a pattern, bounded in time (killing `child`, if given). */
export function outputWaiter(
  stdout: () => string,
  stderr: () => string,
  checks: Set<() => void>,
  what: string,
  child?: ChildProcess,
): (pattern: RegExp, ms?: number) => Promise<RegExpMatchArray> {
  return (pattern, ms = 15_000) =>
    within(firstMatch(pattern, stdout, stderr, checks), ms, `${pattern} from ${what}`, child);
}

/** `promise`, or a rejection after `ms` (killing `child`, if given). */
export function within<T>(promise: Promise<T>, ms: number, what: string, child?: ChildProcess): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        child?.kill('SIGKILL');
        reject(new Error(`timed out after ${ms} ms waiting for ${what}`));
      }, ms);
    }),
  ]);
}

/**
 * Resolves once `done()` holds, checked every `everyMs`; each time it does not, `action()` runs (a datagram sent
 * again: it may be lost, or arrive before the receiver listens). Bound it with `within`.
 */
export function repeatUntil(done: () => boolean, action: () => void, everyMs = 200): Promise<void> {
  return new Promise<void>((resolve) => {
    const timer = setInterval(() => {
      if (done()) {
        clearInterval(timer);
        resolve();
      } else action();
    }, everyMs);
  });
}
