// `reckon demo` as users run it: the built binary, real UDP on 127.0.0.1, ending by itself.
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { findSystemBinary } from '../../scripts/support/system-binary.js';
import { BIN, ROOT, reckon, within } from '../support/binary.js';
import { cli, startCli } from '../support/cli.js';
import { Screen } from './terminal/screen.js';

const script = findSystemBinary('script', 'bsdutils');

describe('reckon demo', () => {
  it('runs for --duration 3, exits 0, and its summary names all three entities and the PDUs saved', async () => {
    const demo = reckon(['demo', '--duration', '3']);
    expect(await within(demo.exited, 20_000, 'the demo to exit', demo.child)).toBe(0);
    const out = demo.stdout();
    for (const marking of ['TANK 1', 'SHIP 1', 'AIRCRAFT 1']) expect(out).toContain(marking);
    for (const name of ['tank', 'ship', 'aircraft']) expect(out).toMatch(new RegExp(`^${name} \\d+:\\d+:1 `, 'm'));
    const saved = /PDUs saved: (\d+) of (\d+) \((\d+\.\d) %\)/.exec(out);
    expect(saved, out).not.toBeNull();
    expect(Number(saved![1])).toBeGreaterThan(0.5 * Number(saved![2])); // dead reckoning saves most of 15 Hz
    expect(out).toMatch(/3 of 3 entities seen, 3 removed by their leave notices/);
    expect(out).not.toMatch(/\x1b\[/); // not a terminal: no ANSI codes
  });

  it('prints a machine-readable summary with --json', async () => {
    const demo = startCli(['demo', '--duration', '1', '--json', '--position-threshold', '2']);
    expect(await within(demo.exited, 20_000, 'the demo to exit')).toBe(0);
    const report = JSON.parse(demo.stdout());
    expect(report.entities.map((e: { name: string }) => e.name)).toEqual(['tank', 'ship', 'aircraft']);
    expect(report.positionThresholdMeters).toBe(2);
    expect(report.stoppedBy).toBe('duration');
    for (const e of report.entities) {
      expect(e.pdusSent).toBeGreaterThanOrEqual(1);
      expect(e.received.appeared).toBe(true);
      // One sample per frame, 20 a second (src/cli/commands/demo.ts), fewer when a busy machine delays them.
      expect(e.error.samples).toBeGreaterThan(0);
      expect(e.error.samples).toBeLessThanOrEqual(22);
      expect(e.error.maxMeters).toBeLessThan(2 * 2); // within the threshold, give or take one 30 Hz step
    }
    expect(report.totals.pdusSaved).toBe(report.totals.baselinePdus - report.totals.pdusSent);
  });

  it.skipIf(!script.path)(
    'on an 80×24 terminal: the map URL once, and the summary fits without breaking a word',
    async () => {
      const demo = `'${process.execPath}' '${BIN}' demo --duration 1.5 --http 127.0.0.1:0`;
      const child = spawn(script.path!, ['-qec', `stty cols 80 rows 24; exec ${demo}`, '/dev/null'], {
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, NO_COLOR: '1' },
      });
      let out = '';
      child.stdout.on('data', (c) => (out += String(c)));
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
      expect(await within(exited, 30_000, 'the demo to exit', child)).toBe(0);
      const screen = new Screen(80, 24);
      screen.write(out);
      const shown = screen.lines();
      const text = shown.join('\n');
      // The URL heads the live table (redrawn in place); no second copy above it on stderr.
      expect(out).toMatch(/live map: http:\/\/127\.0\.0\.1:\d+\/ \(open it in a browser\)/);
      expect(out).not.toContain('demo: live map at');
      expect(text).toMatch(/^Summary after/m);
      // A line the terminal wrapped would continue on the next row: every sentence ends where the code ends it.
      expect(text).toMatch(/^Subscriber: 3 of 3 entities seen, .*\n.*rejected\.$/m);
      for (const line of out.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '').split(/\r?\n/)) {
        expect(line.replace(/\r/g, '').length, line).toBeLessThanOrEqual(80);
      }
    },
  );

  it('lists every usage problem and exits 2', async () => {
    const { code, stderr } = await cli('demo', '--duration', 'soon', '--algorithm', 'XYZ', '--port', '70000');
    expect(code).toBe(2);
    expect(stderr).toMatch(/3 problems/);
    expect(stderr).toMatch(/--duration/);
    expect(stderr).toMatch(/--algorithm: expected auto, 1–9/);
    expect(stderr).toMatch(/network\.port/);
  });
});
