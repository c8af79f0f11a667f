// Captures of many entities and radios (scripts/large-captures.ts): summarised, reported and stopped by Ctrl-C. The
// sizes are kept small by running with a stack a tenth of the default (`--stack-size=100`), where spreading more
// than about 12,000 values into one call overflows as 120,000 do with the default: 20,000 rows stand for the
// 200,000 entities and 1,000,000 radios `npx tsx scripts/decode-scale.ts` decodes (its figures: docs/security.md).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { View } from 'vega';
import { readCapture } from '../../src/pcap/reader.js';
import { captureReportData, captureReportPage } from '../../src/report/capture-report.js';
import { largeCapture, writeLargeCapture } from '../../scripts/large-captures.js';
import { BIN, ROOT, within } from '../support/binary.js';
import { bundled } from '../support/bundle.js';
import { startCli } from '../support/cli.js';

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

describe('captures of any size summarised', () => {
  it(`decode summarises ${ROWS} entities and ${ROWS} radios, and reports them, with a tenth of the stack`, async () => {
    const capture = join(dir, 'many.pcap');
    await writeLargeCapture(capture, { entities: ROWS, radios: ROWS, shots: 40 });
    const report = join(dir, 'many.html');
    const run = await smallStack(BIN, ['decode', capture, '--report', report]);
    expect(run.err).not.toMatch(/call stack/);
    expect(run.code).toBe(0);
    expect(run.out.match(/^1:\d+:\d+ +E\d+ /gm)).toHaveLength(ROWS);
    expect(run.out).toMatch(/^1:1:1 +E0 +1:1:225:1:1:3:0 +M1A2 · Tank · USA +v7 +1 /m);
    expect(run.out).toContain(`\nRadios: ${ROWS}\n`);
    expect(run.out.match(/^ {2}2:1:\d+ #\d+ +\d+\.?\d* MHz +37\.0 dBm +On (and|but not) transmitting /gm)).toHaveLength(
      ROWS,
    );
    expect(run.out).toMatch(/^Engagements: 40 \(40 Fire PDUs, 40 Detonation PDUs\)$/m);
    const html = readFileSync(report, 'utf8');
    expect(html).toContain(`The first 2000 of ${ROWS} entities seen; \`reckon decode\` lists every one.`);
    expect(html).toContain(`The first 2000 of ${ROWS} radios; \`reckon decode\` lists every one.`);
  }, 120_000);

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

describe('decode stopped by Ctrl-C', () => {
  it('while the summary is printed: at the next piece, exit 130, saying so', async () => {
    const capture = join(dir, 'printed.pcap');
    writeFileSync(capture, largeCapture({ entities: 10_000 }));
    const run = startCli(['decode', capture]);
    await run.waitFor(/printed\.pcap: pcap, 10000 frames/, 60_000);
    run.interrupt();
    expect(await within(run.exited, 30_000, 'decode to stop')).toBe(130);
    expect(run.stderr()).toBe('reckon decode: interrupted (SIGINT) while printing the summary of 10000 frames\n');
    expect(run.stdout().split('\n').length).toBeLessThan(10_000);
  });

  const bytes = largeCapture({ entities: 3000, radios: 300, shots: 30 });

  it('gives the page up between two of its parts when the signal aborts', async () => {
    const capture = readCapture(bytes);
    const controller = new AbortController();
    const page = captureReportPage('many.pcap', captureReportData(capture), capture, controller.signal);
    setImmediate(() => controller.abort('SIGINT'));
    await expect(page).rejects.toBe('SIGINT');
  });

  it('exits 130 and writes nothing, leaving the old report as it was, when stopped as the page is drawn', async () => {
    const capture = join(dir, 'stopped.pcap');
    writeFileSync(capture, bytes);
    const folder = mkdtempSync(join(dir, 'out-'));
    const report = join(folder, 'report.html');
    writeFileSync(report, 'the old report');
    const run = startCli(['decode', capture, '--report', report]);
    // Ctrl-C the moment the first chart of the page is drawn (every chart is a Vega view turned into SVG).
    const toSVG = View.prototype.toSVG;
    View.prototype.toSVG = function (this: View, ...args: Parameters<View['toSVG']>) {
      run.interrupt();
      return toSVG.apply(this, args);
    };
    try {
      expect(await within(run.exited, 30_000, 'decode to stop')).toBe(130);
    } finally {
      View.prototype.toSVG = toSVG;
    }
    expect(run.stdout()).toMatch(/^Rejected: 0$/m);
    expect(run.stderr()).toBe('reckon decode: interrupted (SIGINT) before the report was complete; nothing written\n');
    expect(readFileSync(report, 'utf8')).toBe('the old report');
    expect(readdirSync(folder)).toEqual(['report.html']);
  });
});
