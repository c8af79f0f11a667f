// Crafted inputs that exhausted memory or ignored signals: a gzip track that unpacks to hundreds of MB, a CSV of
// millions of rows, a sparse capture of zero-length records (decode: 3.8 GB, then an out-of-memory abort), a FIFO
// with no writer given to decode (two SIGINTs and a SIGTERM ignored for 10 minutes). The bounds are lowered for the
// tests where they can be (no file here is written larger than a few MB; the sparse captures take no disk).
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { pcapFileHeader } from '../../src/pcap/writer.js';
import { TRACK_LIMITS } from '../../src/truth/loaders.js';
import { cli } from '../support/cli.js';
import { BIN, ROOT, reckon, within } from '../support/binary.js';

const dir = mkdtempSync(join(tmpdir(), 'reckon-large-'));
const saved = { ...TRACK_LIMITS };
afterEach(() => Object.assign(TRACK_LIMITS, saved));

/** A pcap header followed by `bytes` of zeros that take no disk: records of length 0, 16 bytes each. */
function sparseCapture(name: string, bytes: number): string {
  const path = join(dir, name);
  writeFileSync(path, pcapFileHeader());
  execFileSync('truncate', ['-s', String(24 + bytes), path]);
  return path;
}

describe('track files past their bounds: exit 2 naming the bound, before memory runs out', () => {
  it('a .csv.gz that unpacks past the bound (a gzip of zeros)', async () => {
    TRACK_LIMITS.maxUnpackedBytes = 1 << 20;
    const bomb = join(dir, 'bomb.csv.gz');
    writeFileSync(bomb, gzipSync(Buffer.alloc(4 << 20)));
    const run = await cli('publish', '--track', bomb, '--duration', '1 s');
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /unpacks to more than 1 MiB \(\d+(\.\d+)? KiB packed\), more than a track file may hold/,
    );
  });

  it('a CSV with more rows than the bound of fixes', async () => {
    TRACK_LIMITS.maxFixes = 1000;
    const rows = Array.from({ length: 2000 }, (_, i) => `${i},50.${i},8.0,100`);
    const csv = join(dir, 'long.csv');
    writeFileSync(csv, `time,lat,lon,alt\n${rows.join('\n')}\n`);
    const run = await cli('publish', '--track', csv, '--duration', '1 s');
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('holds more than 1000 fixes, more than reckon reads from one file');
  });

  it('a track file over the size bound, and a FIFO given as a track', async () => {
    TRACK_LIMITS.maxFileBytes = 1000;
    const big = join(dir, 'big.csv');
    writeFileSync(big, `time,lat,lon\n${'0,50,8\n'.repeat(200)}`);
    expect((await cli('publish', '--track', big, '--duration', '1 s')).stderr).toContain(
      'holds 1413 bytes, more than the 1000 B (1000 bytes) a track file may hold',
    );
    const fifo = join(dir, 'track.fifo.csv');
    execFileSync('mkfifo', [fifo]);
    const run = await cli('publish', '--track', fifo, '--duration', '1 s');
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('is a FIFO (named pipe), not a regular file');
  });
});

describe('captures of any size: decoded in pieces', () => {
  it('an 8 MB sparse capture of zero-length records decodes within a 32 MB heap', async () => {
    const path = sparseCapture('zeros.pcap', 8 << 20);
    // The whole file as frames would be half a million objects, over a hundred MB: far over this heap.
    const child = spawn(process.execPath, ['--max-old-space-size=32', BIN, 'decode', path], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += String(c)));
    child.stderr.on('data', (c) => (stderr += String(c)));
    const code = await within(
      new Promise<number | null>((resolve) => child.once('exit', resolve)),
      120_000,
      'decode to finish',
      child,
    );
    expect(stderr).not.toMatch(/heap out of memory|FATAL/);
    expect(code).toBe(0);
    expect(stdout).toContain(`pcap, ${1 << 19} frames`);
  }, 150_000);

  it('a 1 GB sparse capture: SIGTERM while it is read stops it at once (exit 143), saying how far it got', async () => {
    const path = sparseCapture('huge.pcap', 1 << 30);
    const run = reckon(['decode', path]);
    await run.waitFor(/decode: \d+ % of 1 GiB read/, 60_000);
    run.child.kill('SIGTERM');
    expect(await within(run.exited, 15_000, 'decode to stop', run.child)).toBe(143);
    expect(run.stderr()).toMatch(/reckon decode: interrupted \(SIGTERM\) after [\d,]+ frames/);
  }, 90_000);

  it('a FIFO with no writer: refused at once (exit 2), not waited on', async () => {
    const fifo = join(dir, 'capture.fifo');
    execFileSync('mkfifo', [fifo]);
    for (const command of ['decode', 'replay']) {
      const run = await cli(command, fifo);
      expect(run.code, command).toBe(2);
      expect(run.stderr).toContain(`the capture "${fifo}" is a FIFO (named pipe), not a regular file`);
    }
  });

  it('replay of a corrupt capture names the damage', async () => {
    const path = join(dir, 'corrupt.pcap');
    const header = Buffer.from(pcapFileHeader());
    const record = Buffer.alloc(16);
    record.writeUInt32LE(300_000, 8); // a captured length no record has
    record.writeUInt32LE(300_000, 12);
    writeFileSync(path, Buffer.concat([header, record]));
    const run = await cli('replay', path, '--to', '127.0.0.1:9');
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      'holds no DIS datagrams before its damage (record 1 at byte 24 is corrupt: captured length 300000 exceeds',
    );
  });
});
