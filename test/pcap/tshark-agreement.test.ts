/**
 * reckon's decode of the recorded captures against Wireshark's dissection of the same frames, committed under
 * test/fixtures/tshark (see its README for the command, the tshark version and what Wireshark 4.0 leaves out:
 * it dissects only the first PDU of a bundled datagram).
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { disCapturePdus, emptyTotals, type DisPduEvent } from '../../src/pcap/dis-capture.js';
import { readCapture } from '../../src/pcap/reader.js';
import { entityStateRecordToPdu } from '../../src/pdu/json/entity-state-json.js';
import type { EntityStatePdu } from '../../src/pdu/schema/schema.js';
import { CodecStatus } from '../../src/pdu/wire/status.js';

const fixture = (path: string) => readFileSync(new URL(`../fixtures/${path}`, import.meta.url));

/* eslint-disable @typescript-eslint/no-explicit-any -- tshark JSON */
type Layer = Record<string, any>;

/** The value of the first key starting with `prefix` (tshark names subtrees like "Entity Type, (1:1:…) "). */
const subtree = (layer: Layer, prefix: string): Layer => layer[Object.keys(layer).find((k) => k.startsWith(prefix))!];
const asArray = <T>(v: T | T[] | undefined): T[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

interface Decoded {
  events: Array<DisPduEvent & { pdu?: EntityStatePdu }>;
  totals: ReturnType<typeof emptyTotals>;
}

function decode(name: string): Decoded {
  const totals = emptyTotals();
  const events: Decoded['events'] = [];
  // The record is reused for the next PDU: take its JSON form while it is current.
  for (const e of disCapturePdus(readCapture(fixture(`dis/${name}.pcap`)), totals)) {
    events.push({ ...e, ...(e.record && e.pduType === 1 ? { pdu: entityStateRecordToPdu(e.record) } : {}) });
  }
  return { events, totals };
}

/** Within the rounding of tshark's printing: `digits` decimals, or 6 significant digits for float32 fields. */
const near = (actual: number, printed: string, what: string, decimals?: number) => {
  const expected = Number(printed);
  const tolerance = decimals !== undefined ? 0.5 * 10 ** -decimals + 1e-9 : Math.max(Math.abs(expected) * 5e-6, 1e-30);
  if (!(Math.abs(actual - expected) <= tolerance)) throw new Error(`${what}: reckon ${actual}, tshark ${printed}`);
};

describe.each([
  { name: 'dis5_kdis_vrforces_hind_vs_m1a2', espdus: 60, frames: 88 },
  { name: 'dis7_vrforces_gaz69_90deg_turn', espdus: 97, frames: 171 },
])('$name', ({ name, espdus, frames }) => {
  const { events, totals } = decode(name);
  const firstOfFrame = new Map<number, (typeof events)[number]>();
  for (const e of events) if (!firstOfFrame.has(e.frame)) firstOfFrame.set(e.frame, e);

  it("agrees with tshark on every frame's first PDU header and the frame time", () => {
    const [header, ...rows] = fixture(`tshark/${name}.headers.tsv`).toString('utf8').trim().split('\n');
    expect(header!.split('\t')).toEqual([
      'frame.number',
      'frame.time_epoch',
      'udp.length',
      'dis.proto_ver',
      'dis.pdu_type',
      'dis.pdu_length',
      'dis.timestamp',
    ]);
    expect(rows).toHaveLength(frames);
    expect(totals.frames).toBe(frames);
    for (const row of rows) {
      const [frame, time, , version, type, length] = row.split('\t');
      const ours = firstOfFrame.get(Number(frame))!;
      expect(ours, `frame ${frame}`).toBeDefined();
      near(ours.timeSeconds, time!, `frame ${frame} time`, 6);
      expect([ours.pduType, ours.length], `frame ${frame}`).toEqual([Number(type), Number(length)]);
      if (ours.pdu) expect(ours.pdu.protocolVersion).toBe(Number(version));
    }
  });

  it('decodes every PDU; bundled PDUs fill their datagrams exactly; only the truncated Data PDU is rejected', () => {
    const rejected = events.filter((e) => e.status !== CodecStatus.OK);
    if (name.startsWith('dis7')) {
      expect(rejected.map((e) => [e.frame, e.pduType, e.length, e.status])).toEqual([
        [155, 20, 14064, CodecStatus.TRUNCATED],
      ]);
      expect(totals.rejected).toEqual({ TRUNCATED: 1 });
      expect(totals.pdusByType[72]).toBe(108); // Attribute PDUs bundled behind Entity State PDUs
    } else {
      expect(rejected).toEqual([]);
    }
    expect(events.filter((e) => e.pdu)).toHaveLength(espdus);
  });

  it('agrees with tshark field by field on every Entity State PDU', () => {
    const dissections: Layer[] = JSON.parse(gunzipSync(fixture(`tshark/${name}.espdu.json.gz`)).toString('utf8'));
    expect(dissections).toHaveLength(espdus);
    for (const d of dissections) {
      const layers = d._source.layers;
      const frame = Number(layers.frame['frame.number']);
      const pdu = firstOfFrame.get(frame)?.pdu;
      if (!pdu) throw new Error(`frame ${frame}: reckon has no Entity State PDU`);
      const h = layers.dis.Header;
      const es = layers.dis['Entity State PDU'];
      const at = `frame ${frame}`;
      expect([pdu.protocolVersion, pdu.exerciseId, pdu.pduType, pdu.protocolFamily, pdu.length], at).toEqual(
        ['dis.proto_ver', 'dis.exer_id', 'dis.pdu_type', 'dis.proto_fam', 'dis.pdu_length'].map((k) => Number(h[k])),
      );
      // Wireshark scales by 2^31 − 1 units per hour (reckon, KDIS: 2^31) and cuts to the microsecond:
      // up to 1.7 µs + 1 µs apart at the end of the hour.
      const timestampGap = Math.abs(pdu.timestamp.secondsPastHour - Number(h['dis.timestamp']));
      expect(timestampGap, `${at} timestamp`).toBeLessThan(3e-6);
      if (pdu.protocolVersion >= 7) expect(pdu.pduStatus, at).toBe(Number(h['dis.pdu_status']));
      const id = es['Entity ID'];
      expect(
        [pdu.entityId.site, pdu.entityId.application, pdu.entityId.entity, pdu.forceId, pdu.variableParameters.length],
        at,
      ).toEqual(
        [
          id['dis.entity_id_site'],
          id['dis.entity_id_application'],
          id['dis.entity_id_entity'],
          es['dis.force_id'],
          es['dis.num_articulation_params'],
        ].map(Number),
      );
      for (const [ours, prefix] of [
        [pdu.entityType, 'Entity Type'],
        [pdu.alternativeEntityType, 'Alternative Entity Type'],
      ] as const) {
        const t = subtree(es, prefix);
        const category = t[Object.keys(t).find((k) => k.startsWith('dis.category'))!];
        expect(
          [ours.kind, ours.domain, ours.country, ours.category, ours.subcategory, ours.specific, ours.extra],
          `${at} ${prefix}`,
        ).toEqual(
          [
            t['dis.entityKind'],
            t['dis.entityDomain'],
            t['dis.country'],
            category,
            t['dis.subcategory'],
            t['dis.specific'],
            t['dis.extra'],
          ].map(Number),
        );
      }
      const xyz = ['x', 'y', 'z'];
      xyz.forEach((c, i) => {
        near(
          pdu.linearVelocity[i]!,
          es['Entity Linear Velocity'][`dis.entity_linear_velocity.${c}`],
          `${at} velocity ${c}`,
        );
        near(pdu.location[i]!, es['Entity Location'][`dis.entity_location.${c}`], `${at} location ${c}`, 6);
      });
      ['psi', 'theta', 'phi'].forEach((c, i) =>
        near(pdu.orientation[i]!, es['Entity Orientation'][`dis.entity_orientation.${c}`], `${at} ${c}`),
      );
      expect(pdu.appearance, at).toBe(Number(es['dis.appearance']));
      const dr = es['Dead Reckoning Parameters'];
      // Wireshark 4.0 files the DR algorithm under the marking character set's field name.
      expect(pdu.deadReckoning.algorithm, at).toBe(Number(dr['dis.entity_marking_character_set']));
      expect(pdu.deadReckoning.otherParameters, at).toBe(dr['dis.dead_reckoning_other_parameters'].replaceAll(':', ''));
      xyz.forEach((c, i) => {
        near(
          pdu.deadReckoning.linearAcceleration[i]!,
          dr['Entity Linear Acceleration'][`dis.entity_linear_acceleration.${c}`],
          `${at} acceleration ${c}`,
        );
        near(
          pdu.deadReckoning.angularVelocity[i]!,
          dr['Entity Angular Velocity'][`dis.entity_angular_velocity.${c}`],
          `${at} angular velocity ${c}`,
        );
      });
      expect([pdu.marking.characterSet, pdu.marking.text], at).toEqual([
        Number(es['Entity Marking']['dis.entity_marking_character_set']),
        es['Entity Marking']['dis.entity_marking'],
      ]);
      expect(pdu.capabilities, at).toBe(Number(es['dis.capabilities']));
      const theirs = asArray<Layer>(es['Variable Parameter']);
      expect(theirs.length, at).toBe(pdu.variableParameters.length);
      theirs.forEach((vp, i) => {
        const ours = pdu.variableParameters[i]!;
        expect(
          [ours.recordType, ours.changeIndicator, ours.partAttachedTo, ours.parameterType],
          `${at} record ${i}`,
        ).toEqual(
          [
            vp['dis.variable_parameter_type'],
            vp['dis.vp.change'],
            vp['dis.vp.part_attached_to_id'],
            vp['dis.vp.artic_param_type'],
          ].map(Number),
        );
        near(ours.parameterValue!, vp['dis.vp.parameter_value'], `${at} record ${i} value`);
      });
    }
  });
});
