/**
 * readsb's and dump1090's `aircraft.json` (readsb README-json.md): `{"now": unix seconds, "aircraft": [{"hex",
 * "flight", "lat", "lon", "seen_pos", "alt_baro" (ft or "ground"), "alt_geom" (ft, WGS-84), "gs" (kt), "track",
 * "true_heading", "baro_rate"/"geom_rate" (ft/min), "category" ("A3"), "t" (ICAO type), "type" (the source:
 * "adsb_icao", "mlat", "tisb_icao", …)}, …]}`; dump1090-fa's older names ("altitude", "speed", "vert_rate") too.
 * Each aircraft with something new becomes one fix; a position is dated `now − seen_pos`, and one seen before is
 * not given again (the file repeats every aircraft at every poll).
 */
import {
  DecodeStatus,
  FIX_CALLSIGN,
  FIX_GROUND_VELOCITY,
  FIX_HEADING,
  FIX_HEIGHT,
  FIX_HEIGHT_GEOMETRIC,
  FIX_ON_GROUND,
  FIX_POSITION,
  FIX_TYPE,
  FIX_VERTICAL_RATE,
  type Fix,
  KeySpace,
  NON_ICAO_ADDRESS,
  PositionSource,
} from './fix.js';

const FEET = 0.3048;
const KNOTS = 1852 / 3600;
/** Aircraft remembered for telling a new position from a repeated one; past it, the oldest are forgotten. */
const MAX_REMEMBERED = 65_536;

const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : Number.NaN);

/** Reads `aircraft.json` documents, one poll after another. */
export class AircraftJsonReader {
  /** Aircraft entries that were not objects or had no valid hex address. */
  malformed = 0;
  /** The position time last given per aircraft (to skip repeats). */
  private readonly positionSeconds = new Map<number, number>();

  /**
   * Calls `sink` with a fix for each aircraft of one parsed document (`fix` is reused).
   * @param wallSeconds - when it was fetched (the document's own "now" is used when present).
   * @returns false when the document is not an aircraft.json object.
   */
  read(document: unknown, wallSeconds: number, fix: Fix, sink: (fix: Fix) => void): boolean {
    if (
      document === null ||
      typeof document !== 'object' ||
      !Array.isArray((document as { aircraft?: unknown }).aircraft)
    ) {
      return false;
    }
    const doc = document as { now?: unknown; aircraft: unknown[] };
    const now = Number.isFinite(num(doc.now)) ? num(doc.now) : wallSeconds;
    for (const entry of doc.aircraft) {
      if (this.entry(entry, now, fix) === DecodeStatus.FIX) sink(fix);
    }
    return true;
  }

  private entry(entry: unknown, now: number, fix: Fix): DecodeStatus {
    fix.clear();
    if (entry === null || typeof entry !== 'object') {
      this.malformed++;
      return DecodeStatus.MALFORMED;
    }
    const a = entry as Record<string, unknown>;
    const hex = typeof a.hex === 'string' ? a.hex : '';
    const nonIcao = hex.startsWith('~');
    const address = /^~?[0-9a-fA-F]{6}$/.test(hex) ? Number.parseInt(hex.slice(nonIcao ? 1 : 0), 16) : -1;
    if (address < 0) {
      this.malformed++;
      return DecodeStatus.MALFORMED;
    }
    fix.keySpace = KeySpace.ICAO;
    fix.key = nonIcao ? address | NON_ICAO_ADDRESS : address;
    const source = typeof a.type === 'string' ? a.type : '';
    const mlat = Array.isArray(a.mlat) && a.mlat.includes('lat');
    const tisb = Array.isArray(a.tisb) && a.tisb.includes('lat');
    fix.positionSource =
      source === 'mlat' || mlat
        ? PositionSource.MLAT
        : source.startsWith('tisb') || tisb
          ? PositionSource.TISB
          : source.startsWith('adsr')
            ? PositionSource.ADSR
            : PositionSource.OWN;
    // The flight's callsign, else the aircraft's registration (readsb's "r", from its database).
    const name = typeof a.flight === 'string' && a.flight.trim() !== '' ? a.flight : a.r;
    if (typeof name === 'string' && name.trim() !== '') {
      fix.callsign = name.trim().slice(0, 8);
      fix.flags |= FIX_CALLSIGN;
    }
    if (typeof a.category === 'string' && /^[A-D][0-7]$/.test(a.category)) {
      fix.category = Number.parseInt(a.category, 16); // "A3" → 0xA3
      fix.flags |= FIX_TYPE;
    }
    if (typeof a.t === 'string' && /^[A-Z0-9]{2,4}$/.test(a.t)) {
      fix.typeDesignator = a.t;
      fix.flags |= FIX_TYPE;
    }
    const baro = a.alt_baro ?? a.altitude;
    const geom = num(a.alt_geom);
    if (baro === 'ground') fix.flags |= FIX_ON_GROUND;
    if (Number.isFinite(geom)) {
      fix.heightM = geom * FEET;
      fix.flags |= FIX_HEIGHT | FIX_HEIGHT_GEOMETRIC;
    } else if (Number.isFinite(num(baro))) {
      fix.heightM = num(baro) * FEET;
      fix.flags |= FIX_HEIGHT;
    }
    const speed = num(a.gs ?? a.speed),
      track = num(a.track);
    if (speed >= 0 && track >= 0 && track <= 360) {
      fix.groundSpeedMps = speed * KNOTS;
      fix.trackDeg = track % 360;
      fix.flags |= FIX_GROUND_VELOCITY;
    }
    const rate = num(a.geom_rate ?? a.baro_rate ?? a.vert_rate);
    if (Number.isFinite(rate)) {
      fix.verticalRateMps = (rate * FEET) / 60;
      fix.flags |= FIX_VERTICAL_RATE;
    }
    const heading = num(a.true_heading);
    if (heading >= 0 && heading <= 360) {
      fix.headingDeg = heading % 360;
      fix.flags |= FIX_HEADING;
    }
    const lat = num(a.lat),
      lon = num(a.lon);
    const seenPos = num(a.seen_pos);
    if (Math.abs(lat) <= 90 && Math.abs(lon) <= 180) {
      const at = now - (seenPos >= 0 ? seenPos : 0);
      const last = this.positionSeconds.get(fix.key);
      // A position not newer than the one given last is the same report again (seen_pos is rounded to 0.1 s).
      if (last === undefined || at > last + 0.05) {
        if (last === undefined && this.positionSeconds.size >= MAX_REMEMBERED) this.positionSeconds.clear();
        this.positionSeconds.set(fix.key, at);
        fix.latitudeDeg = lat;
        fix.longitudeDeg = lon;
        fix.timeSeconds = at;
        fix.flags |= FIX_POSITION;
      }
    }
    if (!(fix.flags & FIX_POSITION)) {
      // Without a new position the rest repeats what the aircraft said before; only identity is news.
      fix.flags &= FIX_CALLSIGN | FIX_TYPE;
    }
    return fix.flags === 0 ? DecodeStatus.IGNORED : DecodeStatus.FIX;
  }
}
