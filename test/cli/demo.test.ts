// `reckon demo` as users run it: the built binary, real UDP on 127.0.0.1, ending by itself.
import { describe, expect, it } from 'vitest';
import { reckon, within } from './binary.js';

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
    const demo = reckon(['demo', '--duration', '1', '--json', '--position-threshold', '2']);
    expect(await within(demo.exited, 20_000, 'the demo to exit', demo.child)).toBe(0);
    const report = JSON.parse(demo.stdout());
    expect(report.entities.map((e: { name: string }) => e.name)).toEqual(['tank', 'ship', 'aircraft']);
    expect(report.positionThresholdMeters).toBe(2);
    expect(report.stoppedBy).toBe('duration');
    for (const e of report.entities) {
      expect(e.pdusSent).toBeGreaterThanOrEqual(1);
      expect(e.received.appeared).toBe(true);
      expect(e.error.samples).toBeGreaterThan(10);
      expect(e.error.maxMeters).toBeLessThan(2 * 2); // within the threshold, give or take one 30 Hz step
    }
    expect(report.totals.pdusSaved).toBe(report.totals.baselinePdus - report.totals.pdusSent);
  });

  it('lists every usage problem and exits 2', async () => {
    const demo = reckon(['demo', '--duration', 'soon', '--algorithm', 'XYZ', '--port', '70000']);
    expect(await within(demo.exited, 10_000, 'the demo to exit', demo.child)).toBe(2);
    expect(demo.stderr()).toMatch(/3 problems/);
    expect(demo.stderr()).toMatch(/--duration/);
    expect(demo.stderr()).toMatch(/--algorithm: expected auto, 1–9/);
    expect(demo.stderr()).toMatch(/network\.port/);
  });
});
