/**
 * A live feed as an rxjs stream of truth samples, the input `deadReckonEmit` takes: bytes (from a socket, a file,
 * a poll, or any Observable of chunks, in a browser too) → fixes (the format's decoder) → tracks (cleaned,
 * shared by every feed of a publisher) → a sample of a vehicle's truth at each fix that moves it, at `rateHz`
 * between fixes (its estimate extrapolated: heartbeats and dead reckoning through signal loss), and a sample with
 * the appearance Deactivated when it leaves (a record's `leave`, out of the altitude band, or unheard too long).
 */
import { asyncScheduler, Observable, type SchedulerLike } from 'rxjs';
import { APPEARANCE_DEACTIVATED } from '../dr/models/algorithm.js';
import { createTruthState, type TruthState } from '../dr/owner/truth-state.js';
import { createDecoderStats, createFeedDecoder, type FeedFormat } from '../fixes/feed-decoders.js';
import { Fix, FIX_ECEF, FIX_POSITION } from '../fixes/fix.js';
import type { Track } from '../fixes/track.js';
import {
  TRACK_GLITCH,
  TRACK_IDENTITY,
  TRACK_LEFT,
  TRACK_MOVED,
  TRACK_NEW,
  TRACK_REFUSED,
} from '../fixes/track-table.js';
import type { LocalEntity } from '../stream/local-entities.js';
import type { TruthSample } from '../stream/operators.js';
import { FeedTracks } from './feed-tracks.js';
import type { Chunk, ConnectionOptions, ConnectionStatus } from './connections.js';
import type { FeedSpec } from './feed-url.js';

/** Ticks per sample of a vessel between its fixes. */
const VESSEL_TICK_EVERY = 4;
const KEY_SPACE_MMSI = 1;

/** What a feed has done so far, updated in place. */
export interface FeedStats {
  /** The feed as given. */
  readonly name: string;
  readonly format: FeedFormat;
  readonly decoder: import('../fixes/feed-decoders.js').DecoderStats;
  readonly connection: ConnectionStatus;
  /** Vehicles published now, and since the start. */
  vehicles: number;
  vehiclesSeen: number;
  /** Positions the track cleaning rejected as glitches. */
  glitches: number;
  /** Vehicles refused (the table full) or outside the altitude band. */
  refused: number;
  /** Vehicles that left (gone quiet, out of the band, or a record's leave). */
  left: number;
  /** Truth samples handed on, the fixes among them, and the fixes among those that placed the vehicle. */
  samples: number;
  fixSamples: number;
  positionFixes: number;
  /**
   * PDUs a bridge without dead reckoning would have sent: one per position, a heartbeat when none came for
   * BRIDGE_HEARTBEAT_SECONDS, and a leave notice — the measure of what dead reckoning saves.
   */
  bridgePdus: number;
}

/** The Entity State PDU's heartbeat (IEEE 1278.1-2012 Table 25, HBT_ESPDU), which a bridge must keep too (s). */
export const BRIDGE_HEARTBEAT_SECONDS = 5;

/** Options of a live feed. */
export interface LiveFeedOptions extends ConnectionOptions {
  /** The tracks shared with the publisher's other feeds. Defaults to tracks of this feed's own. */
  readonly tracks?: FeedTracks;
  /** Samples per second of each vehicle between fixes (a quarter of it for vessels). Defaults to 2. */
  readonly rateHz?: number;
  /** The clock (`now()` in ms) of samples and ticks. Defaults to `asyncScheduler` (the wall clock). */
  readonly scheduler?: SchedulerLike;
  /** A file of records is played at the pace of their times. Defaults to true. */
  readonly pace?: boolean;
}

/** A feed's samples, with its counters. */
export type LiveFeed = Observable<TruthSample> & { readonly stats: FeedStats };

/** The connection of a feed that is no socket. */
function quietConnection(): ConnectionStatus {
  return {
    connected: true,
    connections: 1,
    failures: 0,
    stalls: 0,
    lastError: undefined,
    listening: undefined,
    refused: 0,
  };
}

/**
 * A feed of `spec` (`parseFeedUrl`, `parseTruthSource`): its connection is opened at subscription (Node's
 * sockets, loaded then) and closed at unsubscription.
 */
export function liveFeed(spec: FeedSpec, options: LiveFeedOptions = {}): LiveFeed {
  const connection = quietConnection();
  connection.connected = false;
  connection.connections = 0;
  const paced = spec.transport === 'file' && options.pace !== false;
  const gate = new FlowGate();
  const chunks = new Observable<Chunk>((subscriber) => {
    let inner: { unsubscribe(): void } | undefined;
    let closed = false;
    void import('./connections.js').then(({ feedChunks, fileChunks }) => {
      if (closed) return;
      const source = paced
        ? fileChunks(spec.location, connection, () => gate.whenOpen())
        : feedChunks(spec, connection, options);
      inner = source.subscribe(subscriber);
    });
    return () => {
      closed = true;
      inner?.unsubscribe();
    };
  });
  return feedFromChunks(spec.format, chunks, { ...options, name: spec.text, connection, ...(paced ? { gate } : {}) });
}

/** Holds a file's reading while the records read wait for their time (at most `HIGH` of them). */
export class FlowGate {
  static readonly HIGH = 4096;
  private readonly waiting: Array<() => void> = [];
  private held = 0;

  /** How many records wait now. */
  set queued(count: number) {
    this.held = count;
    if (count < FlowGate.HIGH / 2) for (const open of this.waiting.splice(0)) open();
  }

  /** Resolves when reading may go on. */
  whenOpen(): Promise<void> {
    return this.held < FlowGate.HIGH ? Promise.resolve() : new Promise((open) => this.waiting.push(open));
  }
}

/**
 * A feed of any stream of bytes in one of the formats (in a browser too: a WebSocket's messages, a fetched body).
 * A `Uint8Array` is a piece of one stream; a `Chunk` says its connection and whether it ended.
 */
export function feedFromChunks(
  format: FeedFormat,
  chunks: Observable<Uint8Array | Chunk>,
  options: LiveFeedOptions & {
    readonly name?: string;
    readonly connection?: ConnectionStatus;
    readonly gate?: FlowGate;
  } = {},
): LiveFeed {
  const decoderStats = createDecoderStats();
  const stats: FeedStats = {
    name: options.name ?? format,
    format,
    decoder: decoderStats,
    connection: options.connection ?? quietConnection(),
    vehicles: 0,
    vehiclesSeen: 0,
    glitches: 0,
    refused: 0,
    left: 0,
    samples: 0,
    fixSamples: 0,
    positionFixes: 0,
    bridgePdus: 0,
  };
  const scheduler = options.scheduler ?? asyncScheduler;
  const periodMs = 1000 / (options.rateHz ?? 2);
  const observable = new Observable<TruthSample>((subscriber) => {
    const tracks = options.tracks ?? new FeedTracks();
    const table = tracks.table;
    const source = tracks.addSource();
    const state: TruthState = createTruthState();
    const sample: { entity: LocalEntity; state: TruthState; timeSeconds: number; appearance: number } = {
      entity: { entity: 1 },
      state,
      timeSeconds: 0,
      appearance: 0,
    };
    // Own times of messages to the publisher's axis: the freshest message's lead over the wall clock. The estimator
    // measures on the own times less the first lead, fixed: a replay faster than real time keeps its intervals.
    let clockOffset = Number.NaN;
    let measureBase = Number.NaN;
    const emit = (track: Track, tSeconds: number, appearance: number): void => {
      const t = Math.max(tSeconds, track.sampleSeconds);
      track.sampleSeconds = t;
      table.truthAt(track, t, state);
      sample.entity = tracks.entity(track);
      sample.timeSeconds = t;
      sample.appearance = appearance;
      stats.samples++;
      subscriber.next(sample);
    };
    const leave = (track: Track, wallSeconds: number): void => {
      stats.bridgePdus++;
      emit(track, track.ownTime ? wallSeconds + track.clockOffsetSeconds : wallSeconds, APPEARANCE_DEACTIVATED);
      table.remove(track);
      stats.vehicles--;
      stats.left++;
    };
    const onFix = (fix: Fix, wallSeconds: number): void => {
      const own = fix.timeSeconds;
      const named = fix.keySpace === 2;
      let t = wallSeconds;
      let measure: number | undefined;
      if (named) {
        // A record's time is the entity's own axis; a record without one goes on from where its entity was.
        t = Number.isFinite(own) ? own : wallSeconds + (table.peek(fix)?.clockOffsetSeconds ?? 0);
      } else if (Number.isFinite(own)) {
        const lead = own - wallSeconds;
        if (Number.isNaN(clockOffset) || lead < clockOffset - 300) measureBase = lead;
        if (Number.isNaN(clockOffset) || lead > clockOffset || lead < clockOffset - 300) clockOffset = lead;
        t = own - clockOffset;
        measure = own - measureBase;
      }
      const changes = table.apply(fix, source, wallSeconds, t, measure);
      const track = table.lastTrack;
      if (changes & TRACK_REFUSED) stats.refused++;
      if (!track) return;
      if (named && Number.isFinite(own)) track.clockOffsetSeconds = t - wallSeconds;
      if (changes & TRACK_GLITCH) stats.glitches++;
      if (changes & TRACK_LEFT) {
        if (track.positioned) leave(track, wallSeconds);
        else {
          table.remove(track);
          if (track.fixes > 0) stats.vehicles--;
        }
        return;
      }
      if (changes & TRACK_NEW) {
        stats.vehicles++;
        stats.vehiclesSeen++;
      }
      if (track.positioned && changes & (TRACK_MOVED | TRACK_IDENTITY)) {
        stats.fixSamples++;
        if (changes & TRACK_MOVED && fix.flags & (FIX_POSITION | FIX_ECEF)) {
          stats.positionFixes++;
          stats.bridgePdus++;
          track.bridgeSeconds = t;
        }
        emit(track, t, 0);
      }
    };
    const paced = options.gate ? pacer(onFix, scheduler, options.gate) : undefined;
    const decoder = createFeedDecoder(format, paced ?? onFix, decoderStats);

    let tickCount = 0;
    const tick = (): void => {
      const wallSeconds = scheduler.now() / 1000;
      // Vessels are sampled a quarter as often: at 15 m/s at most, their dead reckoning drifts slowly.
      const vessels = tickCount++ % VESSEL_TICK_EVERY === 0;
      table.forEachPositioned((track) => {
        if (track.source !== source) return;
        if (table.isStale(track, wallSeconds)) leave(track, wallSeconds);
        else if (vessels || track.keySpace !== KEY_SPACE_MMSI) {
          emit(track, track.ownTime ? wallSeconds + track.clockOffsetSeconds : wallSeconds, 0);
          if (track.sampleSeconds - track.bridgeSeconds >= BRIDGE_HEARTBEAT_SECONDS) {
            stats.bridgePdus++;
            track.bridgeSeconds = track.sampleSeconds;
          }
        }
      });
    };
    const ticks = scheduler.schedule(function () {
      tick();
      this.schedule(undefined, periodMs);
    }, periodMs);
    const input = chunks.subscribe({
      next(chunk) {
        const wallSeconds = scheduler.now() / 1000;
        if (chunk instanceof Uint8Array) decoder.push(chunk, wallSeconds);
        else {
          if (chunk.bytes.length > 0) decoder.push(chunk.bytes, wallSeconds, chunk.stream);
          if (chunk.end) decoder.end(chunk.stream);
        }
      },
      error: (error: unknown) => subscriber.error(error),
      complete: () => {
        decoder.end();
        if (paced) paced.whenEmpty(() => subscriber.complete());
        else subscriber.complete();
      },
    });
    return () => {
      ticks.unsubscribe();
      input.unsubscribe();
    };
  });
  return Object.assign(observable, { stats });
}

/** Fixes of a file held until their own time comes (the first at once), so the file plays at its pace. */
function pacer(apply: (fix: Fix, wallSeconds: number) => void, scheduler: SchedulerLike, gate: FlowGate) {
  const queue: Fix[] = [];
  let startWall = Number.NaN,
    startOwn = Number.NaN;
  let pending: { unsubscribe(): void } | undefined;
  const drain = (): void => {
    pending = undefined;
    const wall = scheduler.now() / 1000;
    while (queue.length > 0) {
      const fix = queue[0]!;
      const due = Number.isFinite(fix.timeSeconds) ? startWall + (fix.timeSeconds - startOwn) : wall;
      if (due > wall) {
        pending = scheduler.schedule(drain, (due - wall) * 1000);
        return;
      }
      queue.shift();
      gate.queued = queue.length;
      apply(fix, wall);
    }
    for (const done of waiting.splice(0)) done();
  };
  const waiting: Array<() => void> = [];
  const sink = (fix: Fix): void => {
    if (Number.isNaN(startWall) && Number.isFinite(fix.timeSeconds)) {
      startWall = scheduler.now() / 1000;
      startOwn = fix.timeSeconds;
    }
    queue.push(copyFix(fix));
    gate.queued = queue.length;
    if (!pending) drain();
  };
  return Object.assign(sink, { whenEmpty: (done: () => void) => (queue.length === 0 ? done() : waiting.push(done)) });
}

/** A copy of a fix (a file's records wait in a queue). */
function copyFix(from: Fix): Fix {
  const to = new Fix();
  Object.assign(to, from);
  (to as { positionEcef: Float64Array }).positionEcef = Float64Array.from(from.positionEcef);
  (to as { velocity: Float64Array }).velocity = Float64Array.from(from.velocity);
  (to as { entityType: Uint16Array }).entityType = Uint16Array.from(from.entityType);
  return to;
}
