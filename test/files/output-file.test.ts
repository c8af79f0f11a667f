import { execFileSync } from 'node:child_process';
import {
  constants,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  OutputPathError,
  checkOutputPath,
  openOutputFile,
  prepareOutputFolder,
  writeOutputFile,
} from '../../src/files/output-file.js';

const dir = mkdtempSync(join(tmpdir(), 'reckon-output-'));

describe('output files: written beside the target, renamed over it when complete', () => {
  it('leaves an existing file as it was until commit, then replaces it whole', async () => {
    const path = join(dir, 'precious.pcap');
    writeFileSync(path, 'precious');
    const file = await openOutputFile(path);
    await file.handle.write('new content');
    expect(readFileSync(path, 'utf8')).toBe('precious');
    await file.commit();
    expect(readFileSync(path, 'utf8')).toBe('new content');
    expect(readdirSync(dir).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });

  it('discard leaves the existing file and no temporary file behind', async () => {
    const path = join(dir, 'kept.pcap');
    writeFileSync(path, 'kept');
    const file = await openOutputFile(path);
    await file.handle.write('half');
    await file.discard();
    expect(readFileSync(path, 'utf8')).toBe('kept');
    expect(readdirSync(dir).filter((n) => n.startsWith('.kept.pcap'))).toEqual([]);
  });

  it('writeOutputFile writes a whole file', async () => {
    const path = join(dir, 'results.json');
    writeFileSync(path, 'old');
    await writeOutputFile(path, '{"new":true}\n');
    expect(readFileSync(path, 'utf8')).toBe('{"new":true}\n');
  });

  it.each([
    { name: 'a folder', path: () => dir, message: /is a folder; give a file name/ },
    {
      name: 'a missing folder',
      path: () => join(dir, 'no', 'such', 'x.pcap'),
      message: /the folder ".*no\/such" does not exist/,
    },
    { name: 'a file as its folder', path: () => join(dir, 'precious.pcap', 'x.pcap'), message: /is not a folder/ },
  ])('refuses $name up front, naming the path', async ({ path, message }) => {
    await expect(openOutputFile(path())).rejects.toThrow(OutputPathError);
    await expect(openOutputFile(path())).rejects.toThrow(message);
  });

  it('prepareOutputFolder creates a missing folder and refuses a file', async () => {
    const folder = join(dir, 'a', 'b');
    await prepareOutputFolder(folder);
    expect(readdirSync(folder)).toEqual([]);
    const file = join(dir, 'plain');
    writeFileSync(file, 'x');
    await expect(prepareOutputFolder(file)).rejects.toThrow(/"[^"]*plain" is a file, not a folder/);
    mkdirSync(join(dir, 'exists'));
    await prepareOutputFolder(join(dir, 'exists'));
  });
});

describe('output paths that are not regular files: written to, never renamed over', () => {
  const special = mkdtempSync(join(tmpdir(), 'reckon-output-special-'));
  const kind = (path: string) => {
    const s = lstatSync(path);
    return s.isCharacterDevice()
      ? 'char'
      : s.isFIFO()
        ? 'fifo'
        : s.isSymbolicLink()
          ? 'link'
          : s.isFile()
            ? 'file'
            : '?';
  };

  it('a character device (a null device made with mknod) stays a device; the bytes go to it', async () => {
    const device = join(special, 'null');
    execFileSync('mknod', [device, 'c', '1', '3']);
    const file = await openOutputFile(device);
    expect(file.direct).toBe(true);
    await file.handle.write('24 bytes of a recording.');
    await file.commit();
    expect(kind(device)).toBe('char');
    await writeOutputFile(device, 'a report');
    expect(kind(device)).toBe('char');
    expect(readdirSync(special).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });

  it('a FIFO with a reader gets the bytes and stays a FIFO; without one it is refused at once', async () => {
    const fifo = join(special, 'fifo');
    execFileSync('mkfifo', [fifo]);
    await expect(openOutputFile(fifo)).rejects.toThrow(/no program reads this FIFO; start its reader first/);
    const reader = await open(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      await writeOutputFile(fifo, 'through the pipe');
      const buffer = Buffer.alloc(64);
      const { bytesRead } = await reader.read(buffer, 0, 64, null);
      expect(buffer.subarray(0, bytesRead).toString()).toBe('through the pipe');
    } finally {
      await reader.close();
    }
    expect(kind(fifo)).toBe('fifo');
  });

  it('a symbolic link to a file: the target is replaced whole, the link stays', async () => {
    const target = join(special, 'real.html');
    writeFileSync(target, 'old');
    const link = join(special, 'link.html');
    symlinkSync(target, link);
    await writeOutputFile(link, 'new');
    expect(kind(link)).toBe('link');
    expect(readFileSync(target, 'utf8')).toBe('new');
  });

  it.each([
    {
      name: 'a block device',
      make: (p: string) => execFileSync('mknod', [p, 'b', '240', '0']), // an unassigned device number
      message: /is a block device; reckon writes regular files, FIFOs and character devices/,
    },
    {
      name: 'a link to nothing',
      make: (p: string) => symlinkSync(join(special, 'missing', 'x'), p),
      message: /is a symbolic link to ".*missing\/x", which does not exist/,
    },
  ])('refuses $name', async ({ name, make, message }) => {
    const path = join(special, name.replace(/ /g, '-'));
    make(path);
    await expect(openOutputFile(path)).rejects.toThrow(message);
    await expect(checkOutputPath(path)).rejects.toThrow(message);
  });
});
