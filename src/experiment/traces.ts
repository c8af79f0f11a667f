/**
 * Series kept for the report's plots when a spec asks for `traces`: position error over time, and the true and
 * displayed tracks with a marker at each PDU sent, in metres east/north of the start. Thinned to at most
 * ~2000 points per series so that reports of long runs stay small.
 */
import { ecefToEnuMatrix, ecefToGeodetic } from '../math/geodesy.js';

const MAX_POINTS = 2000;

export interface RunTraces {
  /** Seconds, and the displayed position error at each, m. */
  readonly time: number[];
  readonly positionError: number[];
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

export class TraceRecorder {
  private readonly stride: number;
  private seen = 0;
  private readonly origin = new Float64Array(3);
  private readonly enu = new Float64Array(9);
  private started = false;
  private readonly out: RunTraces = {
    time: [],
    positionError: [],
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

  addSample(timeSeconds: number, trueEcef: Float64Array, shownEcef: Float64Array, errorMeters: number): void {
    this.start(trueEcef);
    if (this.seen++ % this.stride !== 0) return;
    const o = this.out;
    o.time.push(timeSeconds);
    o.positionError.push(errorMeters);
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
    const m = this.enu, o = this.origin;
    return m[0]! * (p[0]! - o[0]!) + m[1]! * (p[1]! - o[1]!) + m[2]! * (p[2]! - o[2]!);
  }

  private north(p: Float64Array): number {
    const m = this.enu, o = this.origin;
    return m[3]! * (p[0]! - o[0]!) + m[4]! * (p[1]! - o[1]!) + m[5]! * (p[2]! - o[2]!);
  }
}
