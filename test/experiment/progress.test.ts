import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createProgress, formatSeconds } from '../../src/experiment/progress.js';

function capture(tty: boolean) {
  const stream = Object.assign(new PassThrough(), { isTTY: tty });
  let text = '';
  stream.on('data', (d) => (text += d));
  return { stream, text: () => text };
}

describe('createProgress', () => {
  it('writes plain lines about every 10 % when not on a terminal', () => {
    const { stream, text } = capture(false);
    let clock = 0;
    const progress = createProgress(100, stream, 'runs', () => clock);
    for (let done = 1; done <= 100; done++) {
      clock += 100;
      progress.update(done);
    }
    progress.finish();
    const lines = text().trimEnd().split('\n');
    expect(lines).toHaveLength(11); // 1 %, then each tenth up to 100 %
    expect(lines[lines.length - 1]).toBe('100/100 runs · 10.0 s');
    expect(text()).not.toContain('\r');
  });

  it('redraws one bar with an ETA on a terminal', () => {
    const { stream, text } = capture(true);
    let clock = 0;
    const progress = createProgress(4, stream, 'runs', () => clock);
    clock = 1000;
    progress.update(1);
    clock = 4000;
    progress.update(4);
    progress.finish();
    expect(text()).toBe(
      '\r\x1b[2K[########......................] 1/4 runs · 1.0 s · 3.0 s left' +
        '\r\x1b[2K[##############################] 4/4 runs · 4.0 s\n',
    );
  });
});

describe('formatSeconds', () => {
  it.each([
    [0, '0.0 s'],
    [12.34, '12.3 s'],
    [59.94, '59.9 s'],
    [59.96, '1 min 0 s'], // not "60.0 s"
    [60, '1 min 0 s'],
    [419.6, '7 min 0 s'], // not "6 min 60 s"
    [3599.7, '60 min 0 s'],
    [365, '6 min 5 s'],
  ])('%f s → %s', (seconds, text) => {
    expect(formatSeconds(seconds)).toBe(text);
  });
});
