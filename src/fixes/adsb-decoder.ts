/**
 * Mode S extended squitters to fixes: the state a receiver keeps per aircraft to place CPR positions (the last
 * even and odd airborne messages for global decoding, the last position for local decoding, as dump1090 and
 * readsb do) in a bounded table, and each message's content copied into a `Fix`. Time is the caller's.
 */
import { cprGlobalAirborne, cprLocal } from './cpr.js';
import {
  DecodeStatus,
  FIX_CALLSIGN,
  FIX_GNSS_BARO_DELTA,
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
import { decodeModeS, ModeSKind, ModeSMessage } from './mode-s.js';

/** Even and odd airborne messages further apart than this are not decoded together (DO-260B A.1.7.7: 10 s). */
const PAIR_SECONDS = 10;
/** A position this recent is the reference of local decoding (within the half zone an aircraft cannot leave). */
const LOCAL_REFERENCE_SECONDS = 30;

/** Per-aircraft CPR state in typed arrays, at most `capacity` aircraft; the least recently heard give way. */
export class ModeSDecoder {
  /** DF17/18 messages that failed their parity, and messages of no Mode S length. */
  rejected = 0;
  /** Aircraft whose state was dropped to make room. */
  evicted = 0;
  readonly message = new ModeSMessage();
  private readonly slots = new Map<number, number>();
  private readonly keyOf: Int32Array;
  private readonly heardSeconds: Float64Array;
  /** even lat, even lon, even t, odd lat, odd lon, odd t, last lat, last lon, last t: 9 per aircraft. */
  private readonly cpr: Float64Array;
  private readonly latLon = new Float64Array(2);
  private used = 0;
  private cursor = 0;

  constructor(readonly capacity = 65_536) {
    this.keyOf = new Int32Array(capacity);
    this.heardSeconds = new Float64Array(capacity);
    this.cpr = new Float64Array(9 * capacity);
  }

  /** Aircraft held. */
  get aircraft(): number {
    return this.slots.size;
  }

  /**
   * Decodes one Mode S message (7 or 14 bytes) received at `nowSeconds` into `fix`.
   * @param positionSource - where the frame came from (an MLAT result is marked as such).
   */
  decode(
    bytes: Uint8Array,
    length: number,
    nowSeconds: number,
    fix: Fix,
    positionSource: PositionSource = PositionSource.OWN,
  ): DecodeStatus {
    fix.clear();
    const m = this.message;
    if (length === 7) return DecodeStatus.IGNORED; // short replies: altitude and squawk only, no position
    if (!decodeModeS(bytes, length, m)) {
      if (!m.badParity && length === 14) return DecodeStatus.IGNORED;
      this.rejected++;
      return DecodeStatus.MALFORMED;
    }
    fix.keySpace = KeySpace.ICAO;
    fix.key = m.nonIcao ? m.address | NON_ICAO_ADDRESS : m.address;
    fix.positionSource = positionSource !== PositionSource.OWN ? positionSource : m.positionSource;
    switch (m.kind) {
      case ModeSKind.IDENTIFICATION:
        fix.callsign = m.callsign;
        fix.category = m.category;
        fix.flags |= FIX_CALLSIGN | FIX_TYPE;
        return DecodeStatus.FIX;
      case ModeSKind.VELOCITY:
        if (!Number.isNaN(m.groundSpeedMps)) {
          fix.groundSpeedMps = m.groundSpeedMps;
          fix.trackDeg = m.trackDeg;
          fix.flags |= FIX_GROUND_VELOCITY;
        }
        if (!Number.isNaN(m.headingDeg)) {
          fix.headingDeg = m.headingDeg;
          fix.flags |= FIX_HEADING;
        }
        if (!Number.isNaN(m.verticalRateMps)) {
          fix.verticalRateMps = m.verticalRateMps;
          fix.flags |= FIX_VERTICAL_RATE;
        }
        if (!Number.isNaN(m.gnssMinusBaroM)) {
          fix.gnssMinusBaroM = m.gnssMinusBaroM;
          fix.flags |= FIX_GNSS_BARO_DELTA;
        }
        return fix.flags === 0 ? DecodeStatus.IGNORED : DecodeStatus.FIX;
      default:
        return this.position(m, nowSeconds, fix);
    }
  }

  private position(m: ModeSMessage, nowSeconds: number, fix: Fix): DecodeStatus {
    const slot = this.slot(fix.key, nowSeconds);
    const surface = m.kind === ModeSKind.SURFACE_POSITION;
    if (!Number.isNaN(m.altitudeM)) {
      fix.heightM = m.altitudeM;
      fix.flags |= FIX_HEIGHT | (m.altitudeGnss ? FIX_HEIGHT_GEOMETRIC : 0);
    }
    if (surface) {
      fix.flags |= FIX_ON_GROUND;
      if (!Number.isNaN(m.groundSpeedMps) && !Number.isNaN(m.trackDeg)) {
        fix.groundSpeedMps = m.groundSpeedMps;
        fix.trackDeg = m.trackDeg;
        fix.flags |= FIX_GROUND_VELOCITY;
      }
    }
    if (slot < 0) return DecodeStatus.UNRESOLVED;
    const c = this.cpr,
      at = 9 * slot,
      out = this.latLon;
    let placed = false;
    if (!surface) {
      const mine = m.cprOdd ? at + 3 : at;
      c[mine] = m.cprLat;
      c[mine + 1] = m.cprLon;
      c[mine + 2] = nowSeconds;
      const other = m.cprOdd ? at : at + 3;
      if (nowSeconds - c[other + 2]! <= PAIR_SECONDS) {
        placed = cprGlobalAirborne(out, c[at]!, c[at + 1]!, c[at + 3]!, c[at + 4]!, m.cprOdd);
      }
    }
    if (!placed && nowSeconds - c[at + 8]! <= LOCAL_REFERENCE_SECONDS) {
      cprLocal(out, m.cprLat, m.cprLon, m.cprOdd, surface, c[at + 6]!, c[at + 7]!);
      placed = true;
    }
    if (!placed) return DecodeStatus.UNRESOLVED;
    c[at + 6] = out[0]!;
    c[at + 7] = out[1]!;
    c[at + 8] = nowSeconds;
    fix.latitudeDeg = out[0]!;
    fix.longitudeDeg = out[1]!;
    fix.flags |= FIX_POSITION;
    return DecodeStatus.FIX;
  }

  /** The aircraft's slot, made when new (the least recently heard gives way when full); -1 when none can be. */
  private slot(key: number, nowSeconds: number): number {
    let slot = this.slots.get(key);
    if (slot !== undefined) {
      this.heardSeconds[slot] = nowSeconds;
      return slot;
    }
    if (this.used < this.capacity) slot = this.used++;
    else {
      slot = this.oldest(nowSeconds);
      this.slots.delete(this.keyOf[slot]!);
      this.evicted++;
    }
    this.slots.set(key, slot);
    this.keyOf[slot] = key;
    this.heardSeconds[slot] = nowSeconds;
    const c = this.cpr,
      at = 9 * slot;
    c[at + 2] = c[at + 5] = c[at + 8] = Number.NEGATIVE_INFINITY;
    return slot;
  }

  /** A slot to reuse: the next in turn, passing over up to 8 heard within the last minute (a second chance). */
  private oldest(nowSeconds: number): number {
    const heard = this.heardSeconds;
    for (let step = 0; step < 8; step++) {
      const slot = this.cursor;
      this.cursor = (this.cursor + 1) % this.capacity;
      if (nowSeconds - heard[slot]! > 60) return slot;
    }
    return (this.cursor + this.capacity - 1) % this.capacity;
  }
}
