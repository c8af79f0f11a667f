// Real recordings with receiver glitches: isolated implausible fixes are dropped and named, a track that is mostly
// implausible is refused, strict checking refuses any. ADS-B as pandas writes it (an object of columns) is read.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { createTruthState } from '../../src/dr/truth-state.js';
import { ecefToGeodeticDegrees } from '../../src/math/geodesy.js';
import {
  TrackError,
  checkFixes,
  dropGlitches,
  kindFromFixes,
  loadTracks,
  parseAdsbTrack,
  type TrackPoint,
} from '../../src/truth/index.js';

const fixture = (path: string) => new URL(`../fixtures/${path}`, import.meta.url).pathname;
const TIME_ISSUE = fixture('tracks/aircraft_adsb_noisy_time_issue.json.gz');
const TAKEOFF = fixture('tracks/aircraft_adsb_noisy_takeoff_columns.json.gz');
const SHIP = fixture('tracks/ship_signalk_aava_ownship_1hz_derived.csv');
const HELICOPTER = fixture('tracks/helicopter_traffic_rega_zh.json.gz');
const json = (path: string): unknown => JSON.parse(gunzipSync(readFileSync(path)).toString('utf8'));

const scratch = mkdtempSync(join(tmpdir(), 'reckon-glitches-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const trackFile = (name: string, text: string) => {
  const path = join(scratch, name);
  writeFileSync(path, text);
  return path;
};
const problemsOf = async (load: () => Promise<unknown>): Promise<readonly string[]> => {
  try {
    await load();
  } catch (error) {
    if (error instanceof TrackError) return error.problems;
    throw error;
  }
  return [];
};

/** Fixes at 1 Hz heading north at 50 m/s from 47° N 8° E, with the given fixes moved `jumpM` east. */
function northbound(count: number, glitches: readonly number[], jumpM = 2000): TrackPoint[] {
  return Array.from({ length: count }, (_, i) => ({
    timeSeconds: i,
    latitudeDeg: 47 + (50 * i) / 111_200,
    longitudeDeg: 8 + (glitches.includes(i) ? jumpM / 75_800 : 0),
    row: i + 2,
  }));
}

describe('dropGlitches', () => {
  it('drops an isolated fix, and a run of two, that the fixes around agree against', () => {
    const result = dropGlitches(northbound(20, [5, 11, 12]), 'air');
    expect(result.dropped.map((p) => p.row)).toEqual([7, 13, 14]);
    expect(result.kept).toHaveLength(17);
    expect(checkFixes(result.kept, 'air')).toEqual([]);
  });

  it('drops a first fix that the following fixes agree against', () => {
    expect(dropGlitches(northbound(10, [0]), 'air').dropped.map((p) => p.row)).toEqual([2]);
  });

  it('keeps a jump that the fixes after it agree with, for checkFixes to report', () => {
    const step = northbound(20, [10, 11, 12, 13, 14, 15, 16, 17, 18, 19]);
    const result = dropGlitches(step, 'air');
    expect(result.dropped).toEqual([]);
    expect(checkFixes(result.kept, 'air')).toEqual([expect.stringMatching(/^row 12: \d+ m\/s from row 11/)]);
  });

  it('keeps a jump within the speed of the kind', () => {
    expect(dropGlitches(northbound(20, [5], 300), 'air').dropped).toEqual([]);
    expect(dropGlitches(northbound(20, [5], 300), 'ground').dropped.map((p) => p.row)).toEqual([7]);
  });
});

describe('real ADS-B recordings with receiver glitches', () => {
  it('reads noisy_time_issue: repeats dropped, 15 glitches dropped and named, not refused', async () => {
    // The receiver repeated stale positions with new times (8,294 records, 6,406 positions) and decoded 15 fixes
    // kilometres off the track (twelve alone, three in a row), each run followed by a fix back on it.
    const points = parseAdsbTrack(json(TIME_ISSUE));
    expect(points).toHaveLength(6406);
    const [track] = await loadTracks(TIME_ISSUE);
    expect(track!.kind).toBe('air');
    expect(track!.dropped.map((p) => p.row)).toEqual([
      6022, 6037, 6427, 6705, 6895, 7065, 7092, 7158, 7172, 7232, 7346, 7433, 7444, 7445, 7446,
    ]);
    expect(track!.segmentCount).toBe(1);
    expect(track!.trajectory.durationSeconds).toBeGreaterThan(8000);
    expect(track!.trajectory.notes).toEqual([
      expect.stringMatching(
        /^dropped 15 implausible fixes \(rows 6022, 6037, 6427, 6705, 6895, 7065, 7092, 7158, 7172, 7232 and 5 more\): each faster than an aircraft can move \(700 m\/s\)/,
      ),
    ]);
    // Nowhere on the trajectory does the aircraft fly faster than an airliner.
    const s = createTruthState();
    let fastest = 0;
    for (let t = 0; t < track!.trajectory.durationSeconds; t += 1) {
      track!.trajectory.sample(t, s);
      fastest = Math.max(fastest, Math.hypot(...s.linearVelocity));
    }
    expect(fastest).toBeLessThan(320);
  });

  it('refuses it when strict, naming the rows', async () => {
    const problems = await problemsOf(() => loadTracks(TIME_ISSUE, { strict: true }));
    expect(problems[0]).toMatch(/^row 6022: \d+ m\/s from row 6021 \(\d+ m in 1 s\) is faster than an aircraft/);
    expect(problems).toHaveLength(21);
  });

  it('reads noisy_takeoff as pandas writes it: a JSON object of columns, its callsign, no 0 ft altitudes', async () => {
    const columns = json(TAKEOFF) as Record<string, Record<string, unknown>>;
    const points = parseAdsbTrack(columns);
    expect(points.length).toBeGreaterThan(500);
    expect(points[0]).toMatchObject({
      timeSeconds: 1573493734.888,
      latitudeDeg: 47.4566459656,
      heightM: 1525 * 0.3048,
      callsign: 'AFR181L',
      row: 1,
    });
    // On the ground the altitude is missing in most records: the last one reported stands, not sea level.
    const onGround = points.filter((p) => p.timeSeconds < 1573493900);
    expect(Math.min(...onGround.map((p) => p.heightM!))).toBe(1525 * 0.3048);

    const [track] = await loadTracks(TAKEOFF);
    expect(track!.callsign).toBe('AFR181L');
    // Two altitude replies of 38,000 ft in a climb through 17,700 and 21,000 ft.
    expect(track!.dropped.map((p) => p.row)).toEqual([624, 709]);
    const s = createTruthState(),
      geo = new Float64Array(3);
    let highest = 0;
    for (let t = 0; t < track!.trajectory.durationSeconds; t += 1) {
      track!.trajectory.sample(t, s);
      highest = Math.max(highest, ecefToGeodeticDegrees(geo, s.location[0]!, s.location[1]!, s.location[2]!)[2]!);
    }
    expect(highest / 0.3048).toBeLessThan(25_000);
  });

  it('refuses a track that is mostly implausible, or not ADS-B at all', async () => {
    // Two fixes on a northbound line, then three 2 km off it: 21 of the 24 off it are dropped, the last run kept.
    const mostly = northbound(
      40,
      [...Array(40).keys()].filter((i) => i % 5 >= 2),
    )
      .map((p) => `${p.timeSeconds},${p.latitudeDeg},${p.longitudeDeg}`)
      .join('\n');
    const problems = await problemsOf(() =>
      loadTracks(trackFile('mostly.csv', `time,lat,lon\n${mostly}\n`), { kind: 'ground' }),
    );
    expect(problems).toEqual([
      expect.stringMatching(/^21 of 40 fixes over 39 s jump faster than a ground vehicle can move \(100 m\/s\)/),
    ]);
    // Every other fix off the line: nothing agrees, so every jump is listed.
    const zigzag = Array.from({ length: 40 }, (_, i) => `${i},47,${8 + (i % 2) * 0.3}`).join('\n');
    const listed = await problemsOf(() => loadTracks(trackFile('zigzag.csv', `time,lat,lon\n${zigzag}\n`)));
    expect(listed[0]).toMatch(/^row 3: 23 km\/s from row 2/);
    await expect(problemsOf(() => loadTracks(trackFile('x.json', '{"a": {"0": 1}}')))).resolves.toEqual([
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
    const heli = kindFromFixes(parseAdsbTrack(json(HELICOPTER)));
    expect(heli.kind).toBe('air');
  });
});
