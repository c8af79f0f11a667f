// Articulated and attached parts: every class × metric the fixture captures use, named from SISO's class and
// metric enumerations with their units, the station ranges, and any 16-byte record named without throwing.
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  articulatedPartName,
  articulatedPartValue,
  attachedPartStation,
  variableParameterNames,
} from '../../src/names/index.js';
import { parameterRecordToJson } from '../../src/pdu/json/variable-parameter.js';
import { readCapture } from '../../src/pcap/reader.js';
import { disCapturePdus, emptyTotals } from '../../src/pcap/dis-capture.js';
import { entityStateRecordToPdu } from '../../src/pdu/json/entity-state-json.js';

const enumerations = JSON.parse(
  readFileSync(new URL('../../data/siso/enumerations.json', import.meta.url), 'utf8'),
) as Record<string, { values: [number, string][] }>;
const named = (enumeration: string, value: number) => enumerations[enumeration]!.values.find(([v]) => v === value)?.[1];

/** The articulated part types of every Entity State PDU in the fixture captures. */
function fixturePartTypes(): number[] {
  const types = new Set<number>();
  for (const name of ['dis5_kdis_vrforces_hind_vs_m1a2', 'dis7_vrforces_gaz69_90deg_turn']) {
    const bytes = readFileSync(new URL(`../fixtures/dis/${name}.pcap`, import.meta.url));
    for (const event of disCapturePdus(readCapture(bytes), emptyTotals(), {})) {
      if (event.status !== 0 || !event.record || event.pduType !== 1) continue;
      for (const p of entityStateRecordToPdu(event.record).variableParameters) {
        if (p.recordType === 0) types.add(p.parameterType!);
      }
    }
  }
  return [...types].sort((a, b) => a - b);
}

describe('articulated parts', () => {
  const used = fixturePartTypes();

  it('finds turrets, guns, a launcher and their rates in the VR-Forces captures', () => {
    expect(used).toEqual([4107, 4108, 4429, 4430, 4747, 4748, 5707, 5708, 6029, 6030]);
  });

  it.each(used)('names %i from SISO class + metric, with its unit', (type) => {
    const names = articulatedPartName(type);
    const partClass = named('ArticulatedPartsTypeClass', type - (type % 32))!;
    const metric = named('ArticulatedPartsTypeMetric', type % 32)!;
    expect(names).toEqual({
      partClass,
      metric,
      label: `${partClass} · ${metric}`,
      unit: metric.endsWith('Rate') ? 'rad/s' : 'rad',
    });
  });

  it('reads "Primary Turret Number 1 · Azimuth" for 4107 and shows radians as degrees, metres as metres', () => {
    expect(articulatedPartName(4107).label).toBe('Primary Turret Number 1 · Azimuth');
    expect(articulatedPartName(4429).label).toBe('Primary Gun Number 1 · Elevation');
    expect(articulatedPartValue(4107, Math.PI / 4)).toEqual({ value: 45, unit: 'deg', text: '45.0°' });
    expect(articulatedPartValue(4108, -Math.PI)).toMatchObject({ value: -180, unit: 'deg/s', text: '-180.0°/s' });
    // 2048 Periscope + 3 Extension, + 4 Extension Rate.
    expect(articulatedPartName(2051)).toMatchObject({ label: 'Periscope · Extension', unit: 'm' });
    expect(articulatedPartValue(2051, 1.2)).toEqual({ value: 1.2, unit: 'm', text: '1.20 m' });
    expect(articulatedPartValue(2052, 0.5).text).toBe('0.50 m/s');
  });

  it('names unknown classes and metrics `unknown (N)`', () => {
    expect(articulatedPartName(4096 + 31)).toMatchObject({ metric: 'unknown (31)', unit: '' });
    expect(articulatedPartName(32 * 1000 + 11).partClass).toBe('unknown (32000)');
    expect(articulatedPartName(-5).label).toBe('unknown (-5)');
  });
});

describe('attached parts and other records', () => {
  it('names stations by SISO value and by range', () => {
    expect(attachedPartStation(0)).toBe('Nothing, Empty');
    expect(attachedPartStation(896)).toBe('M16A42 rifle');
    expect(attachedPartStation(512)).toBe('Fuselage station 1');
    expect(attachedPartStation(641)).toBe('Left-wing station 2');
    expect(attachedPartStation(770)).toBe('Right-wing station 3');
    expect(attachedPartStation(7)).toBe('Model-specific station 7');
    expect(attachedPartStation(2000)).toBe('unknown (2000)');
  });

  it('names a record: articulated, attached with its store, and the others by type', () => {
    expect(
      variableParameterNames({
        recordType: 0,
        partAttachedTo: 0,
        parameterType: 4107,
        parameterValue: Math.PI / 2,
        raw: '',
      }),
    ).toEqual({ record: 'Articulated Part', part: 'Primary Turret Number 1 · Azimuth', value: 90, unit: 'deg' });
    expect(
      variableParameterNames({
        recordType: 1,
        detachedIndicator: 0,
        partAttachedTo: 0,
        parameterType: 642,
        attachedPartType: { kind: 2, domain: 1, country: 225, category: 1, subcategory: 1, specific: 1, extra: 0 },
        raw: '',
      }),
    ).toEqual({
      record: 'Attached Part',
      part: 'Left-wing station 3',
      store: 'AIM-9B · Guided · USA',
      detached: false,
    });
    expect(variableParameterNames({ recordType: 2, raw: '' })).toEqual({ record: 'Separation' });
    expect(variableParameterNames({ recordType: 99, raw: '' })).toEqual({ record: 'unknown (99)' });
  });

  it('names any 16-byte record without throwing', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 16, maxLength: 16 }), fc.nat({ max: 4 }), (bytes, type) => {
        bytes[0] = type < 4 ? type : bytes[0]!;
        const names = variableParameterNames(parameterRecordToJson(bytes, 0));
        expect(typeof names.record).toBe('string');
      }),
      { numRuns: 3000 },
    );
  });
});
