/**
 * One live track: a vehicle of a feed as the track table holds it between fixes — who it is (callsign, type,
 * force), what it last reported that a fix may leave out (altitude, heading), and how its identity reads in DIS
 * (marking, entity type). The kinematics live in the estimator's slot of the same number.
 */
import { aircraftEntityType, type EntityTypeNumbers, vesselEntityType } from './entity-types.js';
import { KeySpace, POSITION_SOURCE_TAGS, type PositionSource, PositionSource as Sources } from './fix.js';

/** DIS force of live civil traffic: neutral (SISO-REF-010 ForceID 3). */
export const FORCE_NEUTRAL = 3;

/** One live track of a feed (see the file's comment). */
export class Track {
  keySpace: KeySpace = KeySpace.ICAO;
  key = 0;
  id = '';
  /** DIS entity number (1–65534). */
  entityNumber = 0;
  /** Index of the feed it came from. */
  source = 0;
  /** Has a position: it is published. */
  positioned = false;
  /** The first position was a moment ago: the estimator has not seen a second one yet. */
  fixes = 0;
  /** Wall-clock seconds of the last message about it (for aging out). */
  heardSeconds = 0;
  /** Seconds on the publisher's axis of its last sample, which never goes back. */
  sampleSeconds = Number.NEGATIVE_INFINITY;
  /** Its own time minus the wall clock, for sampling between records (records that carry their time). */
  clockOffsetSeconds = 0;
  /** The estimator's time less the publisher's at the last fix (s): fixes are measured on their messages' time. */
  measureOffsetSeconds = 0;
  /** Samples keep the record's own time (truth records) rather than the wall clock's. */
  ownTime = false;

  callsign = '';
  marking = '';
  category = 0;
  typeDesignator = '';
  shipType = -1;
  lengthM = 0;
  beamM = 0;
  positionSource: PositionSource = Sources.OWN;
  forceId = FORCE_NEUTRAL;
  readonly entityType = new Uint16Array(7);
  entityTypeSet = false;

  /** Last altitude (m) and whether it is geometric; NaN before any. */
  heightM = Number.NaN;
  heightGeometric = false;
  gnssMinusBaroM = Number.NaN;
  onGround = false;
  /** The last position measured (a repeat of it is no measurement). */
  lastLatitudeDeg = Number.NaN;
  lastLongitudeDeg = Number.NaN;
  /** Last reported heading (deg), NaN when none; and the last direction used (held when slow). */
  headingDeg = Number.NaN;
  heldHeadingDeg = 0;
  pitchDeg = Number.NaN;
  rollDeg = Number.NaN;

  /** Records that are truth: the last state as given (ECEF position, velocity), at `truthSeconds`. */
  readonly truth = new Float64Array(6);
  truthSeconds = 0;
  truthHasVelocity = false;

  /** The identity changed since the table last described it. */
  identityChanged = true;

  /** When a bridge that sends every position would have sent its last PDU (s, publisher's axis). */
  bridgeSeconds = Number.NEGATIVE_INFINITY;

  reset(): void {
    this.positioned = false;
    this.fixes = 0;
    this.sampleSeconds = Number.NEGATIVE_INFINITY;
    this.clockOffsetSeconds = 0;
    this.measureOffsetSeconds = 0;
    this.ownTime = false;
    this.callsign = '';
    this.marking = '';
    this.category = 0;
    this.typeDesignator = '';
    this.shipType = -1;
    this.lengthM = 0;
    this.beamM = 0;
    this.positionSource = Sources.OWN;
    this.forceId = FORCE_NEUTRAL;
    this.entityType.fill(0);
    this.entityTypeSet = false;
    this.heightM = Number.NaN;
    this.heightGeometric = false;
    this.gnssMinusBaroM = Number.NaN;
    this.onGround = false;
    this.lastLatitudeDeg = Number.NaN;
    this.lastLongitudeDeg = Number.NaN;
    this.headingDeg = Number.NaN;
    this.heldHeadingDeg = 0;
    this.pitchDeg = Number.NaN;
    this.rollDeg = Number.NaN;
    this.truthHasVelocity = false;
    this.identityChanged = true;
    this.bridgeSeconds = Number.NEGATIVE_INFINITY;
  }

  /** The name a person knows it by: its marking, callsign or ship name, else its address or id. */
  displayName(): string {
    if (this.marking !== '') return this.marking;
    if (this.callsign !== '') return this.callsign;
    if (this.keySpace === KeySpace.ICAO) return (this.key & 0xffffff).toString(16).toUpperCase().padStart(6, '0');
    if (this.keySpace === KeySpace.MMSI) return String(this.key);
    return this.id;
  }

  /**
   * The DIS marking: 11 ASCII characters of the display name (upper case for feeds), with the tag of a position
   * that is not the vehicle's own (`/M` multilateration, `/T` TIS-B, `/R` ADS-R).
   */
  disMarking(): string {
    const tag = this.positionSource === Sources.OWN ? '' : `/${POSITION_SOURCE_TAGS[this.positionSource]}`;
    let name = this.displayName().replace(/[^ -~]/g, '');
    if (this.keySpace !== KeySpace.NAMED) name = name.toUpperCase();
    return name.slice(0, 11 - tag.length) + tag;
  }

  /** The entity type: a record's own, else from the aircraft's designator and category or the vessel's ship type. */
  disEntityType(): EntityTypeNumbers {
    if (this.entityTypeSet) return Array.from(this.entityType) as EntityTypeNumbers;
    if (this.keySpace === KeySpace.ICAO) return aircraftEntityType(this.typeDesignator, this.category);
    if (this.keySpace === KeySpace.MMSI) return vesselEntityType(this.shipType, this.lengthM);
    return [1, 0, 0, 0, 0, 0, 0];
  }
}
