/**
 * `truth.smooth`: fixes of a recorded track smoothed per second — the Boeing 787 of AFR787V as OpenSky serves it
 * (test/fixtures/tracks/aircraft_adsb_dreamliner_airfrance.json.gz, with its held positions, jumps and altitude
 * steps). `opsPerSec` is the fixed-interval smoother (`smoothFixes`: the gated forward and backward passes that
 * decide each part of each fix, the forward filter with those decisions and the Rauch–Tung–Striebel pass) on the
 * fixes prepared once; `estimateFixesPerSec` is the whole estimator from the file's fixes (measurements, jumps, the
 * smoother and its overshoot rounds, the trajectory). Baseline: one forward `TrackFilter` pass over the same fixes,
 * the cost of cleaning a live feed. `heapBytesPerOp` is what the smoother allocates per fix (its arrays: a few per
 * fix, none per step of a pass).
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { SOURCE_NOISE, parseAdsbTrack, type TrackPoint } from '../src/truth/index.js';
import { MOTION_MODELS } from '../src/truth/motion-model.js';
import { smoothFixes } from '../src/truth/smoother.js';
import { estimateTrack } from '../src/truth/track-estimator.js';
import { TrackFilter } from '../src/truth/track-filter.js';
import { createFixMeasurement } from '../src/truth/track-fix.js';
import { prepareFixes } from '../src/truth/track-measurements.js';
import { consume, heapBytesPerOp, opsPerSecond, round, type BenchResult, type BenchSuite } from './harness.js';

const FILE = new URL('../test/fixtures/tracks/aircraft_adsb_dreamliner_airfrance.json.gz', import.meta.url);

const suite: BenchSuite = async ({ quick }): Promise<BenchResult[]> => {
  const all = parseAdsbTrack(JSON.parse(gunzipSync(readFileSync(FILE)).toString('utf8')));
  // The airliner's flight (the file's first group), in time order as the loaders give it to the estimator.
  const points: TrackPoint[] = all
    .filter((p) => p.group === all[0]!.group)
    .sort((a, b) => a.timeSeconds - b.timeSeconds);
  const n = points.length;
  const noise = SOURCE_NOISE.adsb;
  const model = MOTION_MODELS.air;
  const { prepared } = prepareFixes(points, noise, model.heightRangeM);
  const options = { kind: 'air' as const, model, noise };

  const smooth = () => consume(smoothFixes(prepared, options).times.length);
  const estimate = () => consume(estimateTrack('787', points, { kind: 'air', noise }).smoothed.times.length);
  const fix = createFixMeasurement();
  const forward = () => {
    const filter = new TrackFilter(options);
    for (const p of points) {
      fix.latitudeDeg = p.latitudeDeg;
      fix.longitudeDeg = p.longitudeDeg;
      fix.heightM = p.heightM ?? Number.NaN;
      fix.groundSpeedMps = p.groundSpeedMps ?? Number.NaN;
      fix.trackDeg = p.trackDeg ?? Number.NaN;
      fix.verticalRateMps = p.verticalRateMps ?? Number.NaN;
      consume(filter.update(p.timeSeconds, fix));
    }
  };

  const timing = quick ? { minMillis: 50, rounds: 3 } : { minMillis: 200, rounds: 5 };
  let rate = 0,
    baselineRate = 0,
    estimateRate = 0;
  // Interleaved passes, best of each: the ratio is not skewed by load drifting between them.
  for (let pass = 0; pass < (quick ? 1 : 3); pass++) {
    rate = Math.max(rate, opsPerSecond(smooth, n, timing));
    baselineRate = Math.max(baselineRate, opsPerSecond(forward, n, timing));
    estimateRate = Math.max(estimateRate, opsPerSecond(estimate, n, timing));
  }
  // Per fix: one whole smoothing every n operations.
  const heap = heapBytesPerOp((i) => {
    if (i % n === 0) smooth();
  }, 20 * n);
  return [
    {
      name: 'truth.smooth',
      opsPerSec: round(rate),
      baselineOpsPerSec: round(baselineRate),
      ratio: round(rate / baselineRate),
      estimateFixesPerSec: round(estimateRate),
      heapBytesPerOp: round(heap),
      fixes: n,
    },
  ];
};

export default suite;
