/**
 * Per-run metrics in plain typed-array code (a mean and a percentile are not worth loading mathjs):
 * PDUs and why, wire bytes, displayed position and orientation error against truth, time above threshold,
 * smoothing artifacts, and the reduction against a fixed-rate sender. One accumulator is reused run after
 * run; adding a sample allocates nothing.
 */

import { rotationSinCos } from '../math/mat3.js';

/** IPv4 (20) + UDP (8) header bytes around every PDU. */
export const IPV4_UDP_HEADER_BYTES = 28;
/** Ethernet II header (14) + frame check sequence (4); preamble and inter-frame gap are not counted. */
export const ETHERNET_FRAMING_BYTES = 18;

/** Summary statistics of one error series. */
export interface ErrorSummary {
  mean: number;
  rms: number;
  p95: number;
  max: number;
}

/** Everything measured in one run. Units: seconds, metres, degrees, bytes. */
export interface RunMetrics {
  durationSeconds: number;
  /** Render instants at which errors were measured. */
  samples: number;
  pdus: number;
  /** PDUs by reason; a PDU sent for two reasons counts in both. */
  pdusByReason: { first: number; position: number; orientation: number; heartbeat: number; change: number };
  pdusPerSecond: number;
  /** PDUs per full orbit of a circular trajectory (null for other trajectories). */
  pdusPerOrbit: number | null;
  /** One PDU on the wire: PDU + IPv4/UDP (+ Ethernet framing when included). */
  bytesPerPdu: number;
  bytesPerSecond: number;
  wireIncludesEthernet: boolean;
  /** PDUs delivered before the run ended (duplicates included). */
  delivered: number;
  /** PDUs lost on the link or dropped at a full queue. */
  lost: number;
  /** Distance displayed ↔ true position, m. */
  positionError: ErrorSummary;
  /** Rotation angle displayed ↔ true orientation, degrees. */
  orientationErrorDeg: ErrorSummary;
  /** Share of render instants whose position error exceeds the position threshold, 0–1. */
  shareAboveThreshold: number;
  /** Largest change of displayed velocity between consecutive frames, m/s: the visible kink of a correction. */
  maxVelocityJump: number;
  baselineRateHz: number;
  /** PDUs a fixed-rate sender at the baseline rate would send in the same time. */
  baselinePdus: number;
  /** 100 · (1 − pdus / baselinePdus). */
  reductionPercent: number;
}

/** Accumulates one run; `reset` before each. */
export class MetricsAccumulator {
  private positionErrors: Float64Array;
  private orientationErrors: Float64Array;
  private count = 0;
  private aboveThreshold = 0;
  private maxJump = 0;
  private readonly previousPosition = new Float64Array(3);
  private readonly previousVelocity = new Float64Array(3);
  private previousTime = Number.NaN;
  private hasVelocity = false;
  readonly reasonCounts = new Float64Array(5);
  pdus = 0;
  private thresholdMeters = 1;
  private readonly sinCos = new Float64Array(2);

  /** @param capacity - render samples expected per run; grows (allocating) if exceeded. */
  constructor(capacity = 1024) {
    this.positionErrors = new Float64Array(capacity);
    this.orientationErrors = new Float64Array(capacity);
  }

  /** Starts a run. */
  reset(thresholdMeters: number, expectedSamples: number): void {
    if (this.positionErrors.length < expectedSamples) {
      this.positionErrors = new Float64Array(expectedSamples);
      this.orientationErrors = new Float64Array(expectedSamples);
    }
    this.thresholdMeters = thresholdMeters;
    this.count = 0;
    this.aboveThreshold = 0;
    this.maxJump = 0;
    this.previousTime = Number.NaN;
    this.hasVelocity = false;
    this.reasonCounts.fill(0);
    this.pdus = 0;
  }

  /** Counts one sent PDU with its EMIT_* reason bits. */
  addPdu(reasons: number): void {
    this.pdus++;
    for (let bit = 0; bit < 5; bit++) if (reasons & (1 << bit)) this.reasonCounts[bit]!++;
  }

  /** Position error of the last frame added, m. */
  lastPositionErrorMeters = 0;

  /**
   * Measures one frame: the displayed position and R_wb against the truth.
   * Everything comes in as integers and arrays: a double computed here and passed to a function V8 does not
   * inline would be boxed on the heap, once per frame.
   * @param frame - frame number; the frame is at frame / renderRateHz seconds.
   * @param truth - holds the true ECEF location (m) at `locationOffset` and the true R_wb (row-major) at
   *   `worldToBodyOffset`.
   * @param shownLocation - ECEF metres displayed by the receiver.
   * @param shownWorldToBody - R_wb displayed by the receiver.
   */
  addFrame(
    frame: number,
    renderRateHz: number,
    truth: Float64Array,
    locationOffset: number,
    worldToBodyOffset: number,
    shownLocation: Float64Array,
    shownWorldToBody: Float64Array,
  ): void {
    const b = locationOffset;
    const dx = truth[b]! - shownLocation[0]!,
      dy = truth[b + 1]! - shownLocation[1]!,
      dz = truth[b + 2]! - shownLocation[2]!;
    const error = Math.sqrt(dx * dx + dy * dy + dz * dz); // not Math.hypot: several times slower in V8
    // rotationAngleBetween with its atan2 here, for the same reason as above.
    rotationSinCos(this.sinCos, truth, shownWorldToBody, worldToBodyOffset);
    const angle = Math.atan2(this.sinCos[0]!, this.sinCos[1]!);
    this.lastPositionErrorMeters = error;
    if (this.count === this.positionErrors.length) this.grow();
    this.positionErrors[this.count] = error;
    this.orientationErrors[this.count] = angle;
    this.count++;
    if (error > this.thresholdMeters) this.aboveThreshold++;
    // The displayed velocity from frame to frame, and its largest change: the kink a correction shows.
    const t = frame / renderRateHz;
    const dt = t - this.previousTime;
    const p = this.previousPosition,
      v = this.previousVelocity,
      shown = shownLocation;
    if (dt > 0) {
      const vx = (shown[0]! - p[0]!) / dt,
        vy = (shown[1]! - p[1]!) / dt,
        vz = (shown[2]! - p[2]!) / dt;
      if (this.hasVelocity) {
        const jx = vx - v[0]!,
          jy = vy - v[1]!,
          jz = vz - v[2]!;
        const jump = Math.sqrt(jx * jx + jy * jy + jz * jz);
        if (jump > this.maxJump) this.maxJump = jump;
      }
      v[0] = vx;
      v[1] = vy;
      v[2] = vz;
      this.hasVelocity = true;
    }
    p[0] = shown[0]!;
    p[1] = shown[1]!;
    p[2] = shown[2]!;
    this.previousTime = t;
  }

  /** The run's metrics (allocates the result object only). */
  finish(options: {
    durationSeconds: number;
    pduBytes: number;
    includeEthernet: boolean;
    baselineRateHz: number;
    orbits: number | null;
    delivered: number;
    lost: number;
  }): RunMetrics {
    const duration = options.durationSeconds;
    const bytesPerPdu =
      options.pduBytes + IPV4_UDP_HEADER_BYTES + (options.includeEthernet ? ETHERNET_FRAMING_BYTES : 0);
    const baselinePdus = Math.floor(duration * options.baselineRateHz) + 1;
    const r = this.reasonCounts;
    return {
      durationSeconds: duration,
      samples: this.count,
      pdus: this.pdus,
      pdusByReason: { first: r[0]!, position: r[1]!, orientation: r[2]!, heartbeat: r[3]!, change: r[4]! },
      pdusPerSecond: this.pdus / duration,
      pdusPerOrbit: options.orbits ? this.pdus / options.orbits : null,
      bytesPerPdu,
      bytesPerSecond: (this.pdus * bytesPerPdu) / duration,
      wireIncludesEthernet: options.includeEthernet,
      delivered: options.delivered,
      lost: options.lost,
      positionError: summarize(this.positionErrors, this.count, 1),
      orientationErrorDeg: summarize(this.orientationErrors, this.count, 180 / Math.PI),
      shareAboveThreshold: this.count > 0 ? this.aboveThreshold / this.count : 0,
      maxVelocityJump: this.maxJump,
      baselineRateHz: options.baselineRateHz,
      baselinePdus,
      reductionPercent: 100 * (1 - this.pdus / baselinePdus),
    };
  }

  private grow(): void {
    const size = this.positionErrors.length * 2;
    const p = new Float64Array(size),
      o = new Float64Array(size);
    p.set(this.positionErrors);
    o.set(this.orientationErrors);
    this.positionErrors = p;
    this.orientationErrors = o;
  }
}

/** Mean, RMS, 95th percentile (nearest rank) and max of values[0..n), times `scale`. Reorders the values. */
export function summarize(values: Float64Array, n: number, scale = 1): ErrorSummary {
  if (n === 0) return { mean: 0, rms: 0, p95: 0, max: 0 };
  // The loops run in functions returning numbers: a loop on-stack-replaced inside this function would be
  // deoptimised at the object literal below on every run (never reached by the optimised loop), recompiled,
  // and deoptimised again.
  moments(summaryScratch, values, n);
  const sum = summaryScratch[0]!,
    sumSq = summaryScratch[1]!,
    max = summaryScratch[2]!;
  const p95 = kthSmallest(values, n, Math.max(0, Math.ceil(0.95 * n) - 1));
  return { mean: (sum / n) * scale, rms: Math.sqrt(sumSq / n) * scale, p95: p95 * scale, max: max * scale };
}

const summaryScratch = new Float64Array(3);

/** [sum, sum of squares, max (at least 0)] of values[0..n) into out. */
function moments(out: Float64Array, values: Float64Array, n: number): void {
  let sum = 0,
    sumSq = 0,
    max = 0;
  for (let i = 0; i < n; i++) {
    const v = values[i]!;
    sum += v;
    sumSq += v * v;
    if (v > max) max = v;
  }
  out[0] = sum;
  out[1] = sumSq;
  out[2] = max;
}

/**
 * Buckets by the high 16 bits of a double: sign, exponent and the top 4 bits of the mantissa. For values ≥ 0
 * that order is the order of the values (IEEE 754 bit patterns of non-negative doubles sort as integers), so
 * bucket b holds [2^e·(1 + m/16), 2^e·(1 + (m+1)/16)): 16 buckets per octave whatever the values' scale. A
 * series with a few huge outliers still spreads its bulk over many buckets. Negative values (never errors) go
 * to bucket 0, NaN after +∞.
 */
const BUCKETS = 0x8000;
const bucketCounts = new Int32Array(BUCKETS);
/** Index of a double's high 32-bit word in a Uint32Array over Float64Array storage (1 on little-endian). */
const HIGH_WORD = new Uint32Array(Float64Array.of(-0).buffer)[1] === 0x8000_0000 ? 1 : 0;

/**
 * The k-th smallest of values[0..n) (≥ 0). One counting pass over the buckets finds the bucket holding rank k;
 * only that bucket's values (about a sixteenth of an octave's) go to quickselect. Quickselect alone walks the
 * whole array several times, and sawtooth error series make its middle pivot a poor one.
 */
function kthSmallest(values: Float64Array, n: number, k: number): number {
  if (n < 256) return select(values, n, k);
  const words = new Uint32Array(values.buffer, values.byteOffset, 2 * n);
  const bucket = bucketOfRank(countBuckets(words, n), k);
  const m = moveBucketToFront(values, words, n, bucket);
  return select(values, m, k - rankScratch[0]!);
}

/** [values in the buckets below the one `bucketOfRank` found] */
const rankScratch = new Int32Array(1);

/** The bucket holding rank k; the count below it goes to rankScratch[0]. (A loop of its own: see `summarize`.) */
function bucketOfRank(counts: Int32Array, k: number): number {
  let bucket = 0,
    below = 0;
  while (below + counts[bucket]! <= k) below += counts[bucket++]!;
  rankScratch[0] = below;
  return bucket;
}

function bucketOf(highWord: number): number {
  const b = highWord >>> 16;
  return b < BUCKETS ? b : 0;
}

function countBuckets(words: Uint32Array, n: number): Int32Array {
  const counts = bucketCounts.fill(0);
  for (let i = 0; i < n; i++) counts[bucketOf(words[2 * i + HIGH_WORD]!)]!++;
  return counts;
}

/** Moves the values of one bucket to the front (the values are the caller's scratch). @returns how many. */
function moveBucketToFront(values: Float64Array, words: Uint32Array, n: number, bucket: number): number {
  let m = 0;
  for (let i = 0; i < n; i++) {
    if (bucketOf(words[2 * i + HIGH_WORD]!) === bucket) {
      const v = values[i]!;
      values[i] = values[m]!;
      values[m++] = v;
    }
  }
  return m;
}

/** The k-th smallest of values[0..n) by quickselect (in place, no allocation). */
function select(values: Float64Array, n: number, k: number): number {
  let lo = 0,
    hi = n - 1;
  while (lo < hi) {
    const pivot = values[(lo + hi) >> 1]!;
    let i = lo,
      j = hi;
    while (i <= j) {
      while (values[i]! < pivot) i++;
      while (values[j]! > pivot) j--;
      if (i <= j) {
        const t = values[i]!;
        values[i] = values[j]!;
        values[j] = t;
        i++;
        j--;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return values[k]!;
  }
  return values[k]!;
}
