#!/usr/bin/env node
// The `reckon` binary: wires process signals and streams to runCli; everything else lives in run.ts.
import { handleInterrupts } from './interrupts.js';
import { describeFailure, runCli } from './run.js';
import { printable } from './terminal/printable.js';

// Anything that escapes a command (a throw in a callback or timer, a rejection nobody awaited) ends the run with
// one line and exit 1, like a failure the command reports itself; RECKON_DEBUG=1 adds the stack trace.
const name = process.argv[2];
const prefix = name && !name.startsWith('-') ? `reckon ${printable(name)}` : 'reckon';
const onUnexpected = (error: unknown): void => {
  process.stderr.write(describeFailure(prefix, error));
  process.exit(1);
};
process.on('uncaughtException', onUnexpected);
process.on('unhandledRejection', onUnexpected);

const controller = new AbortController();
// The first Ctrl-C or SIGTERM stops the command, which keeps what finished; a second one stops the process now.
handleInterrupts(
  {
    on: (signal, listener) => process.on(signal, listener),
    stderr: process.stderr,
    exit: (code) => process.exit(code),
  },
  controller,
  prefix,
);
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
  stdin: process.stdin,
});
process.exitCode = code;
// Commands close their sockets and timers; anything left behind must not keep the process alive.
setTimeout(() => process.exit(code), 2000).unref();
