// AIS decoding against independent decodings: gpsd's own decoding of its sample file (test/sample.aivdm and its
// JSON check file, as gpsd's regression tests hold them), a second implementation (npm ggencoder) on a real
// stream, and NMEA 4.0 tag blocks and Gatehouse timestamps from real recordings (AMSA, DMA).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  DecodeStatus,
  decodeAis,
  Fix,
  FIX_CALLSIGN,
  FIX_GROUND_VELOCITY,
  FIX_HEADING,
  FIX_POSITION,
  FIX_TYPE,
  LineSplitter,
  NmeaReader,
  NmeaStatus,
} from '../../src/fixes/index.js';

const require = createRequire(import.meta.url);
const { AisDecode } = require('ggencoder') as {
  AisDecode: new (
    sentence: string,
    session: object,
  ) => { valid: boolean; aistype: number; mmsi: string; lat: number; lon: number; sog: number; cog: number };
};

const fixture = (name: string) => {
  const bytes = readFileSync(new URL(`../fixtures/feeds/${name}`, import.meta.url));
  return name.endsWith('.gz') ? gunzipSync(bytes) : bytes;
};
const KNOTS = 1852 / 3600;

/** Every complete message of a recording: its payload decoded, the reader's time, the line it completed on. */
function messages(bytes: Uint8Array) {
  const reader = new NmeaReader();
  const fix = new Fix();
  const out: Array<{
    type: number;
    status: DecodeStatus;
    fix: Fix;
    timeSeconds: number;
    line: string;
  }> = [];
  const splitter = new LineSplitter(1024, (b, start, end) => {
    if (reader.read(b, start, end) !== NmeaStatus.MESSAGE) return;
    const status = decodeAis(reader.payload, reader.payloadBits, fix);
    const copy = Object.assign(new Fix(), fix);
    out.push({
      type: reader.payload[0]!,
      status,
      fix: copy,
      timeSeconds: reader.timeSeconds,
      line: Buffer.from(b.subarray(start, end)).toString(),
    });
  });
  splitter.push(bytes);
  splitter.end();
  return { out, reader };
}

describe("AIS against gpsd's decoding of its sample file", () => {
  const { out, reader } = messages(fixture('ais_gpsd_sample.aivdm'));
  const gpsd = fixture('ais_gpsd_sample.aivdm.js.chk')
    .toString()
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, number | string>);

  it('reads every sentence of it: 97 messages, no checksum error', () => {
    expect(out.length).toBe(102); // gpsd leaves out a few it cannot use (a 24B without its 24A)
    expect(reader.checksumErrors).toBe(0);
  });

  it('agrees on every position report, static report and name (types 1, 2, 3, 5, 18, 19, 24, 27)', () => {
    const checked: Record<number, number> = {};
    let at = 0;
    for (const { type, status, fix } of out) {
      // gpsd leaves out a 24B without its 24A; the next of its lines with this type and MMSI is this message's.
      let j = at;
      while (j < gpsd.length && !(gpsd[j]!.type === type && gpsd[j]!.mmsi === fix.key)) j++;
      if (j === gpsd.length) continue;
      at = j + 1;
      const g = gpsd[j]!;
      if (![1, 2, 3, 5, 18, 19, 24, 27].includes(type)) {
        expect(status).toBe(DecodeStatus.IGNORED);
        continue;
      }
      expect(status).toBe(DecodeStatus.FIX);
      checked[type] = (checked[type] ?? 0) + 1;
      const lat = g.lat as number | undefined,
        lon = g.lon as number | undefined;
      if (lat !== undefined && type !== 5 && type !== 24) {
        const available = lat !== 91 && lon !== 181;
        expect(Boolean(fix.flags & FIX_POSITION)).toBe(available);
        // gpsd prints six decimals, and type 27's tenths of a minute to one.
        const tolerance = type === 27 ? 0.05 : 6e-7;
        if (available) {
          expect(Math.abs(fix.latitudeDeg - lat)).toBeLessThanOrEqual(tolerance);
          expect(Math.abs(fix.longitudeDeg - lon!)).toBeLessThanOrEqual(tolerance);
        }
      }
      if (g.speed !== undefined && type !== 27) {
        const available = (g.speed as number) < 102.3 && (g.course as number) < 360;
        expect(Boolean(fix.flags & FIX_GROUND_VELOCITY)).toBe(available);
        if (available) {
          expect(fix.groundSpeedMps / KNOTS).toBeCloseTo(g.speed as number, 6);
          expect(fix.trackDeg).toBeCloseTo(g.course as number, 6);
        }
      }
      if (g.heading !== undefined) {
        expect(Boolean(fix.flags & FIX_HEADING)).toBe((g.heading as number) < 360);
        if ((g.heading as number) < 360) expect(fix.headingDeg).toBe(g.heading);
      }
      if (g.shipname !== undefined && fix.flags & FIX_CALLSIGN) {
        expect(fix.callsign).toBe((g.shipname as string).replace(/@+$/, '').trim());
      }
      if (g.shiptype !== undefined && fix.flags & FIX_TYPE && fix.shipType >= 0) expect(fix.shipType).toBe(g.shiptype);
      if (g.to_bow !== undefined && fix.lengthM > 0) {
        expect(fix.lengthM).toBe((g.to_bow as number) + (g.to_stern as number));
        expect(fix.beamM).toBe((g.to_port as number) + (g.to_starboard as number));
      }
    }
    expect(checked).toEqual({ 1: 4, 2: 1, 3: 1, 5: 3, 18: 3, 19: 1, 24: 2, 27: 2 });
  });
});

describe('AIS on a real stream, against npm ggencoder', () => {
  const { out, reader } = messages(fixture('ais_dma_aislib_stream_example.txt.gz'));

  it('reads the 27 s of Danish traffic: every sentence whole, each dated by its $PGHP line', () => {
    expect(reader.checksumErrors).toBe(0);
    expect(reader.fragmentsDropped).toBe(0);
    expect(out.length).toBeGreaterThan(4000);
    const times = out.map((m) => m.timeSeconds);
    expect(
      times.every((t) => t >= Date.UTC(2010, 5, 11, 11, 46) / 1000 && t < Date.UTC(2010, 5, 11, 11, 47) / 1000),
    ).toBe(true);
  });

  it('finds the same positions and speeds in every single-sentence position report as ggencoder', () => {
    let compared = 0;
    for (const { type, status, fix, line } of out) {
      if (![1, 2, 3, 18].includes(type) || !/^!..VD[MO],1,1,/.test(line)) continue;
      // Some lines carry the receiver's time after the checksum (`…*0F,1276256770`); ggencoder wants them without it.
      const theirs = new AisDecode(line.slice(0, line.indexOf('*') + 3), {});
      expect(status).toBe(DecodeStatus.FIX);
      if (!theirs.valid) {
        // ggencoder refuses a report whose position is "not available" (181°, 91°); it is a fix without one here.
        expect(fix.flags & FIX_POSITION, line).toBe(0);
        continue;
      }
      expect(fix.key).toBe(Number(theirs.mmsi));
      if (fix.flags & FIX_POSITION) {
        expect(fix.latitudeDeg).toBeCloseTo(theirs.lat, 9);
        expect(fix.longitudeDeg).toBeCloseTo(theirs.lon, 9);
      }
      if (fix.flags & FIX_GROUND_VELOCITY) expect(fix.groundSpeedMps / KNOTS).toBeCloseTo(theirs.sog, 9);
      compared++;
    }
    expect(compared).toBeGreaterThan(2000);
  });
});

describe('NMEA 4.0 tag blocks (AMSA, exactEarth satellite AIS)', () => {
  const { out, reader } = messages(fixture('ais_amsa_exact_earth_tag_block.txt'));

  it('puts the g: groups together and dates every message by its c: time', () => {
    expect(reader.checksumErrors).toBe(0);
    expect(reader.fragmentsDropped).toBe(0);
    // The first message is a type 5 in a two-sentence group, dated 1334337317 (2012-04-13T17:15:17Z).
    expect(out[0]!.type).toBe(5);
    expect(out[0]!.timeSeconds).toBe(1334337317);
    expect(out[0]!.fix.callsign).not.toBe('');
    expect(out.every((m) => Number.isFinite(m.timeSeconds))).toBe(true);
  });

  it('refuses a tag block whose checksum is wrong, and a sentence whose checksum is wrong', () => {
    const reader = new NmeaReader();
    const line = (text: string) => Buffer.from(text);
    const good = '\\s:rEV02,c:1334337317*58\\!AIVDM,1,1,,B,19NWuLhuRb5QHfCpPcwj`26B0<02,0*5F';
    expect(reader.read(line(good), 0, good.length)).toBe(NmeaStatus.MESSAGE);
    const badTag = good.replace('c:1334337317*58', 'c:1334337318*58');
    expect(reader.read(line(badTag), 0, badTag.length)).toBe(NmeaStatus.MALFORMED);
    const badSentence = good.replace('0*5F', '0*5E');
    expect(reader.read(line(badSentence), 0, badSentence.length)).toBe(NmeaStatus.MALFORMED);
    expect(reader.checksumErrors).toBe(2);
  });
});
