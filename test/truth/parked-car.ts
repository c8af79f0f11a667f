// A car's drive logged as a phone or dashcam GPS logs it, for the tests of attitude at rest: a 1 Hz CSV of a town
// drive with traffic-light stops and three long parked stretches (796 of 1,382 fixes under 1 mph, as the drive a
// user measured), whose fixes wander with the receiver's correlated noise (a first-order Gauss-Markov process,
// 3 m horizontal and 6 m vertical over 20 s, plus 0.7 m and 1.5 m of white noise) while the car stands still.
import { createTruthState } from '../../src/dr/owner/truth-state.js';
import { ecefToGeodeticDegrees } from '../../src/math/geodesy.js';
import { createRandom } from '../../src/math/random.js';
import { pathTrajectory, stopAndGoKnots, type PathSegment, type SpeedKnot } from '../../src/truth/index.js';

const DEG = Math.PI / 180;

/** The drive's truth: parked 300 s, a 4.6 km town drive with stops, parked 220 s, driving on, parked to the end. */
export function parkedCarTruth() {
  const segments: PathSegment[] = [
    { line: 600 },
    { arc: { radius: 20, angleRad: 90 * DEG } },
    { line: 900 },
    { arc: { radius: 15, angleRad: -90 * DEG } },
    { line: 700 },
    { arc: { radius: 25, angleRad: 120 * DEG } },
    { line: 800 },
    { arc: { radius: 20, angleRad: -60 * DEG } },
    { line: 1500 },
  ];
  const lengths = segments.map((s) => ('line' in s ? s.line : s.arc.radius * Math.abs(s.arc.angleRad)));
  const total = lengths.reduce((a, b) => a + b, 0);
  const drive = stopAndGoKnots(total, [400, 1200, 2000, 2600, 3400, 4000], 13, 1.5, 2.5, 25);
  // Parked 200 s before the drive and 135 s longer at its fourth stop; the log runs on while it is parked at the end.
  const fourthStop = drive.filter((k) => k.speed === 0)[7]!;
  const knots: SpeedKnot[] = [{ timeSeconds: 0, speed: 0 }];
  for (const k of drive)
    knots.push({
      timeSeconds: k.timeSeconds + 200 + (k.timeSeconds > fourthStop.timeSeconds ? 135 : 0),
      speed: k.speed,
    });
  return pathTrajectory('parked-car', segments, knots, {
    origin: { latitudeDeg: 48.137, longitudeDeg: 11.575, heightM: 520 },
    headingRad: 30 * DEG,
    durationSeconds: 1381,
  });
}

/** The drive as a CSV of 1,382 fixes (time, lat, lon, alt): the truth plus the receiver's noise. */
export function parkedCarCsv(seed = 3): string {
  const truth = parkedCarTruth();
  const random = createRandom(seed);
  const gauss = () => random.normal();
  const s = createTruthState(),
    geo = new Float64Array(3);
  const decay = Math.exp(-1 / 20);
  const drift = [0, 0, 0];
  const sigma = [3, 3, 6],
    white = [0.7, 0.7, 1.5];
  const rows = ['time,lat,lon,alt'];
  for (let t = 0; t < 1382; t++) {
    truth.sample(t, s);
    ecefToGeodeticDegrees(geo, s.location[0]!, s.location[1]!, s.location[2]!);
    const noise = drift.map((d, k) => {
      drift[k] = decay * d + sigma[k]! * Math.sqrt(1 - decay * decay) * gauss();
      return drift[k]! + white[k]! * gauss();
    });
    rows.push(
      `${1_700_000_000 + t},${(geo[0]! + noise[0]! / 111_200).toFixed(7)},${(geo[1]! + noise[1]! / 74_400).toFixed(7)},${(geo[2]! + noise[2]!).toFixed(1)}`,
    );
  }
  return `${rows.join('\n')}\n`;
}
