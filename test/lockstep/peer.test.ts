import { describe, expect, it } from 'vitest';
import { LockstepPeer } from '../../src/lockstep/peer.js';
import { SimulatedLink } from '../../src/experiment/simulated-network.js';

/** Two peers on a simulated lossy network, each ticking at 60 Hz; peer B starts `lagSeconds` later. */
function session(options: {
  lossPercent: number;
  seconds: number;
  seedB?: number;
  lagSeconds?: number;
  silenceAfter?: number;
}) {
  const a = new LockstepPeer({ player: 0, seed: 5 });
  const b = new LockstepPeer({ player: 1, seed: options.seedB ?? 5 });
  const profile = { latencyMs: 30, jitterMs: 10, lossPercent: options.lossPercent };
  const ab = new SimulatedLink<Uint8Array>(profile, 1);
  const ba = new SimulatedLink<Uint8Array>(profile, 2);
  const lag = options.lagSeconds ?? 0;
  for (let tick = 0; tick / 60 < options.seconds; tick++) {
    const now = tick / 60;
    const fromA = a.tick(now);
    if (fromA) ab.send(now, fromA.slice(), fromA.length + 28);
    if (now >= lag && now < (options.silenceAfter ?? Infinity)) {
      const fromB = b.tick(now);
      if (fromB) ba.send(now, fromB.slice(), fromB.length + 28);
    }
    ab.poll(now, (bytes, t) => b.receive(bytes, t));
    ba.poll(now, (bytes, t) => a.receive(bytes, t));
  }
  return { a: a.stats, b: b.stats };
}

describe('lockstep peer', () => {
  it('keeps two peers in agreement through 30 % loss, one starting late', () => {
    const { a, b } = session({ lossPercent: 30, seconds: 20, lagSeconds: 0.7 });
    for (const s of [a, b]) {
      expect(s.frame).toBeGreaterThan(1000);
      expect(s.checksumsCompared).toBeGreaterThan(30);
      expect(s.checksumsAgreed).toBe(s.checksumsCompared);
      expect(s.firstMismatchFrame).toBe(-1);
      expect(s.seedMismatch).toBe(false);
      expect(s.timedOut).toBe(false);
    }
  });

  it('detects a desync and names a seed mismatch', () => {
    const { a, b } = session({ lossPercent: 0, seconds: 5, seedB: 6 });
    expect(a.seedMismatch).toBe(true);
    expect(b.seedMismatch).toBe(true);
    expect(a.checksumsCompared).toBeGreaterThan(0);
    expect(a.checksumsAgreed).toBe(0);
    expect(a.firstMismatchFrame).toBe(30);
  });

  it('times out a peer that stops answering for 2 s', () => {
    const { a } = session({ lossPercent: 0, seconds: 6, silenceAfter: 2 });
    expect(a.timedOut).toBe(true);
    expect(a.checksumsCompared).toBeGreaterThan(0);
  });

  it('counts hostile datagrams and keeps going', () => {
    const peer = new LockstepPeer({ player: 0 });
    peer.receive(Uint8Array.of(1, 2, 3), 0);
    peer.receive(new Uint8Array(12), 0);
    expect(peer.stats.rejected).toEqual({ TRUNCATED: 1, BAD_MAGIC: 1 });
    expect(peer.tick(0)).toBeDefined();
  });
});
