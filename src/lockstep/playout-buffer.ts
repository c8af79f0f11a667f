/**
 * The playout delay buffer: frames (inputs, one byte each) arrive by frame number at irregular times and leave at
 * a steady rate. The first arrival fixes when frame 0 plays: its arrival time, minus its frame time, plus the
 * playout delay. A frame whose time has come but which has not arrived stops playback (a hitch, counted and
 * timed); when several frames are due at once, at most `maxStepsPerUpdate` leave per update, so the consumer
 * catches up without a spiral of death.
 *
 * Adaptive mode measures how late each frame arrives against the steady schedule (the lateness of the fastest
 * recent frame is the latency, its spread the jitter; a clock drift shows as a trend) and moves the playout time
 * towards "latest recent arrival + safety margin", by slewing playback speed at most ±`maxSlew`, so latency
 * stays low and hitches stay rare. Time is always a parameter (seconds); nothing here reads a clock.
 */

export interface PlayoutOptions {
  /** Frame period, s. Defaults to 1/60. */
  readonly stepSeconds?: number;
  /** Playout delay added to the first arrival, s (the starting value in adaptive mode). Defaults to 0.1. */
  readonly delaySeconds?: number;
  /** Frames held ahead of playback; later ones are refused. Defaults to 1024. */
  readonly capacity?: number;
  /** Most frames released by one `update`. Defaults to 4. */
  readonly maxStepsPerUpdate?: number;
  /** Track jitter and drift and move the delay. Defaults to false. */
  readonly adaptive?: boolean;
  /** Adaptive: margin kept above the latest recent arrival, s. Defaults to 0.02. */
  readonly marginSeconds?: number;
  /** Adaptive: most speed change of playback, as a fraction (0.05 = ±5 %). Defaults to 0.05. */
  readonly maxSlew?: number;
  /** Adaptive: how fast the remembered worst lateness fades, s per s. Defaults to 0.01. */
  readonly decaySecondsPerSecond?: number;
}

/** What `PlayoutBuffer.add` did with a frame. */
export const PlayoutAddStatus = {
  OK: 0,
  /** Already held. */
  DUPLICATE: 1,
  /** Already played (or skipped past). */
  LATE: 2,
  /** Too far ahead of playback for the buffer. */
  TOO_FAR_AHEAD: 3,
} as const;
export type PlayoutAddStatus = (typeof PlayoutAddStatus)[keyof typeof PlayoutAddStatus];

/** Counters of a `PlayoutBuffer`. */
export interface PlayoutStats {
  added: number;
  duplicates: number;
  late: number;
  tooFarAhead: number;
  released: number;
  /** Times playback stopped because a due frame was missing. */
  hitches: number;
  /** Total time spent stopped, s. */
  stalledSeconds: number;
  longestStallSeconds: number;
}

/** Frames in at irregular times, out at a steady rate after a (fixed or adaptive) playout delay. */
export class PlayoutBuffer {
  readonly stats: PlayoutStats = {
    added: 0,
    duplicates: 0,
    late: 0,
    tooFarAhead: 0,
    released: 0,
    hitches: 0,
    stalledSeconds: 0,
    longestStallSeconds: 0,
  };
  /** Next frame to release. */
  nextFrame = 0;

  readonly stepSeconds: number;
  private readonly capacity: number;
  private readonly maxSteps: number;
  private readonly adaptive: boolean;
  private readonly margin: number;
  private readonly maxSlew: number;
  private readonly decay: number;
  private readonly values: Uint8Array;
  private readonly present: Uint8Array;
  /** Local time at which frame 0 plays, s (NaN until the first arrival). */
  private playoutOriginSeconds = NaN;
  private delay: number;
  /** Lateness = arrival − frame · step; the fastest and the slowest recent ones, with fading memory. */
  private minLateness = Infinity;
  private maxLateness = -Infinity;
  private lastUpdateSeconds = NaN;
  private stallStartSeconds = NaN;

  constructor(options: PlayoutOptions = {}) {
    this.stepSeconds = options.stepSeconds ?? 1 / 60;
    this.delay = options.delaySeconds ?? 0.1;
    this.capacity = options.capacity ?? 1024;
    this.maxSteps = options.maxStepsPerUpdate ?? 4;
    this.adaptive = options.adaptive ?? false;
    this.margin = options.marginSeconds ?? 0.02;
    this.maxSlew = options.maxSlew ?? 0.05;
    this.decay = options.decaySecondsPerSecond ?? 0.01;
    this.values = new Uint8Array(this.capacity);
    this.present = new Uint8Array(this.capacity);
  }

  /** The current playout delay, s: how long after its fastest recent arrival a frame plays. */
  get delaySeconds(): number {
    return Number.isFinite(this.minLateness) ? this.playoutOriginSeconds - this.minLateness : this.delay;
  }

  /** True while playback is stopped waiting for a frame. */
  get stalled(): boolean {
    return !Number.isNaN(this.stallStartSeconds);
  }

  /**
   * Fixes the schedule before the first arrival, as if `frame` had arrived at `arrivalSeconds` (a receiver whose
   * clock is synchronised with the sender's can do this; otherwise the first arrival fixes it). Ignored once set.
   */
  anchor(frame: number, arrivalSeconds: number): void {
    if (!Number.isNaN(this.playoutOriginSeconds)) return;
    this.playoutOriginSeconds = arrivalSeconds - frame * this.stepSeconds + this.delay;
    this.minLateness = this.maxLateness = arrivalSeconds - frame * this.stepSeconds;
  }

  /**
   * Adds the value of `frame`, which arrived at `nowSeconds`.
   * @param frame - frame number, ≥ 0.
   * @param value - one byte.
   * @param nowSeconds - local arrival time, s.
   */
  add(frame: number, value: number, nowSeconds: number): PlayoutAddStatus {
    if (frame < this.nextFrame) {
      this.stats.late++;
      return PlayoutAddStatus.LATE;
    }
    if (frame >= this.nextFrame + this.capacity) {
      this.stats.tooFarAhead++;
      return PlayoutAddStatus.TOO_FAR_AHEAD;
    }
    const slot = frame % this.capacity;
    if (this.present[slot]) {
      this.stats.duplicates++;
      return PlayoutAddStatus.DUPLICATE;
    }
    this.values[slot] = value;
    this.present[slot] = 1;
    this.stats.added++;
    const lateness = nowSeconds - frame * this.stepSeconds;
    if (Number.isNaN(this.playoutOriginSeconds)) this.playoutOriginSeconds = lateness + this.delay;
    if (lateness < this.minLateness) this.minLateness = lateness;
    if (lateness > this.maxLateness) this.maxLateness = lateness;
    return PlayoutAddStatus.OK;
  }

  /**
   * Releases the frames due at `nowSeconds` that have arrived, in order, at most `maxStepsPerUpdate`.
   * Call once per render frame.
   * @param release - called with (frame, value) for each released frame.
   * @returns the number released.
   */
  update(nowSeconds: number, release: (frame: number, value: number) => void): number {
    if (Number.isNaN(this.playoutOriginSeconds)) return 0;
    const elapsed = Number.isNaN(this.lastUpdateSeconds) ? 0 : Math.max(0, nowSeconds - this.lastUpdateSeconds);
    this.lastUpdateSeconds = nowSeconds;
    if (this.adaptive && elapsed > 0) this.adapt(elapsed);

    let released = 0;
    while (released < this.maxSteps && this.playoutOriginSeconds + this.nextFrame * this.stepSeconds <= nowSeconds) {
      const slot = this.nextFrame % this.capacity;
      if (!this.present[slot]) break;
      this.present[slot] = 0;
      release(this.nextFrame, this.values[slot]!);
      this.nextFrame++;
      released++;
    }
    const due = this.playoutOriginSeconds + this.nextFrame * this.stepSeconds <= nowSeconds;
    const waiting = due && !this.present[this.nextFrame % this.capacity];
    if (waiting && !this.stalled) {
      this.stats.hitches++;
      this.stallStartSeconds = nowSeconds;
    } else if (!waiting && this.stalled) {
      this.endStall(nowSeconds);
    }
    this.stats.released += released;
    return released;
  }

  /** Closes an open stall at `nowSeconds` so its length counts (call at the end of a run). */
  finish(nowSeconds: number): void {
    if (this.stalled) this.endStall(nowSeconds);
  }

  private endStall(nowSeconds: number): void {
    const stall = nowSeconds - this.stallStartSeconds;
    this.stats.stalledSeconds += stall;
    if (stall > this.stats.longestStallSeconds) this.stats.longestStallSeconds = stall;
    this.stallStartSeconds = NaN;
  }

  /** Moves the playout origin towards the latest recent lateness plus the margin, at most ±maxSlew. */
  private adapt(elapsedSeconds: number): void {
    // Fade the extremes so that old outliers and a drifting clock are forgotten.
    this.maxLateness -= this.decay * elapsedSeconds;
    this.minLateness += this.decay * elapsedSeconds;
    if (this.minLateness > this.maxLateness) this.minLateness = this.maxLateness;
    const target = this.maxLateness + this.margin;
    const limit = this.maxSlew * elapsedSeconds;
    const change = Math.max(-limit, Math.min(limit, target - this.playoutOriginSeconds));
    this.playoutOriginSeconds += change;
  }
}
