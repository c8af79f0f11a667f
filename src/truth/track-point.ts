/** One fix of a recorded track, as every reader of a track file gives it (CSV, GPX, NMEA, ADS-B, DIS). */
export interface TrackPoint {
  /** Seconds, any epoch (the track starts at its first point). */
  readonly timeSeconds: number;
  readonly latitudeDeg: number;
  readonly longitudeDeg: number;
  /** Metres above the ellipsoid (or mean sea level: only changes matter). Defaults to 0. */
  readonly heightM?: number;
  /** True heading, degrees clockwise from north, when the source records one (a ship's gyro compass). */
  readonly headingDeg?: number;
  /** Pitch, degrees nose up, when the source records one. */
  readonly pitchDeg?: number;
  /** Roll, degrees right wing down, when the source records one. */
  readonly rollDeg?: number;
  /** Speed over ground the source measured, m/s (ADS-B ground speed, NMEA SOG). */
  readonly groundSpeedMps?: number;
  /** Course over ground the source measured, degrees clockwise from true north (ADS-B track, NMEA COG). */
  readonly trackDeg?: number;
  /** Vertical speed the source measured, m/s, positive up. */
  readonly verticalRateMps?: number;
  /** Horizontal position standard deviation of this fix, m, when the source says (NMEA HDOP × the receiver's UERE). */
  readonly positionSigmaM?: number;
  /** Where the fix came from in its file (a CSV line, a capture's frame), for messages. */
  readonly row?: number;
  /** The recording the fix belongs to, from an id column (`drive`, `segment`, `track`, …). */
  readonly group?: string;
  /** What the source calls the vehicle at this fix: an ADS-B callsign, a CSV callsign or name column. */
  readonly callsign?: string;
}

/** `text` as the one copy kept in `pool`: a name carried by a million fixes is one string, not a million. */
export function pooledName(pool: Map<string, string>, text: string): string {
  const kept = pool.get(text);
  if (kept !== undefined) return kept;
  pool.set(text, text);
  return text;
}
