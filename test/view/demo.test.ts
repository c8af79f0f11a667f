// `reckon demo` serves the live map: the page's URL on stderr, the feed of the demo's PDUs and its truth layer. In
// process (runCli, as the binary does), but on a terminal, which takes a process of its own.
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { BIN, ROOT, within } from '../support/binary.js';
import { startCli } from '../support/cli.js';
import { findSystemBinary } from '../../scripts/support/system-binary.js';
import { FeedClient } from './support.js';

describe('reckon demo live map', () => {
  it('prints the map URL and serves the feed with the three entities and their truth', async () => {
    const demo = startCli(['demo', '--duration', '20', '--json', '--http', '127.0.0.1:0']);
    try {
      const [, url] = await demo.waitFor(/live map at (http:\/\/127\.0\.0\.1:\d+\/)/);
      const feed = await FeedClient.connect(`${url!.replace('http:', 'ws:')}feed`);
      const hello = await feed.next('hello');
      expect(hello.config.demo).toBe(true);
      const truth = await feed.next('truth');
      expect(truth.entities.map((e) => e.id)).toEqual(['1:1:1', '1:2:1', '1:3:1']);
      for (const e of truth.entities) {
        for (const v of [e.lat, e.lon, e.altM, e.headingDeg]) expect(Number.isFinite(v)).toBe(true);
        expect(e.headingDeg).toBeGreaterThanOrEqual(0);
        expect(e.headingDeg).toBeLessThan(360);
      }
      // Each entity is 1:A:1, its own application: entity ids differ in bytes 14–15 (IEEE 1278.1 Entity ID record).
      const applications = () => new Set(feed.records.map((r) => (r.pdu[14]! << 8) | r.pdu[15]!));
      await feed.waitFor(() => applications().size === 3, 'PDUs of all three entities', 15_000);
      feed.close();
      demo.interrupt();
      expect(await within(demo.exited, 15_000, 'the demo to exit')).toBe(0);
      // The JSON summary on stdout stays JSON.
      expect(JSON.parse(demo.stdout()).stoppedBy).toBe('interrupted');
    } finally {
      demo.interrupt();
    }
  });

  it('serves no map with --no-view', async () => {
    const demo = startCli(['demo', '--duration', '1', '--json', '--no-view']);
    expect(await within(demo.exited, 20_000, 'the demo to exit')).toBe(0);
    expect(demo.stderr()).not.toMatch(/live map/);
  });

  const script = findSystemBinary('script', 'bsdutils');
  it.skipIf(!script.path)(
    'keeps the map URL as the first line of the live table on a terminal, within its size',
    async () => {
      const demo = `'${process.execPath}' '${BIN}' demo --duration 2 --http 127.0.0.1:0`;
      const child = spawn(script.path!, ['-qec', `stty cols 80 rows 24; exec ${demo}`, '/dev/null'], {
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, NO_COLOR: '1' },
      });
      let out = '';
      child.stdout.on('data', (c) => (out += String(c)));
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
      expect(await within(exited, 20_000, 'the demo to exit', child)).toBe(0);
      expect(out).toMatch(/live map: http:\/\/127\.0\.0\.1:\d+\//);
      // Each redraw of the table (cursor up to its first line, then the lines) starts with the URL.
      const redraws = out.split(/\x1b\[\d+A\r/).slice(1); // eslint-disable-line no-control-regex
      expect(redraws.length).toBeGreaterThan(0);
      for (const r of redraws) expect(r.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '')).toMatch(/^live map: http/); // eslint-disable-line no-control-regex
    },
  );
});
