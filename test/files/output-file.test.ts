import { mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OutputPathError, openOutputFile, prepareOutputFolder, writeOutputFile } from '../../src/files/output-file.js';

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
