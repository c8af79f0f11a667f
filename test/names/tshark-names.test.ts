// reckon's names of kind, domain, country and category against Wireshark's DIS dissector (tshark 4.0.17), for every
// Entity State PDU of the fixture captures and of siso-entity-types.pcap (every country and every kind, domain and
// category SISO lists). The spelling rules and the table of renamed entries are in test/fixtures/tshark/README.md.
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { decodeAppearance, entityTypeName } from '../../src/names/index.js';
import { readCapture } from '../../src/pcap/reader.js';
import { disCapturePdus, emptyTotals } from '../../src/pcap/dis-capture.js';
import { entityTypePdus } from '../fixtures/names/entity-types-capture.js';

const fixture = (path: string) => readFileSync(new URL(`../fixtures/${path}`, import.meta.url));

interface WiresharkNames {
  readonly frame: number;
  readonly entity: number;
  readonly kind: string;
  readonly domain: string;
  readonly country: string;
  /** Undefined where Wireshark shows the category as a number (it names platform categories only). */
  readonly category: string | undefined;
}

/** The first Kind, Domain, Country and Category of each frame: the Entity Type's (the Alternative's come after). */
function wiresharkNames(file: string): WiresharkNames[] {
  const text = gunzipSync(fixture(`tshark/${file}`)).toString('utf8');
  return text
    .split(/^Frame /m)
    .slice(1)
    .map((block) => {
      const field = (name: string) => new RegExp(`^ +${name}: (.*?)(?: \\(\\d+\\))?$`, 'm').exec(block)?.[1];
      const category = field('Category[^:]*');
      return {
        frame: Number(/^\d+/.exec(block)![0]),
        entity: Number(field('Entity ID Entity')),
        kind: field('Kind')!,
        domain: field('Domain')!,
        country: field('Country')!,
        category: category === undefined || /^\d+$/.test(category) ? undefined : category,
      };
    });
}

const spellings = new Map(
  fixture('tshark/wireshark-spellings.tsv')
    .toString('utf8')
    .split('\n')
    .slice(1)
    .filter((line) => line !== '')
    .map((line) => {
      const [field, wireshark, siso] = line.split('\t');
      return [`${field}\t${wireshark}`, siso!];
    }),
);
const used = new Set<string>();

/**
 * The rules of test/fixtures/tshark/README.md: case ignored; the ISO 3166 code SISO writes after a country, and the
 * sovereign Wireshark writes after a territory, left out; "St." read "Saint"; spaces around a hyphen, "(DDG)" and
 * "(DD)" after a ship class and "aka …" asides left out; British and American spelling taken as one.
 */
function normal(name: string): string {
  return name
    .toLowerCase()
    .replace(/ \([a-z]{3}\)$/, '')
    .replace(
      / \((united kingdom|united states|france|australia|new zealand|denmark|norway|portugal|international)\)$/,
      '',
    )
    .replace(/\bst\. /g, 'saint ')
    .replace(/\s*-\s*/g, '-')
    .replace(/ \((ddg|dd|aka [^)]*)\)/g, '')
    .replace(/armoured/g, 'armored')
    .replace(/anti-submarine/g, 'antisubmarine');
}

/** Wireshark's name, or the SISO name the spelling table gives for it. */
function agrees(field: string, wireshark: string, ours: string | undefined): boolean {
  const renamed = spellings.get(`${field}\t${wireshark}`);
  if (renamed !== undefined) {
    used.add(`${field}\t${wireshark}`);
    return renamed === ours;
  }
  return normal(wireshark) === normal(ours ?? '');
}

/** Wireshark 4.0 names every domain from the platform domains, and says "Unknown" for values newer than its tables. */
const PLATFORM_DOMAINS = ['Other', 'Land', 'Air', 'Surface', 'Subsurface', 'Space'];

function disagreements(types: readonly (readonly number[])[], names: readonly WiresharkNames[]): string[] {
  const problems: string[] = [];
  names.forEach((ws, i) => {
    const type = types[i]!;
    const ours = entityTypeName(type);
    const at = `frame ${ws.frame} (${type.join(':')})`;
    if (!agrees('kind', ws.kind, ours.kind)) problems.push(`${at} kind: ${ws.kind} ≠ ${ours.kind}`);
    if (type[0] === 2 || type[0] === 6) {
      // Munitions and supplies have domains of their own in SISO-REF-010 (UIDs 14 and 600).
      const platform = PLATFORM_DOMAINS[type[1]!] ?? 'Unknown';
      if (ws.domain !== platform) problems.push(`${at} domain: ${ws.domain} is not platform domain ${type[1]}`);
    } else if (!agrees('domain', ws.domain, ours.domain)) {
      problems.push(`${at} domain: ${ws.domain} ≠ ${ours.domain}`);
    }
    if (ws.country !== 'Unknown' && !agrees('country', ws.country, ours.country)) {
      problems.push(`${at} country: ${ws.country} ≠ ${ours.country}`);
    }
    if (ws.category !== undefined && ws.category !== 'Unknown' && !agrees('category', ws.category, ours.category)) {
      problems.push(`${at} category: ${ws.category} ≠ ${ours.category}`);
    }
  });
  return problems;
}

/** The entity types of a capture's Entity State PDUs, in frame order (the first PDU of each datagram, as tshark). */
function captureTypes(name: string): { types: number[][]; entities: number[] } {
  const types: number[][] = [];
  const entities: number[] = [];
  let lastFrame = -1;
  for (const event of disCapturePdus(readCapture(fixture(`dis/${name}.pcap`)), emptyTotals(), {})) {
    if (event.frame === lastFrame) continue;
    lastFrame = event.frame;
    if (event.pduType !== 1 || !event.record) continue;
    types.push([...event.record.entityType]);
    entities.push(event.record.entity);
  }
  return { types, entities };
}

describe('names agree with Wireshark', () => {
  it.each(['dis5_kdis_vrforces_hind_vs_m1a2', 'dis7_vrforces_gaz69_90deg_turn'])('%s: every entity', (name) => {
    const { types, entities } = captureTypes(name);
    const ws = wiresharkNames(`${name}.names.txt.gz`);
    expect(ws.map((w) => w.entity)).toEqual(entities);
    expect(disagreements(types, ws)).toEqual([]);
  });

  it('siso-entity-types.pcap: every country, and every kind, domain and category SISO lists', () => {
    const pdus = entityTypePdus();
    const capture = fixture('names/siso-entity-types.pcap');
    const frames = readCapture(capture).frames;
    // The committed capture is what the generator makes today.
    expect(frames.map((f) => Buffer.from(f.data.subarray(f.data.length - pdus[0]!.length)).toString('hex'))).toEqual(
      pdus.map((p) => Buffer.from(p).toString('hex')),
    );
    const types = pdus.map((p) => [p[20]!, p[21]!, (p[22]! << 8) | p[23]!, p[24]!, p[25]!, p[26]!, p[27]!]);
    const ws = wiresharkNames('siso-entity-types.names.txt.gz');
    expect(ws).toHaveLength(types.length);
    expect(disagreements(types, ws)).toEqual([]);
    // Most names agree outright; the table lists the rest, and nothing it does not need.
    expect([...spellings.keys()].filter((k) => !used.has(k))).toEqual([]);
  });
});

/** Wireshark 4.0's land platform appearance fields and the SISO fields they are (its smoke is bits 5–6 as one). */
const LAND_FIELDS: Readonly<Record<string, string>> = {
  paint_scheme: 'PAINTSCHEME',
  mobility: 'MOBILITYKILLED',
  fire_power: 'FIREPOWERKILLED',
  damage: 'DAMAGE',
  trailing_effects_entity: 'TRAILINGDUSTCLOUD',
  hatch: 'PRIMARYHATCH',
  head_lights: 'HEADLIGHTSON',
  tail_lights: 'TAILLIGHTSON',
  brake_lights: 'BRAKELIGHTSON',
  flaming: 'ISFLAMING',
  launcher: 'LAUNCHEROPERATIONAL',
  camouflage_type: 'CAMOUFLAGETYPE',
  concealed: 'CONCEALEDPOSITION',
  frozen_status: 'ISFROZEN',
  power_plant_status: 'POWERPLANTON',
  state: 'STATE',
  tent: 'TENTEXTENDED',
  ramp: 'RAMPEXTENDED',
  blackout_lights: 'BLACKOUTLIGHTSON',
  blackout_brake_lights: 'BLACKOUTBRAKELIGHTSON',
  spot_lights: 'SPOTSEARCHLIGHT1ON',
  interior_lights: 'INTERIORLIGHTSFORWARDON',
  surrender_state: 'OCCUPANTSSURRENDERED',
  masked_cloaked: 'MASKEDCLOAKED',
};

describe('appearance agrees with Wireshark', () => {
  it.each(['dis5_kdis_vrforces_hind_vs_m1a2', 'dis7_vrforces_gaz69_90deg_turn'])(
    '%s: every field of every land platform appearance',
    (name) => {
      const packets = JSON.parse(gunzipSync(fixture(`tshark/${name}.espdu.json.gz`)).toString('utf8')) as {
        _source: { layers: { dis: Record<string, Record<string, unknown>> } };
      }[];
      let compared = 0;
      const seen = new Set<string>();
      for (const packet of packets) {
        const pdu = Object.entries(packet._source.layers.dis).find(([k]) => k.startsWith('Entity State'))![1];
        const tree = pdu['dis.appearance_tree'] as Record<string, string> | undefined;
        const typeKey = Object.keys(pdu).find((k) => k.startsWith('Entity Type'))!;
        const type = /\(([\d:]+)\)/.exec(typeKey)![1]!.split(':').map(Number);
        if (type[0] !== 1 || type[1] !== 1 || tree === undefined) continue;
        const appearance = Number(pdu['dis.appearance']);
        const fields = new Map(decodeAppearance(type, appearance).fields.map((f) => [f.field, f.value]));
        for (const [wireshark, siso] of Object.entries(LAND_FIELDS)) {
          expect(fields.get(siso), `${wireshark} of 0x${appearance.toString(16)}`).toBe(
            Number(tree[`dis.appearance.landform.${wireshark}`]),
          );
        }
        const smoke = fields.get('ISSMOKEEMANATING')! + 2 * fields.get('ISENGINEEMITTINGSMOKE')!;
        expect(smoke).toBe(Number(tree['dis.appearance.landform.smoke_entity']));
        seen.add(pdu['dis.appearance'] as unknown as string);
        compared++;
      }
      expect(compared).toBeGreaterThan(15);
      expect(seen.size).toBeGreaterThan(1);
    },
  );
});
