// Usage errors stay readable however many problems an input holds: `publish --track` on a capture of 200 000
// entities printed a 13 MB usage error listing every entity, and `--strict` on a track with 41 implausible fixes
// said "21 problems" (20 listed, and the "and 21 more" line counted as one). Lists are cut after a few lines and
// the heading counts every problem.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MAX_LISTED_USAGE_PROBLEMS, formatUsageProblems } from '../../src/cli/run.js';
import { geodeticDegreesToEcef } from '../../src/math/geodesy.js';
import { pcapFileHeader, pcapUdpRecord } from '../../src/pcap/writer.js';
import { encodeEntityStateInto } from '../../src/pdu/wire/entity-state-encoder.js';
import { EntityStateRecord } from '../../src/pdu/wire/entity-state-record.js';
import { MAX_LISTED_PROBLEMS } from '../../src/truth/track-checks.js';
import { cli } from '../support/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'reckon-listing-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A capture with one Entity State PDU of each of `entities` entities. */
function captureOfEntities(entities: number): string {
  const r = new EntityStateRecord(0);
  r.exerciseId = 1;
  r.site = 1;
  r.application = 77;
  r.entityType.set([1, 1, 225, 1, 1, 3, 0]);
  geodeticDegreesToEcef(r.location, 47.39712, 8.54803, 408);
  const parts = [pcapFileHeader()];
  const pdu = new Uint8Array(144);
  for (let i = 0; i < entities; i++) {
    r.entity = i + 1;
    encodeEntityStateInto(pdu, r);
    parts.push(pcapUdpRecord(pdu, 1000 + i / 1000, { sourcePort: 3000, destinationPort: 3000 }));
  }
  const path = join(dir, `entities-${entities}.pcap`);
  writeFileSync(path, Buffer.concat(parts));
  return path;
}

describe('long lists in usage errors are cut, and counted', () => {
  it('publish --track on a capture of 5 000 entities lists 20 and counts the rest', async () => {
    const capture = captureOfEntities(5000);
    for (const extra of [[], ['--entity', '9:9:9']]) {
      const run = await cli('publish', '--track', capture, ...extra, '--duration', '1');
      expect(run.code).toBe(2);
      const lines = run.stderr.trimEnd().split('\n');
      expect(lines).toHaveLength(1 + MAX_LISTED_PROBLEMS + 1);
      expect(lines[0]).toMatch(/the capture holds 5000 entities|no Entity State PDUs of entity 9:9:9/);
      expect(lines[1]).toMatch(/^ {2}1:77:1 /);
      expect(lines.at(-1)).toMatch(new RegExp(`^  and ${5000 - MAX_LISTED_PROBLEMS} more( \\(see reckon|$)`));
      expect(run.stderr.length).toBeLessThan(4096);
    }
  });

  it('--strict on a track with 41 implausible fixes says 41 problems, lists 20 and "and 21 more"', async () => {
    // Every fourth of 80 fixes jumps a degree north and back (two implausible steps each), then a last jump: 41.
    const rows = ['time,lat,lon,alt'];
    for (let i = 0; i < 80; i++) rows.push(`${i},${50 + i * 1e-4 + (i % 4 === 2 ? 1 : 0)},8.0,100`);
    rows.push('80,50.008,8,100', '81,51.0081,8,100');
    const track = join(dir, 'glitches.csv');
    writeFileSync(track, `${rows.join('\n')}\n`);
    const run = await cli('publish', '--track', track, '--kind', 'air', '--strict', '--duration', '1');
    expect(run.code).toBe(2);
    const lines = run.stderr.trimEnd().split('\n');
    expect(lines[0]).toBe('reckon publish: 41 problems (see reckon publish --help):');
    expect(lines).toHaveLength(1 + MAX_LISTED_PROBLEMS + 1);
    expect(lines.at(-1)).toBe(`  --track: ${track}: and 21 more`);
  });

  it('formatUsageProblems lists the first problems and counts the rest', () => {
    const problems = Array.from({ length: MAX_LISTED_USAGE_PROBLEMS + 5 }, (_, i) => ({
      path: `--flag-${i}`,
      message: 'wrong',
    }));
    const text = formatUsageProblems('x', [...problems, { path: '--track', message: 'and 100 more', count: 100 }]);
    const lines = text.trimEnd().split('\n');
    expect(lines[0]).toBe(`reckon x: ${MAX_LISTED_USAGE_PROBLEMS + 105} problems (see reckon x --help):`);
    expect(lines).toHaveLength(1 + MAX_LISTED_USAGE_PROBLEMS + 1);
    expect(lines.at(-1)).toBe('  and 105 more');
  });
});
