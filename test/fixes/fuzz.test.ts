// The feed decoders fuzzed like the DIS decoders: random and mutated bytes of the real recordings into every
// decoder and the track table behind it (scripts/fuzz-feeds.ts, docs/reliability-fuzz.md), and arbitrary bytes in
// arbitrary chunks: nothing throws, no truth state holds a non-finite number, and what is held stays bounded.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fuzzFeeds } from '../../scripts/fuzz-feeds.js';
import { createFeedDecoder, LineSplitter, MAX_LINE_BYTES, type FeedFormat } from '../../src/fixes/index.js';

describe('feed decoders under fuzzing', () => {
  it('survive 2,000 mutated chunks of every recording in every format: no throw, no non-finite truth', () => {
    const report = fuzzFeeds({ chunks: 2000, seed: 1 });
    expect(report.firstThrows).toEqual([]);
    expect(report.throws).toBe(0);
    expect(report.nonFinite).toBe(0);
    for (const format of ['sbs', 'beast', 'aivdm', 'truth', 'aircraft-json']) {
      const stats = report.formats[format]!;
      expect(stats.fixes, format).toBeGreaterThan(0);
      expect(stats.malformed, format).toBeGreaterThan(0);
    }
    expect(report.formats.sbs!.overlong).toBeGreaterThan(0);
  });

  it.each(['sbs', 'beast', 'aivdm', 'truth', 'aircraft-json'] as FeedFormat[])(
    '%s: any bytes in any chunks are read without a throw',
    (format) => {
      fc.assert(
        fc.property(fc.array(fc.uint8Array({ maxLength: 600 }), { maxLength: 20 }), (chunks) => {
          const decoder = createFeedDecoder(format, () => {});
          for (const chunk of chunks) decoder.push(chunk, 1);
          decoder.end();
          expect(decoder.stats.bytes).toBe(chunks.reduce((n, c) => n + c.length, 0));
        }),
        { numRuns: 300 },
      );
    },
  );

  it('holds at most the line bound of a line that never ends, and counts it once', () => {
    let lines = 0;
    const splitter = new LineSplitter(MAX_LINE_BYTES.sbs, () => lines++);
    const chunk = new Uint8Array(4096).fill(65);
    for (let k = 0; k < 1000; k++) {
      splitter.push(chunk);
      expect(splitter.pendingBytes).toBeLessThanOrEqual(MAX_LINE_BYTES.sbs);
    }
    splitter.push(Uint8Array.of(10, 66, 10));
    expect([splitter.overlong, lines]).toEqual([1, 1]);
  });
});
