import { describe, expect, it } from 'vitest';
import {
  NETWORK_PROFILES,
  SimulatedLink,
  validateNetworkProfile,
  type NetworkProfile,
} from '../../src/experiment/simulated-network.js';

/** Sends `count` packets (payload = index) every `intervalSeconds` and returns arrival time per index (NaN if lost). */
function run(profile: NetworkProfile, count: number, intervalSeconds = 0.01, seed = 1) {
  const link = new SimulatedLink<number>(profile, seed);
  const arrivals = new Float64Array(count).fill(NaN);
  const order: number[] = [];
  let copies = 0;
  const deliver = (i: number, t: number) => {
    if (Number.isNaN(arrivals[i])) arrivals[i] = t;
    else copies++;
    order.push(i);
  };
  for (let i = 0; i < count; i++) {
    const t = i * intervalSeconds;
    link.poll(t, deliver);
    link.send(t, i, 144);
  }
  link.poll(Infinity, deliver);
  return { link, arrivals, order, copies };
}

describe('SimulatedLink', () => {
  it('is deterministic: same profile and seed, same deliveries', () => {
    const profile = NETWORK_PROFILES['lossy-wifi'];
    const a = run(profile, 5000);
    const b = run(profile, 5000);
    expect(Array.from(a.arrivals)).toEqual(Array.from(b.arrivals));
    expect(a.order).toEqual(b.order);
    expect(run(profile, 5000, 0.01, 2).order).not.toEqual(a.order);
  });

  it('a perfect link delivers everything at the send instant, in order', () => {
    const { arrivals, order, link } = run(NETWORK_PROFILES.perfect, 100);
    expect(Array.from(arrivals)).toEqual(Array.from({ length: 100 }, (_, i) => i * 0.01));
    expect(order).toEqual(Array.from({ length: 100 }, (_, i) => i));
    expect(link.stats).toMatchObject({ sent: 100, delivered: 100, lost: 0, inFlight: 0, bytesDelivered: 14_400 });
  });

  it('poll delivers only what has arrived, in arrival order, and reports arrival times', () => {
    const link = new SimulatedLink<string>({ latencyMs: 100, jitterMs: 0, lossPercent: 0 }, 1);
    link.send(0, 'a', 10);
    link.send(0.05, 'b', 10);
    const got: Array<[string, number]> = [];
    link.poll(0.09, (p, t) => got.push([p, t]));
    expect(got).toEqual([]);
    link.poll(0.1, (p, t) => got.push([p, t]));
    expect(got).toEqual([['a', 0.1]]);
    expect(link.nextArrivalSeconds()).toBeCloseTo(0.15, 12);
    link.poll(1, (p, t) => got.push([p, t]));
    expect(got.map((g) => g[0])).toEqual(['a', 'b']);
  });

  it.each([
    ['uniform', 2 * Math.sqrt(1 / 12)], // uniform on [0, 2m]: σ = m/√3
    ['normal', Math.sqrt(Math.PI / 2 - 1)], // half-normal with mean m: σ = m·√(π/2 − 1)
    ['exponential', 1], // σ = mean
  ] as const)('%s jitter has mean jitterMs and the distribution’s spread', (jitter, stdOverMean) => {
    // Packets 1 s apart never queue behind each other, so each delay is latency + one jitter draw.
    const { arrivals } = run({ latencyMs: 50, jitterMs: 10, jitter, lossPercent: 0 }, 20_000, 1);
    let sum = 0;
    let sumSq = 0;
    let min = Infinity;
    for (let i = 0; i < arrivals.length; i++) {
      const extraMs = (arrivals[i]! - i) * 1000 - 50;
      sum += extraMs;
      sumSq += extraMs * extraMs;
      min = Math.min(min, extraMs);
    }
    const mean = sum / arrivals.length;
    const std = Math.sqrt(sumSq / arrivals.length - mean * mean);
    expect(min).toBeGreaterThanOrEqual(-1e-9);
    expect(mean).toBeGreaterThan(9.8);
    expect(mean).toBeLessThan(10.2);
    expect(std / 10).toBeGreaterThan(stdOverMean * 0.97);
    expect(std / 10).toBeLessThan(stdOverMean * 1.03);
  });

  it('pareto jitter is heavy-tailed with mean jitterMs', () => {
    const { arrivals } = run({ latencyMs: 0, jitterMs: 10, jitter: 'pareto', lossPercent: 0 }, 50_000, 1);
    const extra = Array.from(arrivals, (t, i) => (t - i) * 1000).sort((a, b) => a - b);
    const mean = extra.reduce((a, b) => a + b, 0) / extra.length;
    expect(mean).toBeGreaterThan(9.3);
    expect(mean).toBeLessThan(10.7);
    // Lomax(α = 3, scale 20 ms): P(X > x) = (1 + x/20)^−3, so the 99th percentile is 20·(100^(1/3) − 1) ≈ 72.8 ms.
    expect(extra[Math.floor(0.99 * extra.length)]).toBeGreaterThan(68);
    expect(extra[Math.floor(0.99 * extra.length)]).toBeLessThan(78);
  });

  it('independent loss hits lossPercent with bursts of mean 1/(1 − p)', () => {
    const { arrivals, link } = run({ latencyMs: 1, jitterMs: 0, lossPercent: 10 }, 100_000);
    const bursts = burstLengths(arrivals);
    expect(link.stats.lost / 100_000).toBeGreaterThan(0.097);
    expect(link.stats.lost / 100_000).toBeLessThan(0.103);
    expect(mean(bursts)).toBeCloseTo(1 / 0.9, 1);
  });

  it('Gilbert–Elliott loss hits lossPercent with the requested mean burst length', () => {
    const { arrivals, link } = run(
      { latencyMs: 1, jitterMs: 0, lossPercent: 5, loss: 'gilbert-elliott', meanBurstLength: 4 },
      200_000,
    );
    const bursts = burstLengths(arrivals);
    expect(link.stats.lost / 200_000).toBeGreaterThan(0.045);
    expect(link.stats.lost / 200_000).toBeLessThan(0.055);
    expect(mean(bursts)).toBeGreaterThan(3.8);
    expect(mean(bursts)).toBeLessThan(4.2);
  });

  it('duplicates and reorders the requested shares; preserves order otherwise', () => {
    const profile: NetworkProfile = {
      latencyMs: 10,
      jitterMs: 5,
      lossPercent: 0,
      duplicatePercent: 2,
      reorderPercent: 3,
      reorderDelayMs: 50,
    };
    const { link, order, copies } = run(profile, 50_000);
    expect(copies).toBe(link.stats.duplicated);
    expect(link.stats.duplicated / 50_000).toBeCloseTo(0.02, 2);
    expect(link.stats.reordered / 50_000).toBeCloseTo(0.03, 2);
    expect(link.stats.delivered).toBe(50_000 + copies);
    // A held-back packet arrives after later ones: count the deliveries that go backwards.
    let backwards = 0;
    for (let i = 1; i < order.length; i++) if (order[i]! < order[i - 1]!) backwards++;
    expect(backwards / 50_000).toBeGreaterThan(0.025);
    expect(run({ ...profile, reorderPercent: 0, duplicatePercent: 0 }, 10_000).order).toEqual(
      Array.from({ length: 10_000 }, (_, i) => i),
    );
  });

  it('a bandwidth bottleneck serialises packets and drops what overflows its buffer', () => {
    // 144 bytes at 115.2 kb/s take exactly 10 ms; sending every 5 ms overloads the link by 2×.
    const profile: NetworkProfile = {
      latencyMs: 0,
      jitterMs: 0,
      lossPercent: 0,
      bandwidthBitsPerSecond: 115_200,
      bufferBytes: 1440,
    };
    const { link, arrivals } = run(profile, 1000, 0.005);
    expect(arrivals[0]).toBeCloseTo(0.01, 12);
    expect(arrivals[1]).toBeCloseTo(0.02, 12);
    expect(link.stats.dropped / 1000).toBeGreaterThan(0.45);
    expect(link.stats.dropped / 1000).toBeLessThan(0.55);
  });

  it('bounds the in-flight queue and counts the drops', () => {
    const link = new SimulatedLink<number>({ latencyMs: 1000, jitterMs: 0, lossPercent: 0, queueLimit: 10 }, 1);
    for (let i = 0; i < 15; i++) link.send(0, i, 1);
    expect(link.stats).toMatchObject({ inFlight: 10, dropped: 5 });
  });

  it('rejects invalid profiles, naming every bad field', () => {
    expect(validateNetworkProfile({ latencyMs: -1, jitterMs: 0, lossPercent: 100, meanBurstLength: 0.5 })).toEqual([
      'latencyMs must be ≥ 0, got -1',
      'lossPercent must be in [0, 100), got 100',
      'meanBurstLength must be ≥ 1, got 0.5',
    ]);
    expect(() => new SimulatedLink({ latencyMs: NaN, jitterMs: 0, lossPercent: 0 }, 1)).toThrow(/latencyMs/);
    for (const profile of Object.values(NETWORK_PROFILES)) expect(validateNetworkProfile(profile)).toEqual([]);
  });
});

function burstLengths(arrivals: Float64Array): number[] {
  const bursts: number[] = [];
  let run = 0;
  for (const t of arrivals) {
    if (Number.isNaN(t)) run++;
    else if (run > 0) {
      bursts.push(run);
      run = 0;
    }
  }
  return bursts;
}

function mean(values: number[]): number {
  return values.reduce((a, b) => a + b, 0) / values.length;
}
