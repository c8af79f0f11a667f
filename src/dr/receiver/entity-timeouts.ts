/**
 * When each remote entity times out without a PDU: heartbeat × multiplier, by its kind and domain, or by the
 * stationary heartbeat while its last PDU says it does not move (IEEE 1278.1-2012 Table 25, HBT_STATIONARY).
 */
import {
  HEARTBEAT_IEEE_TABLE_25,
  HEARTBEAT_STATIONARY_SECONDS,
  HEARTBEAT_TIMEOUT_MULTIPLIER,
  heartbeatSecondsFor,
  isStationaryState,
  type HeartbeatTable,
} from '../owner/heartbeat.js';

/** The heartbeat settings of a `RemoteEntityTable`. */
export interface TimeoutOptions {
  /** Heartbeat per kind/domain. Defaults to IEEE 1278.1-2012 Table 25 (5 s). */
  heartbeatTable?: HeartbeatTable;
  /** Entities time out after heartbeat × this without a PDU. Defaults to 2.4 (HBT_TIMEOUT_MPLIER). */
  timeoutMultiplier?: number;
  /**
   * Heartbeat of an entity whose last PDU is stationary (`isStationaryState`), seconds (HBT_STATIONARY): such an
   * entity times out after this × timeoutMultiplier (never sooner than its kind's timeout), since its owner
   * heartbeats that seldom. `null` or 0: every entity times out by its kind's heartbeat. Defaults to 60.
   */
  stationaryHeartbeatSeconds?: number | null;
}

/** A deadline's slack against rounding: arrival + timeout and now − arrival > timeout may differ in the last bit. */
const DEADLINE_SLACK_SECONDS = 1e-3;

/**
 * Each slot's timeout, seconds, and a lower bound of the deadlines (arrival + timeout), so that a table looks for
 * timed-out entities only when one may be due rather than over every slot at every frame.
 */
export class EntityTimeouts {
  /** Seconds without a PDU after which the slot's entity times out. */
  readonly seconds: Float64Array;
  /** No entity times out before this, seconds (a lower bound: lowered by `arrived`, set by a scan). */
  private earliestDeadline = Number.NEGATIVE_INFINITY;
  /** The timeout of a stationary entity (0 when turned off). */
  private readonly stationarySeconds: number;
  /** Timeouts by kind (non-platforms) and, for platforms (kind 1), by domain: heartbeat × multiplier. */
  private readonly byKind = new Float64Array(256);
  private readonly platformByDomain = new Float64Array(256);
  private readonly heartbeatTable: HeartbeatTable;
  private readonly multiplier: number;

  constructor(capacity: number, options: TimeoutOptions) {
    this.seconds = new Float64Array(capacity);
    this.heartbeatTable = options.heartbeatTable ?? HEARTBEAT_IEEE_TABLE_25;
    this.multiplier = options.timeoutMultiplier ?? HEARTBEAT_TIMEOUT_MULTIPLIER;
    const stationary =
      options.stationaryHeartbeatSeconds === undefined
        ? HEARTBEAT_STATIONARY_SECONDS
        : options.stationaryHeartbeatSeconds;
    this.stationarySeconds = (stationary ?? 0) * this.multiplier;
    for (let k = 0; k < 256; k++) {
      this.byKind[k] = heartbeatSecondsFor(this.heartbeatTable, k, 0) * this.multiplier;
      this.platformByDomain[k] = heartbeatSecondsFor(this.heartbeatTable, 1, k) * this.multiplier;
    }
  }

  /** A PDU arrived at arrivalSeconds (or a held entity resumed as if it had) after `update`: its new deadline. */
  arrived(slot: number, arrivalSeconds: number): void {
    const deadline = arrivalSeconds + this.seconds[slot]! - DEADLINE_SLACK_SECONDS;
    if (deadline < this.earliestDeadline) this.earliestDeadline = deadline;
  }

  /**
   * Whether an entity may have timed out at nowSeconds (false: none has). When true, the caller scans every slot and
   * ends with `scanned`; arrivals during the scan (a listener's PDU) lower the bound from none.
   */
  startScan(nowSeconds: number): boolean {
    if (!(nowSeconds >= this.earliestDeadline)) return false;
    this.earliestDeadline = Number.POSITIVE_INFINITY;
    return true;
  }

  /** The scan found the earliest deadline of the entities it kept (Infinity: none). */
  scanned(earliestDeadline: number): void {
    this.earliestDeadline = Math.min(this.earliestDeadline, earliestDeadline - DEADLINE_SLACK_SECONDS);
  }

  /**
   * The timeout after a PDU of an entity of this kind and domain whose velocity, acceleration and rates are
   * `values[o…o+2]`, `[o+6…]` and `[o+9…]` (an update PDU is judged with its entity's last DR parameters).
   */
  update(slot: number, kindNumber: number, domain: number, algorithm: number, values: Float64Array, o: number): void {
    // Looked up per PDU rather than held per slot: one array read, where a slot's copy costs 8 bytes per entity.
    const kind = kindNumber === 1 ? this.platformByDomain[domain & 0xff]! : this.byKind[kindNumber & 0xff]!,
      stationary = this.stationarySeconds;
    // Moving entities fail at the first velocity comparison.
    this.seconds[slot] =
      stationary > kind && isStationaryState(algorithm, values, o, values, o + 6, values, o + 9) ? stationary : kind;
  }
}
