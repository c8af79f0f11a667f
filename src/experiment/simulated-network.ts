/**
 * A seeded, deterministic one-way network link for simulations: base latency plus jitter drawn from a chosen
 * distribution, independent or bursty (Gilbert–Elliott) loss, duplication, reordering, an optional bandwidth
 * bottleneck with a drop-tail buffer, and a bounded in-flight queue. Time is a parameter (seconds), never the
 * clock, so the same profile, seed and send sequence always deliver the same packets at the same instants.
 */
import { createRandom, type Random } from '../math/random.js';

/** How a link behaves. Times in milliseconds, shares in percent (0–100). */
export interface NetworkProfile {
  /** Base one-way delay (propagation and fixed processing), ms. */
  latencyMs: number;
  /** Mean of the extra, non-negative queueing delay added to each packet, ms. 0 = none. */
  jitterMs: number;
  /**
   * Distribution of the extra delay, each scaled to mean `jitterMs`: uniform on [0, 2·jitter], half-normal,
   * exponential, or Pareto II (shape 3, heavy tail). Defaults to `'uniform'`.
   */
  jitter?: 'uniform' | 'normal' | 'exponential' | 'pareto';
  /** Long-run share of packets lost, %. */
  lossPercent: number;
  /** Independent (Bernoulli) loss or bursts from a two-state Gilbert–Elliott chain. Defaults to `'independent'`. */
  loss?: 'independent' | 'gilbert-elliott';
  /** Mean number of consecutive packets lost in one burst (Gilbert–Elliott only), ≥ 1. Defaults to 3. */
  meanBurstLength?: number;
  /** Share of packets delivered twice (the copy gets its own delay), %. Defaults to 0. */
  duplicatePercent?: number;
  /** Share of packets held back by `reorderDelayMs` so that later packets overtake them, %. Defaults to 0. */
  reorderPercent?: number;
  /** Extra delay of a reordered packet, ms. Defaults to 20. */
  reorderDelayMs?: number;
  /** Bottleneck rate; packets are serialised one after another at this rate. Defaults to unlimited. */
  bandwidthBitsPerSecond?: number;
  /** Drop-tail buffer in front of the bottleneck, bytes. Defaults to 262144. */
  bufferBytes?: number;
  /**
   * Keep packets in send order (a single path: jitter delays but never reorders). Only `reorderPercent`
   * reorders then. Defaults to true.
   */
  preserveOrder?: boolean;
  /** Most packets in flight at once; more are dropped and counted. Defaults to 65536. */
  queueLimit?: number;
}

/** Named profiles, from a perfect wire to a congested mobile link. Values are typical, not measurements. */
export const NETWORK_PROFILES = {
  perfect: { latencyMs: 0, jitterMs: 0, lossPercent: 0 },
  lan: { latencyMs: 0.5, jitterMs: 0.2, jitter: 'exponential', lossPercent: 0 },
  wan: { latencyMs: 40, jitterMs: 5, jitter: 'normal', lossPercent: 0.5 },
  intercontinental: { latencyMs: 90, jitterMs: 8, jitter: 'normal', lossPercent: 1 },
  satellite: {
    latencyMs: 280,
    jitterMs: 20,
    jitter: 'normal',
    lossPercent: 1,
    loss: 'gilbert-elliott',
    meanBurstLength: 4,
  },
  'lossy-wifi': {
    latencyMs: 3,
    jitterMs: 8,
    jitter: 'exponential',
    lossPercent: 5,
    loss: 'gilbert-elliott',
    meanBurstLength: 3,
    duplicatePercent: 0.5,
    reorderPercent: 1,
    reorderDelayMs: 10,
  },
  mobile: {
    latencyMs: 35,
    jitterMs: 15,
    jitter: 'pareto',
    lossPercent: 2,
    loss: 'gilbert-elliott',
    meanBurstLength: 2,
    reorderPercent: 0.5,
  },
  congested: {
    latencyMs: 20,
    jitterMs: 30,
    jitter: 'pareto',
    lossPercent: 3,
    loss: 'gilbert-elliott',
    meanBurstLength: 5,
    bandwidthBitsPerSecond: 256_000,
    bufferBytes: 16_384,
  },
} as const satisfies Readonly<Record<string, NetworkProfile>>;

/** The name of a network profile (`NETWORK_PROFILES`). */
export type NetworkProfileName = keyof typeof NETWORK_PROFILES;

/** Counters of one link; read them at any time. */
export interface LinkStats {
  /** Packets handed to `send` (duplicates not counted). */
  sent: number;
  bytesSent: number;
  /** Packets handed to `deliver`, duplicates included. */
  delivered: number;
  bytesDelivered: number;
  /** Lost to the loss model. */
  lost: number;
  /** Dropped because the bottleneck buffer or the in-flight queue was full. */
  dropped: number;
  duplicated: number;
  reordered: number;
  /** Packets queued now. */
  inFlight: number;
}

/** One queued packet; entries are pooled and reused, so a running link allocates nothing. */
interface Entry<T> {
  arrivalSeconds: number;
  sequence: number;
  bytes: number;
  payload: T | undefined;
}

const PARETO_SHAPE = 3;

/** A one-way simulated link carrying payloads of type T. */
export class SimulatedLink<T> {
  readonly profile: Readonly<NetworkProfile>;
  readonly stats: LinkStats = {
    sent: 0,
    bytesSent: 0,
    delivered: 0,
    bytesDelivered: 0,
    lost: 0,
    dropped: 0,
    duplicated: 0,
    reordered: 0,
    inFlight: 0,
  };

  private readonly random: Random;
  /** Binary min-heap on (arrival, sequence); the sequence makes equal arrival times deliver in send order. */
  private readonly heap: Entry<T>[] = [];
  private readonly pool: Entry<T>[] = [];
  private sequence = 0;
  private inBurst = false;
  private bottleneckFreeSeconds = 0;
  private lastInOrderArrivalSeconds = -Infinity;
  private readonly enterBurst: number;
  private readonly leaveBurst: number;
  private readonly queueLimit: number;

  /**
   * @param profile - how the link behaves (see `NetworkProfile`, or pick one of `NETWORK_PROFILES`).
   * @param seed - seeds the link's own random source; the same seed reproduces the same run.
   */
  constructor(profile: NetworkProfile, seed: number) {
    const problems = validateNetworkProfile(profile);
    if (problems.length > 0) throw new RangeError(`invalid network profile: ${problems.join('; ')}`);
    this.profile = { ...profile };
    this.random = createRandom(seed);
    this.queueLimit = profile.queueLimit ?? 65_536;
    // Gilbert–Elliott with loss 1 in the bad state and 0 in the good one: bursts end with probability
    // r = 1/meanBurst, and the stationary bad share p/(p + r) equals the loss share L, so p = r·L/(1 − L).
    const share = profile.lossPercent / 100;
    this.leaveBurst = 1 / (profile.meanBurstLength ?? 3);
    this.enterBurst = share >= 1 ? 1 : (this.leaveBurst * share) / (1 - share);
  }

  /**
   * Sends one packet.
   * @param sendTimeSeconds - simulation time of sending, s; calls should come in non-decreasing time order.
   * @param payload - delivered as is (not copied): pass an index or a pooled object if it is reused.
   * @param bytes - size on the wire, bytes (counts towards bandwidth and the stats).
   */
  send(sendTimeSeconds: number, payload: T, bytes: number): void {
    const p = this.profile;
    this.stats.sent++;
    this.stats.bytesSent += bytes;

    let departSeconds = sendTimeSeconds;
    if (p.bandwidthBitsPerSecond !== undefined) {
      const start = Math.max(sendTimeSeconds, this.bottleneckFreeSeconds);
      const backlogBytes = ((start - sendTimeSeconds) * p.bandwidthBitsPerSecond) / 8;
      if (backlogBytes + bytes > (p.bufferBytes ?? 262_144)) {
        this.stats.dropped++;
        return;
      }
      departSeconds = start + (bytes * 8) / p.bandwidthBitsPerSecond;
      this.bottleneckFreeSeconds = departSeconds;
    }
    if (this.isLost()) {
      this.stats.lost++;
      return;
    }
    this.enqueue(departSeconds, payload, bytes);
    if (p.duplicatePercent && this.random.chance(p.duplicatePercent / 100)) {
      this.stats.duplicated++;
      this.enqueue(departSeconds, payload, bytes);
    }
  }

  /**
   * Delivers, in arrival order, every packet arriving at or before `timeSeconds`.
   * @param deliver - called once per packet with its arrival time, s (≤ timeSeconds).
   */
  poll(timeSeconds: number, deliver: (payload: T, arrivalTimeSeconds: number) => void): void {
    const heap = this.heap;
    while (heap.length > 0 && heap[0]!.arrivalSeconds <= timeSeconds) {
      const entry = this.pop();
      const payload = entry.payload as T;
      const arrival = entry.arrivalSeconds;
      this.stats.delivered++;
      this.stats.bytesDelivered += entry.bytes;
      entry.payload = undefined;
      this.pool.push(entry);
      deliver(payload, arrival);
    }
  }

  /** Arrival time of the next queued packet, s, or Infinity when nothing is in flight. */
  nextArrivalSeconds(): number {
    return this.heap.length > 0 ? this.heap[0]!.arrivalSeconds : Infinity;
  }

  private isLost(): boolean {
    const p = this.profile;
    if (p.lossPercent <= 0) return false;
    if (p.loss !== 'gilbert-elliott') return this.random.chance(p.lossPercent / 100);
    this.inBurst = this.random.chance(this.inBurst ? 1 - this.leaveBurst : this.enterBurst);
    return this.inBurst;
  }

  private jitterSeconds(): number {
    const mean = this.profile.jitterMs / 1000;
    if (mean <= 0) return 0;
    switch (this.profile.jitter ?? 'uniform') {
      case 'uniform':
        return 2 * mean * this.random.next();
      case 'normal':
        // Half-normal: |N(0, σ)| has mean σ·√(2/π).
        return Math.abs(this.random.normal(0, mean * Math.sqrt(Math.PI / 2)));
      case 'exponential':
        return this.random.exponential(mean);
      case 'pareto':
        // Pareto II (Lomax) = Pareto I − scale; mean scale/(α − 1).
        return this.random.pareto(PARETO_SHAPE, mean * (PARETO_SHAPE - 1)) - mean * (PARETO_SHAPE - 1);
    }
  }

  private enqueue(departSeconds: number, payload: T, bytes: number): void {
    if (this.heap.length >= this.queueLimit) {
      this.stats.dropped++;
      return;
    }
    const p = this.profile;
    let arrival = departSeconds + p.latencyMs / 1000 + this.jitterSeconds();
    if (p.reorderPercent && this.random.chance(p.reorderPercent / 100)) {
      this.stats.reordered++;
      arrival += (p.reorderDelayMs ?? 20) / 1000;
    } else if (p.preserveOrder !== false) {
      // One path: a packet cannot overtake the one sent before it.
      if (arrival < this.lastInOrderArrivalSeconds) arrival = this.lastInOrderArrivalSeconds;
      this.lastInOrderArrivalSeconds = arrival;
    }
    const entry = this.pool.pop() ?? { arrivalSeconds: 0, sequence: 0, bytes: 0, payload: undefined };
    entry.arrivalSeconds = arrival;
    entry.sequence = this.sequence++;
    entry.bytes = bytes;
    entry.payload = payload;
    this.push(entry);
  }

  private push(entry: Entry<T>): void {
    const heap = this.heap;
    let i = heap.length;
    heap.push(entry);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!before(entry, heap[parent]!)) break;
      heap[i] = heap[parent]!;
      i = parent;
    }
    heap[i] = entry;
    this.stats.inFlight = heap.length;
  }

  private pop(): Entry<T> {
    const heap = this.heap;
    const top = heap[0]!;
    const last = heap.pop()!;
    const n = heap.length;
    if (n > 0) {
      let i = 0;
      for (;;) {
        const left = 2 * i + 1;
        if (left >= n) break;
        const right = left + 1;
        const child = right < n && before(heap[right]!, heap[left]!) ? right : left;
        if (!before(heap[child]!, last)) break;
        heap[i] = heap[child]!;
        i = child;
      }
      heap[i] = last;
    }
    this.stats.inFlight = n;
    return top;
  }
}

function before<T>(a: Entry<T>, b: Entry<T>): boolean {
  return a.arrivalSeconds < b.arrivalSeconds || (a.arrivalSeconds === b.arrivalSeconds && a.sequence < b.sequence);
}

/** Every problem with a profile, as messages naming the field; empty when it is valid. */
export function validateNetworkProfile(profile: NetworkProfile): string[] {
  const problems: string[] = [];
  const check = (name: keyof NetworkProfile, ok: (v: number) => boolean, rule: string) => {
    const v = profile[name];
    if (v !== undefined && (typeof v !== 'number' || !Number.isFinite(v) || !ok(v)))
      problems.push(`${name} must be ${rule}, got ${String(v)}`);
  };
  check('latencyMs', (v) => v >= 0, '≥ 0');
  check('jitterMs', (v) => v >= 0, '≥ 0');
  check('lossPercent', (v) => v >= 0 && v < 100, 'in [0, 100)');
  check('meanBurstLength', (v) => v >= 1, '≥ 1');
  check('duplicatePercent', (v) => v >= 0 && v <= 100, 'in [0, 100]');
  check('reorderPercent', (v) => v >= 0 && v <= 100, 'in [0, 100]');
  check('reorderDelayMs', (v) => v >= 0, '≥ 0');
  check('bandwidthBitsPerSecond', (v) => v > 0, '> 0');
  check('bufferBytes', (v) => v > 0, '> 0');
  check('queueLimit', (v) => v >= 1 && Number.isInteger(v), 'an integer ≥ 1');
  return problems;
}
