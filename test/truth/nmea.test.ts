// NMEA 0183 logs as recorded tracks (NMEA 0183 v4.11 §6.3): RMC, GGA, GNS and VTG of one epoch become one fix with
// its speed and course over ground and its HDOP; a wrong checksum or a sentence without a fix is skipped and
// counted, never fatal. A log written here from a known course is read back onto it.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createTruthState } from '../../src/dr/owner/truth-state.js';
import { ecefToGeodeticDegrees } from '../../src/math/geodesy.js';
import { circle, loadTracks, readNmeaTrack } from '../../src/truth/index.js';

const scratch = mkdtempSync(join(tmpdir(), 'reckon-nmea-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** "$" + body + "*" + its checksum: the XOR of the body's characters (NMEA 0183 §5.2.1). */
function sentence(body: string): string {
  let sum = 0;
  for (let i = 0; i < body.length; i++) sum ^= body.charCodeAt(i);
  return `$${body}*${sum.toString(16).toUpperCase().padStart(2, '0')}`;
}

/** ddmm.mmmmm (or dddmm.mmmmm) and a hemisphere letter. */
function angle(degrees: number, digits: number, positive: string, negative: string): [string, string] {
  const a = Math.abs(degrees);
  const whole = Math.floor(a);
  const minutes = (a - whole) * 60;
  return [
    `${String(whole).padStart(digits, '0')}${minutes.toFixed(5).padStart(8, '0')}`,
    degrees < 0 ? negative : positive,
  ];
}

const hhmmss = (seconds: number) =>
  [Math.floor(seconds / 3600), Math.floor(seconds / 60) % 60, seconds % 60]
    .map((v, i) => (i < 2 ? String(v).padStart(2, '0') : v.toFixed(2).padStart(5, '0')))
    .join('');

describe('an NMEA 0183 log', () => {
  // A boat circling at 5 m/s off Helsinki, logged at 1 Hz from 10:00:00 UTC on 15 August 2014.
  const truth = circle({ speed: 5, radius: 150, origin: { latitudeDeg: 60.1, longitudeDeg: 24.9, heightM: 0 } });
  const lines: string[] = [];
  const s = createTruthState(),
    geo = new Float64Array(3);
  for (let t = 0; t < 120; t++) {
    truth.sample(t, s);
    ecefToGeodeticDegrees(geo, s.location[0]!, s.location[1]!, s.location[2]!);
    const [lat, ns] = angle(geo[0]!, 2, 'N', 'S');
    const [lon, ew] = angle(geo[1]!, 3, 'E', 'W');
    const time = hhmmss(36_000 + t);
    const knots = (5 / (1852 / 3600)).toFixed(2);
    const course = ((((t * 5) / 150) * 180) / Math.PI) % 360;
    lines.push(sentence(`GPRMC,${time},A,${lat},${ns},${lon},${ew},${knots},${course.toFixed(1)},150814,,,A`));
    lines.push(sentence(`GPGGA,${time},${lat},${ns},${lon},${ew},1,09,0.8,${geo[2]!.toFixed(2)},M,18.0,M,,`));
    lines.push(sentence('GPGSV,3,1,09,01,40,083,46,02,17,308,41,12,07,344,39,14,22,228,45'));
  }
  lines.splice(30, 1, lines[30]!.replace(/\*..$/, '*00')); // a corrupted RMC
  lines.push(sentence(`GPGGA,${hhmmss(36_120)},,,,,0,00,99.9,,M,,M,,`)); // the receiver lost its fix
  const text = `${lines.join('\r\n')}\r\n`;

  it('reads one fix per epoch with its speed, course and HDOP, counting what it skips', () => {
    const { points, summary } = readNmeaTrack(text);
    expect(points).toHaveLength(120);
    expect(summary).toEqual({ badChecksums: 1, withoutFix: 1, ignored: 120 });
    expect(points[0]).toMatchObject({
      timeSeconds: Date.UTC(2014, 7, 15, 10) / 1000,
      groundSpeedMps: expect.closeTo(5, 2),
      trackDeg: 0,
      positionSigmaM: 2.5 * 0.8,
      row: 1,
    });
    // Height above the ellipsoid: above mean sea level plus the geoid's separation.
    expect(points[0]!.heightM).toBeCloseTo(18, 1);
    // The epoch whose RMC was corrupted keeps its GGA position, without the RMC's speed and course.
    expect(points[10]!.groundSpeedMps).toBeUndefined();
    expect(points[10]!.latitudeDeg).toBeCloseTo(points[11]!.latitudeDeg, 3);
  });

  it('is a recorded track: .nmea, or a .log that holds sentences', async () => {
    for (const name of ['boat.nmea', 'boat.log']) {
      const path = join(scratch, name);
      writeFileSync(path, text);
      const [track] = await loadTracks(path, { kind: 'surface' });
      expect(track!.trajectory.notes).toEqual(['skipped 1 sentences with a wrong checksum and 1 without a fix']);
      const a = createTruthState(),
        b = createTruthState(),
        ga = new Float64Array(3),
        gb = new Float64Array(3);
      let horizontal = 0,
        vertical = 0;
      for (let t = 0; t < 119; t += 0.5) {
        truth.sample(t, a);
        track!.trajectory.sample(t, b);
        ecefToGeodeticDegrees(ga, a.location[0]!, a.location[1]!, a.location[2]!);
        ecefToGeodeticDegrees(gb, b.location[0]!, b.location[1]!, b.location[2]!);
        const north = (gb[0]! - ga[0]!) * 111_400,
          east = (gb[1]! - ga[1]!) * 55_800;
        horizontal = Math.max(horizontal, Math.hypot(north, east));
        vertical = Math.max(vertical, Math.abs(gb[2]! - ga[2]! - 18)); // the geoid's separation
      }
      // Positions of 2 m noise (HDOP 0.8) with speed and course every second: the course within half a metre.
      expect(horizontal).toBeLessThan(0.5);
      expect(vertical).toBeLessThan(0.5);
    }
  });
});
