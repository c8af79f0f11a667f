// The live view on a terminal model: a block wider and taller than the screen is redrawn in place (one copy on
// screen, every row within the width), also after resizes; without a terminal, plain lines at a slower pace.
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { LiveView } from '../../../src/cli/terminal/live-view.js';
import { Screen } from './screen.js';

/** A block like a 97-column table: a title, then `n` numbered rows. */
function block(frame: number, n: number, width = 97): string[] {
  return [`frame ${frame}`, ...Array.from({ length: n }, (_, i) => `row ${String(i).padStart(2)} `.padEnd(width, 'x'))];
}

function onScreen(screen: Screen, frame: number): void {
  const visible = screen.lines();
  expect(
    visible.filter((l) => l.startsWith('frame ')),
    visible.join('\n'),
  ).toEqual([`frame ${frame}`]);
  expect(visible.filter((l) => l.startsWith('row  0 '))).toHaveLength(1);
  for (const line of visible) expect(line.length).toBeLessThan(screen.columns);
}

describe('LiveView on a terminal', () => {
  it.each([
    [80, 24, 10],
    [80, 24, 40],
    [120, 40, 30],
  ])('at %i×%i redraws a %i-row block of 97 columns in place', (columns, rows, n) => {
    const screen = new Screen(columns, rows);
    screen.write('subscribe: listening on 127.0.0.1 port 3000\n');
    const live = new LiveView(screen, { env: {} });
    for (let frame = 1; frame <= 4; frame++) live.update(block(frame, n));
    onScreen(screen, 4);
    expect(live.size).toEqual({ columns: columns - 1, rows: rows - 1 });
  });

  it('redraws cleanly after the terminal grows and shrinks', () => {
    const screen = new Screen(120, 40);
    const live = new LiveView(screen, { env: {} });
    let frame = 0;
    for (const [columns, rows] of [
      [120, 40],
      [80, 24],
      [100, 30],
      [60, 10],
      [120, 40],
    ] as const) {
      screen.resize(columns, rows);
      for (let i = 0; i < 3; i++) live.update(block(++frame, 30));
      onScreen(screen, frame);
    }
  });

  it('a shorter block leaves nothing of the longer one below it', () => {
    const screen = new Screen(80, 24);
    const live = new LiveView(screen, { env: {} });
    live.update(block(1, 10, 40));
    live.update(block(2, 3, 40));
    expect(screen.lines().filter((l) => l.startsWith('row '))).toHaveLength(3);
  });

  it('gives the cursor back on close', () => {
    const screen = new Screen(80, 24);
    const live = new LiveView(screen, { env: {} });
    live.update(block(1, 2));
    live.close();
    expect(screen.written.endsWith('\x1b[?25h')).toBe(true);
  });
});

describe('LiveView without a terminal', () => {
  it('prints the plain lines, whole, at most once per interval, and has no size bound', () => {
    let out = '';
    const stream = new Writable({
      write: (c, _e, done) => {
        out += String(c);
        done();
      },
    });
    const live = new LiveView(stream, { plainIntervalSeconds: 5 });
    expect(live.tty).toBe(false);
    expect(live.color).toBe(false);
    expect(live.size.columns).toBe(Number.POSITIVE_INFINITY);
    const wide = 'y'.repeat(200);
    live.update(['table'], ['plain 1', wide], 0);
    live.update(['table'], ['plain 2'], 4000);
    live.update(['table'], ['plain 3'], 5000);
    expect(out).toBe(`plain 1\n${wide}\nplain 3\n`);
  });
});
