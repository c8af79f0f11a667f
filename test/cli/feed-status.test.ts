// publish's status line of a feed: the share of PDUs saved against a bridge that sends every position and the
// heartbeat it owes too — never a negative share, however short the run — and the answer to a URL without its port.
import { describe, expect, it } from 'vitest';
import { statusLine } from '../../src/cli/feed-publish.js';
import type { FeedStats } from '../../src/feeds/live-feed.js';
import { createDecoderStats } from '../../src/fixes/feed-decoders.js';

function stats(positionFixes: number, bridgePdus: number): FeedStats {
  const decoder = createDecoderStats();
  decoder.messages = 40;
  return {
    name: 'sbs://127.0.0.1:30003',
    format: 'sbs',
    decoder,
    connection: {
      connected: true,
      connections: 1,
      failures: 0,
      stalls: 0,
      lastError: undefined,
      listening: undefined,
      refused: 0,
    },
    vehicles: 3,
    vehiclesSeen: 3,
    glitches: 0,
    refused: 0,
    left: 0,
    samples: 200,
    fixSamples: 20,
    positionFixes,
    bridgePdus,
  };
}

describe('the status line of a feed', () => {
  it('counts the heartbeats a bridge sends too: few positions over a while are no loss', () => {
    // 15 positions of 3 aircraft over 75 s: a bridge sends them and 42 heartbeats; dead reckoning sends 48.
    const line = statusLine(stats(15, 57), 48);
    expect(line).toContain('15 positions → 48 PDUs (16 % saved)');
    expect(line).not.toMatch(/-\d/);
  });

  it('says "more", without a sign, when dead reckoning sent more than the bridge', () => {
    const line = statusLine(stats(2, 4), 9);
    expect(line).toContain('2 positions → 9 PDUs (125 % more)');
    expect(line).not.toMatch(/-\d/);
  });

  it('gives no share before the first position', () => {
    expect(statusLine(stats(0, 0), 0)).toMatch(/0 positions → 0 PDUs$/);
  });
});

describe('a --feed URL without its port', () => {
  it("is answered with the format's own port as the example", async () => {
    const { parseFeedUrl } = await import('../../src/feeds/feed-url.js');
    expect(parseFeedUrl('sbs://127.0.0.1:')).toBe(
      'sbs:// needs HOST:PORT (e.g. sbs://127.0.0.1:30003); got "sbs://127.0.0.1:"',
    );
    expect(parseFeedUrl('beast://127.0.0.1:')).toMatch(/e\.g\. beast:\/\/127\.0\.0\.1:30005\)/);
    expect(parseFeedUrl('aivdm+udp://0.0.0.0')).toMatch(/e\.g\. aivdm\+udp:\/\/127\.0\.0\.1:10110\)/);
    expect(parseFeedUrl('sbs://127.0.0.1')).toMatchObject({ port: 30003 });
  });
});
