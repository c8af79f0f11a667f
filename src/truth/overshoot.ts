/**
 * Where the smoothed track flies faster, or accelerates harder, than its own knots and the positions say it can: a
 * chord faster than the recording ever reports its vehicle (a position off that the gates let through), or, between
 * fixes a few seconds apart, velocities that point away from the next position, which the quintic between them
 * turns into a loop. Such a position, or such an interval's velocity measurements, are dropped and the estimator
 * smooths again (`track-estimator.ts`).
 */
import type { JumpResult } from './jumps.js';
import { SPARSE_SECONDS, createKnots, interpolateKnots } from './knot-interpolation.js';
import type { MotionModel } from './motion-model.js';
import { DROP_POSITION, DROP_VELOCITY, type SmoothedTrack } from './smoother.js';

/** Intervals shorter than this are not checked, s: between close knots the smoothed states agree with each other. */
const MIN_CHECKED_SECONDS = 2;
/** Points sampled inside an interval for its peak speed and acceleration. */
const SAMPLES = 8;
/** How much faster than its ends and its chord an interval may fly (a real turn between the knots). */
const SPEED_FACTOR = 1.2;
/** Speed an interval may exceed that by, m/s. */
const SPEED_SLACK_MPS = 1;

const KNOT = 9;

/** How much faster than the speed the source reported at either end an interval may fly. */
const REPORTED_FACTOR = 1.2;
/** Speed an interval may exceed that by, m/s. */
const REPORTED_SLACK_MPS = 5;

/**
 * Marks in `jumps.dropped` (per input fix) what makes an interval of the drawn track (its position knots) fly faster
 * than it can:
 * - a chord faster than the recording's fastest reported speed (`ceilingMps`, with the fixes' noise and timing,
 *   `slackM`): one of its positions is wrong — the one whose smoothed speed is furthest above its reported speed is
 *   dropped (DROP_POSITION | DROP_VELOCITY);
 * - a dense interval (up to SPARSE_SECONDS) faster than REPORTED_FACTOR × the speed reported at its ends, or than
 *   SPEED_FACTOR × the largest of its end speeds and chord, or accelerating harder than the kind can: its
 *   velocities disagree with its positions (DROP_VELOCITY at both ends).
 * @param reportedSpeed - per input fix, the ground speed the source reported (NaN: none).
 * @returns how many fixes were newly marked.
 */
export function markOvershoots(
  track: SmoothedTrack,
  model: MotionModel,
  jumps: JumpResult,
  reportedSpeed: Float64Array,
  ceilingMps: number,
  slackM: number,
): number {
  const times = track.times;
  const pair = createKnots(new Float64Array(2), new Float64Array(2 * KNOT), KNOT, model, ceilingMps);
  const out = new Float64Array(12);
  let marked = 0;
  const dropped = jumps.dropped;
  const mark = (fix: number, bits: number): boolean => {
    if ((dropped[fix]! & bits) === bits) return false;
    dropped[fix] = dropped[fix]! | bits;
    marked++;
    return true;
  };
  for (let k = 0; k + 1 < times.length; k++) {
    const h = times[k + 1]! - times[k]!;
    if (!(h > 0)) continue;
    pair.times[0] = times[k]!;
    pair.times[1] = times[k + 1]!;
    pair.state.set(track.state.subarray(KNOT * k, KNOT * (k + 2)));
    pair.leg[0] = -1;
    if (track.knotFrame[k] !== track.knotFrame[k + 1]) {
      track.frames[track.knotFrame[k + 1]!]!.stateInto(track.frames[track.knotFrame[k]!]!, pair.state, KNOT);
    }
    const s = pair.state;
    const speed = (at: number) => Math.sqrt(s[at + 1]! ** 2 + s[at + 4]! ** 2);
    const chordM = Math.sqrt((s[KNOT]! - s[0]!) ** 2 + (s[KNOT + 3]! - s[3]!) ** 2);
    const first = track.knotFix[k]!,
      second = track.knotFix[k + 1]!;
    const r0 = reportedSpeed[first]!,
      r1 = reportedSpeed[second]!;
    const excess = (at: number, r: number) => speed(at) - (Number.isFinite(r) ? r : 0);
    const worse = excess(0, r0) > excess(KNOT, r1) ? first : second;
    if (chordM > ceilingMps * h + slackM) {
      // How far beyond what the vehicle could have flown the fix is.
      if (mark(worse, DROP_POSITION | DROP_VELOCITY)) jumps.distanceM[worse] = chordM - ceilingMps * h;
      continue;
    }
    // Sparse intervals are drawn by turns and a leg (`knot-interpolation.ts`), no faster than their ends and chord.
    if (!(h > MIN_CHECKED_SECONDS) || h > SPARSE_SECONDS) continue;
    const reported = Math.max(Number.isFinite(r0) ? r0 : -1, Number.isFinite(r1) ? r1 : -1);
    const reportedBound = reported >= 0 ? REPORTED_FACTOR * reported + REPORTED_SLACK_MPS : Number.POSITIVE_INFINITY;
    const bound = Math.min(reportedBound, SPEED_FACTOR * Math.max(speed(0), speed(KNOT), chordM / h) + SPEED_SLACK_MPS);
    let peak = Math.max(speed(0), speed(KNOT)),
      accelerating = false;
    for (let j = 1; j < SAMPLES; j++) {
      interpolateKnots(pair, 3, times[k]! + (j / SAMPLES) * h, out, 0);
      peak = Math.max(peak, Math.sqrt(out[1]! ** 2 + out[5]! ** 2));
      if (Math.sqrt(out[2]! ** 2 + out[6]! ** 2 + out[10]! ** 2) > model.maxAccelerationMps2) accelerating = true;
    }
    if (!(peak > bound) && !accelerating) continue;
    mark(first, DROP_VELOCITY);
    mark(second, DROP_VELOCITY);
  }
  return marked;
}
