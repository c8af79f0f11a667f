// The panel's PDUs/s and bytes/s (src/view/arrival-rate.ts): what arrives, over a few seconds, so that a slow feed
// reads as it is, not as 0 in one second and 2 in the next.
import { describe, expect, it } from 'vitest';
import { ArrivalRate, RATE_WINDOW_SECONDS } from '../../src/view/arrival-rate.js';

describe('ArrivalRate', () => {
  it('reads one PDU a second as 1, whichever second of the window each falls in', () => {
    const rate = new ArrivalRate();
    const seen: number[] = [];
    // The PDUs come at 0.9 s, 1.95 s, 2.9 s, 4.05 s, …: sometimes two in one second of the counter, none in the next.
    const arrivals = [0.9, 1.95, 2.9, 4.05, 4.95, 5.99, 7.01, 7.97, 9.02, 9.98, 11.03, 11.96];
    let next = 0;
    for (let second = 1; second <= 12; second++) {
      while (next < arrivals.length && arrivals[next]! < second) {
        rate.count(144);
        next++;
      }
      rate.roll();
      if (second >= RATE_WINDOW_SECONDS) seen.push(rate.pdusPerSecond);
    }
    for (const r of seen) {
      expect(r).toBeGreaterThanOrEqual(0.8);
      expect(r).toBeLessThanOrEqual(1.2);
    }
    expect(rate.bytesPerSecond).toBeCloseTo(144 * rate.pdusPerSecond, 6);
  });

  it('reads one PDU every 2 s as about 0.5, and a feed that stopped as 0 once the window has passed', () => {
    const rate = new ArrivalRate();
    for (let second = 1; second <= 10; second++) {
      if (second % 2 === 0) rate.count(100);
      rate.roll();
      if (second >= RATE_WINDOW_SECONDS) expect(rate.pdusPerSecond).toBeCloseTo(0.5, 0);
    }
    for (let second = 0; second < RATE_WINDOW_SECONDS; second++) rate.roll();
    expect(rate.pdusPerSecond).toBe(0);
  });

  it('averages over the seconds seen so far at first (no low reading while the window fills)', () => {
    const rate = new ArrivalRate();
    rate.count(144);
    rate.count(144);
    rate.roll();
    expect(rate.pdusPerSecond).toBe(2);
    rate.count(144);
    rate.roll();
    expect(rate.pdusPerSecond).toBe(1.5);
  });
});
