// The capture report: built from the recorded captures (its numbers against the text summary of the same capture)
// and from a capture whose markings try to break out of the HTML.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ecefToEnuMatrix, ecefToLocal, geodeticDegreesToEcef, geodeticToEcef } from '../../src/math/geodesy.js';
import { summarizeDisCapture } from '../../src/pcap/capture-summary.js';
import { readCapture } from '../../src/pcap/reader.js';
import { pcapFileHeader, pcapUdpRecord } from '../../src/pcap/writer.js';
import { EntityStateRecord, setMarkingText } from '../../src/pdu/wire/entity-state-record.js';
import { encodeEntityStateInto } from '../../src/pdu/wire/entity-state-encoder.js';
import { captureReportData, captureReportHtml, rateSpec } from '../../src/report/capture-report.js';
import { trackPanels } from '../../src/report/track-panels.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const DIS7 = join(root, 'test/fixtures/dis/dis7_vrforces_gaz69_90deg_turn.pcap');

/** Where the synthetic entities are, degrees: Monterey, Copenhagen, Kabul. */
const MONTEREY: readonly [number, number] = [36.6, -121.9];
const COPENHAGEN: readonly [number, number] = [55.68, 12.57];
const KABUL: readonly [number, number] = [34.53, 69.17];

/**
 * A pcap of Entity State PDUs, one per datagram, from entities with the given markings moving east at 10 m/s,
 * entity i starting `spacingM`·i east of its place (`places[i]`, default Monterey).
 */
function syntheticCapture(
  markings: readonly string[],
  seconds = 5,
  places: ReadonlyArray<readonly [number, number]> = [],
  spacingM = 50,
): Uint8Array {
  const parts: Uint8Array[] = [pcapFileHeader()];
  const record = new EntityStateRecord();
  for (let t = 0; t < seconds; t++) {
    markings.forEach((marking, i) => {
      const [lat, lon] = places[i] ?? MONTEREY;
      const origin = geodeticToEcef(new Float64Array(3), (lat * Math.PI) / 180, (lon * Math.PI) / 180, 0);
      const east = [-Math.sin((lon * Math.PI) / 180), Math.cos((lon * Math.PI) / 180), 0];
      record.site = 1;
      record.application = 2;
      record.entity = i + 1;
      record.forceId = 1 + (i % 3);
      record.drAlgorithm = 2;
      setMarkingText(record, marking);
      for (let k = 0; k < 3; k++) record.location[k] = origin[k]! + east[k]! * (10 * t + spacingM * i);
      const bytes = new Uint8Array(144);
      expect(encodeEntityStateInto(bytes, record)).toBe(144);
      parts.push(pcapUdpRecord(bytes, 1_700_000_000 + t + i / 100));
    });
  }
  return Buffer.concat(parts);
}

/** The page with its table cells' layout attributes left out, so assertions read the cells' text. */
const cells = (html: string) =>
  html
    .replace(/ data-label="[^"]*"/g, '')
    .replace(/<td class="wrap">/g, '<td>')
    .replace(/<td class="n wrap">/g, '<td class="n">');

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
    // Both vehicles in one panel around their first fixes; the one driving goes a few hundred metres north.
    const panels = trackPanels(data.tracks, [...data.tracks.keys()]);
    expect(panels).toHaveLength(1);
    const track = panels[0]!.tracks.get('1:3001:54')!;
    expect(Math.hypot(track.east[0]!, track.north[0]!)).toBeLessThan(1000);
    expect(Math.max(...track.north) - track.north[0]!).toBeGreaterThan(300);
    const html = cells(await captureReportHtml('gaz69.pcap', capture));
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
    const html = cells(await captureReportHtml('hind.pcap', capture));
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
    const { engagements } = captureReportData(capture).summary;
    expect(engagements.rows).toHaveLength(1);
    expect(engagements.rows[0]).toMatchObject({
      event: '1:3001:3',
      shooter: '1:3001:18',
      target: '1:3001:15',
      munitionType: '2:2:222:1:8:0:0',
      result: 1,
    });
    const row = engagements.rows[0]!;
    expect(row.detonationTimeSeconds! - row.fireTimeSeconds!).toBeCloseTo(4, 0);
    expect(row.rangeM).toBeCloseTo(1823.32, 2);
    const html = cells(await captureReportHtml('hind.pcap', capture));
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
    expect(track.x.length).toBe(track.time.length);
    expect(track.x.length).toBeLessThanOrEqual(1500);
    expect(track.x.length).toBeGreaterThan(700);
    const steps = track.time.slice(1).map((t, i) => t - track.time[i]!);
    expect(new Set(steps.map((s) => Math.round(s))).size).toBe(1);
  });
});

describe('capture report tracks of entities far apart, on the same place, and the rate chart', () => {
  it("draws entities continents apart in one panel each, on a plane from that panel's centre, right to 1 m", async () => {
    const capture = readCapture(syntheticCapture(['DK', 'AF', 'DK2'], 5, [COPENHAGEN, KABUL, COPENHAGEN]));
    const data = captureReportData(capture);
    const panels = trackPanels(data.tracks, [...data.tracks.keys()]);
    expect(panels.map((p) => p.ids)).toEqual([['1:2:1', '1:2:3'], ['1:2:2']]);
    // Kabul alone: the plane's origin is its first fix, and it moves 10 m east per second.
    const kabul = panels[1]!;
    expect(kabul.latitudeDeg).toBeCloseTo(KABUL[0], 6);
    expect(kabul.longitudeDeg).toBeCloseTo(KABUL[1] + 50 / 111_320 / Math.cos((KABUL[0] * Math.PI) / 180), 3);
    const af = kabul.tracks.get('1:2:2')!;
    for (let t = 0; t < 5; t++) {
      expect(Math.abs(af.east[t]! - 10 * t)).toBeLessThan(1);
      expect(Math.abs(af.north[t]!)).toBeLessThan(1);
    }
    // Copenhagen: every point against the project's geodesy on the panel's own plane.
    const dk = panels[0]!;
    const frame = ecefToEnuMatrix(
      new Float64Array(9),
      (dk.latitudeDeg * Math.PI) / 180,
      (dk.longitudeDeg * Math.PI) / 180,
    );
    const origin = geodeticDegreesToEcef(new Float64Array(3), dk.latitudeDeg, dk.longitudeDeg, 0);
    const enu = new Float64Array(3);
    for (const id of dk.ids) {
      const raw = data.tracks.get(id)!;
      const drawn = dk.tracks.get(id)!;
      expect(drawn.east).toHaveLength(5);
      for (let i = 0; i < raw.x.length; i++) {
        ecefToLocal(enu, frame, origin, [raw.x[i]!, raw.y[i]!, raw.z[i]!]);
        expect(Math.abs(drawn.east[i]! - enu[0]!)).toBeLessThan(1);
        expect(Math.abs(drawn.north[i]! - enu[1]!)).toBeLessThan(1);
      }
    }
    // The two Copenhagen entities 100 m apart east, not 4,600 km apart.
    expect(dk.tracks.get('1:2:3')!.east[0]! - dk.tracks.get('1:2:1')!.east[0]!).toBeCloseTo(100, 0);
    expect(Math.abs(dk.tracks.get('1:2:1')!.north[0]!)).toBeLessThan(1);
    const html = await captureReportHtml('far.pcap', capture);
    expect(html).toMatch(/<h2>Entity tracks near 55\.68° N 12\.57° E<\/h2>/);
    expect(html).toMatch(/<h2>Entity tracks near 34\.53° N 69\.17° E<\/h2>/);
    expect(html).toContain('this one: 1:2:1 DK, 1:2:3 DK2.');
    expect((html.match(/<svg/g) ?? []).length).toBe(3);
  });

  it('flags entities whose tracks coincide and draws them so one does not hide the other', async () => {
    const data = captureReportData(readCapture(syntheticCapture(['A', 'B', 'C'], 5, [], 0)));
    const [panel] = trackPanels(data.tracks, [...data.tracks.keys()]);
    expect(panel!.overlaps).toEqual([['1:2:1', '1:2:2', '1:2:3']]);
    const apart = trackPanels(captureReportData(readCapture(syntheticCapture(['A', 'B'], 5))).tracks, [
      '1:2:1',
      '1:2:2',
    ]);
    expect(apart[0]!.overlaps).toEqual([]);
    const html = await captureReportHtml('same.pcap', readCapture(syntheticCapture(['A', 'B', 'C'], 5, [], 0)));
    expect(html).toContain('3 entities at the same place (1:2:1 A, 1:2:2 B, 1:2:3 C)');
    // Three different dash patterns on the lines.
    const dashes = new Set(html.match(/stroke-dasharray="[^"]*"/g));
    expect(dashes.size).toBeGreaterThanOrEqual(2);
  });

  it('scales the PDU-rate chart to its data: a steady rate is not a flat line on the border', () => {
    const data = captureReportData(readCapture(syntheticCapture(['A'], 30)));
    const spec = rateSpec(data) as { encoding: { y: { scale?: { domain?: number[] } } } };
    const domain = spec.encoding.y.scale?.domain;
    expect(domain).toBeDefined();
    const rates = data.bins.map((b) => (b['Entity State'] ?? 0) / data.binSeconds);
    const [lo, hi] = [Math.min(...rates), Math.max(...rates)];
    expect(domain![0]!).toBeLessThan(lo);
    expect(domain![1]!).toBeGreaterThan(hi);
    // The data fills a good part of the height.
    expect(hi - lo).toBeLessThanOrEqual(domain![1]! - domain![0]!);
    expect(domain![1]! - domain![0]!).toBeLessThanOrEqual(Math.max(hi - lo, hi * 0.5) * 3);
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
