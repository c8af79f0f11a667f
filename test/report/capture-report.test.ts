// The capture report: built from the recorded captures (its numbers against the text summary of the same capture)
// and from a capture whose markings try to break out of the HTML.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { geodeticToEcef } from '../../src/math/geodesy.js';
import { summarizeDisCapture } from '../../src/pcap/capture-summary.js';
import { readCapture } from '../../src/pcap/reader.js';
import { pcapFileHeader, pcapUdpRecord } from '../../src/pcap/writer.js';
import { EntityStateRecord, setMarkingText } from '../../src/pdu/entity-state-record.js';
import { encodeEntityStateInto } from '../../src/pdu/entity-state-encoder.js';
import { captureReportData, captureReportHtml } from '../../src/report/capture-report.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const DIS7 = join(root, 'test/fixtures/dis/dis7_vrforces_gaz69_90deg_turn.pcap');

/** A pcap of Entity State PDUs, one per datagram, from entities with the given markings moving east at 10 m/s. */
function syntheticCapture(markings: readonly string[], seconds = 5): Uint8Array {
  const parts: Uint8Array[] = [pcapFileHeader()];
  const record = new EntityStateRecord();
  const origin = geodeticToEcef(new Float64Array(3), (36.6 * Math.PI) / 180, (-121.9 * Math.PI) / 180, 0);
  const east = [-Math.sin((-121.9 * Math.PI) / 180), Math.cos((-121.9 * Math.PI) / 180), 0];
  for (let t = 0; t < seconds; t++) {
    markings.forEach((marking, i) => {
      record.site = 1;
      record.application = 2;
      record.entity = i + 1;
      record.forceId = 1 + (i % 3);
      record.drAlgorithm = 2;
      setMarkingText(record, marking);
      for (let k = 0; k < 3; k++) record.location[k] = origin[k]! + east[k]! * (10 * t + 50 * i);
      const bytes = new Uint8Array(144);
      expect(encodeEntityStateInto(bytes, record)).toBe(144);
      parts.push(pcapUdpRecord(bytes, 1_700_000_000 + t + i / 100));
    });
  }
  return Buffer.concat(parts);
}

describe('capture report', () => {
  it('reports the v7 capture: both entities, their PDUs, the PDU types over time and the rejected PDU', async () => {
    const capture = readCapture(readFileSync(DIS7));
    const summary = summarizeDisCapture(capture);
    const data = captureReportData(capture);
    expect([...data.tracks.keys()]).toEqual(['1:3001:54', '1:3001:59']);
    // Every PDU is in one bin, by type; the rejected one (a header cut short, not counted among the PDUs) too.
    const counted: Record<string, number> = {};
    for (const bin of data.bins) for (const [type, n] of Object.entries(bin)) counted[type] = (counted[type] ?? 0) + n;
    expect(counted).toMatchObject({
      'Entity State': 97,
      Attribute: 108,
      Data: 26,
      Transmitter: 17,
      'Environmental Process': 30,
      rejected: 1,
    });
    expect(Object.values(counted).reduce((a, b) => a + b, 0)).toBe(
      summary.totals.pdus + summary.totals.rejected.TRUNCATED!,
    );
    // The first fix is the origin; the vehicle drives a few hundred metres.
    const track = data.tracks.get('1:3001:54')!;
    expect(Math.hypot(track.east[0]!, track.north[0]!)).toBeLessThan(1);
    expect(Math.max(...track.north)).toBeGreaterThan(300);
    const html = await captureReportHtml('gaz69.pcap', capture);
    expect(html).toContain(
      '<td>1:3001:54</td><td>UtilVeh 1</td><td>1:1:222:6:1:0:0</td>' +
        '<td>GAZ-69 4x4 light vehicle · Small Wheeled Utility Vehicle · RUS</td><td>Friendly</td>',
    );
    // The last appearance's set fields: the power plant on (bit 22), and the parked vehicle frozen (bit 21).
    expect(html).toMatch(/<td>1:3001:54<\/td>.*?<td>power plant on<\/td><\/tr>/s);
    expect(html).toMatch(/<td>1:3001:59<\/td>.*?<td>frozen, power plant on<\/td><\/tr>/s);
    expect(html).toContain('Reprinted with permission from SISO Inc.');
    expect(html).toMatch(/<td>TRUNCATED<\/td><td class="n">1<\/td>/);
    expect((html.match(/<svg/g) ?? []).length).toBe(2);
  });

  it("names the v5 capture's tank, helicopter and the destroyed missile", async () => {
    const capture = readCapture(
      readFileSync(new URL('../fixtures/dis/dis5_kdis_vrforces_hind_vs_m1a2.pcap', import.meta.url)),
    );
    const html = await captureReportHtml('hind.pcap', capture);
    expect(html).toContain('<td>M1A2 · Tank · USA</td><td>Friendly</td>');
    expect(html).toContain('<td>Mi-24/25/35 Hind · Attack helicopter · RUS</td><td>Opposing</td>');
    expect(html).toMatch(
      /<td>AT-6 Spiral · Guided · RUS<\/td>.*?<td>destroyed, smoke vapor emanating, flaming, deactivated<\/td>/s,
    );
    expect(html).toMatch(/1 Fire, 1 Detonation/);
  });

  it('lists the engagements of the v5 capture: who fired what at whom, and the result, on a timeline', async () => {
    const capture = readCapture(
      readFileSync(new URL('../fixtures/dis/dis5_kdis_vrforces_hind_vs_m1a2.pcap', import.meta.url)),
    );
    const data = captureReportData(capture);
    expect(data.engagements.rows).toHaveLength(1);
    expect(data.engagements.rows[0]).toMatchObject({
      event: '1:3001:3',
      shooter: '1:3001:18',
      target: '1:3001:15',
      munition: 'AT-6 Spiral · Guided · RUS',
      result: 1,
    });
    const row = data.engagements.rows[0]!;
    expect(row.detonationSeconds! - row.fireSeconds!).toBeCloseTo(4, 0);
    expect(row.rangeM).toBeCloseTo(1823.32, 2);
    const html = await captureReportHtml('hind.pcap', capture);
    const section = html.slice(html.indexOf('Engagements'));
    expect(section).toMatch(/<td>1:3001:18[^<]*<\/td><td>AT-6 Spiral · Guided · RUS<\/td><td>1:3001:15 [^<]*<\/td>/);
    expect(section).toContain('<td>Entity Impact</td>');
    expect((html.match(/<svg/g) ?? []).length).toBe(3);
  });

  it('escapes hostile markings in the table, the legend and the tooltips', async () => {
    const hostile = ['<script>x', '</svg><b>', '"><img src', "'&amp;<!--", ']]><style>'];
    const html = await captureReportHtml('<i>capture</i>.pcap', readCapture(syntheticCapture(hostile)));
    expect(html).not.toMatch(/<script|<img|<b>|<i>|<style>x|<!--|\]\]>/);
    expect((html.match(/<svg/g) ?? []).length).toBe((html.match(/<\/svg>/g) ?? []).length);
    expect(html).toContain('&lt;script&gt;x');
    expect(html).toContain('&lt;/svg&gt;&lt;b&gt;');
    expect(html).toContain('<title>&lt;i&gt;capture&lt;/i&gt;.pcap — reckon capture</title>');
    expect((html.match(/<style>/g) ?? []).length).toBe(1);
  });

  it('keeps tracks bounded: a long track is thinned evenly to at most 1,500 points', () => {
    const data = captureReportData(readCapture(syntheticCapture(['A'], 4000)));
    const track = data.tracks.get('1:2:1')!;
    expect(track.east.length).toBeLessThanOrEqual(1500);
    expect(track.east.length).toBeGreaterThan(700);
    const steps = track.time.slice(1).map((t, i) => t - track.time[i]!);
    expect(new Set(steps.map((s) => Math.round(s))).size).toBe(1);
  });
});

describe('reckon decode --report', () => {
  const reckon = (...args: string[]) =>
    spawnSync(process.execPath, ['dist/cli/main.js', 'decode', ...args], {
      cwd: root,
      encoding: 'utf8',
      timeout: 30_000,
    });

  it('writes the report next to the summary', () => {
    const out = join(mkdtempSync(join(tmpdir(), 'reckon-capture-report-')), 'report.html');
    const { status, stdout, stderr } = reckon(DIS7, '--report', out);
    expect(status).toBe(0);
    expect(stdout).toMatch(/^1:3001:54\s+UtilVeh 1/m);
    expect(stderr).toBe(`wrote ${out}\n`);
    expect(readFileSync(out, 'utf8')).toMatch(
      /^<!doctype html>[\s\S]*Entity tracks[\s\S]*PDUs per second by type[\s\S]*Entities[\s\S]*Rejected and skipped/,
    );
  });

  it('refuses a report path it cannot write, exit 2, leaving nothing behind', () => {
    const dir = mkdtempSync(join(tmpdir(), 'reckon-capture-report-'));
    const out = join(dir, 'missing', 'report.html');
    const { status, stderr } = reckon(DIS7, '--report', out);
    expect(status).toBe(2);
    expect(stderr).toContain(`--report: cannot write "${out}": the folder "${join(dir, 'missing')}" does not exist`);
    expect(existsSync(join(dir, 'missing'))).toBe(false);
  });

  it('keeps an existing file when the capture cannot be read', () => {
    const dir = mkdtempSync(join(tmpdir(), 'reckon-capture-report-'));
    const out = join(dir, 'report.html');
    writeFileSync(out, 'before');
    writeFileSync(join(dir, 'bad.pcap'), 'not a capture');
    expect(reckon(join(dir, 'bad.pcap'), '--report', out).status).toBe(2);
    expect(readFileSync(out, 'utf8')).toBe('before');
  });

  it('counts one entity in the singular and more in the plural', async () => {
    expect(await captureReportHtml('one.pcap', readCapture(syntheticCapture(['A'], 2)))).toMatch(/; 1 entity\./);
    expect(await captureReportHtml('two.pcap', readCapture(syntheticCapture(['A', 'B'], 2)))).toMatch(/; 2 entities\./);
  });
});
