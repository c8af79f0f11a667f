/**
 * PDU arrival markers: where each of the last PDUs put its entity, why it was sent as far as the page can tell, and
 * when it came, in a ring of typed arrays (nothing allocated per PDU). Each shows fully for `MARKER_HOLD_SECONDS`,
 * then fades out until `MARKER_FADE_SECONDS`, so that the dots show the recent updates and the shots drawn over them
 * stay readable.
 */

/** Seconds a marker shows fully. */
export const MARKER_HOLD_SECONDS = 5;
/** Seconds after which a marker is gone. */
export const MARKER_FADE_SECONDS = 20;

export class ArrivalMarkers {
  /** Longitude°, latitude°, height m of each marker (3 per marker; `count` valid). */
  readonly positions: Float64Array;
  /** Why each PDU was sent (`PDU_REASON_*` of send-reasons.ts). */
  readonly reasons: Uint8Array;
  /** When each PDU came, server seconds. */
  readonly timeSeconds: Float64Array;
  count = 0;
  /** Bumped when a marker was added or the markers were cleared. */
  version = 0;
  /** When the newest marker came, server seconds (−∞ when none). */
  newestSeconds = Number.NEGATIVE_INFINITY;
  private next = 0;

  constructor(readonly capacity: number) {
    this.positions = new Float64Array(3 * capacity);
    this.reasons = new Uint8Array(capacity);
    this.timeSeconds = new Float64Array(capacity);
  }

  add(lonDeg: number, latDeg: number, heightM: number, reason: number, timeSeconds: number): void {
    const i = this.next;
    this.positions[3 * i] = lonDeg;
    this.positions[3 * i + 1] = latDeg;
    this.positions[3 * i + 2] = heightM;
    this.reasons[i] = reason;
    this.timeSeconds[i] = timeSeconds;
    this.next = (i + 1) % this.capacity;
    if (this.count < this.capacity) this.count++;
    if (timeSeconds > this.newestSeconds) this.newestSeconds = timeSeconds;
    this.version++;
  }

  clear(): void {
    this.count = this.next = 0;
    this.newestSeconds = Number.NEGATIVE_INFINITY;
    this.version++;
  }

  /** How much of a marker `ageSeconds` old shows: 1 up to `MARKER_HOLD_SECONDS`, 0 from `MARKER_FADE_SECONDS`. */
  static opacity(ageSeconds: number): number {
    if (ageSeconds <= MARKER_HOLD_SECONDS) return 1;
    return Math.max(0, 1 - (ageSeconds - MARKER_HOLD_SECONDS) / (MARKER_FADE_SECONDS - MARKER_HOLD_SECONDS));
  }

  /** Whether any marker is still fading at `nowSeconds` (the layer changes as time passes). */
  fading(nowSeconds: number): boolean {
    return this.count > 0 && nowSeconds - this.newestSeconds < MARKER_FADE_SECONDS;
  }
}
