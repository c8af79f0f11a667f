// Runs `reckon` in the test's own process through runCli, with its output collected: no child process to start, for
// commands that need no separate process (./binary.ts runs the built binary). Ctrl-C is the abort the binary's
// signal handler triggers.
import { PassThrough } from 'node:stream';
import { runCli } from '../../src/cli/run.js';
import { outputWaiter } from './binary.js';

export interface CliResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** `reckon ...argv` in process: its exit code and everything it wrote. */
export async function cli(...argv: readonly string[]): Promise<CliResult> {
  const run = startCli(argv);
  const code = await run.exited;
  return { code, stdout: run.stdout(), stderr: run.stderr() };
}

export interface RunningCli {
  /** The exit code runCli returns. */
  readonly exited: Promise<number>;
  stdout(): string;
  stderr(): string;
  /** Resolves with the first match of `pattern` in stdout or stderr, bounded by `ms`. */
  waitFor(pattern: RegExp, ms?: number): Promise<RegExpMatchArray>;
  /** What Ctrl-C does to the binary: aborts the command's signal. */
  interrupt(): void;
}

/**
 * `reckon ...argv` started in process, with `env` added to process.env until it ends (so not for tests that run
 * concurrently with another that reads the environment).
 * @param terminal - stderr then says it is a terminal of these columns (`isTTY`, `columns`), as a shell's is.
 */
export function startCli(
  argv: readonly string[],
  env: NodeJS.ProcessEnv = {},
  terminal?: { readonly columns: number },
  stdin?: NodeJS.ReadableStream,
): RunningCli {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  if (terminal !== undefined) Object.assign(stderr, { isTTY: true, columns: terminal.columns });
  let out = '';
  let err = '';
  const checks = new Set<() => void>();
  stdout.on('data', (c) => {
    out += String(c);
    for (const f of checks) f();
  });
  stderr.on('data', (c) => {
    err += String(c);
    for (const f of checks) f();
  });
  const controller = new AbortController();
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  Object.assign(process.env, env);
  const exited = runCli(argv, { stdout, stderr, signal: controller.signal, ...(stdin ? { stdin } : {}) }).finally(
    () => {
      for (const [k, v] of Object.entries(saved)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    },
  );
  return {
    exited,
    stdout: () => out,
    stderr: () => err,
    interrupt: () => controller.abort('SIGINT'),
    waitFor: outputWaiter(
      () => out,
      () => err,
      checks,
      `reckon ${argv[0]}`,
    ),
  };
}
