// The figures of docs/recorded-tracks.md's "Before and after" table: each shared recording of test/fixtures loaded
// as the default does (`loadTracks`, every recording of the file), its truth sampled at 60 Hz (largest speed,
// acceleration and turn rate) and an experiment with the default settings run on each recording (orientation error
// p95, the largest over the file's recordings). `npx tsx scripts/recorded-tracks-figures.ts [ROOT]` measures the
// sources under ROOT (default: this checkout), so that an older checkout's sources can be measured the same way.
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = resolve(process.argv[2] ?? new URL('..', import.meta.url).pathname);
const here = new URL('..', import.meta.url).pathname;
const fixture = (path: string) => resolve(here, 'test/fixtures', path);

/** The shared recordings: file, and the entity of a DIS capture. */
const FILES: ReadonlyArray<readonly [string, string?]> = [
  ['tracks/aircraft_adsb_dreamliner_airfrance.json.gz'],
  ['tracks/aircraft_adsb_calfire_firefighting.json.gz'],
  ['tracks/glider_adsb_sisteron.json.gz'],
  ['tracks/aircraft_adsb_noisy_time_issue.json.gz'],
  ['tracks/aircraft_adsb_noisy_takeoff_columns.json.gz'],
  ['tracks/helicopter_traffic_rega_zh.json.gz'],
  ['tracks/ship_signalk_aava_ownship_1hz_derived.csv'],
  ['dis/dis5_kdis_vrforces_hind_vs_m1a2.pcap', '1:3001:18'],
  ['dis/dis5_kdis_vrforces_hind_vs_m1a2.pcap', '1:3001:15'],
  ['dis/dis7_vrforces_gaz69_90deg_turn.pcap', '1:3001:54'],
];

const RATE_HZ = 60;

type Sample = { location: Float64Array; linearVelocity: Float64Array; worldToBody: Float64Array };
type Track = {
  trajectory: { durationSeconds: number; sample(t: number, out: Sample): unknown };
  segment: { index: number };
};

const truthModule = (await import(pathToFileURL(resolve(root, 'src/truth/index.ts')).href)) as {
  loadTracks(path: string, options: object): Promise<Track[]>;
  TrackError: new (...args: never[]) => Error & { problems: readonly string[] };
};
const { createTruthWithAttitude } = (await import(pathToFileURL(resolve(root, 'src/truth/trajectory.ts')).href)) as {
  createTruthWithAttitude(): Sample;
};
const { runExperiment } = (await import(pathToFileURL(resolve(root, 'src/experiment/runner.ts')).href)) as {
  runExperiment(spec: unknown): Promise<{ metrics: { orientationErrorDeg: { p95: number } } }>;
};
const { planExperiment } = (await import(pathToFileURL(resolve(root, 'src/experiment/sweep.ts')).href)) as {
  planExperiment(input: unknown): { runs: Array<{ spec: unknown }> };
};

/** The angle of the rotation between two world-to-body matrices, rad. */
function angleBetween(a: Float64Array, b: Float64Array): number {
  let trace = 0;
  for (let i = 0; i < 3; i++) for (let k = 0; k < 3; k++) trace += a[3 * i + k]! * b[3 * i + k]!;
  return Math.acos(Math.min(1, Math.max(-1, (trace - 1) / 2)));
}

/** Largest speed, acceleration and turn rate of a trajectory sampled at RATE_HZ. */
function measure(track: Track): { speed: number; acceleration: number; turn: number } {
  const s = createTruthWithAttitude();
  const previousVelocity = new Float64Array(3),
    previousRotation = new Float64Array(9);
  let speed = 0,
    acceleration = 0,
    turn = 0;
  const steps = Math.floor(track.trajectory.durationSeconds * RATE_HZ);
  for (let i = 0; i <= steps; i++) {
    track.trajectory.sample(i / RATE_HZ, s);
    const v = s.linearVelocity;
    speed = Math.max(speed, Math.hypot(v[0]!, v[1]!, v[2]!));
    if (i > 0) {
      const p = previousVelocity;
      acceleration = Math.max(acceleration, Math.hypot(v[0]! - p[0]!, v[1]! - p[1]!, v[2]! - p[2]!) * RATE_HZ);
      turn = Math.max(turn, angleBetween(s.worldToBody, previousRotation) * RATE_HZ);
    }
    previousVelocity.set(v);
    previousRotation.set(s.worldToBody);
  }
  return { speed, acceleration, turn: (turn * 180) / Math.PI };
}

const fmt = (x: number) => (x >= 100 ? String(Math.round(x)) : x.toPrecision(2));

for (const [file, entity] of FILES) {
  const path = fixture(file);
  let name = `${file
    .split('/')
    .pop()!
    .replace(/\.(json\.gz|csv|pcap)$/, '')}${entity ? ` ${entity}` : ''}`;
  const options = entity === undefined ? { segment: 'all' } : { entity };
  let tracks: Track[];
  try {
    tracks = await truthModule.loadTracks(path, options);
  } catch (error) {
    if (!(error instanceof truthModule.TrackError)) throw error;
    console.log(`${name}\trefused: ${error.problems.length} problems`);
    // What the only way through gave: the kind that allows any speed.
    try {
      tracks = await truthModule.loadTracks(path, { ...options, kind: 'space' });
    } catch {
      continue;
    }
    name += ' as space';
  }
  let speed = 0,
    acceleration = 0,
    turn = 0,
    p95 = 0,
    notes = 0;
  const dropped = new Set<string>(),
    repaired = new Set<string>();
  for (const track of tracks) {
    const m = measure(track);
    speed = Math.max(speed, m.speed);
    acceleration = Math.max(acceleration, m.acceleration);
    turn = Math.max(turn, m.turn);
    notes += (track.trajectory as { notes?: readonly string[] }).notes?.length ?? 0;
    for (const r of (track as { repairs?: ReadonlyArray<{ fix: number; dropped: boolean }> }).repairs ?? []) {
      (r.dropped ? dropped : repaired).add(`${track.segment.index} ${r.fix}`);
    }
    if (track.trajectory.durationSeconds < 1) continue;
    const trajectory = {
      type: 'recorded',
      file: path,
      ...(name.endsWith(' as space') ? { kind: 'space' } : {}),
      ...(entity ? { entity } : { segment: track.segment.index }),
    };
    const spec = planExperiment({ trajectory, durationSeconds: track.trajectory.durationSeconds }).runs[0]!.spec;
    p95 = Math.max(p95, (await runExperiment(spec)).metrics.orientationErrorDeg.p95);
  }
  console.log(
    `${name}\t${tracks.length} recordings, ${notes} notes, ${dropped.size} dropped, ${[...repaired].filter((f) => !dropped.has(f)).length} repaired\t${fmt(speed)} m/s\t${fmt(acceleration)} m/s²\t${fmt(turn)} °/s\t${fmt(p95)}°`,
  );
}
