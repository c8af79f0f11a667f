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

// The pure decoders and the track table of `fixes/`, which the browser can load alone.
export {
  DecodeStatus,
  Fix,
  FIX_ATTITUDE,
  FIX_CALLSIGN,
  FIX_ECEF,
  FIX_FORCE,
  FIX_GNSS_BARO_DELTA,
  FIX_GROUND_VELOCITY,
  FIX_HEADING,
  FIX_HEIGHT,
  FIX_HEIGHT_GEOMETRIC,
  FIX_LEAVE,
  FIX_ON_GROUND,
  FIX_POSITION,
  FIX_TYPE,
  FIX_VELOCITY,
  FIX_VERTICAL_RATE,
  KeySpace,
  NON_ICAO_ADDRESS,
  PositionSource,
  POSITION_SOURCE_TAGS,
  LineSplitter,
  type LineSink,
  decodeSbsLine,
  BeastDeframer,
  BEAST_MLAT_TIMESTAMP,
  type BeastFrameSink,
  decodeModeS,
  modeSCrc,
  ModeSKind,
  ModeSMessage,
  cprGlobalAirborne,
  cprLocal,
  cprNL,
  ModeSDecoder,
  NmeaReader,
  NmeaStatus,
  MAX_PAYLOAD_CHARS,
  aisBits,
  aisMessageType,
  aisSignedBits,
  aisText,
  decodeAis,
  AircraftJsonReader,
  decodeTruthRecord,
  MAX_ID_LENGTH,
  AIRCRAFT_TYPE_NAMES,
  aircraftEntityType,
  entityTypeOfCategory,
  entityTypeOfDesignator,
  vesselEntityType,
  type EntityTypeNumbers,
  ESTIMATOR_PROFILES,
  GatedKalmanTracks,
  type EstimatorProfile,
  type TrackEstimator,
  FORCE_NEUTRAL,
  Track,
  DEFAULT_STALE_SECONDS,
  MAX_TRACKS,
  TRACK_GLITCH,
  TRACK_IDENTITY,
  TRACK_LEFT,
  TRACK_MOVED,
  TRACK_NEW,
  TRACK_REFUSED,
  TrackTable,
  type TrackTableOptions,
  type TrackTableStats,
  createDecoderStats,
  createFeedDecoder,
  MAX_LINE_BYTES,
  type DecoderStats,
  type FeedDecoder,
  type FeedFormat,
  type FixSink,
} from '../fixes/index.js';
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
