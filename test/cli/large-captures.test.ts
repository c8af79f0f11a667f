// The long tables reckon prints, laid out with a stack a tenth of the default (`--stack-size=100`), where spreading
// more than about 12,000 values into one call overflows as 120,000 do with the default: 20,000 rows stand for a
// capture's 200,000 entities or 1,000,000 radios, or a sweep's 100,000 runs.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT, within } from '../support/binary.js';
import { bundled } from '../support/bundle.js';

const dir = mkdtempSync(join(tmpdir(), 'reckon-large-captures-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Rows per table: above what a spread into one call takes with the small stack. */
const ROWS = 20_000;
const SMALL_STACK = '--stack-size=100';

/** `node --stack-size=100 FILE ...args`: exit code and output. */
async function smallStack(file: string, args: readonly string[]): Promise<{ code: number; out: string; err: string }> {
  const child = spawn(process.execPath, [SMALL_STACK, file, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (c) => (out += String(c)));
  child.stderr.on('data', (c) => (err += String(c)));
  const exited = new Promise<number>((resolve) => child.once('exit', (code) => resolve(code ?? -1)));
  return { code: await within(exited, 90_000, `${file} to finish`, child), out, err };
}

describe('tables of any length', () => {
  it('lays out the terminal tables and a sweep of as many rows, and refuses a track of as many bad fixes', async () => {
    const run = await smallStack(await bundled('test/cli/long-tables-probe.ts'), [String(ROWS), dir]);
    expect(run.err).toBe('');
    expect(JSON.parse(run.out)).toEqual({
      formatTable: 'ok',
      formatFittedTable: 'ok',
      toTextTable: 'ok',
      loadTracks: 'ok',
    });
  }, 120_000);
});
