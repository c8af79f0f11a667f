/**
 * Series kept for the report's plots when a spec asks for `traces`: the position error of every frame of the
 * first minute (the saw-tooth of threshold, latency and smoothing is only visible frame by frame), and the true
 * and displayed tracks of the whole run, thinned to ~2000 points, with a marker at each PDU sent, in metres
 * east/north of the start.
 */
import { ecefToEnuMatrix, ecefToGeodetic } from '../math/geodesy.js';

const MAX_POINTS = 2000;
const ERROR_DETAIL_SECONDS = 60;

export interface RunTraces {
  /** Seconds, and the displayed position error at each frame of the first minute, m. */
  readonly errorTime: number[];
  readonly positionError: number[];
  /**
   * At the same frames: the error of the dead-reckoned model the owner last sent, extrapolated without network
   * or smoothing, m. The owner keeps it under the position threshold; the rest of `positionError` is the
   * network's latency and loss and the receiver's smoothing.
   */
  readonly deadReckoningError: number[];
  /** Seconds of the (thinned) track points. */
  readonly time: number[];
  /** True track, m east / north of the first true position. */
  readonly trueEast: number[];
  readonly trueNorth: number[];
  /** Displayed track, same frame. */
  readonly shownEast: number[];
  readonly shownNorth: number[];
  /** Where and when each PDU was sent (the first MAX_POINTS), same frame; reasons as EMIT_* bits. */
  readonly pduTime: number[];
  readonly pduEast: number[];
  readonly pduNorth: number[];
  readonly pduReasons: number[];
}

/**
 * Most bytes one run's traces hold at a render rate: every frame of the first minute (three series), the thinned
 * tracks (five) and the PDU markers (four), as arrays of doubles with the spare room arrays grow with.
 */
export function traceBytesPerRun(renderRateHz: number): number {
  const detailFrames = Math.floor(ERROR_DETAIL_SECONDS * renderRateHz) + 1;
  return Math.ceil(1.5 * 8 * (3 * detailFrames + 5 * (MAX_POINTS + 1) + 4 * MAX_POINTS));
}

export class TraceRecorder {
  private readonly stride: number;
  private seen = 0;
  private readonly origin = new Float64Array(3);
  private readonly enu = new Float64Array(9);
  private started = false;
  private readonly out: RunTraces = {
    errorTime: [],
    positionError: [],
    deadReckoningError: [],
    time: [],
    trueEast: [],
    trueNorth: [],
    shownEast: [],
    shownNorth: [],
    pduTime: [],
    pduEast: [],
    pduNorth: [],
    pduReasons: [],
  };

  /** @param durationSeconds - run length; with a 60 Hz render rate it sets the thinning stride. */
  constructor(durationSeconds: number, renderRateHz = 60) {
    this.stride = Math.max(1, Math.ceil((durationSeconds * renderRateHz) / MAX_POINTS));
  }

  addPdu(timeSeconds: number, locationEcef: Float64Array, reasons: number): void {
    this.start(locationEcef);
    const o = this.out;
    if (o.pduTime.length >= MAX_POINTS) return;
    o.pduTime.push(timeSeconds);
    o.pduEast.push(this.east(locationEcef));
    o.pduNorth.push(this.north(locationEcef));
    o.pduReasons.push(reasons);
  }

  /** Whether `addSample` at this time keeps the frame's errors (the first minute). */
  wantsErrors(timeSeconds: number): boolean {
    return timeSeconds <= ERROR_DETAIL_SECONDS;
  }

  /**
   * @param deadReckoningErrorMeters - error of the owner's last sent model at this frame, without network and
   *   smoothing (NaN before the first PDU).
   */
  addSample(
    timeSeconds: number,
    trueEcef: Float64Array,
    shownEcef: Float64Array,
    errorMeters: number,
    deadReckoningErrorMeters = NaN,
  ): void {
    this.start(trueEcef);
    const o = this.out;
    if (timeSeconds <= ERROR_DETAIL_SECONDS) {
      o.errorTime.push(timeSeconds);
      o.positionError.push(errorMeters);
      o.deadReckoningError.push(deadReckoningErrorMeters);
    }
    if (this.seen++ % this.stride !== 0) return;
    o.time.push(timeSeconds);
    o.trueEast.push(this.east(trueEcef));
    o.trueNorth.push(this.north(trueEcef));
    o.shownEast.push(this.east(shownEcef));
    o.shownNorth.push(this.north(shownEcef));
  }

  finish(): RunTraces {
    return this.out;
  }

  private start(ecef: Float64Array): void {
    if (this.started) return;
    this.started = true;
    this.origin.set(ecef);
    const geo = ecefToGeodetic(new Float64Array(3), ecef[0]!, ecef[1]!, ecef[2]!);
    ecefToEnuMatrix(this.enu, geo[0]!, geo[1]!);
  }

  private east(p: Float64Array): number {
    const m = this.enu,
      o = this.origin;
    return m[0]! * (p[0]! - o[0]!) + m[1]! * (p[1]! - o[1]!) + m[2]! * (p[2]! - o[2]!);
  }

  private north(p: Float64Array): number {
    const m = this.enu,
      o = this.origin;
    return m[3]! * (p[0]! - o[0]!) + m[4]! * (p[1]! - o[1]!) + m[5]! * (p[2]! - o[2]!);
  }
}
