// `reckon replay` and `reckon record` end to end: the built binary (npm test builds dist first), real sockets on
// 127.0.0.1, the real capture. Every wait is for an event (a datagram, a line, an exit), bounded by a timeout.
import { spawnSync } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { udpFromFrame } from '../../src/pcap/packet.js';
import { readCapture } from '../../src/pcap/reader.js';
import { ROOT, reckon, within } from '../support/binary.js';
import { cli, startCli } from '../support/cli.js';

const FIXTURE = join(ROOT, 'test/fixtures/dis/dis7_vrforces_gaz69_90deg_turn.pcap');
const dir = mkdtempSync(join(tmpdir(), 'reckon-record-'));

/** The UDP payloads of a capture, in order. */
function payloads(path: string): Buffer[] {
  return readCapture(readFileSync(path)).frames.flatMap((f) => {
    const udp = udpFromFrame(f.linkType, f.data);
    return udp.kind === 'udp' ? [Buffer.from(udp.payload)] : [];
  });
}

describe('reckon replay', () => {
  it('sends every DIS datagram of the capture, byte for byte, at high speed', async () => {
    const expected = payloads(FIXTURE);
    expect(expected.length).toBe(171);
    const socket = createSocket('udp4');
    await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
    socket.setRecvBufferSize(4 * 1024 * 1024);
    const received: Buffer[] = [];
    const all = new Promise<void>((resolve) =>
      socket.on('message', (m) => {
        received.push(m);
        if (received.length === expected.length) resolve();
      }),
    );
    const { port } = socket.address();
    const replay = startCli(['replay', FIXTURE, '--to', `127.0.0.1:${port}`, '--speed', '1000']);
    try {
      await within(all, 20_000, '171 datagrams');
      expect(await within(replay.exited, 10_000, 'replay to exit')).toBe(0);
    } finally {
      socket.close();
    }
    expect(received).toEqual(expected); // including frame 1, a Data PDU whose recording was cut at 8192 bytes
    expect(replay.stderr()).toMatch(/replay: done: 171 datagrams \(\d+ bytes\) in [\d.]+ s, 1 pass/);
  });
});

describe('reckon replay: filters out of range', () => {
  it.each([
    { flag: '--only-exercise', value: '300', range: 'an exercise ID 1–255,' },
    { flag: '--only-exercise', value: '0', range: 'an exercise ID 1–255,' },
    { flag: '--port-filter', value: '70000', range: 'a UDP port 1–65535, e.g. 3000;' },
  ])('$flag $value is a usage error naming the valid range', async ({ flag, value, range }) => {
    const { code, stderr } = await cli('replay', FIXTURE, '--to', '127.0.0.1:9', flag, value);
    expect(code).toBe(2);
    expect(stderr).toContain(`${flag}: expected ${range} got "${value}"`);
    expect(stderr).not.toMatch(/holds no DIS datagrams/);
  });
});

describe('reckon record', () => {
  it('writes a pcap that the capture reader (and tshark) decode back to the same payloads', async () => {
    const out = join(dir, 'recorded.pcap');
    const sent = payloads(FIXTURE).slice(0, 40);
    const otherExercise = Buffer.from(sent[5]!);
    otherExercise[1] = 9;
    const record = startCli([
      'record',
      '--out',
      out,
      '--address',
      '127.0.0.1',
      '--port',
      '0',
      '--count',
      String(sent.length),
    ]);
    const [, port] = await within(
      record.waitFor(/listening on 127\.0\.0\.1 port (\d+)/, 20_000),
      20_000,
      'record to listen',
    );
    const socket = createSocket('udp4');
    try {
      for (const datagram of [otherExercise, ...sent]) {
        await new Promise<void>((resolve, reject) =>
          socket.send(datagram, Number(port), '127.0.0.1', (e) => (e ? reject(e) : resolve())),
        );
      }
      expect(await within(record.exited, 20_000, 'record to stop after --count')).toBe(0);
    } finally {
      socket.close();
    }
    expect(record.stderr()).toMatch(/stopped \(40 datagrams recorded\)/);
    expect(record.stderr()).toMatch(/rejected \d+ \(.*wrongExercise 1/);
    expect(payloads(out)).toEqual(sent); // the other exercise's datagram is not recorded

    const tshark = spawnSync('tshark', ['-r', out, '-T', 'fields', '-e', 'frame.number'], {
      encoding: 'utf8',
      timeout: 30_000,
    });
    if (tshark.error) return; // tshark not installed: the reader above is the check
    expect(tshark.status).toBe(0);
    expect(tshark.stdout.trim().split('\n').length).toBe(sent.length);
  });

  it('leaves an existing --out file untouched when it cannot start (a busy port), and no temporary file', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'reckon-busy-'));
    const out = join(folder, 'precious.pcap');
    const precious = readFileSync(FIXTURE);
    writeFileSync(out, precious);
    const busy = createSocket('udp4');
    await new Promise<void>((resolve) => busy.bind(0, '127.0.0.1', resolve));
    try {
      const record = await cli('record', '--out', out, '--address', '127.0.0.1', '--port', String(busy.address().port));
      expect(record.code).toBe(1);
      expect(record.stderr).toMatch(/EADDRINUSE/);
    } finally {
      busy.close();
    }
    expect(readFileSync(out).equals(precious)).toBe(true);
    expect(readdirSync(folder)).toEqual(['precious.pcap']);
  });

  it('replaces an existing --out file with the finished recording', async () => {
    const out = join(dir, 'replaced.pcap');
    writeFileSync(out, 'an older file');
    const record = startCli(['record', '--out', out, '--address', '127.0.0.1', '--port', '0']);
    await record.waitFor(/listening on/, 20_000);
    expect(readFileSync(out, 'utf8')).toBe('an older file'); // recording goes beside it until it stops
    record.interrupt();
    expect(await within(record.exited, 20_000, 'record to exit on Ctrl-C')).toBe(0);
    expect(readCapture(readFileSync(out))).toMatchObject({ format: 'pcap', frames: [], truncated: false });
  });

  it('stops cleanly on SIGINT and prints its summary', async () => {
    const out = join(dir, 'interrupted.pcap');
    const record = reckon(['record', '--out', out, '--address', '127.0.0.1', '--port', '0']);
    await within(record.waitFor(/listening on/, 20_000), 20_000, 'record to listen', record.child);
    record.child.kill('SIGINT');
    expect(await within(record.exited, 20_000, 'record to exit on SIGINT', record.child)).toBe(0);
    expect(record.stderr()).toMatch(/record: stopped \(interrupted\)/);
    expect(record.stderr()).toMatch(/recorded {2}0 datagrams/);
    expect(readCapture(readFileSync(out))).toMatchObject({ format: 'pcap', frames: [], truncated: false });
  });
});
