// A feed's fixes are measured on their own time when their messages carry one (AIS tag blocks, $PGHP lines), not
// on their arrival: the DMA AIS stream (27 s of Danish traffic; test/fixtures/feeds/) sent all at once, a line a
// datagram, is cleaned as it is when it comes at its own pace.
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { Observable, VirtualTimeScheduler } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { Chunk } from '../../src/feeds/connections.js';
import { feedFromChunks } from '../../src/feeds/live-feed.js';

const lines = gunzipSync(
  readFileSync(new URL('../fixtures/feeds/ais_dma_aislib_stream_example.txt.gz', import.meta.url)),
)
  .toString()
  .split('\n')
  .filter((l) => l !== '');

/** The stream's lines as datagrams, at their $PGHP times (paced) or all at the start; the feed's counters. */
function play(paced: boolean) {
  const scheduler = new VirtualTimeScheduler(undefined, 0);
  let push: (chunk: Chunk) => void = () => {};
  const chunks = new Observable<Chunk>((subscriber) => {
    push = (chunk) => subscriber.next(chunk);
  });
  const feed = feedFromChunks('aivdm', chunks, { scheduler });
  feed.subscribe(() => {});
  let t0 = Number.NaN;
  for (const line of lines) {
    const m = /^\$PGHP,1,(\d+),(\d+),(\d+),(\d+),(\d+),(\d+),(\d+)/.exec(line);
    if (m && paced) {
      const t = Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!, +m[7]!);
      if (Number.isNaN(t0)) t0 = t;
      const ms = Math.max(scheduler.frame, t - t0);
      scheduler.maxFrames = ms;
      scheduler.flush();
      scheduler.frame = ms;
    }
    push({ bytes: Buffer.from(`${line}\n`), stream: 0, end: true });
  }
  return feed.stats;
}

describe('the time of a fix', () => {
  it("is its message's own: the AIS stream unpaced has the glitches it has paced, not 10 % of its positions", () => {
    const paced = play(true);
    const unpaced = play(false);
    expect(unpaced.positionFixes).toBeGreaterThan(2500);
    expect(paced.glitches).toBeLessThan(0.01 * paced.positionFixes);
    expect(unpaced.glitches).toBeLessThanOrEqual(paced.glitches + 3);
  });
});
