// Real ADS-B recordings as OpenSky serves them: held positions and reports, catch-up jumps, altitude steps. By default
// each is repaired or dropped and named by row, and the truth flies no faster than the aircraft reported and turns no
// harder than it can; strict checking refuses them; a track that is mostly off is still refused.
import { readFileSync, writeFileSync } from 'node:fs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { createTruthState } from '../../src/dr/owner/truth-state.js';
import { ecefToGeodeticDegrees } from '../../src/math/geodesy.js';
import { TrackError, kindFromFixes, loadTracks, parseAdsbTrack, type RecordedTrack } from '../../src/truth/index.js';

const fixture = (path: string) => new URL(`../fixtures/tracks/${path}`, import.meta.url).pathname;
const DREAMLINER = fixture('aircraft_adsb_dreamliner_airfrance.json.gz');
const TIME_ISSUE = fixture('aircraft_adsb_noisy_time_issue.json.gz');
const TAKEOFF = fixture('aircraft_adsb_noisy_takeoff_columns.json.gz');
const SHIP = fixture('ship_signalk_aava_ownship_1hz_derived.csv');
const HELICOPTER = fixture('helicopter_traffic_rega_zh.json.gz');
/** Every ADS-B recording of test/fixtures/tracks (test/fixtures/SOURCES.md). */
const ADSB = [
  DREAMLINER,
  fixture('aircraft_adsb_calfire_firefighting.json.gz'),
  fixture('glider_adsb_sisteron.json.gz'),
  TIME_ISSUE,
  TAKEOFF,
  HELICOPTER,
];
type Raw = Record<string, number | string | null>;
const json = (path: string): unknown => JSON.parse(gunzipSync(readFileSync(path)).toString('utf8'));

const scratch = mkdtempSync(join(tmpdir(), 'reckon-repairs-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const problemsOf = async (load: () => Promise<unknown>): Promise<readonly string[]> => {
  try {
    await load();
  } catch (error) {
    if (error instanceof TrackError) return error.problems;
    throw error;
  }
  return [];
};

/** Height of the truth at a time, feet. */
function feetAt(track: RecordedTrack, tSeconds: number): number {
  const s = createTruthState(),
    geo = new Float64Array(3);
  track.trajectory.sample(tSeconds - track.segment.points[0]!.timeSeconds, s);
  return ecefToGeodeticDegrees(geo, s.location[0]!, s.location[1]!, s.location[2]!)[2]! / 0.3048;
}

describe('the Boeing 787 of AFR787V and the test flight FWKDL, as OpenSky state vectors', () => {
  const records = json(DREAMLINER) as Raw[];
  const tracks = loadTracks(DREAMLINER, { segment: 'all' });

  it('is accepted, each held position and altitude step named by its row', async () => {
    const [airliner, test] = await tracks;
    expect(airliner!.callsign).toBe('AFR787V');
    expect(test!.callsign).toBe('FWKDL');
    const rows = (t: RecordedTrack, reason: string) => t.repairs.filter((r) => r.reason === reason).map((r) => r.row!);
    const held = [...rows(airliner!, 'held'), ...rows(test!, 'held')];
    // Each is the receiver's, not a fix: a position repeated, or the whole report (altitude, ground speed, track and
    // vertical rate) repeated while the aircraft flew on, its position the receiver's extrapolation.
    expect(held.length).toBeGreaterThan(250);
    for (const row of held) {
      const [before, it] = [records[row - 2]!, records[row - 1]!];
      const repeated = it.latitude === before.latitude && it.longitude === before.longitude;
      const report = ['altitude', 'groundspeed', 'track', 'vertical_rate'].every((k) => it[k] === before[k]);
      expect(repeated || report, `row ${row}`).toBe(true);
      expect(it.groundspeed as number, `row ${row}`).toBeGreaterThan(100);
    }
    // Rows 2027–2054: 30,650 ft one second after 32,599 ft, held while the aircraft descended through it at
    // 4,000–5,000 ft/min. The truth descends smoothly between row 2026 and row 2055 (30,625 ft).
    expect(rows(airliner!, 'height-step')).toEqual(expect.arrayContaining([2027, 2040, 2054]));
    const time = (row: number) => (records[row - 1]!.timestamp as number) / 1000;
    let previous = Number.POSITIVE_INFINITY;
    for (let row = 2026; row <= 2055; row++) {
      const feet = feetAt(airliner!, time(row));
      const linear = 32_599 + ((30_625 - 32_599) * (row - 2026)) / (2055 - 2026);
      expect(Math.abs(feet - linear), `row ${row}`).toBeLessThan(250);
      expect(feet).toBeLessThan(previous);
      previous = feet;
    }
    // Rows 2403 and 2404: 2.5 km back, then 5 km: jumps, dropped.
    const jumps = airliner!.repairs.filter((r) => r.reason === 'jump');
    expect(jumps.find((r) => r.row === 2404)).toMatchObject({ dropped: true, distanceM: expect.closeTo(5065, -2) });
    expect(airliner!.trajectory.notes).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^\d+ held positions \(rows 528, 731, 732, .* and \d+ more\): repeated, or extrapolated/),
        expect.stringMatching(/^\d+ jumps \(rows 2403, 2404, .*; up to 5\.1 km off\): positions the track could not/),
        expect.stringMatching(/^\d+ altitude steps \(rows /),
      ]),
    );
  });

  it('is refused when strict, naming the rows', async () => {
    const problems = await problemsOf(() => loadTracks(DREAMLINER, { segment: 'all', strict: true }));
    expect(problems[0]).toMatch(/^segment 1: row \d+: \d+ m\/s from row \d+/);
  });
});

describe('every shared ADS-B recording', () => {
  it.each(ADSB.map((path) => [path.split('/').pop()!, path]))(
    '%s: accepted, never faster than 1.15 × the fastest ground speed it reports, never above 50 m/s²',
    async (_name, path) => {
      const tracks = await loadTracks(path, { segment: 'all' });
      const fastest = Math.max(...tracks.flatMap((t) => t.segment.points.map((p) => p.groundSpeedMps ?? 0)));
      const s = createTruthState();
      const previous = new Float64Array(3);
      const step = 0.5;
      let speed = 0,
        acceleration = 0;
      for (const { trajectory } of tracks) {
        for (let i = 0; i * step <= trajectory.durationSeconds; i++) {
          trajectory.sample(i * step, s);
          const v = s.linearVelocity;
          speed = Math.max(speed, Math.hypot(v[0]!, v[1]!, v[2]!));
          acceleration = Math.max(acceleration, Math.hypot(...s.linearAcceleration));
          if (i > 0) {
            const dv = Math.hypot(v[0]! - previous[0]!, v[1]! - previous[1]!, v[2]! - previous[2]!);
            acceleration = Math.max(acceleration, dv / step);
          }
          previous.set(v);
        }
      }
      expect(fastest).toBeGreaterThan(30);
      expect(speed / fastest).toBeLessThanOrEqual(1.15);
      expect(acceleration).toBeLessThanOrEqual(50);
    },
  );
});

describe('receiver glitches of the noisy recordings', () => {
  it('noisy_time_issue: its fixes decoded off the track are repaired, the part that is off named', async () => {
    const [track] = await loadTracks(TIME_ISSUE);
    expect(track!.kind).toBe('air');
    expect(track!.segmentCount).toBe(1);
    // The fifteen the earlier glitch filter dropped whole (twelve alone, three in a row) are repaired: row 6022's
    // 33,025 ft in a cruise at 35,800 ft is its height alone, its position is used.
    const repaired = track!.repairs.map((r) => r.row);
    expect(repaired).toEqual(
      expect.arrayContaining([
        6022, 6037, 6427, 6705, 6895, 7065, 7092, 7158, 7172, 7232, 7346, 7433, 7444, 7445, 7446,
      ]),
    );
    expect(track!.repairs.filter((r) => r.row === 6022)).toEqual([expect.objectContaining({ reason: 'height-step' })]);
    expect(track!.trajectory.durationSeconds).toBeGreaterThan(8000);
  });

  it('noisy_takeoff as pandas writes it: its callsign, and two 38,000 ft replies in a climb not flown', async () => {
    const columns = json(TAKEOFF) as Record<string, Record<string, unknown>>;
    const points = parseAdsbTrack(columns);
    expect(points[0]).toMatchObject({
      timeSeconds: 1573493734.888,
      latitudeDeg: 47.4566459656,
      heightM: 1525 * 0.3048,
      callsign: 'AFR181L',
      row: 1,
    });
    // On the ground most records have no altitude: they are not measured (not 0, not the last one repeated).
    expect(points.filter((p) => p.heightM === undefined).length).toBeGreaterThan(50);
    const [track] = await loadTracks(TAKEOFF);
    expect(track!.callsign).toBe('AFR181L');
    const heights = track!.repairs.filter((r) => r.reason.startsWith('height')).map((r) => r.row);
    expect(heights).toEqual(expect.arrayContaining([624, 709]));
    let highest = 0;
    for (let t = 0; t < track!.trajectory.durationSeconds; t += 1) {
      highest = Math.max(highest, feetAt(track!, track!.segment.points[0]!.timeSeconds + t));
    }
    expect(highest).toBeLessThan(25_000);
  });

  it('refuses a track that is mostly off, and a file that is not ADS-B at all', async () => {
    // Every other fix 20 km off a northbound line: half of them cannot be the vehicle.
    const rows = Array.from({ length: 40 }, (_, i) => `${i},${47 + (10 * i) / 111_200},${8 + (i % 2) * 0.3}`);
    const path = join(scratch, 'zigzag.csv');
    writeFileSync(path, `time,lat,lon\n${rows.join('\n')}\n`);
    const problems = await problemsOf(() => loadTracks(path, { kind: 'ground' }));
    expect(problems).toEqual([expect.stringMatching(/^\d+ of 40 fixes over 39 s are not a track of a ground vehicle/)]);
    const columns = join(scratch, 'x.json');
    writeFileSync(columns, '{"a": {"0": 1}}');
    await expect(problemsOf(() => loadTracks(columns))).resolves.toEqual([
      'an ADS-B object of columns needs a latitude column; it has a',
    ]);
  });
});

describe('the kind of a CSV or GPX track, from its motion', () => {
  it('calls a yacht at 3.4 m/s at sea level ground, and an aircraft air', () => {
    const ship = kindFromFixes(
      readFileSync(SHIP, 'utf8')
        .split('\n')
        .slice(1, 200)
        .map((line, i) => {
          const [, lat, lon] = line.split(',');
          return { timeSeconds: i, latitudeDeg: Number(lat), longitudeDeg: Number(lon) };
        }),
    );
    expect(ship).toEqual({ kind: 'ground', reason: expect.stringMatching(/^ground, as it does not fly/) });
    expect(kindFromFixes(parseAdsbTrack(json(HELICOPTER))).kind).toBe('air');
  });
});
