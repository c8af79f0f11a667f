// The binary's signal handlers (src/cli/interrupts.ts, wired to the process by src/cli/main.ts), driven by a stand-in
// process: the first Ctrl-C aborts the command; a second one exited 130 with nothing said and the temporary files of
// what was being written left behind. Now it says so, removes them (the files they were to replace stay as they
// were) and exits with 128 + the signal's number.
import { EventEmitter } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { handleInterrupts } from '../../src/cli/interrupts.js';
import { openOutputFile } from '../../src/files/output-file.js';

const dir = mkdtempSync(join(tmpdir(), 'reckon-interrupts-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function standInProcess() {
  const events = new EventEmitter();
  let stderr = '';
  const exits: number[] = [];
  return {
    events,
    stderr: () => stderr,
    exits,
    host: {
      on: (signal: 'SIGINT' | 'SIGTERM', listener: (signal: NodeJS.Signals) => void) => events.on(signal, listener),
      stderr: { write: (text: string) => (stderr += text) },
      exit: (code: number) => void exits.push(code),
    },
  };
}

describe('Ctrl-C and SIGTERM', () => {
  it('the first aborts the command; a second says so, removes the unfinished files and exits 130', async () => {
    const target = join(dir, 'results.csv');
    writeFileSync(target, 'earlier results\n');
    const file = await openOutputFile(target);
    await file.handle.write('half of the new results');
    const process = standInProcess();
    const controller = new AbortController();
    handleInterrupts(process.host, controller, 'reckon experiment');

    process.events.emit('SIGINT', 'SIGINT');
    expect(controller.signal.aborted).toBe(true);
    expect(controller.signal.reason).toBe('SIGINT');
    expect(process.exits).toEqual([]);
    expect(process.stderr()).toBe('');

    process.events.emit('SIGINT', 'SIGINT');
    expect(process.exits).toEqual([130]);
    expect(process.stderr()).toBe(
      '\nreckon experiment: stopped at once by a second Ctrl-C (SIGINT); what it was writing was not written ' +
        '(files there before are left as they were)\n',
    );
    expect(existsSync(file.temporaryPath)).toBe(false);
    expect(readFileSync(target, 'utf8')).toBe('earlier results\n');
    await file.discard(); // after the removal, as the command would on its way out: nothing left to do
  });

  it('a second SIGTERM exits 143, and says nothing of files when none was being written', () => {
    const process = standInProcess();
    handleInterrupts(process.host, new AbortController(), 'reckon subscribe');
    process.events.emit('SIGTERM', 'SIGTERM');
    process.events.emit('SIGTERM', 'SIGTERM');
    expect(process.exits).toEqual([143]);
    expect(process.stderr()).toBe('\nreckon subscribe: stopped at once by a second SIGTERM\n');
  });
});
