/**
 * One fix of a live feed: what a decoder found in one message about one vehicle (its position, velocity,
 * identity, or that it left), in one reused record. Decoders fill it and say which fields they set (`flags`);
 * the track table merges it into the vehicle's track. Nothing here allocates per message.
 */

/** `Fix.flags`: which fields a message carried. */
export const FIX_POSITION = 1 << 0;
/** `heightM` (with or without a position). */
export const FIX_HEIGHT = 1 << 1;
/** `groundSpeedMps` and `trackDeg`. */
export const FIX_GROUND_VELOCITY = 1 << 2;
/** `verticalRateMps`. */
export const FIX_VERTICAL_RATE = 1 << 3;
/** `headingDeg`: where the nose or bow points (true), as opposed to the track over ground. */
export const FIX_HEADING = 1 << 4;
/** `callsign` (ADS-B flight id, AIS ship name, a record's marking). */
export const FIX_CALLSIGN = 1 << 5;
/** `category` (ADS-B emitter category), `typeDesignator`, `shipType`, dimensions or `entityType`. */
export const FIX_TYPE = 1 << 6;
/** `onGround`: the vehicle reports it is on the ground. */
export const FIX_ON_GROUND = 1 << 7;
/** The vehicle is gone (a record's `"leave": true`). */
export const FIX_LEAVE = 1 << 8;
/** `positionEcef` instead of latitude, longitude and height. */
export const FIX_ECEF = 1 << 9;
/** `velocity` (m/s) in the frame `velocityFrame` says. */
export const FIX_VELOCITY = 1 << 10;
/** `pitchDeg` and `rollDeg`. */
export const FIX_ATTITUDE = 1 << 11;
/** `forceId`. */
export const FIX_FORCE = 1 << 12;
/** `heightM` is above the WGS-84 ellipsoid (GNSS); otherwise it is a barometric or sea-level altitude. */
export const FIX_HEIGHT_GEOMETRIC = 1 << 13;
/** `gnssMinusBaroM`: the difference an ADS-B velocity message reports between GNSS height and baro altitude. */
export const FIX_GNSS_BARO_DELTA = 1 << 14;

/** Where a position came from, as readsb tells them apart (docs/feeds.md). */
export const PositionSource = {
  /** The vehicle's own report: ADS-B, AIS, a simulation's record. */
  OWN: 0,
  /** Multilateration by a network of receivers. */
  MLAT: 1,
  /** Traffic Information Service – Broadcast: a ground station's rebroadcast of radar or other tracks. */
  TISB: 2,
  /** ADS-R: a ground station rebroadcasting UAT ADS-B on 1090 MHz. */
  ADSR: 3,
} as const;
export type PositionSource = (typeof PositionSource)[keyof typeof PositionSource];

/** Short tags of the position sources, appended to a marking (`DAL123/M`). */
export const POSITION_SOURCE_TAGS: readonly string[] = ['', 'M', 'T', 'R'];

/** Key spaces of the vehicles a fix is about: the same number means another vehicle in another space. */
export const KeySpace = {
  /** ICAO 24-bit aircraft address (a non-ICAO address has bit 24 set). */
  ICAO: 0,
  /** AIS Maritime Mobile Service Identity. */
  MMSI: 1,
  /** A record's string id (`Fix.id`). */
  NAMED: 2,
} as const;
export type KeySpace = (typeof KeySpace)[keyof typeof KeySpace];

/** Bit 24 of an ICAO key: an address that is not an ICAO 24-bit address (TIS-B track numbers, anonymous). */
export const NON_ICAO_ADDRESS = 1 << 24;

/** One decoded message about one vehicle; reused, so read it during the callback only. */
export class Fix {
  flags = 0;
  keySpace: KeySpace = KeySpace.ICAO;
  /** ICAO address or MMSI (keySpace ICAO or MMSI). */
  key = 0;
  /** A record's id (keySpace NAMED). */
  id = '';
  /** A record's own entity number (1–65534), 0 for none. */
  entityNumber = 0;
  /** When the vehicle was there, seconds on the source's time axis; NaN when the message does not say. */
  timeSeconds = Number.NaN;
  positionSource: PositionSource = PositionSource.OWN;
  latitudeDeg = 0;
  longitudeDeg = 0;
  heightM = 0;
  readonly positionEcef = new Float64Array(3);
  groundSpeedMps = 0;
  /** Clockwise from true north. */
  trackDeg = 0;
  verticalRateMps = 0;
  readonly velocity = new Float64Array(3);
  velocityFrame: 'enu' | 'ecef' = 'enu';
  headingDeg = 0;
  pitchDeg = 0;
  rollDeg = 0;
  gnssMinusBaroM = 0;
  callsign = '';
  /** ADS-B emitter category as 0xA0–0xD7 (set A–D, category 0–7: 0xA3 is A3); 0 for none. */
  category = 0;
  /** ICAO aircraft type designator (readsb's "t", e.g. "B739"); '' for none. */
  typeDesignator = '';
  /** AIS ship and cargo type (0–99); -1 for none. */
  shipType = -1;
  /** AIS dimensions: length and beam (m); 0 when unknown. */
  lengthM = 0;
  beamM = 0;
  /** A record's entity type (7 numbers) when `entityTypeSet`. */
  readonly entityType = new Uint16Array(7);
  entityTypeSet = false;
  forceId = 1;

  /** Clears the flags for the next message (the fields keep stale values, read only under their flag). */
  clear(): void {
    this.flags = 0;
    this.timeSeconds = Number.NaN;
    this.positionSource = PositionSource.OWN;
    this.entityNumber = 0;
    this.entityTypeSet = false;
    this.category = 0;
    this.typeDesignator = '';
    this.shipType = -1;
    this.lengthM = 0;
    this.beamM = 0;
  }
}

/** A decoder's answer for one message: a fix to use, or why there is none. */
export const DecodeStatus = {
  FIX: 0,
  /** A well-formed message that says nothing the tracks use (a squawk, an all-call reply, a base station). */
  IGNORED: 1,
  /** Part of a message whose other parts are still to come (a multi-sentence AIVDM message). */
  PENDING: 2,
  /** Not a message of the format, or one that fails its checksum or CRC. */
  MALFORMED: 3,
  /** A position that cannot be placed yet (a CPR position waiting for its pair). */
  UNRESOLVED: 4,
} as const;
export type DecodeStatus = (typeof DecodeStatus)[keyof typeof DecodeStatus];
