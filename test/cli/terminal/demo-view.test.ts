// `reckon demo`'s live table fitted to the terminal, and the marking received from the network shown escaped.
import { describe, expect, it } from 'vitest';
import type { DemoEntityReport, DemoReport } from '../../../src/cli/terminal/demo-session.js';
import { demoLiveLines, demoPlainLines, demoSummaryLines } from '../../../src/cli/terminal/demo-view.js';
import { visibleWidth } from '../../../src/cli/terminal/fit.js';
import { LiveView } from '../../../src/cli/terminal/live-view.js';
import { Screen } from './screen.js';

function entity(i: number, receivedMarking: string): DemoEntityReport {
  return {
    name: `tank ${i}`,
    entityId: `1:1:${i}`,
    marking: `TANK ${i}`,
    algorithm: 'RVW',
    pdusSent: 120 + i,
    bytesSent: 17280,
    reasons: { position: 100, orientation: 20, heartbeat: 1 },
    lastReasons: ['position', 'orientation'],
    received: { appeared: true, updates: 120, removed: false, marking: receivedMarking, algorithm: 'RVW' },
    error: { nowMeters: 0.42, meanMeters: 0.3, rmsMeters: 0.35, p95Meters: 0.8, maxMeters: 1.2, samples: 600 },
    baselinePdus: 900,
    pdusSaved: 780,
    savedFraction: 0.866,
    pduRatePerSecond: 4.03,
    bytesPerSecond: 576,
    baselineBytesPerSecond: 4320,
  };
}

function report(n: number, hostile = '\x1b]0;PW\x07\x1b[2J'): DemoReport {
  return {
    elapsedSeconds: 12.5,
    durationSeconds: 30,
    address: '127.0.0.1',
    port: 40123,
    exercise: 1,
    positionThresholdMeters: 1,
    orientationThresholdDeg: 3,
    stoppedBy: 'running',
    entities: Array.from({ length: n }, (_, i) => entity(i + 1, i === 0 ? hostile : `TANK ${i + 1}`)),
    totals: {
      pdusSent: 363,
      baselinePdus: 2700,
      pdusSaved: 2337,
      savedFraction: 0.866,
      bytesSent: 52272,
      baselineBytes: 388800,
    },
    receiver: { datagrams: 363, pdus: 363, rejected: 0, entities: n },
  };
}

describe('demo view', () => {
  it('shows a marking received from the network escaped (live table, plain lines)', () => {
    const text = [...demoLiveLines(report(3), false), ...demoPlainLines(report(3))].join('\n');
    expect(text).not.toMatch(/[\x00-\x09\x0b-\x1f\x7f-\x9f]/); // eslint-disable-line no-control-regex
    expect(text).toContain('\\x1b]0;PW\\x07\\x1b[2J');
    expect(demoSummaryLines(report(1), false).join('\n')).toContain('TANK 1');
  });

  it.each([
    [80, 24, 3],
    [120, 40, 3],
    [80, 12, 20],
  ])('at %i×%i with %i entities every line fits and the rest are counted', (columns, rows, n) => {
    const screen = new Screen(columns, rows);
    const live = new LiveView(screen, { env: {} });
    const lines = demoLiveLines(report(n), true, live.size, live.color);
    expect(lines.length).toBeLessThanOrEqual(rows - 1);
    for (const line of lines) expect(visibleWidth(line), line).toBeLessThanOrEqual(columns - 1);
    const text = lines.join('\n');
    const shown = lines.filter((l) => /^1:1:\d+ /.test(l)).length;
    expect(shown + Number(/… and (\d+) more/.exec(text)?.[1] ?? 0)).toBe(n);
    expect(text).toMatch(/PDUs saved/);
    expect(text).toMatch(/s to go/);
    // Drawn three times on the terminal model: one copy on screen.
    for (let i = 0; i < 3; i++) live.update(demoLiveLines(report(n), true, live.size, live.color));
    expect(screen.lines().filter((l) => l.startsWith('reckon demo'))).toHaveLength(1);
  });

  it('fits the closing summary to 80 columns: the table loses columns, sentences break between words', () => {
    const full = demoSummaryLines(report(3), false);
    const lines = demoSummaryLines(report(3), true, false, 80);
    for (const line of lines) expect(visibleWidth(line), line).toBeLessThanOrEqual(80);
    // The sentences: same words in the same order as unfitted, none split ("2⏎9 datagrams" cannot happen).
    const prose = (text: string[]) =>
      text
        .slice(text.findIndex((l) => l.includes('PDUs saved:')))
        .join(' ')
        .replace(/\x1b\[[0-9;]*m/g, '')
        .split(/\s+/)
        .filter(Boolean);
    expect(prose(lines)).toEqual(prose(full));
    const table = lines.filter((l) => /^tank \d/.test(l));
    expect(table).toHaveLength(3);
    for (const row of table) expect(row).toMatch(/^tank \d 1:1:\d\s+\d+ \/ 900\s+86\.6 %\s+0\.80 m\s/);
  });

  it('gives no figures divided by nothing after a run of a fraction of a second', () => {
    const short = report(3);
    const quick: DemoReport = {
      ...short,
      elapsedSeconds: 0.05,
      stoppedBy: 'interrupted',
      entities: short.entities.map((e) => ({
        ...e,
        pdusSent: 1,
        bytesSent: 144,
        baselinePdus: 1,
        pdusSaved: 0,
        savedFraction: 0,
        pduRatePerSecond: Number.NaN,
        bytesPerSecond: Number.NaN,
      })),
      totals: { pdusSent: 3, baselinePdus: 3, pdusSaved: 0, savedFraction: 0, bytesSent: 432, baselineBytes: 432 },
    };
    const text = [...demoLiveLines(quick, false), ...demoSummaryLines(quick, false), ...demoPlainLines(quick)].join(
      '\n',
    );
    expect(text).not.toMatch(/NaN|Infinity|\/ 0\b|instead of 0\b/);
    expect(text).toMatch(/1 \/ 1/);
    expect(text).toMatch(/rate=–/);
  });
});
