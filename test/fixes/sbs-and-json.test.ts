// SBS-1 lines against a second implementation (npm sbs1) on a real recording, and aircraft.json built from a real
// readsb trace (its own decoded positions) read back position for position.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  AircraftJsonReader,
  DecodeStatus,
  decodeSbsLine,
  Fix,
  FIX_CALLSIGN,
  FIX_GROUND_VELOCITY,
  FIX_HEIGHT_GEOMETRIC,
  FIX_ON_GROUND,
  FIX_POSITION,
  FIX_VERTICAL_RATE,
  NON_ICAO_ADDRESS,
  PositionSource,
} from '../../src/fixes/index.js';

const require = createRequire(import.meta.url);
const sbs1 = require('sbs1') as { parseSbs1Message(line: string): Record<string, string | number | boolean | null> };
const fixture = (name: string) => gunzipSync(readFileSync(new URL(`../fixtures/feeds/${name}`, import.meta.url)));
const FEET = 0.3048;
const KNOTS = 1852 / 3600;

describe('SBS-1 against npm sbs1 on a real recording (node-sbs1 msgs.txt, Los Angeles)', () => {
  const lines = fixture('adsb_sbs1_node_sbs1_msgs.txt.gz').toString().trim().split('\n');
  const fix = new Fix();

  it('reads every line as sbs1 does: address, callsign, altitude, position, velocity', () => {
    const counts = { positions: 0, velocities: 0, callsigns: 0, ignored: 0 };
    for (const line of lines) {
      const bytes = Buffer.from(line);
      const status = decodeSbsLine(bytes, 0, bytes.length, fix);
      const theirs = sbs1.parseSbs1Message(line);
      expect(status).not.toBe(DecodeStatus.MALFORMED);
      if (status !== DecodeStatus.FIX) {
        counts.ignored++;
        continue;
      }
      expect(fix.key).toBe(Number.parseInt(theirs.hex_ident as string, 16));
      if (fix.flags & FIX_POSITION) {
        counts.positions++;
        expect([fix.latitudeDeg, fix.longitudeDeg]).toEqual([theirs.lat, theirs.lon]);
        expect(fix.heightM / FEET).toBeCloseTo(theirs.altitude as number, 9);
      }
      if (fix.flags & FIX_GROUND_VELOCITY) {
        counts.velocities++;
        expect(fix.groundSpeedMps / KNOTS).toBeCloseTo(theirs.ground_speed as number, 9);
        expect(fix.trackDeg).toBe(theirs.track);
        expect((fix.verticalRateMps * 60) / FEET).toBeCloseTo(theirs.vertical_rate as number, 9);
      }
      if (fix.flags & FIX_CALLSIGN) {
        counts.callsigns++;
        expect(fix.callsign).toBe((theirs.callsign as string).trim());
      }
    }
    expect(counts).toEqual({ positions: 74, velocities: 67, callsigns: 5, ignored: 4038 });
  });

  it("reads readsb's lines: a non-ICAO address, a surface position, an on-ground flag; refuses broken ones", () => {
    const read = (line: string) => {
      const bytes = Buffer.from(line);
      return decodeSbsLine(bytes, 0, bytes.length, fix);
    };
    expect(
      read('MSG,3,1,1,~A1B2C3,1,2024/10/01,12:30:15.000,2024/10/01,12:30:14.000,,38000,,,-33.000123,150.000456,,,,,,0'),
    ).toBe(DecodeStatus.FIX);
    expect(fix.key).toBe(0xa1b2c3 | NON_ICAO_ADDRESS);
    expect(read('MSG,2,1,1,4CA606,1,,,,,,0,12,271,53.42,-6.25,,,,,,-1')).toBe(DecodeStatus.FIX);
    expect(fix.flags & (FIX_ON_GROUND | FIX_POSITION | FIX_GROUND_VELOCITY)).toBe(
      FIX_ON_GROUND | FIX_POSITION | FIX_GROUND_VELOCITY,
    );
    expect(read('MSG,3,1,1,4CA606,1,,,,,,38000,,,53.42,-6.25,,,,,,-1')).toBe(DecodeStatus.FIX);
    expect(fix.flags & FIX_ON_GROUND).toBe(FIX_ON_GROUND);
    expect(read('STA,,5,179,400AE7,10103,2008/11/28,14:58:51.153,2008/11/28,14:58:51.153,RM')).toBe(
      DecodeStatus.IGNORED,
    );
    for (const bad of [
      'MSG,3,1,1,ZZZZZZ,1,,,,,,1,,,1,1',
      'MSG,9,1,1,4CA606,1,,,,,,1',
      'MSG,3,1,1,4CA606,1,,,,,,1000,,,95,1',
      'garbage',
      '',
    ]) {
      expect(read(bad), bad).toBe(DecodeStatus.MALFORMED);
    }
  });
});

/** The rows of the readsb trace: [seconds after its timestamp, lat, lon, altitude ft or "ground", gs kt, track, flags, vertical rate, details, type, geometric altitude ft]. */
function traceRows() {
  const trace = JSON.parse(fixture('adsb_readsb_trace_full_ac671b.json.gz').toString()) as {
    icao: string;
    timestamp: number;
    t: string;
    trace: Array<
      [
        number,
        number,
        number,
        number | 'ground',
        number | null,
        number | null,
        number,
        number | null,
        unknown,
        string,
        number | null,
      ]
    >;
  };
  return trace;
}

describe('aircraft.json, as readsb serves it, built from a real readsb trace (N899DN, a B739)', () => {
  const trace = traceRows();

  it('gives each new position once, dated now − seen_pos, with what readsb decoded for it', () => {
    const reader = new AircraftJsonReader();
    const fix = new Fix();
    let positions = 0;
    let at = 0;
    let previous = Number.NEGATIVE_INFINITY;
    for (const [dt, lat, lon, alt, gs, track, , rate, , type, geom] of trace.trace.slice(0, 400)) {
      // A row at the time of the one before (the trace has one) is that position again.
      const repeated = dt <= previous + 0.05;
      previous = Math.max(previous, dt);
      const now = trace.timestamp + dt + 0.4;
      const aircraft = {
        hex: trace.icao,
        flight: 'DAL1234 ',
        t: trace.t,
        category: 'A3',
        type,
        lat,
        lon,
        seen_pos: 0.4,
        alt_baro: alt,
        ...(geom === null ? {} : { alt_geom: geom }),
        ...(gs === null ? {} : { gs }),
        ...(track === null ? {} : { track }),
        ...(rate === null ? {} : { baro_rate: rate }),
      };
      // Each document twice: readsb repeats an aircraft at every poll until it has a new position.
      for (const poll of [0, 1]) {
        const seen: Fix[] = [];
        const entry = { ...aircraft, seen_pos: aircraft.seen_pos + poll }; // the same position, a poll older
        reader.read({ now: now + poll, aircraft: [entry] }, now + poll, fix, (f) =>
          seen.push(Object.assign(new Fix(), f)),
        );
        if (poll === 1 || repeated) {
          expect(seen.every((f) => !(f.flags & FIX_POSITION))).toBe(true);
          continue;
        }
        expect(seen.length).toBe(1);
        const f = seen[0]!;
        expect(f.key).toBe(0xac671b);
        expect(f.flags & FIX_POSITION).toBe(FIX_POSITION);
        expect([f.latitudeDeg, f.longitudeDeg, f.timeSeconds]).toEqual([lat, lon, now - 0.4]);
        if (geom !== null) {
          expect(f.flags & FIX_HEIGHT_GEOMETRIC).toBe(FIX_HEIGHT_GEOMETRIC);
          expect(f.heightM).toBeCloseTo(geom * FEET, 9);
        } else if (alt === 'ground') expect(f.flags & FIX_ON_GROUND).toBe(FIX_ON_GROUND);
        else expect(f.heightM).toBeCloseTo((alt as number) * FEET, 9);
        if (gs !== null && track !== null) expect(f.groundSpeedMps / KNOTS).toBeCloseTo(gs, 9);
        if (rate !== null) expect(f.flags & FIX_VERTICAL_RATE).toBe(FIX_VERTICAL_RATE);
        expect(f.typeDesignator).toBe('B739');
        expect(f.category).toBe(0xa3);
        expect(f.positionSource).toBe(
          type === 'mlat' ? PositionSource.MLAT : type.startsWith('tisb') ? PositionSource.TISB : PositionSource.OWN,
        );
        positions++;
      }
      if (!repeated) at++;
    }
    expect(positions).toBe(at);
    expect(positions).toBe(399);
  });

  it('counts entries without a valid hex, and refuses a document without an aircraft array', () => {
    const reader = new AircraftJsonReader();
    const fix = new Fix();
    expect(
      reader.read(
        { now: 1, aircraft: [null, { hex: 'xyz' }, 7, { hex: '~12ab9f', lat: 1, lon: 2 }] },
        1,
        fix,
        () => {},
      ),
    ).toBe(true);
    expect(reader.malformed).toBe(3);
    expect(reader.read({ planes: [] }, 1, fix, () => {})).toBe(false);
    expect(reader.read('nope', 1, fix, () => {})).toBe(false);
  });
});
