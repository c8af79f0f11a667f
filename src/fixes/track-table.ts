/**
 * The live tracks of every feed of one publisher: fixes in (from any decoder), each vehicle's track kept, cleaned
 * by the estimator (a jump its gate rejects is a glitch), aged out when not heard for a while, and each track's
 * truth state at any time out (its estimate, extrapolated through a loss of signal: dead reckoning of the truth).
 * Bounded: at most `capacity` tracks (a DIS entity number each, stable for an id: a hash of it, probed on); a
 * vehicle past the bound is refused and counted. Pure: times are parameters, nothing here knows sockets or clocks.
 */
import { ecefToGeodetic, eulerFromHeadingPitchRoll, geodeticDegreesToEcef } from '../math/geodesy.js';
import type { TruthState } from '../dr/owner/truth-state.js';
import {
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
  type Fix,
  KeySpace,
  PositionSource,
} from './fix.js';
import { ESTIMATOR_PROFILES, GatedKalmanTracks, type TrackEstimator } from './track-estimator.js';
import { Track } from './track.js';

/** What a fix did to its track (`TrackTable.apply`), a bit set. */
export const TRACK_MOVED = 1;
/** The fix started a track. */
export const TRACK_NEW = 2;
/** The fix changed the track's identity (callsign, type, force). */
export const TRACK_IDENTITY = 4;
/** The track leaves: its vehicle said so, or flew out of the altitude band. */
export const TRACK_LEFT = 8;
/** The fix's position was rejected as a glitch. */
export const TRACK_GLITCH = 16;
/** No track could be made (the table is full) or the fix was outside the altitude band. */
export const TRACK_REFUSED = 32;

/** The most tracks: DIS entity numbers 1–65534 of one site and application. */
export const MAX_TRACKS = 65_534;

/** How long a vehicle may go unheard before it leaves, by key space (s): ADS-B 60, AIS 10 min, records never. */
export const DEFAULT_STALE_SECONDS: Readonly<Record<KeySpace, number>> = {
  [KeySpace.ICAO]: 60,
  [KeySpace.MMSI]: 600,
  [KeySpace.NAMED]: Number.POSITIVE_INFINITY,
};

/** Options of `TrackTable`. */
export interface TrackTableOptions {
  /** Tracks held at most (≤ 65534). Defaults to 65534. */
  readonly capacity?: number;
  /** Cleans the tracks of feeds. Defaults to a `GatedKalmanTracks`. */
  readonly estimator?: TrackEstimator;
  /** Aircraft outside [minM, maxM] (m) are not published, and leave when they fly out of it. Defaults to none. */
  readonly altitudeBand?: { readonly minM: number; readonly maxM: number };
  /** Seconds unheard after which a track leaves; one number for all, or per key space. Defaults to DEFAULT_STALE_SECONDS. */
  readonly staleSeconds?: number | Partial<Record<KeySpace, number>>;
  /** Entity numbers not to give tracks (the publisher's other entities). */
  readonly reserved?: (entityNumber: number) => boolean;
}

/** Counters of a table, updated in place. */
export interface TrackTableStats {
  fixes: number;
  /** Positions the estimator's gate rejected. */
  glitches: number;
  /** Positions that repeated the one before (a receiver's stale position), not used. */
  repeats: number;
  /** Vehicles refused because the table was full. */
  refused: number;
  /** Fixes outside the altitude band. */
  outOfBand: number;
  tracksMade: number;
  tracksLeft: number;
}

const DEG = Math.PI / 180;
/** Below this speed (m/s) a direction of travel is noise: the heading is held. */
const HEADING_MIN_SPEED = 0.5;

/** The live tracks of feeds, one slot per vehicle, cleaned by a `TrackEstimator`, bounded by `capacity`. */
export class TrackTable {
  readonly capacity: number;
  readonly estimator: TrackEstimator;
  readonly stats: TrackTableStats = {
    fixes: 0,
    glitches: 0,
    repeats: 0,
    refused: 0,
    outOfBand: 0,
    tracksMade: 0,
    tracksLeft: 0,
  };
  private readonly tracks: (Track | undefined)[] = [];
  private readonly free: number[] = [];
  private readonly byKey: Map<number, number>[] = [new Map(), new Map()];
  private readonly byId = new Map<string, number>();
  /** Slot + 1 of each entity number's track; 0 for a free number. */
  private readonly byEntity = new Int32Array(MAX_TRACKS + 2);
  private readonly stale: Readonly<Record<KeySpace, number>>;
  private readonly state = new Float64Array(6);
  private readonly geodetic = new Float64Array(3);
  private readonly ecef = new Float64Array(3);
  private live = 0;

  constructor(private readonly options: TrackTableOptions = {}) {
    this.capacity = Math.min(options.capacity ?? MAX_TRACKS, MAX_TRACKS);
    this.estimator = options.estimator ?? new GatedKalmanTracks();
    const stale = options.staleSeconds;
    this.stale =
      typeof stale === 'number'
        ? { [KeySpace.ICAO]: stale, [KeySpace.MMSI]: stale, [KeySpace.NAMED]: stale }
        : { ...DEFAULT_STALE_SECONDS, ...stale };
  }

  /** Tracks held now. */
  get size(): number {
    return this.live;
  }

  /** The track of an entity number, if one holds it. */
  trackOfEntity(entityNumber: number): Track | undefined {
    const slot = this.byEntity[entityNumber]! - 1;
    return slot < 0 ? undefined : this.tracks[slot];
  }

  /**
   * Applies one fix from feed `source`, heard at `wallSeconds`, that places the vehicle at `sampleSeconds` on the
   * publisher's axis and at `measureSeconds` on the estimator's (its message's own time on a fixed axis of the
   * feed, so that fixes replayed faster than they happened keep their intervals; defaults to `sampleSeconds`).
   * @returns what it did (TRACK_* bits); the track is `lastTrack`.
   */
  apply(fix: Fix, source: number, wallSeconds: number, sampleSeconds: number, measureSeconds?: number): number {
    this.stats.fixes++;
    const track = this.find(fix, source, wallSeconds);
    this.lastTrack = track;
    if (!track) return fix.flags & FIX_LEAVE ? 0 : TRACK_REFUSED;
    track.heardSeconds = wallSeconds;
    if (fix.flags & FIX_LEAVE) return TRACK_LEFT;
    // A message without a time of its own goes on from the track's estimator axis where the last one left it.
    let measure = measureSeconds ?? sampleSeconds + track.measureOffsetSeconds;
    let changes = this.identity(track, fix);
    if (fix.flags & FIX_HEIGHT) {
      track.heightM = fix.heightM;
      track.heightGeometric = (fix.flags & FIX_HEIGHT_GEOMETRIC) !== 0;
    }
    if (fix.flags & FIX_GNSS_BARO_DELTA) track.gnssMinusBaroM = fix.gnssMinusBaroM;
    if (fix.flags & FIX_ON_GROUND) track.onGround = true;
    else if (fix.flags & FIX_POSITION) track.onGround = false;
    if (fix.flags & FIX_HEADING) track.headingDeg = fix.headingDeg;
    if (fix.flags & FIX_ATTITUDE) {
      track.pitchDeg = fix.pitchDeg;
      track.rollDeg = fix.rollDeg;
    }
    const band = this.options.altitudeBand;
    if (band && track.keySpace === KeySpace.ICAO && !track.onGround && !Number.isNaN(track.heightM)) {
      const height = this.height(track);
      if (height < band.minM || height > band.maxM) {
        this.stats.outOfBand++;
        return track.positioned ? TRACK_LEFT : TRACK_REFUSED;
      }
    }
    if (track.keySpace !== KeySpace.NAMED && fix.flags & (FIX_POSITION | FIX_ECEF | FIX_GROUND_VELOCITY)) {
      // The estimator's axis never runs back: a late message is measured at the track's latest time.
      if (track.positioned) measure = Math.max(measure, sampleSeconds + track.measureOffsetSeconds);
      track.measureOffsetSeconds = measure - sampleSeconds;
    }
    if (fix.flags & (FIX_POSITION | FIX_ECEF)) changes |= this.position(track, fix, sampleSeconds, measure);
    if (fix.flags & (FIX_GROUND_VELOCITY | FIX_VERTICAL_RATE | FIX_VELOCITY))
      changes |= this.velocity(track, fix, measure);
    return changes;
  }

  /** The track a fix is about, if the table holds one (nothing is made). */
  peek(fix: Fix): Track | undefined {
    const slot = fix.keySpace === KeySpace.NAMED ? this.byId.get(fix.id) : this.byKey[fix.keySpace]!.get(fix.key);
    return slot === undefined ? undefined : this.tracks[slot];
  }

  /** The track the last `apply` was about (undefined when it was refused). */
  lastTrack: Track | undefined;

  /** Calls `visit` with every published track (one with a position). */
  forEachPositioned(visit: (track: Track) => void): void {
    for (const track of this.tracks) if (track?.positioned && track.entityNumber > 0) visit(track);
  }

  /** Whether the track has gone unheard past its key space's limit at `wallSeconds`. */
  isStale(track: Track, wallSeconds: number): boolean {
    return wallSeconds - track.heardSeconds > this.stale[track.keySpace];
  }

  /** Removes a track (after its leave notice): its entity number and slot are free again. */
  remove(track: Track): void {
    const slot = this.byEntity[track.entityNumber]! - 1;
    if (slot < 0 || this.tracks[slot] !== track) return;
    this.byEntity[track.entityNumber] = 0;
    if (track.keySpace === KeySpace.NAMED) this.byId.delete(track.id);
    else this.byKey[track.keySpace]!.delete(track.key);
    track.entityNumber = 0;
    this.free.push(slot);
    this.live--;
    this.stats.tracksLeft++;
  }

  /**
   * The track's truth at `tSeconds` (publisher's axis) into `out`: its estimate extrapolated (or its record's
   * state), the heading from the vehicle's report or its direction of travel, pitch from its climb.
   */
  truthAt(track: Track, tSeconds: number, out: TruthState): void {
    const s = this.state;
    const slot = this.byEntity[track.entityNumber]! - 1;
    if (track.ownTime) {
      const dt = tSeconds - track.truthSeconds;
      for (let k = 0; k < 3; k++) {
        s[k] = track.truth[k]! + track.truth[3 + k]! * dt;
        s[3 + k] = track.truth[3 + k]!;
      }
    } else this.estimator.stateAt(slot, tSeconds + track.measureOffsetSeconds, s);
    for (let k = 0; k < 3; k++) {
      out.location[k] = s[k]!;
      out.linearVelocity[k] = s[3 + k]!;
      out.linearAcceleration[k] = 0;
      out.angularVelocity[k] = 0;
    }
    const geo = ecefToGeodetic(this.geodetic, s[0]!, s[1]!, s[2]!);
    const lat = geo[0]!,
      lon = geo[1]!;
    // Velocity in east-north-up at the track.
    const sLat = Math.sin(lat),
      cLat = Math.cos(lat),
      sLon = Math.sin(lon),
      cLon = Math.cos(lon);
    const east = -sLon * s[3]! + cLon * s[4]!;
    const north = -sLat * cLon * s[3]! - sLat * sLon * s[4]! + cLat * s[5]!;
    const up = cLat * cLon * s[3]! + cLat * sLon * s[4]! + sLat * s[5]!;
    const ground = Math.hypot(east, north);
    // A ship's own heading (true) beats its course; an aircraft's course is what its nose roughly follows.
    const reported =
      !Number.isNaN(track.headingDeg) && (track.keySpace !== KeySpace.ICAO || ground < HEADING_MIN_SPEED);
    if (reported) track.heldHeadingDeg = track.headingDeg;
    else if (ground >= HEADING_MIN_SPEED) track.heldHeadingDeg = (Math.atan2(east, north) / DEG + 360) % 360;
    const pitch = !Number.isNaN(track.pitchDeg)
      ? track.pitchDeg * DEG
      : track.keySpace === KeySpace.ICAO && ground > 10
        ? Math.atan2(up, ground)
        : 0;
    const roll = Number.isNaN(track.rollDeg) ? 0 : track.rollDeg * DEG;
    eulerFromHeadingPitchRoll(out.orientation, lat, lon, track.heldHeadingDeg * DEG, pitch, roll);
  }

  /** The track of a fix, made when new (with an entity number); undefined when the table is full. */
  private find(fix: Fix, source: number, wallSeconds: number): Track | undefined {
    const named = fix.keySpace === KeySpace.NAMED;
    const slot = named ? this.byId.get(fix.id) : this.byKey[fix.keySpace]!.get(fix.key);
    if (slot !== undefined) return this.tracks[slot];
    if (fix.flags & FIX_LEAVE) return undefined;
    if (this.live >= this.capacity) {
      this.stats.refused++;
      return undefined;
    }
    const number = this.entityNumberFor(fix);
    if (number === 0) {
      this.stats.refused++;
      return undefined;
    }
    const at = this.free.pop() ?? this.tracks.length;
    const track = (this.tracks[at] ??= new Track());
    track.reset();
    track.keySpace = fix.keySpace;
    track.key = fix.key;
    track.id = fix.id;
    track.source = source;
    track.entityNumber = number;
    track.heardSeconds = wallSeconds;
    track.forceId = named ? 1 : 3;
    this.byEntity[number] = at + 1;
    if (named) this.byId.set(fix.id, at);
    else this.byKey[fix.keySpace]!.set(fix.key, at);
    this.estimator.grow(this.tracks.length);
    this.live++;
    this.stats.tracksMade++;
    return track;
  }

  /** A free entity number: the record's own when free, else a hash of the id probed onwards; 0 when none is. */
  private entityNumberFor(fix: Fix): number {
    const wanted = fix.entityNumber;
    if (wanted >= 1 && wanted <= MAX_TRACKS && this.byEntity[wanted] === 0 && !this.options.reserved?.(wanted)) {
      return wanted;
    }
    let h =
      fix.keySpace === KeySpace.NAMED ? fnv1a(fix.id) : Math.imul(fix.key ^ (fix.keySpace << 28), 0x9e3779b1) >>> 0;
    h = (h % MAX_TRACKS) + 1;
    for (let probe = 0; probe < MAX_TRACKS; probe++) {
      const n = ((h - 1 + probe) % MAX_TRACKS) + 1;
      if (this.byEntity[n] === 0 && !this.options.reserved?.(n)) return n;
    }
    return 0;
  }

  /** Copies what a fix says about who the vehicle is; TRACK_IDENTITY when that changed. */
  private identity(track: Track, fix: Fix): number {
    let changed = false;
    if (fix.flags & FIX_CALLSIGN && fix.callsign !== track.callsign) {
      track.callsign = fix.callsign;
      changed = true;
    }
    if (fix.positionSource !== track.positionSource && fix.flags & (FIX_POSITION | FIX_ECEF)) {
      track.positionSource = fix.positionSource;
      changed = true;
    }
    if (fix.flags & FIX_FORCE && fix.forceId !== track.forceId) {
      track.forceId = fix.forceId;
      changed = true;
    }
    if (fix.flags & FIX_TYPE) {
      if (fix.category !== 0 && fix.category !== track.category) {
        track.category = fix.category;
        changed = true;
      }
      if (fix.typeDesignator !== '' && fix.typeDesignator !== track.typeDesignator) {
        track.typeDesignator = fix.typeDesignator;
        changed = true;
      }
      if (fix.shipType >= 0 && fix.shipType !== track.shipType) {
        track.shipType = fix.shipType;
        changed = true;
      }
      if (fix.lengthM > 0 && fix.lengthM !== track.lengthM) {
        track.lengthM = fix.lengthM;
        track.beamM = fix.beamM;
        changed = true;
      }
      if (fix.entityTypeSet && !sameType(track.entityType, fix.entityType)) {
        track.entityType.set(fix.entityType);
        track.entityTypeSet = true;
        changed = true;
      }
    }
    if (!changed) return 0;
    track.identityChanged = true;
    return TRACK_IDENTITY;
  }

  /** The height used for a position (m): GNSS height, or barometric corrected by the reported difference. */
  private height(track: Track): number {
    if (Number.isNaN(track.heightM)) return 0;
    if (track.heightGeometric || Number.isNaN(track.gnssMinusBaroM)) return track.heightM;
    return track.heightM + track.gnssMinusBaroM;
  }

  private position(track: Track, fix: Fix, sampleSeconds: number, measureSeconds: number): number {
    const p = this.ecef;
    if (fix.flags & FIX_ECEF) p.set(fix.positionEcef);
    else geodeticDegreesToEcef(p, fix.latitudeDeg, fix.longitudeDeg, this.height(track));
    if (!(Number.isFinite(p[0]!) && Number.isFinite(p[1]!) && Number.isFinite(p[2]!))) return 0;
    const slot = this.byEntity[track.entityNumber]! - 1;
    track.fixes++;
    if (track.keySpace === KeySpace.NAMED) return this.truthPosition(track, p, sampleSeconds);
    if (!track.positioned) {
      const profile =
        track.keySpace === KeySpace.MMSI
          ? ESTIMATOR_PROFILES.surface
          : fix.positionSource === PositionSource.MLAT
            ? ESTIMATOR_PROFILES.mlat
            : ESTIMATOR_PROFILES.air;
      this.estimator.start(slot, measureSeconds, p[0]!, p[1]!, p[2]!, profile);
      track.lastLatitudeDeg = fix.latitudeDeg;
      track.lastLongitudeDeg = fix.longitudeDeg;
      track.positioned = true;
      return TRACK_NEW | TRACK_MOVED;
    }
    // A receiver repeats the last position it decoded while the vehicle flies on: the same latitude and longitude
    // again is no measurement.
    if (
      fix.flags & FIX_POSITION &&
      fix.latitudeDeg === track.lastLatitudeDeg &&
      fix.longitudeDeg === track.lastLongitudeDeg
    ) {
      this.stats.repeats++;
      return 0;
    }
    track.lastLatitudeDeg = fix.flags & FIX_POSITION ? fix.latitudeDeg : Number.NaN;
    track.lastLongitudeDeg = fix.flags & FIX_POSITION ? fix.longitudeDeg : Number.NaN;
    const hasHeight = (fix.flags & FIX_HEIGHT) !== 0 || (fix.flags & FIX_ECEF) !== 0;
    if (this.estimator.position(slot, measureSeconds, p[0]!, p[1]!, p[2]!, hasHeight)) return TRACK_MOVED;
    this.stats.glitches++;
    return TRACK_GLITCH;
  }

  /** A record is truth: kept as given; without a velocity, the one between its last two positions. */
  private truthPosition(track: Track, p: Float64Array, sampleSeconds: number): number {
    const t = track.truth;
    const dt = sampleSeconds - track.truthSeconds;
    if (track.positioned && dt > 0) {
      for (let k = 0; k < 3; k++) t[3 + k] = (p[k]! - t[k]!) / dt;
    } else if (!track.positioned) t.fill(0, 3);
    t[0] = p[0]!;
    t[1] = p[1]!;
    t[2] = p[2]!;
    track.truthSeconds = sampleSeconds;
    track.truthHasVelocity = false;
    track.ownTime = true;
    const first = !track.positioned;
    track.positioned = true;
    return first ? TRACK_NEW | TRACK_MOVED : TRACK_MOVED;
  }

  private velocity(track: Track, fix: Fix, measureSeconds: number): number {
    if (track.keySpace === KeySpace.NAMED) {
      if (!(fix.flags & FIX_VELOCITY)) return 0;
      const v = this.ecef;
      if (fix.velocityFrame === 'ecef') v.set(fix.velocity);
      else enuToEcef(v, track.truth, fix.velocity);
      track.truth.set(v, 3);
      track.truthHasVelocity = true;
      return track.positioned ? TRACK_MOVED : 0;
    }
    const horizontal = (fix.flags & FIX_GROUND_VELOCITY) !== 0;
    const vertical = (fix.flags & FIX_VERTICAL_RATE) !== 0;
    const track0 = fix.trackDeg * DEG;
    if (!track.positioned) return 0;
    const slot = this.byEntity[track.entityNumber]! - 1;
    this.estimator.velocity(
      slot,
      measureSeconds,
      fix.groundSpeedMps * Math.sin(track0),
      fix.groundSpeedMps * Math.cos(track0),
      fix.verticalRateMps,
      horizontal,
      vertical,
    );
    return TRACK_MOVED;
  }
}

/** ENU velocity at an ECEF position to ECEF (out may not alias the inputs). */
const enuScratch = new Float64Array(3);
function enuToEcef(out: Float64Array, positionEcef: Float64Array, enu: Float64Array): void {
  const geo = ecefToGeodetic(enuScratch, positionEcef[0]!, positionEcef[1]!, positionEcef[2]!);
  const sLat = Math.sin(geo[0]!),
    cLat = Math.cos(geo[0]!),
    sLon = Math.sin(geo[1]!),
    cLon = Math.cos(geo[1]!);
  const e = enu[0]!,
    n = enu[1]!,
    u = enu[2]!;
  out[0] = -sLon * e - sLat * cLon * n + cLat * cLon * u;
  out[1] = cLon * e - sLat * sLon * n + cLat * sLon * u;
  out[2] = cLat * n + sLat * u;
}

function sameType(a: Uint16Array, b: Uint16Array): boolean {
  for (let k = 0; k < 7; k++) if (a[k] !== b[k]) return false;
  return true;
}

/** FNV-1a, 32-bit, of a string's UTF-16 code units. */
function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}
