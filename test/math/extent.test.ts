import { describe, expect, it } from 'vitest';
import { extent } from '../../src/math/extent.js';
import { summarizeDisCapture } from '../../src/pcap/capture-summary.js';
import type { Capture } from '../../src/pcap/reader.js';

describe('extent', () => {
  it('finds the smallest and largest value, skipping NaN', () => {
    expect(extent([3, -1, Number.NaN, 7, 2])).toEqual([-1, 7]);
    expect(extent(new Float64Array([5]))).toEqual([5, 5]);
    expect(extent([])).toEqual([Number.NaN, Number.NaN]);
    expect(extent([Number.NaN])).toEqual([Number.NaN, Number.NaN]);
  });

  it('takes a million values (Math.min(...values) overflows the stack there)', () => {
    const values = Array.from({ length: 1_000_000 }, (_, i) => i - 500_000);
    expect(() => Math.min(...values)).toThrow(RangeError);
    expect(extent(values)).toEqual([-500_000, 499_999]);
  });

  it('lets the capture summary span a capture of 300 000 frames', () => {
    const frames = Array.from({ length: 300_000 }, (_, i) => ({
      number: i + 1,
      timeSeconds: 1_700_000_000 + i / 100,
      linkType: 1,
      data: new Uint8Array(0),
      originalLength: 0,
    }));
    const capture = { format: 'pcap', frames, truncated: false } as unknown as Capture;
    const summary = summarizeDisCapture(capture);
    expect(summary.firstTimeSeconds).toBe(1_700_000_000);
    expect(summary.lastTimeSeconds).toBeCloseTo(1_700_000_000 + 299_999 / 100, 6);
  });
});
