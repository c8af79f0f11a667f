import { describe, expect, it } from 'vitest';
import { LOCKSTEP_CONDITIONS, runLockstepComparison } from '../../src/experiment/lockstep-comparison.js';

describe('lockstep over TCP against redundant UDP', () => {
  const rows = runLockstepComparison({ durationSeconds: 60, seed: 3 });
  const find = (latencyMs: number, lossPercent: number, transport: string) =>
    rows.find((r) => r.latencyMs === latencyMs && r.lossPercent === lossPercent && r.transport === transport)!;

  it('has one row per condition and transport with every figure', () => {
    expect(rows).toHaveLength(LOCKSTEP_CONDITIONS.length * 2);
    for (const r of rows) {
      expect(Object.keys(r).sort()).toEqual([
        'bytesPerSecond',
        'hitchesPerMinute',
        'largestPacketBytes',
        'latencyMs',
        'longestStallMs',
        'lossPercent',
        'playoutDelayMs',
        'transport',
      ]);
      expect(r.bytesPerSecond).toBeGreaterThan(0);
    }
  });

  it('keeps the redundant channel moving at 50 % loss while TCP stalls for seconds', () => {
    const udp = find(2000, 50, 'udp-redundant');
    const tcp = find(2000, 50, 'tcp');
    expect(udp.longestStallMs).toBeLessThan(500);
    expect(udp.hitchesPerMinute).toBeLessThan(5);
    expect(tcp.longestStallMs).toBeGreaterThan(4000);
    expect(tcp.hitchesPerMinute).toBeGreaterThan(udp.hitchesPerMinute);
  });

  it('never stalls longer over redundant UDP than over TCP, and TCP hitches at every loss rate', () => {
    for (const c of LOCKSTEP_CONDITIONS) {
      const udp = find(c.latencyMs, c.lossPercent, 'udp-redundant');
      const tcp = find(c.latencyMs, c.lossPercent, 'tcp');
      expect(udp.longestStallMs, `${c.latencyMs} ms ${c.lossPercent} %`).toBeLessThanOrEqual(tcp.longestStallMs);
      expect(tcp.hitchesPerMinute, `${c.latencyMs} ms ${c.lossPercent} %`).toBeGreaterThan(0);
    }
  });

  it('pays for redundancy in bytes: bigger packets the longer acknowledgements take', () => {
    expect(find(2000, 50, 'udp-redundant').largestPacketBytes).toBeGreaterThan(
      find(100, 1, 'udp-redundant').largestPacketBytes,
    );
    expect(find(100, 1, 'tcp').largestPacketBytes).toBe(1);
  });

  it('is exactly reproducible for a seed and differs for another', () => {
    expect(runLockstepComparison({ durationSeconds: 20, seed: 3 })).toEqual(
      runLockstepComparison({ durationSeconds: 20, seed: 3 }),
    );
    expect(runLockstepComparison({ durationSeconds: 20, seed: 4 })).not.toEqual(
      runLockstepComparison({ durationSeconds: 20, seed: 3 }),
    );
  });
});
