#!/usr/bin/env node
// The `reckon` binary: wires process signals and streams to runCli; everything else lives in run.ts.
import { describeFailure, runCli } from './run.js';

// Anything that escapes a command (a throw in a callback or timer, a rejection nobody awaited) ends the run with
// one line and exit 1, like a failure the command reports itself; RECKON_DEBUG=1 adds the stack trace.
const name = process.argv[2];
const onUnexpected = (error: unknown): void => {
  process.stderr.write(describeFailure(name && !name.startsWith('-') ? `reckon ${name}` : 'reckon', error));
  process.exit(1);
};
process.on('uncaughtException', onUnexpected);
process.on('unhandledRejection', onUnexpected);

const controller = new AbortController();
let interrupts = 0;
const onSignal = (signal: NodeJS.Signals): void => {
  interrupts++;
  // A second Ctrl-C means "now": skip the summary.
  if (interrupts > 1) process.exit(128 + (signal === 'SIGINT' ? 2 : 15));
  controller.abort(signal);
};
process.on('SIGINT', onSignal);
process.on('SIGTERM', onSignal);
// `reckon decode x.pcap --json | head`: a closed pipe is the reader saying "enough", not a failure.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
}

const code = await runCli(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  signal: controller.signal,
});
process.exitCode = code;
// Commands close their sockets and timers; anything left behind must not keep the process alive.
setTimeout(() => process.exit(code), 2000).unref();
