// `reckon decode`'s three faces tell one story: the text summary, the HTML report and the NDJSON each show the
// entities, the engagements (shooter → munition → target, range, result by name) and the radios (frequency, power,
// transmit state, Signal PDUs), with the same facts in the same words — held against Wireshark's dissection of the
// recorded captures (test/fixtures/tshark/shots-and-radios.names.txt), and of a made capture where tshark is here.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readCapture } from '../../src/pcap/reader.js';
import { captureReportHtml } from '../../src/report/capture-report.js';
import { entityPlace, largeCapture } from '../../scripts/large-captures.js';
import { cli } from '../support/cli.js';
import { findSystemBinary } from '../../scripts/support/system-binary.js';

const DIS5 = 'test/fixtures/dis/dis5_kdis_vrforces_hind_vs_m1a2.pcap';
const DIS7 = 'test/fixtures/dis/dis7_vrforces_gaz69_90deg_turn.pcap';
const dir = mkdtempSync(join(tmpdir(), 'reckon-decode-story-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Everything each face says about a capture. */
async function faces(file: string) {
  const summary = (await cli('decode', file)).stdout;
  const json = (await cli('decode', file, '--json')).stdout
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line));
  // The report's table cells as text, one row per array.
  const html = await captureReportHtml('capture.pcap', readCapture(readFileSync(file)));
  const section = (title: string) => {
    const start = html.indexOf(`<h2>${title}</h2>`);
    if (start < 0) return [];
    const body = html.slice(start, html.indexOf('</section>', start));
    return [...body.matchAll(/<tr>(.*?)<\/tr>/g)]
      .map((row) => [...row[1]!.matchAll(/<td[^>]*>(.*?)<\/td>/g)].map((cell) => cell[1]!.replace(/&#39;/g, "'")))
      .filter((cells) => cells.length > 0);
  };
  return { summary, json, html, section };
}

/** Wireshark's fields of each Fire, Detonation and Transmitter frame, by name, in frame order. */
function wireshark(text: string): Array<Record<string, string>> {
  return text
    .split(/^Frame /m)
    .slice(1)
    .map((block) => {
      const fields: Record<string, string> = {};
      for (const [, name, value] of block.matchAll(/^ +([^:\n]+): (.*?)$/gm)) fields[name!] = value!;
      return fields;
    });
}
const recorded = wireshark(
  readFileSync(new URL('../fixtures/tshark/shots-and-radios.names.txt', import.meta.url), 'utf8'),
);
const named = (value: string) => value.replace(/ \(\d+\)$/, '').toLowerCase();

describe('decode: the same engagements in the summary, the report and the NDJSON', () => {
  it('the v5 capture: the Hind fires an AT-6 Spiral at the M1A2, 1823 m, an entity impact', async () => {
    const { summary, json, section } = await faces(DIS5);
    const [fire, detonation] = recorded.filter((f) => /^(Fire|Detonation)/.test(f['PDU type']!));
    // The summary: one row, times from the first frame.
    expect(summary).toMatch(
      /^Engagements: 1 \(1 Fire PDU, 1 Detonation PDU\)\n +fired s +shooter +munition +target +range m +detonated s +result\n +6\.0 +1:3001:18 CISARW 1 +AT-6 Spiral · Guided · RUS +1:3001:15 M1A2 1 +1823 +10\.0 +Entity Impact$/m,
    );
    // The report: the same row.
    const rows = section('Engagements');
    expect(rows).toHaveLength(1);
    expect(rows[0]!.slice(0, 7)).toEqual([
      '6',
      '1:3001:18 CISARW 1',
      'AT-6 Spiral · Guided · RUS',
      '1:3001:15 M1A2 1',
      '1823',
      '10',
      'Entity Impact',
    ]);
    // The NDJSON: each line its names and geodetic position, as an Entity State line has.
    const shots = json.filter((o) => o.pdu?.pduType === 2 || o.pdu?.pduType === 3);
    expect(shots.map((o) => o.frame)).toEqual([28, 74]);
    for (const o of shots) {
      expect(o.names).toMatchObject({
        munition: 'AT-6 Spiral · Guided · RUS',
        munitionPath: 'Munition / Anti-Armor / Russia (RUS) / Guided / AT-6 Spiral',
        warhead: 'Other',
        fuse: 'Other',
        shooterMarking: 'CISARW 1',
        targetMarking: 'M1A2 1',
      });
      expect(Object.keys(o.geodetic)).toEqual(['latitudeDeg', 'longitudeDeg', 'heightM']);
    }
    // Where the missile hit: beside the tank's last reported position (the summary's 36.00246° N 122.99341° W).
    expect(shots[1].geodetic.latitudeDeg).toBeCloseTo(36.00246, 3);
    expect(shots[1].geodetic.longitudeDeg).toBeCloseTo(-122.99341, 3);
    // Wireshark: the same result, range, warhead and fuse.
    expect(shots[1].names.result.toLowerCase()).toBe(named(detonation!['Detonation Result']!));
    expect(rows[0]![6]!.toLowerCase()).toBe(named(detonation!['Detonation Result']!));
    expect(Number(fire!.Range)).toBeCloseTo(shots[0].pdu.range, 2);
    expect([fire!.Warhead, fire!.Fuse]).toEqual([String(shots[0].pdu.descriptor.warhead), '0']);
  });

  it('the v7 capture: the one radio, its frequency, power and transmit state, in all three', async () => {
    const { summary, json, section } = await faces(DIS7);
    const transmitters = recorded.filter((f) => f['PDU type'] === 'Transmitter (25)');
    expect(transmitters).toHaveLength(17);
    const state = named(transmitters[0]!['Radio Transmit State']!);
    expect(summary).toMatch(
      /^Radios: 1\n +radio +frequency +power +last state +Transmitter +Signal +signal data +Receiver\n +0:0:0 #11999 +72\.275 MHz +1\.0 dBm +On but not transmitting +17 +0 +0 bytes +0$/m,
    );
    const rows = section('Radios');
    expect(rows.map((r) => r.slice(0, 7))).toEqual([
      ['0:0:0 #11999', '72.275 MHz', '1', 'On but not transmitting', '17', '0', '0'],
    ]);
    const lines = json.filter((o) => o.pdu?.pduType === 25);
    expect(lines).toHaveLength(17);
    lines.forEach((o, i) => {
      const ws = transmitters[i]!;
      expect(o.names.transmitState.toLowerCase()).toBe(named(ws['Radio Transmit State']!));
      expect(o.names.inputSource.toLowerCase()).toBe(named(ws['Radio Input Source']!));
      expect(o.pdu.frequencyHz).toBe(Number(ws['Transmit Frequency (Hz)']));
      expect(o.pdu.powerDbm).toBe(Number(ws['Transmit Power']));
      // VR-Forces' unattached radio: its antenna location is left unset (all zero), so no position.
      expect(o.geodetic).toBeNull();
    });
    expect(rows[0]![3]!.toLowerCase()).toBe(state);
  });

  it('a capture of entities, radios and shots: each face lists the same ones, named alike', async () => {
    const file = join(dir, 'made.pcap');
    writeFileSync(file, largeCapture({ entities: 6, radios: 8, shots: 3 }));
    const { summary, json, section } = await faces(file);
    // Entities: the summary's and the report's rows, and the NDJSON's Entity State lines.
    const summaryEntities = [...summary.matchAll(/^(1:1:\d+) +(E\d+) +(\S+) +(.+?) +v7 /gm)].map((m) => m.slice(1));
    const reportEntities = section('Entities').map((r) => r.slice(0, 4));
    const jsonEntities = json
      .filter((o) => o.pdu?.pduType === 1)
      .map((o) => [
        `1:1:${o.pdu.entityId.entity}`,
        o.pdu.marking.text,
        Object.values(o.pdu.entityType).join(':'),
        o.names.type,
      ]);
    expect(summaryEntities).toHaveLength(6);
    expect(reportEntities).toEqual(summaryEntities);
    expect(jsonEntities).toEqual(summaryEntities);
    // Engagements: shooter, munition, target and result, the same in each.
    const summaryShots = [
      ...summary.matchAll(/^ +\d+\.\d +(1:1:\d+ E\d+) +(.+? · USA) +(1:1:\d+ E\d+) +3000 +\S+ +(.+)$/gm),
    ].map((m) => m.slice(1));
    const reportShots = section('Engagements').map((r) => [r[1], r[2], r[3], r[6]]);
    const detonations = json.filter((o) => o.pdu?.pduType === 3);
    const jsonShots = detonations.map((o) => [
      `1:1:${o.pdu.firingEntityId.entity} ${o.names.shooterMarking}`,
      o.names.munition,
      `1:1:${o.pdu.targetEntityId.entity} ${o.names.targetMarking}`,
      o.names.result,
    ]);
    expect(summaryShots).toEqual([
      ['1:1:1 E0', 'BGM-71D TOW 2 · Guided · USA', '1:1:2 E1', 'Ground Impact'],
      ['1:1:3 E2', 'BGM-71D TOW 2 · Guided · USA', '1:1:4 E3', 'Entity Impact'],
      ['1:1:5 E4', 'BGM-71D TOW 2 · Guided · USA', '1:1:6 E5', 'Entity Impact'],
    ]);
    expect(reportShots).toEqual(summaryShots);
    expect(jsonShots).toEqual(summaryShots);
    // Each detonation's position where the capture put it: the target's place.
    detonations.forEach((o) => {
      const [lat, lon] = entityPlace(o.pdu.targetEntityId.entity - 1);
      expect(o.geodetic.latitudeDeg).toBeCloseTo(lat, 6);
      expect(o.geodetic.longitudeDeg).toBeCloseTo(lon, 6);
      expect(Math.abs(o.geodetic.heightM)).toBeLessThan(0.01);
    });
    // Radios: id, frequency, power and state alike.
    const summaryRadios = [...summary.matchAll(/^ +(2:1:\d+ #\d+) +(\S+ MHz) +37\.0 dBm +(On .+?) +1 +([01]) /gm)].map(
      (m) => m.slice(1),
    );
    const reportRadios = section('Radios').map((r) => [r[0], r[1], r[3], r[6]]);
    const jsonRadios = json
      .filter((o) => o.pdu?.pduType === 25)
      .map((o) => [
        `2:1:${o.pdu.entityId.entity} #${o.pdu.radioId}`,
        `${+(o.pdu.frequencyHz / 1e6).toFixed(6)} MHz`,
        o.names.transmitState,
      ]);
    expect(summaryRadios).toHaveLength(8);
    expect(reportRadios).toEqual(summaryRadios);
    expect(jsonRadios).toEqual(summaryRadios.map((r) => r.slice(0, 3)));
    expect(summaryRadios.map((r) => r[2])).toEqual([
      'On and transmitting',
      'On and transmitting',
      'On and transmitting',
      'On but not transmitting',
      'On and transmitting',
      'On and transmitting',
      'On and transmitting',
      'On but not transmitting',
    ]);
  });

  it.skipIf(findSystemBinary('tshark').path === undefined)(
    'names the results and transmit states of the made capture as tshark does',
    async () => {
      const file = join(dir, 'made-for-tshark.pcap');
      writeFileSync(file, largeCapture({ entities: 6, radios: 8, shots: 4 }));
      const dissected = spawnSync(
        'tshark',
        ['-r', file, '-Y', 'dis.pdu_type == 3 || dis.pdu_type == 25', '-O', 'dis', '-V'],
        { encoding: 'utf8' },
      );
      expect(dissected.status).toBe(0);
      const ws = wireshark(dissected.stdout);
      const { json } = await faces(file);
      const ours = json.filter((o) => o.pdu?.pduType === 3 || o.pdu?.pduType === 25);
      expect(ours).toHaveLength(ws.length);
      ours.forEach((o, i) => {
        const theirs = ws[i]!;
        if (o.pdu.pduType === 3) expect(o.names.result.toLowerCase()).toBe(named(theirs['Detonation Result']!));
        else expect(o.names.transmitState.toLowerCase()).toBe(named(theirs['Radio Transmit State']!));
      });
    },
  );
});

describe('reckon --help', () => {
  it('says decode writes an HTML report with --report', async () => {
    const { stdout } = await cli('--help');
    expect(stdout).toMatch(/^ {2}decode {6}.*--report/m);
  });
});
