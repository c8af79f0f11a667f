import { describe, expect, it } from 'vitest';
import { createRandom } from '../../src/math/random.js';
import { PlayoutAddStatus, PlayoutBuffer } from '../../src/lockstep/playout-buffer.js';

const STEP = 1 / 60;

/**
 * Feeds frames arriving at `arrival(frame)` and renders at 60 Hz until `seconds` (chosen before the stream runs
 * dry, which would rightly count as a hitch); returns the release log.
 */
function play(buffer: PlayoutBuffer, frames: number, arrival: (frame: number) => number, seconds: number) {
  const releases: Array<[number, number]> = [];
  const order = Array.from({ length: frames }, (_, f) => f).sort((a, b) => arrival(a) - arrival(b));
  let next = 0;
  for (let tick = 0; tick * STEP <= seconds; tick++) {
    const now = tick * STEP;
    while (next < order.length && arrival(order[next]!) <= now) {
      buffer.add(order[next]!, order[next]! & 63, arrival(order[next]!));
      next++;
    }
    buffer.update(now, (frame, value) => {
      expect(value).toBe(frame & 63);
      releases.push([frame, now]);
    });
  }
  buffer.finish(seconds);
  return releases;
}

describe('playout delay buffer', () => {
  it('plays frames at a steady rate, first arrival + delay, with no hitch on a steady link', () => {
    const buffer = new PlayoutBuffer({ delaySeconds: 0.1 });
    const releases = play(buffer, 300, (f) => 0.5 + f * STEP + 0.0001, 5.55);
    expect(releases.length).toBe(297);
    releases.forEach(([frame, time], i) => {
      expect(frame).toBe(i);
      // Released on the first render tick at or after its playout time.
      expect(time).toBeGreaterThanOrEqual(0.6 + frame * STEP - 1e-9);
      expect(time).toBeLessThan(0.6 + frame * STEP + STEP + 1e-9);
    });
    expect(buffer.stats.hitches).toBe(0);
    expect(buffer.delaySeconds).toBeCloseTo(0.1, 9);
  });

  it('waits for a missing frame (a hitch), then catches up at most 4 frames per update', () => {
    const buffer = new PlayoutBuffer({ delaySeconds: 0.05 });
    // Frame 60 arrives 0.5 s late; everything else is on time.
    const releases = play(buffer, 200, (f) => f * STEP + (f === 60 ? 0.5 : 0), 3.35);
    expect(buffer.stats.hitches).toBe(1);
    expect(buffer.stats.longestStallSeconds).toBeGreaterThan(0.5 - 0.05 - 2 * STEP);
    expect(buffer.stats.longestStallSeconds).toBeLessThan(0.5 - 0.05 + 2 * STEP);
    const perTick = new Map<number, number>();
    for (const [, t] of releases) perTick.set(t, (perTick.get(t) ?? 0) + 1);
    expect(Math.max(...perTick.values())).toBe(4);
    expect(releases.map(([f]) => f)).toEqual(Array.from({ length: releases.length }, (_, f) => f));
    expect(releases.length).toBeGreaterThan(195);
  });

  it('classifies late, duplicate and far-ahead frames', () => {
    const buffer = new PlayoutBuffer({ capacity: 8, delaySeconds: 0 });
    expect(buffer.add(0, 1, 0)).toBe(PlayoutAddStatus.OK);
    expect(buffer.add(0, 1, 0)).toBe(PlayoutAddStatus.DUPLICATE);
    expect(buffer.add(8, 1, 0)).toBe(PlayoutAddStatus.TOO_FAR_AHEAD);
    buffer.update(0, () => {});
    expect(buffer.add(0, 1, 0.1)).toBe(PlayoutAddStatus.LATE);
    expect(buffer.add(8, 1, 0.1)).toBe(PlayoutAddStatus.OK);
    expect(buffer.stats).toMatchObject({ added: 2, duplicates: 1, late: 1, tooFarAhead: 1, released: 1 });
  });

  it('adaptive mode shrinks an over-generous delay to the jitter plus a margin, without hitches', () => {
    const random = createRandom(9);
    const jitter = Array.from({ length: 3600 }, () => random.next() * 0.03);
    const arrival = (f: number) => 0.05 + f * STEP + jitter[f]!;
    const fixed = new PlayoutBuffer({ delaySeconds: 0.4 });
    play(fixed, 3600, arrival, 59);
    const adaptive = new PlayoutBuffer({ delaySeconds: 0.4, adaptive: true });
    play(adaptive, 3600, arrival, 59);
    expect(fixed.delaySeconds).toBeGreaterThan(0.4);
    expect(adaptive.delaySeconds).toBeLessThan(0.03 + 0.02 + 0.02);
    expect(adaptive.delaySeconds).toBeGreaterThan(0.02);
    expect(adaptive.stats.hitches).toBeLessThanOrEqual(2);
  });

  it('adaptive mode follows a sender whose clock runs 1 % slow; a fixed delay hitches again and again', () => {
    const arrival = (f: number) => 0.05 + f * STEP * 1.01;
    const fixed = new PlayoutBuffer({ delaySeconds: 0.1 });
    play(fixed, 3000, arrival, 50);
    const adaptive = new PlayoutBuffer({ delaySeconds: 0.1, adaptive: true });
    play(adaptive, 3000, arrival, 50);
    expect(fixed.stats.hitches).toBeGreaterThan(20);
    expect(adaptive.stats.hitches).toBe(0);
  });
});
