// Mode S / ADS-B decoding against independent decodings: the worked examples of Sun, "The 1090 MHz Riddle"
// (mode-s.org, ch. "ADS-B"; the same vectors are in pyModeS's tests), and the real dump1090 Beast capture decoded
// by a second implementation (npm mode-s-decoder and mode-s-aircraft-store, after antirez's dump1090).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it, vi } from 'vitest';
import {
  BeastDeframer,
  cprGlobalAirborne,
  cprLocal,
  cprNL,
  DecodeStatus,
  decodeModeS,
  Fix,
  FIX_CALLSIGN,
  FIX_GROUND_VELOCITY,
  FIX_POSITION,
  modeSCrc,
  ModeSDecoder,
  ModeSKind,
  ModeSMessage,
} from '../../src/fixes/index.js';

const require = createRequire(import.meta.url);
const ModeSDecoderJs = require('mode-s-decoder') as new (options: {
  fixErrors: boolean;
}) => {
  parse(bytes: Uint8Array): Record<string, number | string | null | boolean>;
};
const AircraftStore = require('mode-s-aircraft-store') as new () => {
  addMessage(message: unknown): void;
  getAircrafts(): Array<{ icao: number; lat: number; lng: number }>;
};

const hex = (h: string) => Uint8Array.from(Buffer.from(h, 'hex'));
const KNOTS = 1852 / 3600;
const FEET = 0.3048;
const BEAST = new URL('../fixtures/feeds/adsb_beast_dump1090_sample.bin', import.meta.url);

describe('Mode S messages: the worked examples of "The 1090 MHz Riddle"', () => {
  const m = new ModeSMessage();

  it('checks the parity: every example has a remainder of 0, a flipped bit does not', () => {
    for (const h of ['8D4840D6202CC371C32CE0576098', '8D40621D58C382D690C8AC2863A7', '8D485020994409940838175B284F']) {
      expect(modeSCrc(hex(h), 14)).toBe(0);
      const bad = hex(h);
      bad[5]! ^= 0x10;
      expect(modeSCrc(bad, 14)).not.toBe(0);
      expect(decodeModeS(bad, 14, m)).toBe(false);
      expect(m.badParity).toBe(true);
    }
  });

  it('reads an identification: KLM1023, category set A', () => {
    expect(decodeModeS(hex('8D4840D6202CC371C32CE0576098'), 14, m)).toBe(true);
    expect(m.kind).toBe(ModeSKind.IDENTIFICATION);
    expect(m.address).toBe(0x4840d6);
    expect(m.callsign).toBe('KLM1023');
    expect(m.category).toBe(0xa0); // TC 4, CA 0: set A, no category information
  });

  it('places an airborne pair globally and one message locally: 52.2572°, 3.91937°, 38,000 ft', () => {
    const even = hex('8D40621D58C382D690C8AC2863A7'),
      odd = hex('8D40621D58C386435CC412692AD6');
    decodeModeS(even, 14, m);
    expect([m.cprOdd, m.cprLat, m.cprLon, m.altitudeM / FEET]).toEqual([false, 93000, 51372, 38000]);
    decodeModeS(odd, 14, m);
    expect([m.cprOdd, m.cprLat, m.cprLon]).toEqual([true, 74158, 50194]);
    const out = new Float64Array(2);
    expect(cprGlobalAirborne(out, 93000, 51372, 74158, 50194, false)).toBe(true);
    expect(out[0]).toBeCloseTo(52.2572, 4);
    expect(out[1]).toBeCloseTo(3.91937, 5);
    cprLocal(out, 93000, 51372, false, false, 52.258, 3.918);
    expect(out[0]).toBeCloseTo(52.2572, 4);
    expect(out[1]).toBeCloseTo(3.91937, 5);
  });

  it('places a surface message near a reference: 52.32061°, 4.73473°, track 140.625°', () => {
    decodeModeS(hex('8C4841753AAB238733C8CD4020B1'), 14, m);
    expect(m.kind).toBe(ModeSKind.SURFACE_POSITION);
    expect(m.trackDeg).toBe(140.625);
    expect(m.groundSpeedMps / KNOTS).toBeCloseTo(18, 9);
    decodeModeS(hex('8C4841753A8A35323FAEBDAC702D'), 14, m);
    const out = new Float64Array(2);
    cprLocal(out, m.cprLat, m.cprLon, m.cprOdd, true, 51.99, 4.375);
    expect(out[0]).toBeCloseTo(52.32061, 5);
    expect(out[1]).toBeCloseTo(4.73473, 5);
  });

  it('reads velocities: 159.20 kt at 182.88°, −832 ft/min, GNSS 550 ft above baro; heading 243.98°', () => {
    decodeModeS(hex('8D485020994409940838175B284F'), 14, m);
    expect(m.groundSpeedMps / KNOTS).toBeCloseTo(159.2, 2);
    expect(m.trackDeg).toBeCloseTo(182.88, 2);
    expect((m.verticalRateMps * 60) / FEET).toBeCloseTo(-832, 6);
    expect(m.gnssMinusBaroM / FEET).toBeCloseTo(550, 6);
    decodeModeS(hex('8DA05F219B06B6AF189400CBC33F'), 14, m);
    expect(m.headingDeg).toBeCloseTo(243.98, 2);
    expect((m.verticalRateMps * 60) / FEET).toBeCloseTo(-2304, 6);
  });

  it('has the NL zones of DO-260B Table A-21 (its first and last transition latitudes)', () => {
    expect(cprNL(0)).toBe(59);
    expect(cprNL(10.47047)).toBe(59);
    expect(cprNL(10.47048)).toBe(58);
    expect(cprNL(-10.47048)).toBe(58);
    expect(cprNL(86.53536)).toBe(3);
    expect(cprNL(86.53538)).toBe(2);
    expect(cprNL(87.0001)).toBe(1);
  });
});

describe('the dump1090 Beast capture, against npm mode-s-decoder and mode-s-aircraft-store', () => {
  const bytes = readFileSync(BEAST);
  const frames: { type: number; message: Uint8Array; tSeconds: number }[] = [];
  let t0 = -1;
  const deframer = new BeastDeframer((type, timestamp, _signal, message, length) => {
    if (t0 < 0) t0 = timestamp;
    frames.push({ type, message: message.slice(0, length), tSeconds: (timestamp - t0) / 12e6 });
  });
  deframer.push(bytes);

  it('cuts every frame out of the stream: 239 frames, no byte skipped', () => {
    expect(deframer.skippedBytes).toBe(0);
    expect(frames.length).toBe(239);
    // Fed one byte at a time, the same frames come out (escapes and frames split across chunks).
    let again = 0;
    const bytewise = new BeastDeframer(() => again++);
    for (const b of bytes) bytewise.push(Uint8Array.of(b));
    expect(again).toBe(239);
  });

  it('decodes every DF17 message as the second implementation does', () => {
    const theirs = new ModeSDecoderJs({ fixErrors: false });
    const ours = new ModeSMessage();
    let compared = 0;
    for (const { message } of frames) {
      if (message.length !== 14 || message[0]! >>> 3 !== 17) continue;
      const t = theirs.parse(message);
      expect(t.crcOk).toBe(true);
      const tc = t.metype as number;
      const used = tc >= 1 && tc <= 22 && !(tc === 19 && ((t.mesub as number) < 1 || (t.mesub as number) > 4));
      expect(decodeModeS(message, 14, ours)).toBe(used);
      if (!used) continue;
      expect(ours.address).toBe(t.icao);
      if (tc >= 1 && tc <= 4) expect(ours.callsign).toBe(t.callsign);
      if (tc >= 9 && tc <= 18) {
        expect([ours.cprOdd ? 1 : 0, ours.cprLat, ours.cprLon]).toEqual([
          t.fflag ? 1 : 0,
          t.rawLatitude,
          t.rawLongitude,
        ]);
        expect(ours.altitudeM / FEET).toBe(t.altitude);
      }
      if (tc === 19 && t.mesub === 1) {
        // mode-s-decoder takes the components as sent; DO-260B §2.2.3.2.6.1 says a value v means v − 1 kt.
        const east = ((t.ewDir as number) ? -1 : 1) * ((t.ewVelocity as number) - 1);
        const north = ((t.nsDir as number) ? -1 : 1) * ((t.nsVelocity as number) - 1);
        expect(ours.groundSpeedMps / KNOTS).toBeCloseTo(Math.hypot(east, north), 9);
        const fpm = ((t.vertRateSign as number) ? -1 : 1) * ((t.vertRate as number) - 1) * 64;
        expect((ours.verticalRateMps * 60) / FEET).toBeCloseTo(fpm, 6);
      }
      compared++;
    }
    expect(compared).toBe(13);
  });

  it('places the aircraft where mode-s-aircraft-store does, and nothing else', () => {
    const store = new AircraftStore();
    const theirs = new ModeSDecoderJs({ fixErrors: false });
    const decoder = new ModeSDecoder();
    const fix = new Fix();
    const positions: [number, number, boolean][] = [];
    const keys = new Set<number>();
    let callsign = '';
    const counts = { fixes: 0, callsigns: 0, velocities: 0 };
    // The store stamps each message with Date.now(): one instant for all, so that it pairs them the same way each run.
    const now = vi.spyOn(Date, 'now').mockReturnValue(1_700_000_000_000);
    for (const { message } of frames) if (message.length === 14) store.addMessage(theirs.parse(message));
    const aircraft = store.getAircrafts().find((a) => a.icao === 0x48520a);
    now.mockRestore();
    for (const { message, tSeconds } of frames) {
      if (decoder.decode(message, message.length, tSeconds, fix) !== DecodeStatus.FIX) continue;
      counts.fixes++;
      keys.add(fix.key);
      if (fix.flags & FIX_CALLSIGN) {
        counts.callsigns++;
        callsign = fix.callsign;
      }
      if (fix.flags & FIX_GROUND_VELOCITY) counts.velocities++;
      if (fix.flags & FIX_POSITION) positions.push([fix.latitudeDeg, fix.longitudeDeg, decoder.message.cprOdd]);
    }
    expect([...keys]).toEqual([0x48520a]);
    expect(callsign).toBe('TRA89M');
    // The store decodes each pair with its odd message as the newer one (it stamps messages with the wall clock, the
    // same for all of them here): its position is that of our last odd message.
    const last = positions.filter(([, , odd]) => odd).at(-1)!;
    expect(Math.abs(last[0] - aircraft!.lat)).toBeLessThan(1e-4);
    expect(Math.abs(last[1] - aircraft!.lng)).toBeLessThan(1e-4);
    expect(counts.callsigns).toBeGreaterThan(0);
    expect(counts.velocities).toBeGreaterThan(0);
    // Near Toulouse-Blagnac, where the capture was made, heading north.
    for (const [lat, lon] of positions) {
      expect(lat).toBeGreaterThan(43.6);
      expect(lat).toBeLessThan(43.7);
      expect(lon).toBeGreaterThan(1.2);
      expect(lon).toBeLessThan(1.25);
    }
    expect(positions.at(-1)![0]).toBeGreaterThan(positions[0]![0]);
  });
});
