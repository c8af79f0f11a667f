// `npm run soak` at a tiny size: a real publisher process and subscriber process over 127.0.0.1, and the one
// JSON line with every figure docs/reliability-soak.md describes. 200 entities for 3 s lose nothing on loopback.
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { ROOT, within } from '../cli/binary.js';

describe('npm run soak', () => {
  it('runs a publisher and a subscriber and prints one JSON line of figures', async () => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'scripts/soak.ts', '--entities', '200', '--seconds', '3'],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '',
      err = '';
    child.stdout.on('data', (c) => (out += String(c)));
    child.stderr.on('data', (c) => (err += String(c)));
    const code = await within(
      new Promise<number | null>((resolve) => child.once('exit', resolve)),
      45_000,
      'the soak to finish',
      child,
    );
    expect(code, err).toBe(0);
    const lines = out.trim().split('\n');
    expect(lines).toHaveLength(1);
    const result = JSON.parse(lines[0]!) as Record<string, unknown> &
      Record<'subscriberRssMB' | 'eventLoopDelayMs' | 'publisher' | 'machine', Record<string, unknown>>;
    expect(result).toMatchObject({
      entities: 200,
      entitiesExpected: 200,
      pdusLost: 0,
      lossPercent: 0,
      kernelDrops: 0,
      rejected: 0,
      decodeErrors: 0,
    });
    expect(result.pdusReceived).toBe(result.pdusSent);
    expect(result.datagramsReceived).toBe(result.datagramsSent);
    expect(result.pdusSent as number).toBeGreaterThan(0);
    // The entities that joined within 3 s (they join over the 5 s heartbeat) are all held.
    expect(result.entitiesJoined as number).toBeGreaterThan(0);
    expect(result.entitiesHeld).toBe(result.entitiesJoined);
    for (const key of ['start', 'end', 'max']) expect(result.subscriberRssMB[key] as number).toBeGreaterThan(0);
    for (const key of ['p50', 'p99', 'max']) expect(result.eventLoopDelayMs[key] as number).toBeGreaterThan(0);
    expect(result.publisher.cpuMicrosecondsPerDecision as number).toBeGreaterThan(0);
    expect(result.machine.cpus as number).toBeGreaterThan(0);
    expect(err).toMatch(/stopped \(interrupted\)/);
  }, 60_000);
});
