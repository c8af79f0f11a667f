/**
 * `reckon/feeds`: truth from anywhere, as rxjs streams of the truth samples `deadReckonEmit` takes — NDJSON
 * truth records from any program (`truthFromNdjson`), live ADS-B (`adsbFeed`: SBS-1, Beast, aircraft.json) and
 * AIS (`aisFeed`: AIVDM over UDP or TCP) — and the pure decoders and track table beneath them (docs/feeds.md).
 * Node's sockets load only when a feed of a URL is subscribed: the decoders, `feedFromChunks` and the tracks run
 * in a browser too.
 */
import type { Observable } from 'rxjs';
import { map } from 'rxjs';
import { parseFeedUrl, parseTruthSource, type FeedSpec } from './feed-url.js';
import { feedFromChunks, liveFeed, type LiveFeed, type LiveFeedOptions } from './live-feed.js';

export * from '../fixes/index.js';
export { FeedTracks, type FeedTracksOptions } from './feed-tracks.js';
export { parseFeedUrl, parseTruthSource, type FeedSpec, type FeedTransport } from './feed-url.js';
export {
  feedFromChunks,
  FlowGate,
  liveFeed,
  type FeedStats,
  type LiveFeed,
  type LiveFeedOptions,
} from './live-feed.js';
export type { ByteStream, Chunk, ConnectionOptions, ConnectionStatus } from './connections.js';

function spec(parsed: FeedSpec | string, formats: readonly string[], what: string): FeedSpec {
  if (typeof parsed === 'string') throw new RangeError(parsed);
  if (!formats.includes(parsed.format)) throw new RangeError(`${parsed.text} is not ${what}`);
  return parsed;
}

/**
 * Live aircraft from an ADS-B receiver: `sbs://HOST:30003` (SBS-1 BaseStation), `beast://HOST:30005` (Beast
 * binary, Mode S decoded here with CPR) or `http(s)://HOST/…/aircraft.json` (readsb, dump1090, polled).
 * @throws RangeError for a URL that is none of these.
 *
 * ## Example
 * ```ts
 * import { createPublisher, deadReckonEmit } from 'reckon';
 * import { adsbFeed } from 'reckon/feeds';
 *
 * const publisher = await createPublisher({ network: { port: 3000 } });
 * const feed = adsbFeed('beast://127.0.0.1:30005');
 * feed.pipe(deadReckonEmit({ config: publisher.config }), publisher.transmit()).subscribe();
 * setInterval(() => console.log(feed.stats.vehicles, 'aircraft'), 5000);
 * ```
 */
export function adsbFeed(url: string, options?: LiveFeedOptions): LiveFeed {
  return liveFeed(spec(parseFeedUrl(url), ['sbs', 'beast', 'aircraft-json'], 'an ADS-B feed'), options);
}

/**
 * Live vessels from AIS: `aivdm+udp://ADDR:PORT` (listened to, as AIS-catcher and rtl-ais send) or
 * `aivdm+tcp://HOST:PORT` (a client, as of AIS-catcher's or gpsd's server).
 * @throws RangeError for a URL that is neither.
 */
export function aisFeed(url: string, options?: LiveFeedOptions): LiveFeed {
  return liveFeed(spec(parseFeedUrl(url), ['aivdm'], 'an AIS feed'), options);
}

const encoder = new TextEncoder();

/**
 * Entities of any program's NDJSON truth records (`schemas/truth.schema.json`): from a source — `-` (the
 * options' `stdin`), a file (played at the pace of its records' times), `udp://ADDR:PORT` or `tcp://ADDR:PORT`
 * (listened to) — or from an Observable of text or bytes (lines may be split anywhere).
 * @throws RangeError for a source that is none of these.
 */
export function truthFromNdjson(source: string | Observable<string | Uint8Array>, options?: LiveFeedOptions): LiveFeed {
  if (typeof source === 'string') return liveFeed(spec(parseTruthSource(source), ['truth'], 'a truth source'), options);
  const chunks = source.pipe(map((c) => (typeof c === 'string' ? encoder.encode(c) : c)));
  return feedFromChunks('truth', chunks, options);
}
