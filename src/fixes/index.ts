/**
 * Live traffic as truth, the pure part: decoders of SBS-1, Beast (Mode S / ADS-B with CPR), aircraft.json,
 * AIVDM/AIVDO (AIS) and NDJSON truth records into fixes, and the track table that cleans each vehicle's track and
 * gives its truth state at any time. No sockets, files or clock: they run in a browser as well as in Node.
 * `reckon/feeds` re-exports them beside its rxjs sources (docs/feeds.md).
 */
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
} from './fix.js';
export { LineSplitter, type LineSink } from './line-splitter.js';
export { decodeSbsLine } from './sbs.js';
export { BeastDeframer, BEAST_MLAT_TIMESTAMP, type BeastFrameSink } from './beast.js';
export { decodeModeS, modeSCrc, ModeSKind, ModeSMessage } from './mode-s.js';
export { cprGlobalAirborne, cprLocal, cprNL } from './cpr.js';
export { ModeSDecoder } from './adsb-decoder.js';
export { NmeaReader, NmeaStatus, MAX_PAYLOAD_CHARS } from './nmea.js';
export { aisBits, aisMessageType, aisSignedBits, aisText, decodeAis } from './ais.js';
export { AircraftJsonReader } from './aircraft-json.js';
export { decodeTruthRecord, MAX_ID_LENGTH } from './truth-record.js';
export {
  AIRCRAFT_TYPE_NAMES,
  aircraftEntityType,
  entityTypeOfCategory,
  entityTypeOfDesignator,
  vesselEntityType,
  type EntityTypeNumbers,
} from './entity-types.js';
export {
  ESTIMATOR_PROFILES,
  GatedKalmanTracks,
  type EstimatorProfile,
  type TrackEstimator,
} from './track-estimator.js';
export { FORCE_NEUTRAL, Track } from './track.js';
export {
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
} from './track-table.js';
export {
  createDecoderStats,
  createFeedDecoder,
  MAX_LINE_BYTES,
  type DecoderStats,
  type FeedDecoder,
  type FeedFormat,
  type FixSink,
} from './feed-decoders.js';
