// Kinds and domains named as SISO-REF-010 names them — every kind, and every domain of the enumeration the kind takes
// its domains from (data/siso/enumerations.json, read here on its own) — and every entity type's short label saying
// what kind of thing it is (a supply is not just "Other"). Then each face of `reckon decode` — the summary, the
// report and the NDJSON — on siso-entity-types.pcap (a PDU for each kind, domain and category SISO lists) names
// each entity's kind as Wireshark's dissector does (test/fixtures/tshark/README.md).
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { entityTypeNameOf } from '../../src/names/index.js';
import { readCapture } from '../../src/pcap/reader.js';
import { captureReportHtml } from '../../src/report/capture-report.js';
import { escapeHtml } from '../../src/report/html.js';
import { cli } from '../support/cli.js';

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url));
type Values = { uid: number; values: Array<[number, string]> };
const enumerations = JSON.parse(read('data/siso/enumerations.json').toString('utf8')) as Record<string, Values>;
const KINDS = enumerations.EntityKind!.values;
/**
 * The enumeration an Entity Type's domain field takes its names from (SISO-REF-010, Entity Type record): munitions
 * (kind 2) and supplies (kind 6) have domains of their own, every other kind the platform domains.
 */
const domainsOf = (kind: number) =>
  (kind === 2 ? enumerations.MunitionDomain : kind === 6 ? enumerations.SupplyDomain : enumerations.PlatformDomain)!
    .values;
const kindName = new Map(KINDS);
const GENERIC = /^(other|unused|not used|unknown)$/i;

/** Does a label that names no level below the category say the kind? Platforms' categories do ("Tank"). */
function saysKind(label: string, kind: number, category: string | undefined): boolean {
  if (kind === 1 && category !== undefined && !GENERIC.test(category)) return true;
  return label.toLowerCase().split(' · ').includes(kindName.get(kind)!.toLowerCase());
}

describe('kinds and domains', () => {
  it('names every kind and every domain SISO lists, from the enumeration the kind takes its domains from', () => {
    expect(KINDS.map(([, name]) => name)).toContain('Supply');
    let pairs = 0;
    for (const [kind, kind_] of KINDS) {
      for (const [domain, domain_] of domainsOf(kind)) {
        const names = entityTypeNameOf(kind, domain, 0, 0, 0, 0, 0);
        expect({ kind: names.kind, domain: names.domain }).toEqual({ kind: kind_, domain: domain_ });
        expect(names.path.startsWith(`${kind_} / ${domain_}`)).toBe(true);
        expect(saysKind(names.label, kind, names.category), names.label).toBe(true);
        pairs++;
      }
    }
    expect(pairs).toBe(10 * 6 - 2 * 6 + 13 + 13);
  });

  it('labels every entity type SISO names only down to its category with its kind (kind 6: "… · Supply")', () => {
    const rows = read('data/siso/entity-types.tsv').toString('utf8').split('\n').slice(1).filter(Boolean);
    const wrong: string[] = [];
    let categoryOnly = 0;
    for (const row of rows) {
      const cells = row.split('\t');
      const numbers = cells.slice(0, 7).map(Number) as [number, number, number, number, number, number, number];
      const names = entityTypeNameOf(...numbers);
      if (names.kind !== kindName.get(numbers[0]) || names.domain !== new Map(domainsOf(numbers[0])).get(numbers[1])) {
        wrong.push(`${numbers.join(':')}: ${names.kind} / ${names.domain}`);
      }
      // A level below the category counts when it is named and numbered (0 is the "…, Other" under the parent).
      if ([9, 10, 11].some((c) => cells[c] !== '' && numbers[c - 5] !== 0)) continue;
      categoryOnly++;
      if (!saysKind(names.label, numbers[0], cells[8] || undefined)) wrong.push(`${numbers.join(':')}: ${names.label}`);
    }
    expect(wrong.slice(0, 10)).toEqual([]);
    expect(categoryOnly).toBeGreaterThan(1000);
    expect(entityTypeNameOf(6, 0, 0, 0, 0, 0, 0).label).toBe('Other · Supply');
    expect(entityTypeNameOf(6, 1, 0, 3, 0, 0, 0).label).toBe('C - Combat Rations · Supply');
  });
});

/** Wireshark's Kind of each frame's Entity Type (the first Kind; the Alternative Entity Type's comes after). */
function wiresharkKinds(): string[] {
  const text = gunzipSync(read('test/fixtures/tshark/siso-entity-types.names.txt.gz')).toString('utf8');
  return text
    .split(/^Frame /m)
    .slice(1)
    .map((block) => /^ +Kind: (.*?) \(\d+\)$/m.exec(block)![1]!);
}

describe("decode's faces name each entity's kind as Wireshark does", () => {
  const CAPTURE = 'test/fixtures/names/siso-entity-types.pcap';

  it('in the summary, the report and the NDJSON of siso-entity-types.pcap', async () => {
    const kinds = wiresharkKinds();
    const json = (await cli('decode', CAPTURE, '--json')).stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    const summary = (await cli('decode', CAPTURE)).stdout;
    const report = await captureReportHtml('names.pcap', readCapture(read(CAPTURE)));
    expect(json).toHaveLength(kinds.length);
    const wrong: string[] = [];
    json.forEach((line, i) => {
      const { pdu, names } = line;
      const at = `frame ${i + 1} (${Object.values(pdu.entityType).join(':')})`;
      const wireshark = kinds[i]!;
      if (names.kind.toLowerCase() !== wireshark.toLowerCase()) wrong.push(`${at} JSON kind ${names.kind}`);
      // Every type here is named down to its category at most: its label must say the kind Wireshark says.
      const shown = names.type as string;
      const says = pdu.entityType.kind === 1 ? true : shown.toLowerCase().includes(wireshark.toLowerCase());
      if (!says) wrong.push(`${at} label "${shown}" does not say ${wireshark}`);
      const id = `1:1:${pdu.entityId.entity}`;
      const row = new RegExp(`^${id} +T\\d+ +\\S+ +(.*?) +v7 `, 'm').exec(summary);
      if (row?.[1] !== shown) wrong.push(`${at} summary shows "${row?.[1]}"`);
      const type = Object.values(pdu.entityType).join(':');
      const cells =
        `<td data-label="entity">${id}</td><td data-label="marking">T${pdu.entityId.entity}</td>` +
        `<td data-label="type">${type}</td><td class="wrap" data-label="name">${escapeHtml(shown)}</td>`;
      if (!report.includes(cells)) wrong.push(`${at} report`);
    });
    expect(wrong.slice(0, 10)).toEqual([]);
  });
});
