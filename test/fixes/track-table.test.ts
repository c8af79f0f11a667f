// The track table: real ADS-B glitches rejected by the gate (OpenSky data with 118 jumps faster than 700 m/s),
// extrapolation through a gap, stale tracks, the bound on tracks, stable entity numbers, the altitude band, and
// records kept as the truth they are.
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { createTruthState } from '../../src/dr/owner/truth-state.js';
import {
  Fix,
  FIX_GROUND_VELOCITY,
  FIX_HEIGHT,
  FIX_LEAVE,
  FIX_POSITION,
  FIX_VELOCITY,
  FIX_VERTICAL_RATE,
  GatedKalmanTracks,
  KeySpace,
  MAX_TRACKS,
  TRACK_GLITCH,
  TRACK_LEFT,
  TRACK_MOVED,
  TRACK_NEW,
  TRACK_REFUSED,
  TrackTable,
} from '../../src/fixes/index.js';
import { ecefToEnuMatrix, ecefToGeodeticDegrees, geodeticDegreesToEcef } from '../../src/math/geodesy.js';

const FEET = 0.3048;
const KNOTS = 1852 / 3600;

function positionFix(fix: Fix, key: number, lat: number, lon: number, heightM?: number): Fix {
  fix.clear();
  fix.keySpace = KeySpace.ICAO;
  fix.key = key;
  fix.latitudeDeg = lat;
  fix.longitudeDeg = lon;
  fix.flags |= FIX_POSITION;
  if (heightM !== undefined) {
    fix.heightM = heightM;
    fix.flags |= FIX_HEIGHT;
  }
  return fix;
}

describe('the gate on a real track: OpenSky ADS-B of 4b1815 out of Porto, with its receiver glitches', () => {
  const records = JSON.parse(
    gunzipSync(
      readFileSync(new URL('../fixtures/tracks/aircraft_adsb_noisy_time_issue.json.gz', import.meta.url)),
    ).toString(),
  ) as Array<{
    timestamp: number;
    latitude: number;
    longitude: number;
    altitude: number | null;
    groundspeed: number;
    track: number;
    vertical_rate: number;
  }>;

  it('rejects the jumps and the repeats: the estimate moves no faster than the aircraft reports but to re-acquire it', () => {
    const estimator = new GatedKalmanTracks();
    const table = new TrackTable({ estimator });
    const fix = new Fix();
    const truth = createTruthState();
    let glitches = 0;
    let previous: { t: number; x: number; y: number; z: number; restarts: number } | undefined;
    let fastest = 0;
    let reported = 0;
    for (const r of records) {
      const t = r.timestamp / 1000;
      positionFix(fix, 0x4b1815, r.latitude, r.longitude, r.altitude === null ? undefined : r.altitude * FEET);
      fix.groundSpeedMps = r.groundspeed * KNOTS;
      fix.trackDeg = r.track;
      fix.verticalRateMps = (r.vertical_rate * FEET) / 60;
      fix.flags |= FIX_GROUND_VELOCITY | FIX_VERTICAL_RATE;
      reported = Math.max(reported, fix.groundSpeedMps);
      const changes = table.apply(fix, 0, t, t);
      if (changes & TRACK_GLITCH) glitches++;
      const track = table.lastTrack!;
      table.truthAt(track, t, truth);
      const [x, y, z] = truth.location as unknown as [number, number, number];
      const restarts = estimator.restarts;
      if (previous && t - previous.t >= 1 && restarts === previous.restarts) {
        fastest = Math.max(fastest, Math.hypot(x - previous.x, y - previous.y, z - previous.z) / (t - previous.t));
      }
      previous = { t, x, y, z, restarts };
    }
    // Positions repeated while the aircraft flies on are not measured, jumps are rejected. OpenSky dates these
    // positions by its state vectors' second, at times seconds late: a stretch of them disagrees with the reported
    // velocity, and the track starts again where its rejected fixes agree — 19 times in 141 minutes.
    expect(table.stats.repeats).toBeGreaterThan(1500);
    expect(glitches).toBeGreaterThanOrEqual(100);
    expect(table.stats.glitches).toBe(glitches);
    expect(estimator.restarts).toBeLessThanOrEqual(25);
    expect(fastest).toBeLessThan(1.15 * reported);
  });
});

describe('the gate on sparse fixes of a turning aircraft: the readsb trace of N899DN (test/fixtures/feeds/)', () => {
  it('accepts what the aircraft could have flown since the last fix, and still rejects a jump a second later', () => {
    const trace = JSON.parse(
      gunzipSync(
        readFileSync(new URL('../fixtures/feeds/adsb_readsb_trace_full_ac671b.json.gz', import.meta.url)),
      ).toString(),
    ) as { trace: Array<[number, number, number, number | 'ground', number | null, number | null]> };
    const table = new TrackTable();
    const fix = new Fix();
    let glitches = 0;
    // Its first six rows: 32,000 ft, 248 m/s, turning from 328° to 341° at up to 1°/s, 4–16 s apart.
    for (const [t, lat, lon, alt, gs, track] of trace.trace.slice(0, 6)) {
      positionFix(fix, 0xac671b, lat, lon, (alt as number) * FEET);
      fix.groundSpeedMps = gs! * KNOTS;
      fix.trackDeg = track!;
      fix.flags |= FIX_GROUND_VELOCITY;
      if (table.apply(fix, 0, t, t) & TRACK_GLITCH) glitches++;
    }
    expect(glitches).toBe(0);
    const [t, lat, lon] = trace.trace[5]!;
    // 1 s on, 1.1 km east of its path: no airliner does that.
    const changes = table.apply(positionFix(fix, 0xac671b, lat + 0.0022, lon + 0.01, 32000 * FEET), 0, t + 1, t + 1);
    expect(changes & TRACK_GLITCH).toBe(TRACK_GLITCH);
  });
});

describe('the gate on a synthetic flight with known truth', () => {
  it('keeps within metres of a turning aircraft through 8 m noise, and rejects every jump of a kilometre or more', () => {
    const table = new TrackTable();
    const fix = new Fix();
    const truth = createTruthState();
    let seed = 7;
    const random = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
    const gauss = () => Math.sqrt(-2 * Math.log(random() + 1e-12)) * Math.cos(2 * Math.PI * random());
    const misses: number[] = [];
    let jumps = 0;
    let glitches = 0;
    // 230 m/s on a 20 km circle in the tangent plane 10 km above 45° N 7° E (a standard-rate turn is tighter),
    // positions at 2 Hz and ground velocities, 10 minutes. Each truth is exact: the plane's point through ECEF.
    const origin = geodeticDegreesToEcef(new Float64Array(3), 45, 7, 10_000);
    const toEnu = ecefToEnuMatrix(new Float64Array(9), (45 * Math.PI) / 180, (7 * Math.PI) / 180);
    const there = new Float64Array(3),
      geo = new Float64Array(3),
      enuThere = new Float64Array(9);
    for (let k = 0; k < 1200; k++) {
      const t = k / 2;
      const angle = (230 * t) / 20_000;
      const e = 20_000 * Math.sin(angle),
        n = 20_000 * (1 - Math.cos(angle));
      const ve = 230 * Math.cos(angle),
        vn = 230 * Math.sin(angle);
      for (let c = 0; c < 3; c++) there[c] = origin[c]! + toEnu[c]! * e + toEnu[3 + c]! * n;
      ecefToGeodeticDegrees(geo, there[0]!, there[1]!, there[2]!);
      const [lat, lon, height] = geo as unknown as [number, number, number];
      // The velocity east-north at the aircraft, as its ADS-B reports it.
      ecefToEnuMatrix(enuThere, (lat * Math.PI) / 180, (lon * Math.PI) / 180);
      const vx = toEnu[0]! * ve + toEnu[3]! * vn,
        vy = toEnu[1]! * ve + toEnu[4]! * vn,
        vz = toEnu[2]! * ve + toEnu[5]! * vn;
      const east = enuThere[0]! * vx + enuThere[1]! * vy + enuThere[2]! * vz;
      const north = enuThere[3]! * vx + enuThere[4]! * vy + enuThere[5]! * vz;
      const jump = k > 20 && random() < 0.02;
      if (jump) jumps++;
      const noise = jump ? 1000 + 9000 * random() : 8;
      positionFix(
        fix,
        0x3c4d5e,
        lat + (noise * gauss()) / 111_132,
        lon + (noise * gauss()) / 78_850,
        height + 8 * gauss(),
      );
      fix.groundSpeedMps = Math.hypot(east, north) + 0.5 * gauss();
      fix.trackDeg = ((((Math.atan2(east, north) * 180) / Math.PI) % 360) + 360) % 360;
      fix.flags |= FIX_GROUND_VELOCITY;
      const changes = table.apply(fix, 0, t, t);
      if (changes & TRACK_GLITCH) glitches++;
      if (k < 20) continue;
      table.truthAt(table.lastTrack!, t, truth);
      misses.push(
        Math.hypot(truth.location[0]! - there[0]!, truth.location[1]! - there[1]!, truth.location[2]! - there[2]!),
      );
    }
    misses.sort((a, b) => a - b);
    expect(jumps).toBeGreaterThan(10);
    expect(glitches).toBe(jumps);
    expect(misses[Math.floor(0.95 * misses.length)]).toBeLessThan(15);
    expect(misses.at(-1)).toBeLessThan(40);
  });
});

describe('tracks', () => {
  it("extrapolate through a loss of signal and become stale after their key space's time", () => {
    const table = new TrackTable();
    const fix = new Fix();
    for (let i = 0; i < 10; i++) {
      positionFix(fix, 0xabc123, 50 + i * 0.001, 8, 3000); // 111 m/s north
      table.apply(fix, 0, i, i);
    }
    const track = table.lastTrack!;
    const truth = createTruthState();
    table.truthAt(track, 19, truth);
    const geo = ecefToGeodeticDegrees(new Float64Array(3), truth.location[0]!, truth.location[1]!, truth.location[2]!);
    expect(geo[0]).toBeCloseTo(50.019, 3); // 10 s on at the same speed
    expect(table.isStale(track, 9 + 60)).toBe(false);
    expect(table.isStale(track, 9 + 61)).toBe(true);
    // Vessels are given ten minutes, records forever.
    expect(new TrackTable({ staleSeconds: 5 }).isStale(track, 15)).toBe(true);
  });

  it('are bounded: past the capacity a vehicle is refused and counted; a track removed frees its place', () => {
    const table = new TrackTable({ capacity: 100 });
    const fix = new Fix();
    const numbers = new Set<number>();
    for (let k = 0; k < 1000; k++) {
      const changes = table.apply(positionFix(fix, k, 10, 10), 0, 0, 0);
      if (k < 100) {
        expect(changes & TRACK_NEW).toBe(TRACK_NEW);
        numbers.add(table.lastTrack!.entityNumber);
      } else expect(changes).toBe(TRACK_REFUSED);
    }
    expect(numbers.size).toBe(100);
    expect(table.size).toBe(100);
    expect(table.stats.refused).toBe(900);
    table.remove(table.trackOfEntity([...numbers][0]!)!);
    expect(table.apply(positionFix(fix, 5000, 10, 10), 0, 1, 1) & TRACK_NEW).toBe(TRACK_NEW);
    expect(MAX_TRACKS).toBe(65534);
  });

  it("keep an id's entity number from run to run (a hash of the id), and take a record's own number", () => {
    const numberOf = (id: string, entity = 0) => {
      const table = new TrackTable();
      const fix = new Fix();
      fix.keySpace = KeySpace.NAMED;
      fix.id = id;
      fix.entityNumber = entity;
      fix.flags = FIX_POSITION;
      table.apply(fix, 0, 0, 0);
      return table.lastTrack!.entityNumber;
    };
    expect(numberOf('tank-7')).toBe(numberOf('tank-7'));
    expect(numberOf('tank-7')).not.toBe(numberOf('tank-8'));
    expect(numberOf('tank-7', 42)).toBe(42);
  });

  it('leave when they fly out of the altitude band, and are not made outside it', () => {
    const table = new TrackTable({ altitudeBand: { minM: 0, maxM: 3000 } });
    const fix = new Fix();
    expect(table.apply(positionFix(fix, 1, 10, 10, 5000), 0, 0, 0)).toBe(TRACK_REFUSED);
    expect(table.apply(positionFix(fix, 2, 10, 10, 2000), 0, 0, 0) & TRACK_NEW).toBe(TRACK_NEW);
    expect(table.apply(positionFix(fix, 2, 10, 10, 3500), 0, 1, 1)).toBe(TRACK_LEFT);
    expect(table.stats.outOfBand).toBe(2);
  });

  it('keep records as the truth they are: a given ENU velocity, or the change between positions', () => {
    const table = new TrackTable();
    const fix = new Fix();
    const record = (t: number, lat: number, north?: number) => {
      fix.clear();
      fix.keySpace = KeySpace.NAMED;
      fix.id = 'ship';
      fix.latitudeDeg = lat;
      fix.longitudeDeg = 0;
      fix.heightM = 0;
      fix.flags |= FIX_POSITION | FIX_HEIGHT;
      if (north !== undefined) {
        fix.velocity.set([0, north, 0]);
        fix.velocityFrame = 'enu';
        fix.flags |= FIX_VELOCITY;
      }
      return table.apply(fix, 0, t, t);
    };
    const truth = createTruthState();
    expect(record(0, 45, 10) & TRACK_MOVED).toBe(TRACK_MOVED);
    table.truthAt(table.lastTrack!, 0, truth);
    // North at 45° N, 0° E in ECEF: (−sin 45°, 0, cos 45°).
    expect(truth.linearVelocity[0]).toBeCloseTo(-10 * Math.SQRT1_2, 9);
    expect(truth.linearVelocity[1]).toBeCloseTo(0, 9);
    expect(truth.linearVelocity[2]).toBeCloseTo(10 * Math.SQRT1_2, 9);
    // Without a velocity, the change from the record before: 0.001° of latitude (about 111 m) in 10 s: 11.1 m/s.
    record(10, 45.001);
    table.truthAt(table.lastTrack!, 10, truth);
    expect(Math.hypot(...(truth.linearVelocity as unknown as [number, number, number]))).toBeCloseTo(11.1, 1);
    // A leave is a leave.
    fix.clear();
    fix.keySpace = KeySpace.NAMED;
    fix.id = 'ship';
    fix.flags = FIX_LEAVE;
    expect(table.apply(fix, 0, 11, 11)).toBe(TRACK_LEFT);
  });
});
