// End to end: two real processes of the built binary exchange inputs over UDP on 127.0.0.1; usage problems in
// process.
import { spawn } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cli } from '../support/cli.js';

const BINARY = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));

/** `count` distinct free UDP ports on 127.0.0.1 (held open together so they differ, then released). */
async function freePorts(count: number): Promise<number[]> {
  const sockets = Array.from({ length: count }, () => createSocket('udp4'));
  await Promise.all(sockets.map((s) => new Promise<void>((resolve) => s.bind(0, '127.0.0.1', resolve))));
  const ports = sockets.map((s) => s.address().port);
  await Promise.all(sockets.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
  return ports;
}

/** The ports of the two runs below, which go side by side: one pair each, all four distinct. */
const portPairs = freePorts(4).then((p) => [p.slice(0, 2), p.slice(2, 4)] as [number, number][]);

function runPeer(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BINARY, 'lockstep', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const guard = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(guard);
      resolve({ code, stdout, stderr });
    });
  });
}

describe('reckon lockstep (two processes); needs `npx tsc -p tsconfig.build.json` first', () => {
  it.concurrent("agrees on every checksum with 30 % of one side's packets dropped, and both exit 0", async () => {
    const [portA, portB] = (await portPairs)[0]!;
    const [a, b] = await Promise.all([
      runPeer(['--port', String(portA), '--peer', `127.0.0.1:${portB}`, '--duration', '3', '--seed', '7', '--json']),
      runPeer([
        '--port',
        String(portB),
        '--peer',
        `127.0.0.1:${portA}`,
        '--duration',
        '3',
        '--seed',
        '7',
        '--drop',
        '30',
        '--json',
      ]),
    ]);
    for (const peer of [a, b]) {
      expect(peer.code, peer.stderr).toBe(0);
      expect(peer.stderr).toMatch(/^lockstep: player [01] on 127\.0\.0\.1:/); // progress on stderr …
      expect(peer.stderr).toMatch(/\nt \d+\.\d s {2}frame \d+/);
      expect(peer.stdout.trim().split('\n')).toHaveLength(1); // … and only the summary on stdout
      const summary = JSON.parse(peer.stdout);
      expect(summary.agreed).toBe(true);
      expect(summary.checksumsCompared).toBeGreaterThanOrEqual(2);
      expect(summary.checksumsAgreed).toBe(summary.checksumsCompared);
      expect(summary.frames).toBeGreaterThan(60);
    }
    expect(JSON.parse(b.stdout.trim().split('\n').at(-1)!).packetsDropped).toBeGreaterThan(10);
  });

  it.concurrent('takes --duration with a unit, and prints the text summary alone on stdout', async () => {
    const [portA, portB] = (await portPairs)[1]!;
    const [a, b] = await Promise.all([
      runPeer(['--port', String(portA), '--peer', `127.0.0.1:${portB}`, '--duration', '4 s']),
      runPeer(['--port', String(portB), '--peer', `127.0.0.1:${portA}`, '--duration', '4000 ms']),
    ]);
    for (const peer of [a, b]) {
      expect(peer.code, peer.stderr).toBe(0);
      expect(peer.stdout).toMatch(
        /^\d+ frames, \d+ (hitch|hitches) \(longest \d+ ms\), checksums (\d+)\/\2 agree, .* bytes\n$/,
      );
      expect(peer.stderr).toMatch(/^lockstep: player [01] .*, 4 s\n/);
    }
  });

  it('lists every usage problem and exits 2', async () => {
    const result = await cli('lockstep', '--peer', '10.0.0.1:99999', '--drop', '150', '--duration', '-1');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--peer');
    expect(result.stderr).toContain('--drop');
    expect(result.stderr).toContain('--duration');
  });
});
