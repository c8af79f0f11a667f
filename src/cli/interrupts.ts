/**
 * What Ctrl-C (SIGINT) and SIGTERM do to the `reckon` binary. The first aborts the command's signal: the command
 * stops, keeps what finished and prints its summary (exit 130 or 143). A second one means "now": the process says
 * so, removes the temporary files of what it was still writing (their targets stay as they were) and exits at once
 * with 128 + the signal's number, without waiting for the command.
 */
import { removeUnfinishedOutputsSync } from '../files/output-file.js';

/** What the handlers need of the process, so that they can be driven without one. */
export interface InterruptHost {
  on(signal: 'SIGINT' | 'SIGTERM', listener: (signal: NodeJS.Signals) => void): unknown;
  readonly stderr: { write(text: string): unknown };
  exit(code: number): void;
}

/** 128 + the signal's number: 130 for SIGINT, 143 for SIGTERM. */
export function signalExitCode(signal: string): number {
  return signal === 'SIGTERM' ? 143 : 130;
}

/**
 * Listens for SIGINT and SIGTERM on `host`.
 * @param controller - aborted, with the signal's name as reason, by the first signal.
 * @param prefix - how the process names itself in the line a second signal prints, e.g. `reckon experiment`.
 */
export function handleInterrupts(host: InterruptHost, controller: AbortController, prefix: string): void {
  let interrupts = 0;
  const onSignal = (signal: NodeJS.Signals): void => {
    interrupts++;
    if (interrupts === 1) {
      controller.abort(signal);
      return;
    }
    const removed = removeUnfinishedOutputsSync();
    host.stderr.write(
      `\n${prefix}: stopped at once by a second ${signal === 'SIGINT' ? 'Ctrl-C (SIGINT)' : signal}` +
        (removed > 0 ? '; what it was writing was not written (files there before are left as they were)' : '') +
        '\n',
    );
    host.exit(signalExitCode(signal));
  };
  host.on('SIGINT', onSignal);
  host.on('SIGTERM', onSignal);
}
