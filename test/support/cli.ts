// Runs `reckon` in the test's own process through runCli, with its output collected: no child process to start, for
// commands that need neither signals nor a separate process (./binary.ts runs the built binary).
import { PassThrough } from 'node:stream';
import { runCli } from '../../src/cli/run.js';

export interface CliResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** `reckon ...argv` in process: its exit code and everything it wrote. */
export async function cli(...argv: readonly string[]): Promise<CliResult> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (c) => (out += String(c)));
  stderr.on('data', (c) => (err += String(c)));
  const code = await runCli(argv, { stdout, stderr, signal: new AbortController().signal });
  return { code, stdout: out, stderr: err };
}
