/**
 * Each slot's PDU rate: the arrival times of its last `RATE_WINDOW` PDUs in a ring, allocated up front so that
 * noting an arrival allocates nothing.
 */

/** Arrival times kept per entity for its PDU rate. */
const RATE_WINDOW = 8;

export class PduRates {
  /** Arrival times of each slot's last PDUs (a ring of RATE_WINDOW), server seconds, and how many. */
  private readonly arrivals: Float64Array;
  private readonly arrivalCount: Uint8Array;

  constructor(capacity: number) {
    this.arrivals = new Float64Array(RATE_WINDOW * capacity);
    this.arrivalCount = new Uint8Array(capacity);
  }

  /** Notes a PDU of `slot` that arrived at `arrivalSeconds`. */
  add(slot: number, arrivalSeconds: number): void {
    const count = this.arrivalCount[slot]!;
    this.arrivals[RATE_WINDOW * slot + (count % RATE_WINDOW)] = arrivalSeconds;
    // Wraps within [RATE_WINDOW, 2·RATE_WINDOW) once full, so `count ≥ RATE_WINDOW` stays true.
    this.arrivalCount[slot] = count + 1 >= 2 * RATE_WINDOW ? RATE_WINDOW : count + 1;
  }

  /** Forgets a slot's arrivals (a new entity took it). */
  clear(slot: number): void {
    this.arrivalCount[slot] = 0;
  }

  /** PDUs per second of a slot over its last few PDUs (0 with fewer than two). */
  rate(slot: number): number {
    const count = this.arrivalCount[slot]!;
    if (count < 2) return 0;
    const base = RATE_WINDOW * slot;
    const kept = Math.min(count, RATE_WINDOW);
    let first = Infinity;
    let last = -Infinity;
    for (let k = 0; k < kept; k++) {
      const t = this.arrivals[base + k]!;
      if (t < first) first = t;
      if (t > last) last = t;
    }
    return last > first ? (kept - 1) / (last - first) : 0;
  }
}
