// record --out and decode --report naming what is not a regular file: a character device (made with mknod, never
// the system's own), a FIFO, a symbolic link to this process's standard output in procfs. Each became a regular
// file (as root, record --out naming the null device replaced it with a 24-byte file); now each is written to and
// stays what it was. Real processes for the procfs link (its stdout is the test's pipe).
import { execFileSync, spawn } from 'node:child_process';
import { constants, lstatSync, mkdtempSync, readlinkSync, symlinkSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from '../support/cli.js';
import { BIN, ROOT, reckon, within } from '../support/binary.js';

const d = mkdtempSync(join(tmpdir(), 'reckon-targets-'));
const CAPTURE = join(ROOT, 'test/fixtures/dis/dis7_vrforces_gaz69_90deg_turn.pcap');

describe('output paths that are devices, FIFOs or links to a descriptor', () => {
  it('record --out d/null (a character device) stays a character device', async () => {
    const device = join(d, 'null');
    execFileSync('mknod', [device, 'c', '1', '3']);
    const run = await cli('record', '--out', device, '--port', '0', '--duration', '0.2');
    expect(run.code).toBe(0);
    expect(lstatSync(device).isCharacterDevice()).toBe(true);
  });

  it('record --out d/fifo writes the capture into the FIFO for its reader; the FIFO stays', async () => {
    const fifo = join(d, 'fifo');
    execFileSync('mkfifo', [fifo]);
    const refused = await cli('record', '--out', fifo, '--port', '0', '--duration', '0.2');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('no program reads this FIFO; start its reader first');
    const reader = await open(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      const run = await cli('record', '--out', fifo, '--port', '0', '--duration', '0.2');
      expect(run.code).toBe(0);
      const header = Buffer.alloc(24);
      await reader.read(header, 0, 24, null);
      expect(header.readUInt32LE(0)).toBe(0xa1b2c3d4); // the pcap file header went through the pipe
    } finally {
      await reader.close();
    }
    expect(lstatSync(fifo).isFIFO()).toBe(true);
  });

  it('decode --report d/stdout (a link to /proc/self/fd/1) writes the report to standard output, a pipe', async () => {
    const link = join(d, 'stdout');
    symlinkSync('/proc/self/fd/1', link);
    // Through a shell pipe: a spawned process's stdout is a socket pair, which procfs does not open by name.
    const shell = spawn(
      'bash',
      ['-c', `set -o pipefail; "${process.execPath}" "${BIN}" decode "${CAPTURE}" --report "${link}" | cat`],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    shell.stdout.on('data', (c) => (stdout += String(c)));
    const code = await within(new Promise((resolve) => shell.once('exit', resolve)), 60_000, 'decode to exit', shell);
    expect(code).toBe(0);
    expect(stdout).toContain('<!doctype html>');
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readlinkSync(link)).toBe('/proc/self/fd/1');
    // Under a socket pair: refused with a message, nothing created.
    const run = reckon(['decode', CAPTURE, '--report', link]);
    expect(await within(run.exited, 60_000, 'decode to exit', run.child)).toBe(2);
    expect(run.stderr()).toContain('it names a socket, which cannot be opened by name');
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
  });
});
