import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { createTruthState } from '../../src/dr/truth-state.js';
import { ecefToGeodeticDegrees } from '../../src/math/geodesy.js';
import {
  CubicSpline,
  loadTrack,
  parseAdsbTrack,
  parseCsvTrack,
  parseDisCaptureTrack,
  parseGpxTrack,
  recordedTrajectory,
} from '../../src/experiment/trajectories/index.js';

const fixture = (path: string) => new URL(`../fixtures/${path}`, import.meta.url).pathname;
const SHIP = fixture('tracks/ship_signalk_aava_ownship_1hz_derived.csv');
const HELICOPTER = fixture('tracks/helicopter_traffic_rega_zh.json.gz');

describe('CubicSpline', () => {
  it('reproduces a straight line exactly, with zero curvature and jerk', () => {
    // A natural spline (y″ = 0 at the ends) is exact for straight lines, whatever the knot spacing.
    const times = Float64Array.from([0, 0.5, 2, 3, 4.5]);
    const spline = new CubicSpline(times, Float64Array.from(times, (t) => 2 * t - 1));
    const out = new Float64Array(4);
    spline.evaluate(out, 0, 1.7);
    expect(Array.from(out)).toEqual([expect.closeTo(2.4, 12), expect.closeTo(2, 12), expect.closeTo(0, 12), expect.closeTo(0, 12)]);
  });

  it('passes through every knot with continuous slope and curvature', () => {
    const times = Float64Array.from([0, 1, 1.5, 3, 4]);
    const values = Float64Array.from([0, 2, 1, 5, 4]);
    const spline = new CubicSpline(times, values);
    const left = new Float64Array(4), right = new Float64Array(4);
    for (let i = 0; i < times.length; i++) {
      spline.evaluate(left, 0, times[i]!);
      expect(left[0]).toBeCloseTo(values[i]!, 12);
    }
    for (const t of [1, 1.5, 3]) {
      spline.evaluate(left, 0, t - 1e-9);
      spline.evaluate(right, 0, t + 1e-9);
      expect(right[1]! - left[1]!).toBeCloseTo(0, 6);
      expect(right[2]! - left[2]!).toBeCloseTo(0, 6);
    }
  });
});

describe('recorded track loaders', () => {
  it('reads the Aava ship CSV: 597 fixes, its recorded heading and about 3.4 m/s', async () => {
    const points = parseCsvTrack(readFileSync(SHIP, 'utf8'));
    expect(points).toHaveLength(597);
    expect(points[0]).toMatchObject({ latitudeDeg: 59.7249807, longitudeDeg: 24.7366563, heightM: 0 });
    expect(points[0]!.timeSeconds).toBeCloseTo(Date.UTC(2014, 7, 15, 19, 0, 0, 540) / 1000, 3);
    // Row 1 has no heading: it takes the next fix's.
    expect(points[0]!.headingDeg).toBe(199.103);

    const ship = await loadTrack(SHIP);
    expect(ship.name).toBe('ship_signalk_aava_ownship_1hz_derived');
    expect(ship.durationSeconds).toBeGreaterThan(590);
    const s = createTruthState();
    let speedSum = 0;
    for (let t = 0; t < ship.durationSeconds; t += 1) {
      ship.sample(t, s);
      speedSum += Math.hypot(...s.linearVelocity);
    }
    expect(speedSum / Math.floor(ship.durationSeconds + 1)).toBeGreaterThan(3.2);
    expect(speedSum / Math.floor(ship.durationSeconds + 1)).toBeLessThan(3.6);
    // The spline passes through the recorded fixes.
    ship.sample(points[100]!.timeSeconds - points[0]!.timeSeconds, s);
    const geo = ecefToGeodeticDegrees(new Float64Array(3), s.location[0]!, s.location[1]!, s.location[2]!);
    expect(geo[0]).toBeCloseTo(points[100]!.latitudeDeg, 7);
    expect(geo[1]).toBeCloseTo(points[100]!.longitudeDeg, 7);
  });

  it('names missing CSV columns and lists the ones there are', () => {
    expect(() => parseCsvTrack('when,lat,lon\n1,2,3\n')).toThrow(/no time column .*columns are: when, lat, lon/);
    expect(parseCsvTrack('when,y,x\n1,2,3\n', { time: 'when', latitude: 'y', longitude: 'x' })).toEqual([
      { timeSeconds: 1, latitudeDeg: 2, longitudeDeg: 3, heightM: 0, headingDeg: undefined },
    ]);
  });

  it('reads the REGA helicopter ADS-B track: positions timed by last_position, altitude in feet', async () => {
    const json = JSON.parse(gunzipSync(readFileSync(HELICOPTER)).toString('utf8')) as Array<Record<string, number>>;
    const points = parseAdsbTrack(json);
    expect(points.length).toBeGreaterThan(300);
    expect(points.length).toBeLessThanOrEqual(json.length);
    expect(points[0]).toMatchObject({ timeSeconds: json[0]!.last_position! / 1000, latitudeDeg: json[0]!.latitude, heightM: 2175 * 0.3048 });
    for (let i = 1; i < points.length; i++) expect(points[i]!.timeSeconds).toBeGreaterThan(points[i - 1]!.timeSeconds);

    const heli = await loadTrack(HELICOPTER);
    const s = createTruthState();
    let maxAcceleration = 0;
    let maxSpeed = 0;
    for (let t = 0; t < heli.durationSeconds; t += 0.5) {
      heli.sample(t, s);
      maxAcceleration = Math.max(maxAcceleration, Math.hypot(...s.linearAcceleration));
      maxSpeed = Math.max(maxSpeed, Math.hypot(...s.linearVelocity));
    }
    // Ground speed in the file peaks near 130 kt ≈ 67 m/s; smoothing keeps accelerations physical (< 1.5 g).
    expect(maxSpeed).toBeGreaterThan(50);
    expect(maxSpeed).toBeLessThan(80);
    expect(maxAcceleration).toBeLessThan(15);
  });

  it('reads GPX track points', () => {
    const gpx = `<gpx><trk><trkseg>
      <trkpt lat="47.1" lon="8.5"><ele>400</ele><time>2020-01-01T00:00:00Z</time></trkpt>
      <trkpt lon="8.501" lat='47.1'><time>2020-01-01T00:00:10Z</time><ele>401.5</ele></trkpt>
    </trkseg></trk></gpx>`;
    const points = parseGpxTrack(gpx);
    expect(points).toEqual([
      { timeSeconds: 1577836800, latitudeDeg: 47.1, longitudeDeg: 8.5, heightM: 400 },
      { timeSeconds: 1577836810, latitudeDeg: 47.1, longitudeDeg: 8.501, heightM: 401.5 },
    ]);
    const track = recordedTrajectory('gpx', points);
    const s = createTruthState();
    track.sample(5, s);
    // 0.001° of longitude at 47.1° N is ≈ 76 m, covered in 10 s.
    expect(Math.hypot(...s.linearVelocity)).toBeGreaterThan(7);
    expect(Math.hypot(...s.linearVelocity)).toBeLessThan(8.5);
  });

  it('takes a DIS entity’s Entity State PDUs from a capture as truth', () => {
    const bytes = readFileSync(fixture('dis/dis7_vrforces_gaz69_90deg_turn.pcap'));
    const points = parseDisCaptureTrack(bytes);
    // The moving GAZ-69 (1:3001:54), not the static entity.
    expect(points).toEqual(parseDisCaptureTrack(bytes, '1:3001:54'));
    expect(points.length).toBeGreaterThan(10);
    expect(() => parseDisCaptureTrack(bytes, '9:9:9')).toThrow(/entity 9:9:9.*1:3001:54/);
  });
});
